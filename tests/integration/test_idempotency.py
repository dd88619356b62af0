"""Retried writes with an idempotency key store once: a client that retries a refused ``learn_fact`` or
``record_invocation`` (the crash matrix shows a refused call may have reached a store) must not store
the write twice. Without a key each call is a new write, as before."""

from __future__ import annotations

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
