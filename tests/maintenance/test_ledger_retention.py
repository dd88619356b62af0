"""The ledger_retention job on the real servers: old tool-call payloads trimmed, nothing else."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agentx_memory import AgentMemory
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.maintenance.test_promote import _store_counts


def test_retention_trims_old_tool_payloads_and_keeps_stats_and_turns(
    memory: AgentMemory, graph: FalkorDBStore, ledger: PostgresStore
) -> None:
    alice = memory.for_user("alice", channel="proj-a")
    cid = alice.new_conversation()
    alice.store_turn(cid, "user", "search the docs for pgvector")
    call = alice.record_invocation(cid, 0, "web_search", {"q": "pgvector"}, {"hits": 3}, True, 120.0)
    later = datetime.now(UTC) + timedelta(days=memory.settings.retention.ledger_detail_days, hours=1)

    before = _store_counts(graph, ledger)
    dry = run_job(memory, JOBS["ledger_retention"], dry_run=True, clock=lambda: later)
    assert dry.counts == {"tool_payloads": 1}
    assert _store_counts(graph, ledger) == before
    early = run_job(memory, JOBS["ledger_retention"], clock=lambda: later - timedelta(days=2))
    assert early.counts == {"tool_payloads": 0}

    assert run_job(memory, JOBS["ledger_retention"], clock=lambda: later).counts == {"tool_payloads": 1}
    (row,) = ledger.fetch_all("get_tool_invocation", {"id": call.id, "user_id": "alice"})
    assert (row["tool_input"], row["tool_output"], row["success"]) == ({"trimmed": True}, None, True)
    assert [turn.content for turn in alice.get_conversation(cid)] == ["search the docs for pgvector"]
    assert [stats.usage_count for stats in alice.get_tool_stats()] == [1]
    # a second run has nothing left to trim
    assert run_job(memory, JOBS["ledger_retention"], clock=lambda: later).counts == {"tool_payloads": 0}
