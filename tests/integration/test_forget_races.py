"""A conversation forgotten while one of its turns is being stored, interleaved step by step (the
concurrency soak's race, made deterministic): the turn's graph write finds neither the conversation
node nor its ledger row. That is :class:`NotFoundError` (the turn went with its conversation), not a
:class:`GraphSyncError` claiming the turn is "safe in the ledger" for reconcile to replay; no graph node
is left behind, and the ``reconcile`` job does not fail on it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from agentx_memory import AsyncAgentMemory
from agentx_memory.errors import GraphSyncError, NotFoundError
from agentx_memory.maintenance.jobs_async import JOBS
from agentx_memory.maintenance.runner_async import run_job
from agentx_memory.models import Turn


async def ledger_turn(mem: AsyncAgentMemory, conversation: str, content: str) -> Turn:
    """The ledger half of ``store_turn`` (what it has done when a concurrent forget runs)."""
    backends = await mem._open_backends()
    turn, created = await backends.episodic.store_turn_log(
        mem.scope,
        turn_id=str(uuid.uuid4()),
        conversation_id=conversation,
        role="user",
        content=content,
        timestamp=datetime.now(UTC),
        turn_index=None,
        metadata={},
        embedding=await backends.embed_one(content),
        audit=backends.audit.inline_write({"content": content}),
    )
    assert created
    return turn


async def test_turn_stored_while_its_conversation_is_forgotten_is_not_found(
    amemory: AsyncAgentMemory,
) -> None:
    backends = await amemory._open_backends()
    conversation = await amemory.new_conversation()
    await amemory.store_turn(conversation, "user", "the first turn")
    raced = await ledger_turn(amemory, conversation, "stored while forgotten")
    await amemory.forget_conversation(conversation)

    with pytest.raises(NotFoundError, match=rf"conversation {conversation} does not exist"):
        await backends.episodic.sync_turn(raced)

    params = {"user_id": amemory.scope.user_id, "conversation_id": conversation}
    assert await backends.graph.run("get_conversation_turns", params) == []
    assert await backends.episodic.unsynced_turns(10) == []
    report = await run_job(amemory, JOBS["reconcile"])
    assert report.status == "done", report.error


async def test_turns_batch_stored_while_its_conversation_is_forgotten_is_not_found(
    amemory: AsyncAgentMemory,
) -> None:
    backends = await amemory._open_backends()
    conversation = await amemory.new_conversation()
    await amemory.store_turn(conversation, "user", "the first turn")
    raced = [await ledger_turn(amemory, conversation, f"batch turn {n}") for n in range(2)]
    await amemory.forget_conversation(conversation)

    with pytest.raises(NotFoundError, match=rf"conversation {conversation} does not exist") as caught:
        await backends.episodic.sync_turns(raced)
    assert not isinstance(caught.value, GraphSyncError)
    params = {"user_id": amemory.scope.user_id, "conversation_id": conversation}
    assert await backends.graph.run("get_conversation_turns", params) == []


async def test_turn_forgotten_while_being_stored_leaves_no_graph_node(amemory: AsyncAgentMemory) -> None:
    """``forget_turn`` between the ledger write and the graph write: the graph write would bring the
    node back with no ledger row under it (an orphan the doctor reports); it is removed again, and the
    store reports the turn as not found."""
    backends = await amemory._open_backends()
    conversation = await amemory.new_conversation()
    first = await amemory.store_turn(conversation, "user", "the first turn")
    raced = await ledger_turn(amemory, conversation, "stored while forgotten")
    await amemory.forget_turn(raced.id)

    with pytest.raises(NotFoundError, match=rf"turn {raced.id} does not exist"):
        await backends.episodic.sync_turn(raced)

    params = {"user_id": amemory.scope.user_id, "conversation_id": conversation}
    rows = await backends.graph.run("get_conversation_turns", params)
    assert [str(row["item"]["id"]) for row in rows] == [first.id]
