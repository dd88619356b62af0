"""``remember`` end to end on the real servers: hybrid turns, neighbours, every memory kind, filters,
entity-centric recall, access reinforcement, the audit trail and the per-technique metrics."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row

from agentx_memory import AgentMemory, AsyncAgentMemory, Settings
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.models import MemoryBundle, MemoryItem, Scope
from agentx_memory.stores.falkordb import FalkorDBStore
from tests.conftest import cleanup, isolated_settings

ALICE = Scope(user_id="alice", channel="_global")
FILLER = [
    "The weather in Porto was rainy all week",
    "I need to renew my passport before the summer",
    "My sister recommended a new sci-fi novel",
    "We should book the dentist appointment",
]


def ids(bundle: MemoryBundle, kind: str | None = None) -> list[str]:
    return [item.id for item in bundle.items if kind is None or item.kind == kind]


def item(bundle: MemoryBundle, item_id: str) -> MemoryItem:
    [found] = [candidate for candidate in bundle.items if candidate.id == item_id]
    return found


def with_filler(memory: AgentMemory) -> None:
    cid = memory.new_conversation(title="filler")
    for content in FILLER:
        memory.store_turn(cid, "user", content)


# ------------------------------------------------------------------------------------------ hybrid turns


def test_exact_token_by_fulltext_paraphrase_by_vector(memory: AgentMemory) -> None:
    with_filler(memory)
    cid = memory.new_conversation()
    order = memory.store_turn(cid, "user", "My parcel with order number ZX-4471 still has not arrived")
    hiking = memory.store_turn(cid, "user", "I adore hiking in the Alps with my dog every summer")

    exact = memory.remember("ZX-4471", top_k=5)
    assert exact.items[0].id == order.id
    assert "fulltext" in exact.items[0].found_by
    assert exact.metrics["turns.fulltext"].results == 1  # the token is in one turn only

    paraphrase = memory.remember("Do I enjoy mountain walks?", top_k=3)
    assert paraphrase.items[0].id == hiking.id
    assert "vector" in paraphrase.items[0].found_by
    assert "fulltext" not in paraphrase.items[0].found_by  # no word in common

    for name in ("turns.vector", "turns.fulltext", "facts", "entities", "strategies", "goals"):
        metric = exact.metrics[name]
        assert metric.skipped is None, name
        assert metric.latency_ms > 0, name
    assert exact.metrics["turns.vector"].results == len(FILLER) + 2
    assert exact.metrics["hyde"].skipped == "no LLM configured"
    assert exact.metrics["hyde"].results == 0
    assert exact.timings_ms["total"] >= exact.timings_ms["embed"] > 0
    assert exact.channels == ["_global"]


def test_the_vector_search_scores_the_fulltext_candidates_it_did_not_reach(memory: AgentMemory) -> None:
    with_filler(memory)
    cid = memory.new_conversation()
    hiking = memory.store_turn(cid, "user", "I adore hiking in the Alps with my dog every summer")
    order = memory.store_turn(cid, "user", "My parcel with order number ZX-4471 still has not arrived")
    bob = memory.for_user("bob")
    theirs = bob.store_turn(bob.new_conversation(), "user", "Bob's order ZX-4471 arrived")
    backends = memory._open_backends()
    vector = backends.embedder.embed_one("Do I enjoy mountain walks?")

    nearest, scored = backends.episodic.recall_by_vector(
        ALICE, vector, channels=["_global"], limit=1, also=[order.id, hiking.id, theirs.id]
    )
    assert [hit.id for hit, _ in nearest] == [hiking.id]
    # the order turn is scored (once: hiking is among the nearest), bob's turn is not alice's
    assert [hit.id for hit, _ in scored] == [order.id]
    expected = float(np.dot(vector, backends.embedder.embed_one(order.content)))
    assert scored[0][1] == pytest.approx(expected, abs=1e-3)
    assert nearest[0][1] > scored[0][1]


def test_rrf_fusion_setting(settings: Settings, embedder: Embedder) -> None:
    rrf = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update={"fusion": "rrf"})})
    with AgentMemory("alice", settings=rrf, embedder=embedder) as memory:
        with_filler(memory)
        cid = memory.new_conversation()
        order = memory.store_turn(cid, "user", "My parcel with order number ZX-4471 still has not arrived")
        bundle = memory.remember("where is order ZX-4471?", top_k=5)
        assert bundle.items[0].id == order.id
        assert {"fulltext", "vector"} <= set(bundle.items[0].found_by)
        assert [i.score for i in bundle.items] == sorted((i.score for i in bundle.items), reverse=True)


def test_the_answer_after_a_matching_question_comes_back(memory: AgentMemory) -> None:
    with_filler(memory)
    cid = memory.new_conversation(title="art")
    memory.store_turn(cid, "user", "What did you paint last weekend?", metadata={"speaker": "Caroline"})
    answer = memory.store_turn(cid, "assistant", "A lake at sunrise.", metadata={"speaker": "Melanie"})
    memory.store_turn(cid, "user", "Lovely, I went running instead.", metadata={"speaker": "Caroline"})

    bundle = memory.remember("What did Melanie paint?", top_k=5)
    top3 = bundle.items[:3]
    assert answer.id in [found.id for found in top3]
    recalled = item(bundle, answer.id)
    assert {"neighbour", "fulltext", "vector"} & set(recalled.found_by)
    assert (recalled.conversation_id, recalled.turn_index, recalled.role) == (cid, 1, "assistant")
    assert recalled.metadata == {"speaker": "Melanie"}
    assert recalled.source_turn_ids == [answer.id]
    assert bundle.metrics["turns.neighbours"].skipped is None


def test_speaker_boost_puts_what_the_named_person_said_first(settings: Settings, embedder: Embedder) -> None:
    # The factor alone: the evidence lifts (below) also weigh the speaker, and the reply after a turn.
    alone = {"named_speaker_weight": 0.0, "next_turn_weight": 0.0, "session_best_weight": 0.0}
    settings = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update=alone)})
    boosted = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"speaker_boost": 1.5})}
    )
    with AgentMemory("alice", settings=boosted, embedder=embedder) as memory:
        with_filler(memory)
        cid = memory.new_conversation(title="kids")
        addressed = memory.store_turn(
            cid,
            "user",
            "Wow Melanie, sounds like the kids had a blast at the museum!",
            metadata={"speaker": "Caroline"},
        )
        said = memory.store_turn(
            cid,
            "assistant",
            "The kids loved the dinosaur exhibit at the museum.",
            metadata={"speaker": "Melanie"},
        )
        plain = memory.remember("What do Melanie's kids like at the museum?", top_k=5)
        with AgentMemory("alice", settings=settings, embedder=embedder) as unboosted:
            before = unboosted.remember("What do Melanie's kids like at the museum?", top_k=5)
    ranked = [found.id for found in plain.items]
    assert ranked.index(said.id) < ranked.index(addressed.id)
    # Without the boost the turn that names Melanie outranks the one she spoke (the premise of the test).
    ranked_before = [found.id for found in before.items]
    assert ranked_before.index(addressed.id) < ranked_before.index(said.id)
    assert item(plain, said.id).score > item(before, said.id).score


def test_a_turn_that_asks_ranks_below_the_turn_that_tells(settings: Settings, embedder: Embedder) -> None:
    off = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"question_turn_factor": 1.0})}
    )
    query = "Who baked the lemon tart for the potluck?"
    with AgentMemory("alice", settings=settings, embedder=embedder) as memory:
        with_filler(memory)
        # Separate conversations: neither inherits the other's score as a neighbour.
        # The same question was asked before, and answered: the answer is what recall should lead with.
        asking = memory.store_turn(memory.new_conversation(), "user", query)
        telling = memory.store_turn(
            memory.new_conversation(), "user", "I baked the lemon tart for the potluck."
        )
        discounted = memory.remember(query, top_k=5)
        with AgentMemory("alice", settings=off, embedder=embedder) as plain:
            before = plain.remember(query, top_k=5)
    # Without the discount the earlier question, word for word the query, comes first (the premise).
    assert ids(before).index(asking.id) < ids(before).index(telling.id)
    assert ids(discounted)[0] == telling.id
    assert ids(discounted)[1] == asking.id  # lowered, not dropped


def test_evidence_lifts_rank_what_the_named_person_told_above_the_reply_to_it(
    settings: Settings, embedder: Embedder
) -> None:
    """Priya's own turn, whose reply is close to the question, outranks the reply that repeats the
    question's words; a third speaker's aside that shares them keeps its place. In a store this small
    the default weights only move scores (asserted last); the ranking is shown with a heavier reply."""
    lifts_off = {"named_speaker_weight": 0.0, "next_turn_weight": 0.0, "session_best_weight": 0.0}
    off = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update=lifts_off)})
    heavier = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"next_turn_weight": 0.45})}
    )
    query = "What instrument is Priya learning?"
    with AgentMemory("alice", settings=heavier, embedder=embedder) as memory:
        with_filler(memory)
        told_in = memory.new_conversation()
        told = memory.store_turn(
            told_in, "user", "I finally started cello lessons last month.", metadata={"speaker": "Priya"}
        )
        reply = memory.store_turn(
            told_in,
            "assistant",
            "The cello! Learning an instrument as an adult takes guts.",
            metadata={"speaker": "Tomas"},
        )
        aside_in = memory.new_conversation()
        aside = memory.store_turn(
            aside_in,
            "user",
            "My cousin is learning an instrument too, the drums.",
            metadata={"speaker": "Tomas"},
        )
        memory.store_turn(
            aside_in, "assistant", "Nice, the weather is lovely today.", metadata={"speaker": "Priya"}
        )
        lifted = memory.remember(query, top_k=5)
        with AgentMemory("alice", settings=off, embedder=embedder) as plain:
            before = plain.remember(query, top_k=5)
        with AgentMemory("alice", settings=settings, embedder=embedder) as default:
            by_default = default.remember(query, top_k=5)
    # Without the lifts the reply, which holds "learning an instrument", outranks Priya's turn (the premise).
    assert ids(before).index(reply.id) < ids(before).index(told.id)
    assert ids(lifted).index(told.id) < ids(lifted).index(reply.id)
    assert ids(lifted)[0] == ids(before)[0] == aside.id  # the lifts reorder, they do not overrule a match
    # Relative to the best turn, Priya's gains more than the reply after it (whose own next turn is
    # the end of the conversation), with the default weights as with the heavier one.
    for bundle in (lifted, by_default):
        gain = {
            turn: item(bundle, turn).score / bundle.items[0].score
            - item(before, turn).score / before.items[0].score
            for turn in (told.id, reply.id)
        }
        assert gain[told.id] > gain[reply.id]


def test_neighbours_come_with_their_cosine_to_the_question(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    first = memory.store_turn(cid, "user", "I finally started cello lessons last month.")
    second = memory.store_turn(cid, "assistant", "The cello! Learning an instrument takes guts.")
    bob = memory.for_user("bob")
    bob_cid = bob.new_conversation()
    bob.store_turn(bob_cid, "user", "Bob plays the cello too.")
    backends = memory._open_backends()
    vector = backends.embedder.embed_one("Which instrument is she learning?")

    found = backends.episodic.neighbours(ALICE, [(cid, 0), (cid, 1), (bob_cid, 0)], ["_global"], None, vector)
    cosine = {hit.id: value for hit, value in found}
    assert set(cosine) == {first.id, second.id}  # bob's turn is not alice's
    # The same cosine the vector search gives them.
    nearest, _ = backends.episodic.recall_by_vector(ALICE, vector, channels=["_global"], limit=2)
    assert cosine == pytest.approx({hit.id: value for hit, value in nearest}, abs=1e-6)
    # Without a vector the positions still resolve, with no cosine.
    assert {hit.id: value for hit, value in backends.episodic.neighbours(ALICE, [(cid, 1)], ["_global"])} == {
        second.id: None
    }


def test_neighbour_expansion_lifts_an_answer_with_no_words_in_common(
    settings: Settings, embedder: Embedder
) -> None:
    # Without turn_context, which would put the question's words into the answer's full-text entry
    # (tests/integration/test_turn_events.py): here only the neighbour can bring the answer.
    # Nor the evidence lifts: the session's best cosine alone would lift the answer too.
    lifts_off = {"named_speaker_weight": 0.0, "next_turn_weight": 0.0, "session_best_weight": 0.0}
    retrieval = settings.retrieval.model_copy(update={"turn_context": False, **lifts_off})
    settings = settings.model_copy(update={"retrieval": retrieval})
    with AgentMemory("alice", settings=settings, embedder=embedder) as memory:
        with_filler(memory)
        cid = memory.new_conversation()
        for content in ("My favourite colour is red", "The gym logo is a lion", "I painted the fence green"):
            memory.store_turn(memory.new_conversation(), "user", content)
        memory.store_turn(cid, "user", "Which colour did you pick for the Zorblat logo?")
        answer = memory.store_turn(cid, "assistant", "Teal, obviously.")
        with_neighbours = memory.remember("Zorblat logo colour", top_k=10)

    assert "neighbour" in item(with_neighbours, answer.id).found_by
    assert answer.id in ids(with_neighbours)[:2]
    assert with_neighbours.metrics["turns.neighbours"].skipped is None

    # Neighbours are fetched for either use: to inherit a score, and for their cosine (next_turn_weight).
    unshared = retrieval.model_copy(update={"neighbour_weight": 0.0, "next_turn_weight": 0.45})
    with AgentMemory("alice", settings=settings.model_copy(update={"retrieval": unshared})) as fetched:
        read_only = fetched.remember("Zorblat logo colour", top_k=10)
    assert read_only.metrics["turns.neighbours"].skipped is None  # ran (its turns may all be known)
    assert all("neighbour" not in found.found_by for found in read_only.items)
    off = settings.model_copy(update={"retrieval": retrieval.model_copy(update={"neighbour_weight": 0.0})})
    with AgentMemory("alice", settings=off, embedder=embedder) as plain:
        without = plain.remember("Zorblat logo colour", top_k=10)
    assert "turns.neighbours" not in without.metrics
    assert all("neighbour" not in found.found_by for found in without.items)
    assert ids(without).index(answer.id) > ids(with_neighbours).index(answer.id)


# ----------------------------------------------------------------------------------------- every kind


@dataclass(frozen=True)
class Painter:
    melanie: str
    studio: str
    fact: str
    superseded: str
    current: str
    strategy: str
    open_goal: str
    done_goal: str


@pytest.fixture
def painter(memory: AgentMemory) -> Painter:
    melanie = memory.upsert_entity("Melanie", "person", description="a painter who loves lakes")
    studio = memory.upsert_entity("Blue Door Studio", "organization", description="an art studio")
    memory.create_relationship(melanie.id, studio.id, "WORKS_FOR")
    fact = memory.learn_fact("Melanie painted a lake at sunrise", confidence=0.9, source="chat")
    old = memory.learn_fact("Melanie paints in Porto", confidence=0.8, source="chat", about=[melanie.id])
    new = memory.correct_fact(old.id, "Melanie paints in Lisbon")
    strategy = memory.learn_strategy(
        "Paint lake landscapes at sunrise for soft light",
        "painting landscapes",
        ["camera", "easel"],
        None,
        True,
    )
    open_goal = memory.add_goal("Finish Melanie's lake painting")
    done_goal = memory.add_goal("Buy lake painting brushes for Melanie")
    memory.complete_goal(done_goal.id)
    return Painter(melanie.id, studio.id, fact.id, old.id, new.id, strategy.id, open_goal.id, done_goal.id)


def test_every_kind_is_recalled_but_not_completed_goals_or_superseded_facts(
    memory: AgentMemory, painter: Painter
) -> None:
    bundle = memory.remember("Melanie painting lakes", top_k=50)
    kinds = {found.id: found.kind for found in bundle.items}
    assert kinds[painter.fact] == "fact"
    assert kinds[painter.current] == "fact"
    assert kinds[painter.melanie] == "entity"
    assert kinds[painter.strategy] == "strategy"
    assert kinds[painter.open_goal] == "goal"
    assert painter.superseded not in kinds
    assert painter.done_goal not in kinds
    assert "graph" in item(bundle, painter.studio).found_by  # a neighbour of the matched Melanie
    strategy = item(bundle, painter.strategy)
    assert strategy.metadata["tool_sequence"] == ["camera", "easel"]
    assert "camera → easel" in strategy.content
    assert item(bundle, painter.open_goal).metadata["status"] == "active"
    assert bundle.metrics["graph"].results >= 1


@pytest.mark.parametrize(
    ("flags", "absent"),
    [
        ({"include_episodic": False}, {"episodic"}),
        ({"include_semantic": False}, {"fact", "entity"}),
        ({"include_procedural": False}, {"strategy", "goal"}),
        (
            {"include_semantic": False, "include_procedural": False},
            {"fact", "entity", "strategy", "goal"},
        ),
    ],
)
def test_include_flags_restrict_kinds(
    memory: AgentMemory, painter: Painter, flags: dict[str, bool], absent: set[str]
) -> None:
    cid = memory.new_conversation()
    memory.store_turn(cid, "user", "Melanie showed me her lake painting")
    everything = {found.kind for found in memory.remember("Melanie lake painting", top_k=50).items}
    assert everything == {"episodic", "fact", "entity", "strategy", "goal"}
    restricted = memory.remember("Melanie lake painting", top_k=50, **flags)  # type: ignore[arg-type]
    assert {found.kind for found in restricted.items} == everything - absent
    if "episodic" in absent:
        assert "turns.vector" not in restricted.metrics
    if "strategy" in absent:
        assert "strategies" not in restricted.metrics


# ------------------------------------------------------------------------------------------- time filters


def test_time_window_hours_excludes_old_turns(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    now = datetime.now(UTC)
    old = memory.store_turn(cid, "user", "I baked sourdough bread", timestamp=now - timedelta(days=10))
    new = memory.store_turn(cid, "user", "I baked banana bread", timestamp=now - timedelta(hours=2))
    assert {old.id, new.id} <= set(ids(memory.remember("what bread did I bake?")))
    windowed = memory.remember("what bread did I bake?", time_window_hours=24)
    assert ids(windowed, "episodic") == [new.id]
    assert ids(memory.remember("sourdough", time_window_hours=24 * 30), "episodic")[0] == old.id


def _midnight(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


@pytest.mark.parametrize("question", ["What is happening on January 18th?", "Any plans for January 18th?"])
def test_a_question_naming_a_day_ahead_finds_its_turn(memory: AgentMemory, question: str) -> None:
    # Said in the autumn, about a day ahead: the range ("the last January 18th") prefers no stored turn,
    # so the date's words must stay in the searched text.
    with_filler(memory)
    said = datetime(2026, 11, 20, 10, tzinfo=UTC)
    cid = memory.new_conversation()
    told = "Maya's birthday is on January 18th, so I want to be in Osaka that weekend."
    birthday = memory.store_turn(cid, "user", told, timestamp=said)
    memory.store_turn(cid, "user", "January is cold in Osaka, so I'll bring a coat.", timestamp=said)
    memory.store_turn(cid, "user", "My flight lands at Narita at seven in the morning.", timestamp=said)

    bundle = memory.remember(question, top_k=3)
    assert bundle.filters is not None
    assert bundle.filters.time_range is not None
    assert ids(bundle, "episodic")[0] == birthday.id


def test_a_question_that_looks_ahead_prefers_the_coming_day_to_last_years(memory: AgentMemory) -> None:
    # "What is happening on <a day ten days ahead>?" means the coming one. Read as the last such day, a
    # year ago, its range preferred the turns said then over the plan said this week for that day.
    with_filler(memory)
    now = datetime.now(UTC)
    day = _midnight(now + timedelta(days=10))
    named = f"{day:%B} {day.day}"
    cid = memory.new_conversation()
    last_year = memory.store_turn(
        cid,
        "user",
        f"Quiet {named}, we went to the market.",
        timestamp=day.replace(year=day.year - 1, hour=12),
    )
    plan = memory.store_turn(
        cid,
        "user",
        f"The school fair is on {named}, I'm running the cake stall.",
        timestamp=now - timedelta(days=2),
    )

    bundle = memory.remember(f"What is happening on {named}?", top_k=2)
    assert bundle.filters is not None
    assert bundle.filters.time_range is not None
    assert bundle.filters.time_range.start == day
    assert ids(bundle, "episodic")[0] == plan.id, (plan.id, last_year.id)


@pytest.mark.parametrize("phrase", ["yesterday", "last week"])
def test_time_phrase_ranks_turns_of_its_range_first(memory: AgentMemory, phrase: str) -> None:
    now = datetime.now(UTC)
    today = _midnight(now)
    if phrase == "yesterday":
        start, end = today - timedelta(days=1), today
    else:
        end = today - timedelta(days=today.weekday())
        start = end - timedelta(days=7)
    before = memory.store_turn(
        memory.new_conversation(), "user", "I cooked a mushroom curry", timestamp=start - timedelta(days=3)
    )
    inside = memory.store_turn(
        memory.new_conversation(),
        "user",
        "I cooked a mushroom risotto",
        timestamp=start + timedelta(hours=12),
    )
    after = memory.store_turn(
        memory.new_conversation(),
        "user",
        "I cooked a mushroom soup",
        timestamp=max(end, now - timedelta(minutes=1)),
    )

    bundle = memory.remember(f"What did I cook {phrase}?")
    assert bundle.filters is not None
    assert bundle.filters.source == "rules"
    assert bundle.filters.time_range is not None
    assert (bundle.filters.time_range.start, bundle.filters.time_range.end) == (start, end)
    assert bundle.filters.text == "What did I cook?"
    assert ids(bundle, "episodic")[0] == inside.id
    scores = {found.id: found.score for found in bundle.episodic}
    assert scores[inside.id] > max(scores.get(before.id, 0.0), scores.get(after.id, 0.0))
    plain = memory.remember("What did I cook?")
    assert plain.filters is not None
    assert plain.filters.time_range is None
    assert item(plain, inside.id).score < scores[inside.id]


# ------------------------------------------------------------------------------------------ entity-centric


def test_tell_me_about_puts_the_entity_then_its_facts_first(memory: AgentMemory) -> None:
    with_filler(memory)
    acme = memory.upsert_entity("Acme Corp", "organization", description="maker of rocket skates")
    wile = memory.upsert_entity("Wile Coyote", "person")
    memory.create_relationship(wile.id, acme.id, "WORKS_FOR")
    fact = memory.learn_fact(
        "Acme Corp ships orders by catapult", confidence=0.9, source="chat", about=[acme.id]
    )
    memory.learn_fact("Porto has many bridges", confidence=0.9, source="chat")

    bundle = memory.remember("Tell me about Acme Corp", top_k=5)
    first, second = bundle.items[:2]
    assert (first.id, first.kind, first.found_by) == (acme.id, "entity", ["entity"])
    assert (second.id, second.kind) == (fact.id, "fact")
    assert "entity" in second.found_by
    assert "graph" in item(bundle, wile.id).found_by
    assert bundle.metrics["entity_centric"].results == 3
    assert memory.remember("Acme Corp rocket skates").metrics["entity_centric"].skipped is not None


# ------------------------------------------------------------------------------------ access reinforcement


def test_returned_facts_and_entities_count_one_more_access(memory: AgentMemory, graph: FalkorDBStore) -> None:
    entity = memory.upsert_entity("Osaka", "location", description="a city in Japan")
    fact = memory.learn_fact("Alice's sister lives in Osaka", confidence=0.9, source="chat")

    def settled() -> tuple[Any, Any]:
        # The async flavour counts in the background (the sync twin at once): closing waits for it,
        # and the facade opens again on the next use.
        memory.close()
        backends = memory._open_backends()
        return backends.facts, backends.entities

    facts, entities = settled()
    before_fact, before_entity = facts.get(ALICE, fact.id), entities.get(ALICE, entity.id)
    assert before_fact.last_accessed is None

    bundle = memory.remember("Where does Alice's sister live?", top_k=5)
    assert {fact.id, entity.id} <= set(ids(bundle))
    facts, entities = settled()
    after = facts.get(ALICE, fact.id)
    assert after.access_count == before_fact.access_count + 1
    assert after.last_accessed is not None
    assert abs(after.last_accessed - datetime.now(UTC)) < timedelta(minutes=1)
    assert entities.get(ALICE, entity.id).access_count == before_entity.access_count + 1

    memory.remember("Osaka", top_k=5, include_semantic=False)  # nothing semantic returned: no access
    facts, _ = settled()
    assert facts.get(ALICE, fact.id).access_count == after.access_count


async def test_async_reinforcement_runs_in_the_background(
    amemory: AsyncAgentMemory, memory: AgentMemory
) -> None:
    fact = await amemory.learn_fact("The spare key is under the blue pot", confidence=0.9, source="chat")
    bundle = await amemory.remember("where is the spare key?", top_k=3)
    assert bundle.items[0].id == fact.id
    await amemory.close()  # waits for the pending reinforcement
    stored = memory._open_backends().facts.get(ALICE, fact.id)
    assert (stored.access_count, stored.last_accessed is not None) == (1, True)
    again = await amemory.remember("where is the spare key?", top_k=3)  # reopens on use
    assert again.items[0].last_accessed == stored.last_accessed


# ----------------------------------------------------------------------------------- audit and statistics


def audit_rows(settings: Settings, operation: str) -> list[dict[str, Any]]:
    with psycopg.connect(settings.postgres.url or "", row_factory=dict_row) as conn:
        query = sql.SQL(
            "SELECT channel, level, details, payload FROM {}.memory_audit_log "
            "WHERE operation = %s ORDER BY id"
        ).format(sql.Identifier(settings.postgres.schema_name))
        return conn.execute(query, (operation,)).fetchall()


@pytest.fixture(params=["reads", "verbose"])
def audited(
    request: pytest.FixtureRequest, endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> Iterator[AgentMemory]:
    chosen = isolated_settings(endpoints, data_dir, audit={"level": request.param})
    try:
        with AgentMemory("alice", settings=chosen, embedder=embedder) as mem:
            yield mem
    finally:
        cleanup(chosen, endpoints)


def test_remember_is_audited(audited: AgentMemory) -> None:
    cid = audited.new_conversation()
    audited.store_turn(cid, "user", "the secret plan is to plant tulips")
    bundle = audited.remember("what is the plan?", top_k=7)
    [row] = audit_rows(audited.settings, "remember")
    assert (row["channel"], row["level"]) == ("_global", "reads")
    details = row["details"]
    assert (details["top_k"], details["channels"], details["results"]) == (7, ["_global"], len(bundle.items))
    assert details["latency_ms"] == pytest.approx(bundle.timings_ms["total"])
    if audited.settings.audit.level == "verbose":
        assert row["payload"] == {"query": "what is the plan?"}
    else:
        assert row["payload"] is None
        assert "plan" not in str(details)


def test_recall_stats_has_percentiles_per_technique(memory: AgentMemory) -> None:
    assert memory.recall_stats() == {}
    cid = memory.new_conversation()
    memory.store_turn(cid, "user", "I keep my bike in the garage")
    for query in ("where is my bike?", "garage", "bicycle storage"):
        memory.remember(query)
    stats = memory.recall_stats()
    for name in ("turns.vector", "turns.fulltext", "facts", "entities", "strategies", "goals"):
        assert stats[name]["calls"] == 3.0, name
        assert 0 < stats[name]["p50_ms"] <= stats[name]["p95_ms"] <= stats[name]["p99_ms"], name
    assert stats["turns.vector"]["mean_results"] == 1.0
    assert (stats["hyde"]["calls"], stats["hyde"]["skipped"]) == (0.0, 3.0)
