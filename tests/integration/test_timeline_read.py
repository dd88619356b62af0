"""``timeline()``: the public read of ``memory_timeline``, scoped, bounded and filtered."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory import AgentMemory
from agentx_memory.errors import InvalidInputError


def test_timeline_lists_this_users_memories_newest_first_within_bounds(memory: AgentMemory) -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    conversation = memory.new_conversation()
    for day in range(3):
        memory.store_turn(conversation, "user", f"Entry of day {day}.", timestamp=start + timedelta(days=day))
    fact = memory.learn_fact("The user keeps a diary", confidence=0.9, source="user_stated")
    memory.for_user("bob").learn_fact("Bob's fact", confidence=0.9, source="user_stated")

    everything = memory.timeline()
    assert [entry.memory_type for entry in everything] == ["fact", "turn", "turn", "turn"]
    assert everything[0].memory_id == fact.id
    turns = memory.timeline(since=start + timedelta(days=1), until=start + timedelta(days=2), kinds=["turn"])
    assert [entry.summary for entry in turns] == ["Entry of day 1."]
    assert turns[0].conversation_id == conversation
    assert len(memory.timeline(limit=2)) == 2
    assert memory.timeline(channels=["project-x"]) == []
    assert [entry.summary for entry in memory.for_user("bob").timeline()] == ["Bob's fact"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"kinds": ["secret"]},
        {"kinds": "turn"},
        {"kinds": []},
        {"limit": 0},
        {"since": datetime(2025, 2, 1, tzinfo=UTC), "until": datetime(2025, 1, 1, tzinfo=UTC)},
        {"channels": ["bad channel!"]},
    ],
)
def test_timeline_refuses_bad_arguments(memory: AgentMemory, kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError):
        memory.timeline(**kwargs)  # type: ignore[arg-type]
