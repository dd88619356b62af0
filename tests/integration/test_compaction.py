"""Compaction of a session's working memory on the real Redis: the oldest turns become a summary led by
``[context compacted]``, a second compaction builds on the first, nothing below the budget changes,
another user's session is untouched, and bad input is refused."""

from __future__ import annotations

import pytest

from agentx_memory import AgentMemory, InvalidInputError
from agentx_memory.memory.compaction import MARKER
from agentx_memory.retrieval.tokens import default_token_counter

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
