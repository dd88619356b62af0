"""Crash consistency of ``store_turn``: SIGKILL the embedded FalkorDB in the middle of an ingest, start it
again, run ``reconcile``: every acknowledged turn is in the graph once. Its own embedded servers (the
session's stay up for the other tests). The 1,000-turn version is ``benchmarks/faults.py``."""

from __future__ import annotations

import os
import signal
from datetime import UTC, datetime, timedelta

from agentx_memory import AgentMemory, AgentMemoryError, embedded
from agentx_memory.embedded._common import data_paths, read_pid
from agentx_memory.embedding import Embedder
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.settings import Settings

TURNS = 200
KILL_AT = 60
T0 = datetime(2026, 1, 5, 9, tzinfo=UTC)


def _graph_turns(memory: AgentMemory, conversation_id: str) -> list[tuple[str, str, int]]:
    """Every Turn node the graph links to the conversation (a duplicate node would be a second row)."""
    params = {"user_id": memory.scope.user_id, "conversation_id": conversation_id}
    rows = memory._open_backends().graph.run("get_conversation_turns", params)
    return [(str(row["item"]["id"]), conversation_id, int(row["item"]["turn_index"])) for row in rows]


def test_sigkill_of_the_graph_mid_ingest_loses_and_duplicates_nothing(
    own_servers: Settings, embedder: Embedder
) -> None:
    with AgentMemory("crash", settings=own_servers, embedder=embedder) as memory:
        conversation = memory.new_conversation()
        pidfile = data_paths(own_servers).falkordb_pidfile
        killed = False
        acknowledged: list[str] = []
        refused: list[str] = []
        for index in range(TURNS):
            if index == KILL_AT:
                pid = read_pid(pidfile)
                assert pid is not None
                os.kill(pid, signal.SIGKILL)
                killed = True
            try:
                turn = memory.store_turn(
                    conversation, "user", f"turn {index}: notes", timestamp=T0 + timedelta(seconds=index)
                )
                acknowledged.append(turn.id)
            except AgentMemoryError as exc:  # never a raw driver error (anything else fails the test)
                refused.append(type(exc).__name__)
        assert killed
        assert refused  # the kill was felt, as the library's errors only
        assert set(refused) <= {"GraphSyncError", "StoreUnavailableError"}
        embedded.start_or_attach(own_servers)
        report = run_job(memory, JOBS["reconcile"])
        assert report.status == "done", report.error
        ledger = memory.get_conversation(conversation)
        assert len(ledger) == TURNS  # the ledger took every turn, even those whose graph write failed
        graph = _graph_turns(memory, conversation)
        assert len(graph) == len({key for key, _, _ in graph}) == TURNS  # none lost, none duplicated
        assert len({(c, i) for _, c, i in graph}) == TURNS
        assert set(acknowledged) <= {key for key, _, _ in graph}
        assert run_job(memory, JOBS["reconcile"]).counts.get("turns", 0) == 0  # nothing left to replay
