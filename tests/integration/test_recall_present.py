"""Recall shows the present, end to end on the real servers (DESIGN §5, issue 33 item 5): a turn whose
learned facts were all superseded is stale, ranks below what replaced it and stays out of
``get_context``; acknowledgements earn no context tokens; the current facts near the prompt get the
facts section; another user sees none of it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from agentx_memory import AgentMemory
from agentx_memory.models import MemoryItem, Turn
from agentx_memory.retrieval.context_render import STALE_MARK, short_id


def tag(memory_id: str) -> str:
    return f"[mem:{short_id(memory_id)}]"


@dataclass
class Moved:
    montreal: Turn
    toronto: Turn
    chatter: list[Turn]


def moved(memory: AgentMemory) -> Moved:
    """Session 1, three weeks ago: "I live in Montreal." Session 3, two days ago: "Actually I moved to
    Toronto last month." Both consolidated; the assistant only acknowledges."""
    now = datetime.now(UTC)
    first, said = memory.new_conversation(title="session 1"), now - timedelta(days=21)
    montreal = memory.store_turn(first, "user", "I live in Montreal.", timestamp=said)
    noted = memory.store_turn(first, "assistant", "Noted.", timestamp=said + timedelta(seconds=5))
    memory.store_turn(first, "user", "I love spicy ramen.", timestamp=said + timedelta(seconds=10))
    will_do = memory.store_turn(first, "assistant", "Will do.", timestamp=said + timedelta(seconds=15))
    memory.consolidate_conversation(first)
    second = memory.new_conversation(title="session 2")
    memory.store_turn(
        second, "user", "Can you remind me to water the plants?", timestamp=now - timedelta(days=9)
    )
    sure = memory.store_turn(second, "assistant", "Sure thing!", timestamp=now - timedelta(days=9))
    memory.consolidate_conversation(second)
    third, said = memory.new_conversation(title="session 3"), now - timedelta(days=2)
    toronto = memory.store_turn(third, "user", "Actually I moved to Toronto last month.", timestamp=said)
    got_it = memory.store_turn(third, "assistant", "Got it!", timestamp=said + timedelta(seconds=5))
    memory.consolidate_conversation(third)
    return Moved(montreal, toronto, [noted, will_do, sure, got_it])


def position(items: list[MemoryItem], word: str) -> int:
    return next((rank for rank, item in enumerate(items) if word in item.content), len(items))


def test_the_learner_supersedes_montreal_with_toronto(memory: AgentMemory) -> None:
    said = moved(memory)
    history = memory.list_facts(include_history=True)
    [old] = [fact for fact in history if "Montreal" in fact.claim]
    [new] = [fact for fact in history if "Toronto" in fact.claim]
    assert old.valid_until is not None
    assert old.superseded_by == new.id
    assert new.valid_until is None
    assert said.montreal.id in old.source_turn_ids


def test_a_turn_whose_facts_were_all_superseded_is_marked_stale_and_ranks_below_the_present(
    memory: AgentMemory,
) -> None:
    said = moved(memory)
    [current] = [fact for fact in memory.list_facts() if "Toronto" in fact.claim]

    bundle = memory.remember("Where do I live now?", top_k=5)
    assert "Toronto" in bundle.items[0].content
    assert position(bundle.items, "Toronto") < position(bundle.items, "Montreal")

    turns = memory.remember(
        "Where do I live now?", top_k=10, include_semantic=False, include_procedural=False
    )
    by_id = {item.id: item for item in turns.items}
    stale = by_id[said.montreal.id]
    assert stale.stale
    assert stale.superseded_by == [current.id]
    assert not by_id[said.toronto.id].stale  # its fact is current
    assert position(turns.items, "Toronto") < position(turns.items, "Montreal")
    assert not any(item.stale for item in turns.items if item.id != said.montreal.id)


def test_the_context_shows_the_present_with_a_facts_section_and_no_acknowledgements(
    memory: AgentMemory,
) -> None:
    said = moved(memory)

    block = memory.get_context("Can you recommend a restaurant near me?")

    assert "Toronto" in block
    assert "### Known facts" in block
    facts = block.split("### Known facts", 1)[1].split("###", 1)[0]
    assert "Toronto" in facts
    montreal = [line for line in block.splitlines() if tag(said.montreal.id) in line]
    assert all(STALE_MARK in line for line in montreal)
    for turn in said.chatter:
        assert tag(turn.id) not in block
    for text in ("Noted.", "Will do.", "Got it!", "Sure thing!"):
        assert text not in block


def test_when_only_stale_turns_answer_they_are_shown_dated_and_marked(memory: AgentMemory) -> None:
    """The one turn on the subject is stale (its fact corrected by hand) and, with no fact allowed among
    the ranked memories, nothing stands for it: it is kept, as history, beside the facts section."""
    retrieval = memory.settings.retrieval.model_copy(update={"max_fact_share": 0.0})
    memory.settings = memory.settings.model_copy(update={"retrieval": retrieval})
    conversation = memory.new_conversation()
    turn = memory.store_turn(conversation, "user", "I work as a nurse.")
    memory.consolidate_conversation(conversation)
    [learned] = [fact for fact in memory.list_facts() if turn.id in fact.source_turn_ids]
    replacement = memory.correct_fact(learned.id, "The user works as a paramedic.")

    block = memory.get_context("Where do I work?", budget_tokens=400)
    [line] = [line for line in block.splitlines() if tag(turn.id) in line]
    assert STALE_MARK in line
    assert turn.timestamp.date().isoformat() in line
    assert tag(replacement.id) in block.split("### Known facts", 1)[1]


def test_a_correction_through_the_api_makes_its_source_turn_stale(memory: AgentMemory) -> None:
    conversation = memory.new_conversation()
    turn = memory.store_turn(conversation, "user", "I work as a nurse.")
    other = memory.store_turn(conversation, "user", "I have a cat called Miso.")
    memory.consolidate_conversation(conversation)
    [learned] = [fact for fact in memory.list_facts() if turn.id in fact.source_turn_ids]
    replacement = memory.correct_fact(learned.id, "The user works as a paramedic.")

    bundle = memory.remember("What is my job?", top_k=10, include_semantic=False, include_procedural=False)
    by_id = {item.id: item for item in bundle.items}
    assert by_id[turn.id].stale
    assert by_id[turn.id].superseded_by == [replacement.id]
    assert other.id not in by_id or not by_id[other.id].stale
    with_facts = memory.remember("What is my job?", top_k=5)
    assert with_facts.items[0].id == replacement.id  # the correction stands for the turn it replaced


def test_another_user_sees_nothing_of_it(memory: AgentMemory) -> None:
    moved(memory)
    bob = memory.for_user("bob")
    assert bob.remember("Where do I live now?", top_k=5).items == []
    assert bob.get_context("Can you recommend a restaurant near me?") == ""


def test_a_question_naming_someone_puts_their_current_value_first(memory: AgentMemory) -> None:
    """An agent asks about its user by name ("where does Megan live?"), or about the user's friend:
    the named person's current fact leads, above the turns that told the old value; a question
    about one person is never answered with another's."""
    now = datetime.now(UTC)
    speaker = {"speaker": "Megan"}
    first = memory.new_conversation()
    memory.store_turn(
        first,
        "user",
        "I live in Columbus. My friend Tom lives in Dayton.",
        timestamp=now - timedelta(days=90),
        metadata=speaker,
    )
    memory.store_turn(
        first, "assistant", "Columbus has great climbing gyms.", timestamp=now - timedelta(days=90)
    )
    memory.consolidate_conversation(first)
    second = memory.new_conversation()
    memory.store_turn(
        second,
        "user",
        "I just moved to Denver last week!",
        timestamp=now - timedelta(days=2),
        metadata=speaker,
    )
    memory.consolidate_conversation(second)
    items = memory.remember("where does Megan live", top_k=5).items
    assert "Denver" in items[0].content
    assert "slot" in items[0].found_by
    tom = memory.remember("Where does Tom live?", top_k=5).items
    assert "Dayton" in tom[0].content
    assert not any("Denver" in item.content and "slot" in item.found_by for item in tom)
    assert memory.for_user("bob").remember("where does Megan live", top_k=5).items == []
