"""Time decides what is current, on the real embedded servers: a later statement of a single-valued
slot supersedes the earlier one whatever order the conversations are learned in (every permutation,
and the background learner, a worker and ``consolidate_pending`` racing); only the speaker's own facts
reach the profile; a short introduction names the speaker."""

from __future__ import annotations

import itertools
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from agentx_memory import AgentMemory
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.settings import Settings
from tests.conftest import cleanup, isolated_settings

T0 = datetime(2025, 3, 2, 10, 0, tzinfo=UTC)

#: Three sessions, days apart: the last one's city is the current home.
SESSIONS = (
    (T0, "I live in Montreal, it's cold but I love it."),
    (T0 + timedelta(days=12), "Big news: I relocated to Lisbon for a while."),
    (T0 + timedelta(days=40), "These days I'm based in Toronto."),
)


def _store(memory: AgentMemory) -> list[str]:
    conversations = []
    for at, text in SESSIONS:
        conversation = memory.new_conversation()
        memory.store_turn(conversation, "user", text, timestamp=at)
        memory.store_turn(conversation, "assistant", "Noted.", timestamp=at + timedelta(minutes=1))
        conversations.append(conversation)
    return conversations


def _homes(memory: AgentMemory) -> tuple[set[str], set[str]]:
    """(current home values, past home values) of the user."""
    facts = memory.list_facts(include_history=True)
    homes = [fact for fact in facts if fact.key == "lives_in"]
    current = {fact.value or "" for fact in homes if fact.valid_until is None}
    return current, {fact.value or "" for fact in homes if fact.valid_until is not None}


def test_a_later_statement_supersedes_and_the_old_value_ends_when_the_new_one_was_said(
    memory: AgentMemory,
) -> None:
    for conversation in _store(memory):
        memory.consolidate_conversation(conversation)
    assert _homes(memory) == ({"Toronto"}, {"Montreal", "Lisbon"})
    lisbon = next(f for f in memory.list_facts(include_history=True) if f.value == "Lisbon")
    assert lisbon.valid_until == SESSIONS[2][0]  # it held until Toronto was said, not until learning
    assert memory.get_profile().preferences["lives_in"] == "Toronto"
    top = memory.remember("Where do I live now?", top_k=5).items
    toronto = next(i for i, item in enumerate(top) if "Toronto" in item.content)
    assert all("Montreal" not in item.content for item in top[:toronto])


def test_a_superseding_fact_names_only_the_turns_that_said_it(memory: AgentMemory) -> None:
    """The old turn said the old home; it is no source of the new one (the inspector showed "lives in
    Toronto" citing "I live in Montreal")."""
    conversations = _store(memory)
    for conversation in conversations:
        memory.consolidate_conversation(conversation)
    turns = {turn.id: turn.content for c in conversations for turn in memory.get_conversation(c)}
    facts = {fact.value: fact for fact in memory.list_facts(include_history=True) if fact.key == "lives_in"}
    assert [turns[t] for t in facts["Toronto"].source_turn_ids] == [SESSIONS[2][1]]
    assert [turns[t] for t in facts["Montreal"].source_turn_ids] == [SESSIONS[0][1]]


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_any_order_of_learning_gives_the_same_current_facts(
    settings: Settings, embedder: Embedder, order: tuple[int, ...]
) -> None:
    with AgentMemory(user_id=f"perm-{uuid.uuid4().hex[:8]}", settings=settings, embedder=embedder) as mem:
        conversations = _store(mem)
        for index in order:
            mem.consolidate_conversation(conversations[index])
        assert _homes(mem) == ({"Toronto"}, {"Montreal", "Lisbon"})
        assert mem.get_profile().preferences["lives_in"] == "Toronto"


def test_the_background_learner_a_worker_and_consolidate_pending_racing_agree(
    endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> None:
    settings = isolated_settings(endpoints, data_dir, learning={"auto_consolidate": True})
    try:
        with (
            AgentMemory(user_id="racer", settings=settings, embedder=embedder) as mem,
            AgentMemory(user_id="racer", settings=settings, embedder=embedder) as worker,
        ):
            _store(mem)  # each new conversation queues the earlier ones for the background learner
            racers = [threading.Thread(target=m.consolidate_pending) for m in (worker, mem, worker)]
            for racer in racers:
                racer.start()
            for racer in racers:
                racer.join(timeout=120)
            # Settle: whatever is still locked is finished by whoever holds it; pending reports nothing
            # once every conversation is learned (bounded: a loaded machine may take a while).
            deadline = time.monotonic() + 180
            while mem.consolidate_pending() and time.monotonic() < deadline:
                threading.Event().wait(0.5)
            assert not mem.consolidate_pending()
            assert _homes(mem) == ({"Toronto"}, {"Montreal", "Lisbon"})
            assert mem.get_profile().preferences["lives_in"] == "Toronto"
    finally:
        cleanup(settings, endpoints)


def test_only_the_speakers_own_facts_reach_the_profile(memory: AgentMemory) -> None:
    conversation = memory.new_conversation()
    for offset, text in enumerate(
        [
            "I live in Leeds and I work as a pharmacist.",
            "My husband Arjun is a high-school teacher.",
            "My son Felix is 6 and loves dinosaurs.",
            "My friend Tomás just moved to Porto.",
        ]
    ):
        memory.store_turn(conversation, "user", text, timestamp=T0 + timedelta(minutes=offset))
    memory.consolidate_conversation(conversation)
    preferences = memory.get_profile().preferences
    assert preferences["lives_in"] == "Leeds"
    assert preferences["works_as"] == "pharmacist"
    assert "age" not in preferences
    line = next(
        row
        for row in memory.get_context("Plan my weekend", budget_tokens=600).splitlines()
        if "About the user" in row
    )
    assert not any(word in line for word in ("teacher", "Porto", "age 6"))
    arjun = {(f.subject, f.key, f.value) for f in memory.list_facts()}
    assert ("Arjun", "works_as", "high-school teacher") in arjun
    assert ("Tomás", "lives_in", "Porto") in arjun


def test_a_short_introduction_names_the_speaker_and_files_the_rest_under_the_name(
    memory: AgentMemory,
) -> None:
    first = memory.new_conversation()
    memory.store_turn(first, "user", "Hi, I'm Marco.", timestamp=T0)
    memory.consolidate_conversation(first)
    later = memory.new_conversation()
    memory.store_turn(later, "user", "My favourite film is Heat.", timestamp=T0 + timedelta(days=2))
    memory.consolidate_conversation(later)
    assert memory.get_profile().preferences["name"] == "Marco"
    assert ("Marco", "favourite_film", "Heat") in {(f.subject, f.key, f.value) for f in memory.list_facts()}


def _sessions(memory: AgentMemory, *texts: str, newest_first: bool = False) -> None:
    """One conversation a text, ten days apart, learned in the order said (or newest first)."""
    conversations = []
    for day, text in enumerate(texts):
        conversation = memory.new_conversation()
        memory.store_turn(conversation, "user", text, timestamp=T0 + timedelta(days=10 * day))
        conversations.append(conversation)
    for conversation in reversed(conversations) if newest_first else conversations:
        memory.consolidate_conversation(conversation)


@pytest.mark.parametrize("newest_first", [False, True])
def test_an_ending_ends_the_job_in_the_facts_the_profile_and_recall(
    memory: AgentMemory, newest_first: bool
) -> None:
    said = ("I work at Oracle as a sales engineer.", "I quit my job last Friday, taking a break.")
    _sessions(memory, *said, newest_first=newest_first)
    current = {(fact.key, fact.value) for fact in memory.list_facts()}
    assert ("works_at", "Oracle") not in current
    assert ("works_as", "sales engineer") not in current
    ended = [f for f in memory.list_facts(include_history=True) if f.key in {"works_at", "works_as"}]
    assert len(ended) == 2
    assert all(fact.valid_until == T0 + timedelta(days=10) for fact in ended)  # when the ending was said
    assert not {"works_at", "works_as"} & set(memory.get_profile().preferences)
    top = memory.remember("Where do I work?", top_k=5).items
    assert "quit" in top[0].content


@pytest.mark.parametrize(
    "ending", ["I left Amazon in August. Not looking for anything just yet.", "I'm no longer with Amazon."]
)
def test_an_ending_that_names_the_employer_leaves_the_profile(memory: AgentMemory, ending: str) -> None:
    _sessions(memory, "I work for Amazon in logistics.", ending)
    assert "works_at" not in memory.get_profile().preferences
    assert ("works_at", "Amazon") not in {(f.key, f.value) for f in memory.list_facts() if not f.negated}


def test_a_question_about_the_users_slot_is_answered_by_its_current_fact(
    memory: AgentMemory, settings: Settings, embedder: Embedder
) -> None:
    _sessions(memory, "I drive a Ford Fiesta.", "driving a Kia Niro these days, fully electric")
    top = memory.remember("What car do I drive?", top_k=5).items[0]
    assert (top.kind, top.found_by) == ("fact", ["slot"])
    assert "Kia Niro" in top.content
    with AgentMemory(user_id="bob", settings=settings, embedder=embedder) as bob:
        assert not bob.remember("What car do I drive?", top_k=5).items


@pytest.mark.parametrize("newest_first", [False, True])
def test_the_user_is_one_subject_before_and_after_giving_a_name(
    memory: AgentMemory, newest_first: bool
) -> None:
    _sessions(
        memory, "Hi, I'm Marco. I live in Rome.", "These days I'm based in Milan.", newest_first=newest_first
    )
    assert _homes(memory) == ({"Milan"}, {"Rome"})
    assert memory.get_profile().preferences["name"] == "Marco"


def test_a_writer_that_died_holding_the_write_lock_delays_the_next_only_for_its_lease(
    settings: Settings, endpoints: ResolvedEndpoints, embedder: Embedder
) -> None:
    """The user's write lock is a short lease: a run killed while writing (its lock left behind, as a
    store restart mid-write leaves it) holds the next run back until the lease runs out, not for
    `learning.lock_seconds`."""
    import redis

    from agentx_memory.stores import keys

    with AgentMemory(user_id="lease", settings=settings, embedder=embedder) as mem:
        conversation = mem.new_conversation()
        mem.store_turn(conversation, "user", "I live in Lisbon.", timestamp=T0)
        client = redis.Redis.from_url(endpoints.redis_url or "")
        client.set(keys.consolidation_writes(settings.redis.key_prefix, "lease"), "a-dead-run", ex=2)
        started = time.monotonic()
        assert mem.consolidate_conversation(conversation).status == "done"
        assert 1.0 < time.monotonic() - started < settings.learning.lock_seconds
        assert _homes(mem) == ({"Lisbon"}, set())


def test_statements_that_named_the_old_value_go_with_it_events_stay(memory: AgentMemory) -> None:
    """After the Skoda, "Sam takes the Fiesta to the coast every weekend" no longer holds; "drove the
    Fiesta to Cornwall last summer" happened all the same."""
    _sessions(
        memory,
        "I drive a Ford Fiesta.",
        "I take the Fiesta to the coast every weekend, the kids love it. I drove the Fiesta to Cornwall "
        "last summer.",
        "Picked up a Skoda Octavia from the dealership today.",
    )
    current = [fact.claim for fact in memory.list_facts()]
    assert [claim for claim in current if "Fiesta" in claim] == [
        claim for claim in current if "Cornwall" in claim
    ]
    assert any("Cornwall" in claim for claim in current)
    coast = next(f for f in memory.list_facts(include_history=True) if "coast" in f.claim)
    assert coast.valid_until == T0 + timedelta(days=20)  # when the Skoda was said


def test_what_was_learned_of_a_partner_who_is_gone_goes_with_the_relation(memory: AgentMemory) -> None:
    """ "Callum is a chef" was learned as the user's boyfriend's job: after "Callum and I are done" it is
    history, dated when the ending was said; what is said of Callum afterwards is current."""
    _sessions(
        memory,
        "My boyfriend Callum is a chef, so I never cook lol",
        "Callum and I are done (long story), but I've been dating a guy called Ezra for a couple of months.",
        "Bumped into Callum, he lives in Leeds now.",
    )
    facts = memory.list_facts(include_history=True)
    chef = next(f for f in facts if f.subject == "Callum" and f.value == "chef")
    assert chef.valid_until == T0 + timedelta(days=10)
    current = {(f.subject, f.key, f.value) for f in facts if f.valid_until is None}
    assert ("Callum", "lives_in", "Leeds") in current
    assert any(value == "Ezra" for _, _, value in current)
    assert not any(subject == "Callum" and value == "chef" for subject, _, value in current)


def test_an_ending_that_names_no_one_ends_the_partner_the_new_one_replaced(memory: AgentMemory) -> None:
    """ "I'm seeing Saoirse now" then "we're finished, me and the last one" in the same talk: the ending
    is of the girlfriend before, already replaced; Saoirse stays current."""
    first = memory.new_conversation()
    memory.store_turn(first, "user", "My girlfriend Orla is a massive foodie.", timestamp=T0)
    memory.consolidate_conversation(first)
    later = memory.new_conversation()
    memory.store_turn(
        later, "user", "I'm seeing a girl called Saoirse now.", timestamp=T0 + timedelta(days=30)
    )
    memory.store_turn(
        later,
        "user",
        "We split up in the spring, it was for the best.",
        timestamp=T0 + timedelta(days=30, minutes=2),
    )
    memory.consolidate_conversation(later)
    current = {(f.key, f.value) for f in memory.list_facts()}
    assert ("partner", "Saoirse") in current
    assert not any(value == "Orla" for _, value in current)


def test_the_same_partner_under_a_new_name_keeps_what_was_learned_of_them(memory: AgentMemory) -> None:
    _sessions(memory, "My boyfriend Marco is a nurse.", "Marco proposed! My fiancé Marco is over the moon.")
    current = {(f.subject, f.key, f.value) for f in memory.list_facts()}
    assert ("Marco", "works_as", "nurse") in current


@pytest.mark.parametrize("newest_first", [False, True])
def test_a_new_favourite_told_against_the_old_one_takes_its_category(
    memory: AgentMemory, newest_first: bool
) -> None:
    """ "Can't get enough of Middlemarch — it's knocked Pride and Prejudice off the top spot" names no
    category: the new favourite takes the one of the stored favourite it displaced, in either order."""
    _sessions(
        memory,
        "Pride and Prejudice is my all-time favourite book, I reread it every winter.",
        "Can't get enough of Middlemarch lately, it's knocked Pride and Prejudice right off the top spot.",
        newest_first=newest_first,
    )
    books = [
        f for f in memory.list_facts(include_history=True) if "Prejudice" in f.claim or "Middle" in f.claim
    ]
    current = {(f.key, f.value) for f in books if f.valid_until is None}
    assert ("favourite_book", "Pride and Prejudice") not in current
    assert any("Middlemarch" in (value or "") for _, value in current)
    if not newest_first:  # filed under the category it displaced
        assert ("favourite_book", "Middlemarch") in current
    old = next(f for f in books if f.value == "Pride and Prejudice")
    assert old.valid_until == T0 + timedelta(days=10)  # when Middlemarch was said


def _appointments(memory: AgentMemory) -> tuple[set[tuple[str, str]], set[str]]:
    """(current appointments as (key, claim), the claims of the past ones)."""
    facts = [f for f in memory.list_facts(include_history=True) if (f.key or "").startswith("appointment_")]
    current = {(f.key or "", f.claim) for f in facts if f.valid_until is None}
    return current, {f.claim for f in facts if f.valid_until is not None}


@pytest.mark.parametrize("newest_first", [False, True])
def test_an_appointment_moved_without_saying_which_moves_the_one_to_come(
    memory: AgentMemory, newest_first: bool
) -> None:
    """ "Clinic called, they have preponed it to 20th March": the user's one appointment still to come is
    the one moved, in either order of learning; said in order, the move is filed under its name."""
    _sessions(
        memory,
        "My root canal is on 28 March at 4 pm. Will it hurt?",
        "Clinic called, they have preponed it to 20th March same time since the doctor is travelling.",
        newest_first=newest_first,
    )
    current, past = _appointments(memory)
    assert [claim for _, claim in current if "20" in claim], current
    assert not [claim for _, claim in current if "28" in claim], current
    assert [claim for claim in past if "28" in claim], past
    if not newest_first:
        assert {key for key, _ in current} == {"appointment_root_canal"}
    old = next(f for f in memory.list_facts(include_history=True) if "28 March" in f.claim)
    assert old.valid_until == T0 + timedelta(days=10)  # when the move was said


def test_a_move_that_does_not_say_which_of_two_appointments_moves_neither(memory: AgentMemory) -> None:
    _sessions(
        memory,
        "My root canal is on 28 March at 4 pm, and my MOT is on 30 March.",
        "They moved it to 20th March.",
    )
    current, past = _appointments(memory)
    assert past == set()
    assert len(current) == 3, current  # both kept, and the move as said
