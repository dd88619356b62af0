"""Compaction of a session's working memory on the real Redis: the oldest turns become a summary led by
``[context compacted]``, a second compaction builds on the first, nothing below the budget changes,
another user's session is untouched, an LLM summarises when configured (the extractive summary when it
fails), and bad input is refused."""

from __future__ import annotations

import pytest

from agentx_memory import AgentMemory, InvalidInputError
from agentx_memory.memory.compaction import MARKER
from agentx_memory.retrieval.tokens import default_token_counter
from tests.llm_stub import LLMStub

LINES = [
    "I'm planning a trip to Lisbon in May with my sister Maya.",
    "ok cool",
    "We want to stay near Alfama, budget is 150 euros a night.",
    "thanks!",
    "My flight lands at 10:40 on May 3rd.",
    "Maya is vegetarian, so dinners need options.",
]


def _fill(memory: AgentMemory, times: int) -> str:
    c = memory.new_conversation()
    for _ in range(times):
        for line in LINES:
            memory.store_turn(c, "user", line)
    return c


def test_compaction_folds_the_oldest_turns(memory: AgentMemory) -> None:
    c = _fill(memory, 5)
    session = memory.working(c)
    before = session.get_recent_turns(100)
    result = memory.compact(c, max_tokens=200)
    assert result.compacted
    assert result.summary is not None
    assert result.summary.startswith(MARKER)
    assert "Lisbon" in result.summary
    assert "ok cool" not in result.summary
    assert result.tokens_before > 200 >= result.tokens_after
    kept = session.get_recent_turns(100)
    assert [t.id for t in kept] == [t.id for t in before][-len(kept) :]  # the newest turns stay, in order
    assert set(result.memory_candidates) == {t.id for t in before} - {t.id for t in kept}
    assert session.summary() == result.summary
    assert len(memory.get_conversation(c)) == len(before)  # the ledger keeps every turn
    counter = default_token_counter()
    assert counter.count(result.summary) <= 200 // 4 + counter.count(MARKER)
    for line in LINES[4:]:
        memory.store_turn(c, "user", line + " again, with more detail about the plan for the week")
    again = memory.compact(c, max_tokens=120)
    assert again.compacted
    assert again.summary is not None
    assert again.summary.startswith(MARKER)
    assert again.summary.count(MARKER) == 1


def test_nothing_changes_under_the_budget_or_for_another_user(memory: AgentMemory) -> None:
    c = _fill(memory, 1)
    assert not memory.compact(c, max_tokens=5000).compacted
    assert memory.working(c).summary() is None
    bob = memory.for_user("bob")
    assert not bob.compact(c, max_tokens=50).compacted  # bob's session of that id is empty
    assert len(memory.working(c).get_recent_turns(100)) == len(LINES)


@pytest.mark.parametrize("bad", [0, 49, -1, "100", True])
def test_bad_budget(memory: AgentMemory, bad: object) -> None:
    c = memory.new_conversation()
    with pytest.raises(InvalidInputError):
        memory.compact(c, max_tokens=bad)  # type: ignore[arg-type]


#: A long session: the trip is planned first, then the talk moves on to work.
TRIP = [
    ("user", "Hi there!"),
    ("assistant", "Hello! How can I help today?"),
    ("user", "My flight to Lisbon lands at 10:40 on May 3rd."),
    ("assistant", "Noted, I will plan around the 10:40 arrival."),
    ("user", "I booked the Alfama flat for 150 euros a night."),
    ("assistant", "ok"),
    ("user", "My sister Maya is vegetarian."),
    ("assistant", "Got it, vegetarian dinners then."),
]
WORK = [
    ("user", "Now about work: the quarterly report is due on Friday."),
    ("assistant", "Sure."),
    ("user", "Priya from finance sends me the numbers."),
    ("assistant", "thanks!"),
]


def _session(memory: AgentMemory, rounds: list[list[tuple[str, str]]]) -> str:
    c = memory.new_conversation()
    for lines in rounds:
        for role, line in lines:
            memory.store_turn(c, role, line)
    return c


def test_a_long_session_compacts_twice_and_keeps_its_key_sentences(memory: AgentMemory) -> None:
    c = _session(memory, [TRIP] * 5)  # 40 turns
    session = memory.working(c)
    session.set("draft", {"step": 2})
    turns = session.get_recent_turns(100)
    assert len(turns) == 40
    counter = default_token_counter()
    first = memory.compact(c, max_tokens=240)
    assert first.compacted
    assert first.summary is not None
    assert first.summary.splitlines()[0] == MARKER
    assert "user: My flight to Lisbon lands at 10:40 on May 3rd." in first.summary.splitlines()
    assert "Hi there" not in first.summary
    assert first.summary.count("10:40 on May 3rd") == 1  # said five times, summarised once
    assert first.tokens_before == sum(counter.count(t.content) for t in turns)
    assert first.tokens_after <= 240
    assert counter.count(first.summary) <= 240 // 4
    assert first.removed_turn_ids == first.memory_candidates
    kept = session.get_recent_turns(100)
    assert [t.id for t in turns] == first.memory_candidates + [t.id for t in kept]  # nothing lost, in order
    assert sum(counter.count(t.content) for t in kept) <= 240 // 2
    assert session.get_context() == {"draft": {"step": 2}}  # the rest of the session is untouched
    assert session.summary() == first.summary
    for lines in [WORK] * 5:
        for role, line in lines:
            memory.store_turn(c, role, line)
    second = memory.compact(c, max_tokens=240)
    assert second.compacted
    assert second.summary is not None
    assert second.summary.count(MARKER) == 1
    assert "user: My flight to Lisbon lands at 10:40 on May 3rd." in second.summary.splitlines()  # built on
    assert "Priya" in second.summary or "Friday" in second.summary  # and on what was folded since
    assert counter.count(second.summary) <= 240 // 4
    assert second.tokens_after <= 240
    assert not set(second.memory_candidates) & set(first.memory_candidates)
    assert session.get_recent_turns(3)[-1].content == WORK[-1][1]
    assert len(memory.get_conversation(c)) == 60  # the ledger keeps every turn


def test_compaction_leaves_other_users_sessions_alone(memory: AgentMemory) -> None:
    bob = memory.for_user("bob")
    mine = _session(memory, [TRIP] * 3)
    his = _session(bob, [TRIP] * 3)
    assert bob.compact(his, max_tokens=100).compacted
    assert bob.working(his).summary() is not None
    assert memory.working(mine).summary() is None
    assert len(memory.working(mine).get_recent_turns(100)) == 24


@pytest.mark.parametrize("llm_memory", ["openai", "anthropic"], indirect=True)
def test_an_llm_summarises_and_the_extractive_summary_stands_in_when_it_fails(
    llm_memory: AgentMemory, stub: LLMStub
) -> None:
    c = _session(llm_memory, [TRIP] * 3)
    stub.script("Flight to Lisbon lands 10:40 on May 3rd; Alfama flat booked; Maya is vegetarian.")
    summarised = llm_memory.compact(c, max_tokens=100)
    assert (
        summarised.summary
        == f"{MARKER}\nFlight to Lisbon lands 10:40 on May 3rd; Alfama flat booked; Maya is vegetarian."
    )
    asked = str(stub.requests[-1].body)
    assert "Summarise the conversation excerpt" in asked
    assert "My sister Maya is vegetarian." in asked
    for role, line in TRIP * 2:
        llm_memory.store_turn(c, role, line)
    stub.script(" ".join(line for _, line in TRIP * 3))  # far longer than asked: trimmed to the budget
    trimmed = llm_memory.compact(c, max_tokens=100)
    assert trimmed.summary is not None
    assert trimmed.summary.startswith(MARKER)
    assert default_token_counter().count(trimmed.summary) <= 100 // 4
    for role, line in TRIP * 2:
        llm_memory.store_turn(c, role, line)
    stub.fail(500)
    fallback = llm_memory.compact(c, max_tokens=100)
    assert fallback.compacted
    assert fallback.summary is not None
    assert fallback.summary.startswith(MARKER)
    assert any(line.startswith("user: ") for line in fallback.summary.splitlines())  # extractive lines
