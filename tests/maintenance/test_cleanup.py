"""The cleanup job on the real servers: old conversations archived (a flag), every turn kept."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agentx_memory import AgentMemory
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.integration.test_promotion import _count
from tests.maintenance.test_promote import _store_counts

ARCHIVED = "MATCH (c:Conversation {id: $id}) WHERE c.archived_at IS NOT NULL RETURN count(c) AS n"


def test_cleanup_archives_old_conversations_and_keeps_their_turns(
    memory: AgentMemory, graph: FalkorDBStore, ledger: PostgresStore
) -> None:
    alice = memory.for_user("alice", channel="proj-a")
    old = alice.new_conversation()
    alice.store_turn(old, "user", "I moved to Lyon last spring")
    fact = alice.learn_fact("Alice lives in Lyon", confidence=0.9, source="user")
    later = datetime.now(UTC) + timedelta(days=memory.settings.retention.turn_days, hours=1)

    before = _store_counts(graph, ledger)
    dry = run_job(memory, JOBS["cleanup"], dry_run=True, clock=lambda: later)
    assert dry.planned == [f"archive alice/{old}"]
    assert _store_counts(graph, ledger) == before
    assert _count(graph, ARCHIVED, id=old) == 0

    too_early = run_job(memory, JOBS["cleanup"], clock=lambda: later - timedelta(days=2))
    assert too_early.counts == {}
    report = run_job(memory, JOBS["cleanup"], clock=lambda: later)
    assert report.counts == {"archived": 1}
    assert _count(graph, ARCHIVED, id=old) == 1
    # the durable memory and the history stay: same nodes, same fact, the turn still readable
    assert _store_counts(graph, ledger)[:2] == before[:2]
    assert [f.id for f in alice.list_facts()] == [fact.id]
    assert [turn.content for turn in alice.get_conversation(old)] == ["I moved to Lyon last spring"]
