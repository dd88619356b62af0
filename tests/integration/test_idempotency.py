"""Retried writes with an idempotency key store once: a client that retries a refused ``learn_fact``,
``record_invocation``, ``add_goal``, ``learn_strategy``, ``propose_strategy`` or ``upsert_entity``
(the crash matrix shows a refused call may have reached a store) must not store the write twice.
Without a key each call is a new write, as before."""

from __future__ import annotations

from collections import Counter

import pytest

from agentx_memory import AgentMemory, InvalidInputError
from agentx_memory.stores.postgres import PostgresStore


def _invocations(ledger: PostgresStore, conversation_id: str) -> int:
    rows = ledger.fetch_all(
        "conversation_invocations", {"conversation_id": conversation_id, "user_id": "alice"}
    )
    return len(rows)


def test_record_invocation_with_a_key_is_stored_and_counted_once(
    memory: AgentMemory, ledger: PostgresStore
) -> None:
    cid = memory.new_conversation()
    call = ("search", {"q": "flights"}, {"hits": 2}, True, 12.0)
    first = memory.record_invocation(cid, 0, *call, idempotency_key="toolu_01ABC")
    again = memory.record_invocation(cid, 0, *call, idempotency_key="toolu_01ABC")
    assert again.id == first.id
    assert _invocations(ledger, cid) == 1
    (stats,) = memory.get_tool_stats()
    assert stats.usage_count == 1
    other = memory.new_conversation()  # the same key in another conversation is another call
    assert memory.record_invocation(other, 0, *call, idempotency_key="toolu_01ABC").id != first.id
    bob = memory.for_user("bob")
    bobs = bob.new_conversation()
    assert bob.record_invocation(bobs, 0, *call, idempotency_key="toolu_01ABC").id != first.id
    memory.record_invocation(cid, 0, *call)  # no key: a new call each time
    assert _invocations(ledger, cid) == 2


def test_learn_fact_with_a_key_stores_the_claim_once(memory: AgentMemory) -> None:
    first = memory.learn_fact("Ana is allergic to nuts", confidence=0.9, source="user", idempotency_key="k1")
    again = memory.learn_fact("Ana is allergic to nuts", confidence=0.9, source="user", idempotency_key="k1")
    assert again.id == first.id
    assert [fact.id for fact in memory.list_facts()] == [first.id]
    bob = memory.for_user("bob")
    assert bob.learn_fact("Bob rides", confidence=0.9, source="user", idempotency_key="k1").id != first.id
    memory.learn_fact("Ana is allergic to nuts", confidence=0.9, source="user")  # no key: stored again
    assert len(memory.list_facts()) == 2


@pytest.mark.parametrize("key", ["", " ", "x" * 10_000, 7])
def test_a_bad_key_is_refused_and_changes_nothing(memory: AgentMemory, key: object) -> None:
    with pytest.raises(InvalidInputError):
        memory.learn_fact("Ana is allergic to nuts", confidence=0.9, source="user", idempotency_key=key)  # type: ignore[arg-type]
    assert memory.list_facts() == []


def _stored(memory: AgentMemory) -> Counter[str]:
    """Nodes per label and timeline rows per kind, as the user's export holds them."""
    counted: Counter[str] = Counter()
    for record in memory.export_user(embeddings=False):
        if record["type"] == "node":
            counted[str(record["label"])] += 1
        elif record["type"] == "timeline":
            counted[f"timeline:{record['data']['memory_type']}"] += 1
    return counted


def _retried_writes(memory: AgentMemory, key: str) -> list[str]:
    """Each public write that mints an id, called with ``key``; the ids it returns."""
    return [
        memory.add_goal("Run a marathon in spring", priority=2, idempotency_key=key).id,
        memory.learn_strategy(
            "Book the trip", "travel planning", ["search", "book"], None, True, idempotency_key=key
        ).id,
        memory.propose_strategy("Refund a ticket", "refunds", ["lookup", "refund"], idempotency_key=key).id,
        memory.upsert_entity("Quinta do Lago", "location", idempotency_key=key).id,
    ]


def test_every_write_that_mints_an_id_stores_once_with_a_key(memory: AgentMemory) -> None:
    first = _retried_writes(memory, "call-1")
    once = _stored(memory)
    again = _retried_writes(memory, "call-1")
    assert again == first
    assert _stored(memory) == once
    assert once["Goal"] == 1
    assert once["Strategy"] == 2
    assert once["Entity"] == 1
    assert once["timeline:goal"] == 1
    assert once["timeline:strategy"] == 2
    (entity,) = memory.search_entities("Quinta do Lago", top_k=1)
    assert entity[0].mention_count == 1  # the retry did not mention it again
    # Another user's equal key is another write; no key is a new write each time (goals, strategies).
    bob = memory.for_user("bob")
    assert set(_retried_writes(bob, "call-1")).isdisjoint(first)
    memory.add_goal("Run a marathon in spring", priority=2)
    memory.propose_strategy("Refund a ticket", "refunds", ["lookup", "refund"])
    twice = _stored(memory)
    assert (twice["Goal"], twice["Strategy"]) == (2, 3)


def test_a_keyed_goal_refused_changes_nothing(memory: AgentMemory) -> None:
    with pytest.raises(InvalidInputError):
        memory.add_goal("Run a marathon", idempotency_key=" ")
    assert memory.active_goals() == []
