"""``store_turns`` with the graph server killed before a batch of several chunks: the ledger keeps every turn,
the call says so with :class:`GraphSyncError`, and ``reconcile`` completes the graph once the server is back:
every turn once, the chain whole across the batch boundary."""

from __future__ import annotations

import os
import signal
from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory import AgentMemory, GraphSyncError, TurnSpec, embedded
from agentx_memory.api.turns import CHUNK
from agentx_memory.embedded._common import data_paths, read_pid
from agentx_memory.embedding import Embedder
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.settings import Settings

BEFORE = 40
DURING = CHUNK + 60  # two chunks: the second is written to the ledger only
T0 = datetime(2026, 1, 5, 9, tzinfo=UTC)


def _specs(start: int, count: int) -> list[TurnSpec]:
    return [
        TurnSpec(role="user", content=f"turn {n}: notes", timestamp=T0 + timedelta(seconds=n), turn_index=n)
        for n in range(start, start + count)
    ]


def test_graph_killed_before_a_batch_keeps_the_ledger_and_reconcile_completes_it(
    own_servers: Settings, embedder: Embedder
) -> None:
    with AgentMemory("crash", settings=own_servers, embedder=embedder) as memory:
        conversation = memory.new_conversation()
        memory.store_turns(conversation, _specs(0, BEFORE))
        pid = read_pid(data_paths(own_servers).falkordb_pidfile)
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(GraphSyncError) as failure:
            memory.store_turns(conversation, _specs(BEFORE, DURING))
        stored = failure.value.turn
        assert isinstance(stored, list)
        assert [turn.index for turn in stored] == list(range(BEFORE, BEFORE + DURING))
        ledger = memory.get_conversation(conversation)
        assert len(ledger) == BEFORE + DURING
        assert sum(not turn.synced for turn in ledger) == DURING
        embedded.start_or_attach(own_servers)
        report = run_job(memory, JOBS["reconcile"])
        assert report.status == "done", report.error
        assert report.counts.get("turns") == DURING
        params = {"user_id": "crash", "conversation_id": conversation}
        graph = memory._open_backends().graph
        nodes = [row["item"] for row in graph.run("get_conversation_turns", params)]
        assert [node["turn_index"] for node in nodes] == list(range(BEFORE + DURING))
        assert len({node["id"] for node in nodes}) == BEFORE + DURING
        chain = [(row["source"], row["target"]) for row in graph.run("get_turn_chain", params)]
        assert chain == [(n, n + 1) for n in range(BEFORE + DURING - 1)]
        # the same batch again: nothing stored twice, nothing left to replay
        memory.store_turns(conversation, _specs(BEFORE, DURING))
        assert len(graph.run("get_conversation_turns", params)) == BEFORE + DURING
        assert run_job(memory, JOBS["reconcile"]).counts.get("turns", 0) == 0
