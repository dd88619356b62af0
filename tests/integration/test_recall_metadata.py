"""``remember(..., metadata={...})``: recall of the turns whose metadata contains the filter."""

from __future__ import annotations

import pytest

from agentx_memory import AgentMemory
from agentx_memory.errors import InvalidInputError
from agentx_memory.retrieval.items import matching_metadata


def test_recall_keeps_only_turns_with_the_metadata(memory: AgentMemory) -> None:
    conversation = memory.new_conversation()
    memory.store_turn(conversation, "user", "The deploy uses blue-green.", metadata={"agent": "ops", "n": 1})
    memory.store_turn(conversation, "user", "The deploy window is Friday.", metadata={"agent": "pm"})
    memory.store_turn(conversation, "user", "Deploy notes without metadata.")
    memory.learn_fact("The deploy uses blue-green", confidence=0.9, source="user_stated")
    bob = memory.for_user("bob")
    bob.store_turn(bob.new_conversation(), "user", "Bob's deploy is manual.", metadata={"agent": "ops"})

    everything = memory.remember("deploy", top_k=10)
    assert {item.kind for item in everything.items} >= {"episodic", "fact"}
    ops = memory.remember("deploy", top_k=10, metadata={"agent": "ops"})
    assert [item.content for item in ops.items] == ["The deploy uses blue-green."]
    assert memory.remember("deploy", metadata={"agent": "ops", "n": 1}).items[0].metadata["n"] == 1
    assert memory.remember("deploy", metadata={"agent": "nobody"}).items == []
    with pytest.raises(InvalidInputError):
        memory.remember("deploy", metadata={"agent": "ops"}, include_episodic=False)
    with pytest.raises(InvalidInputError):
        memory.remember("deploy", metadata="agent=ops")  # type: ignore[arg-type]


def test_containment_follows_jsonb() -> None:
    from datetime import UTC, datetime

    from agentx_memory.models import MemoryItem

    def item(metadata: dict[str, object]) -> MemoryItem:
        return MemoryItem(kind="episodic", id="t", content="c", score=1.0, channel="_global",
                          timestamp=datetime.now(UTC), metadata=metadata)  # fmt: skip

    items = [item({"tags": ["a", "b"], "n": 1, "flag": True, "deep": {"x": 1, "y": 2}})]
    assert matching_metadata(items, {"tags": ["b"]}) == items
    assert matching_metadata(items, {"deep": {"x": 1}}) == items
    assert matching_metadata(items, {"n": 1.0}) == items
    assert matching_metadata(items, {"flag": 1}) == []
    assert matching_metadata(items, {"tags": ["c"]}) == []
    assert matching_metadata(items, {"missing": None}) == []
