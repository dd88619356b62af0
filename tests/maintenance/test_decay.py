"""The decay job on the real servers, over simulated weeks with the injectable clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory import AgentMemory
from agentx_memory.maintenance.decay_rules import decayed
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.maintenance.test_promote import _store_counts


def _confidence(graph: FalkorDBStore, fact_id: str) -> tuple[float, object]:
    (row,) = graph._execute(
        "MATCH (f:Fact {id: $id}) RETURN f.confidence AS c, f.valid_until AS v", {"id": fact_id}
    )
    return float(row["c"]), row["v"]


def test_decay_over_weeks_follows_the_curve_and_spares_protected_facts(
    memory: AgentMemory, graph: FalkorDBStore, ledger: PostgresStore
) -> None:
    alice = memory.for_user("alice", channel="proj-a")
    bob = memory.for_user("bob", channel="proj-a")
    alice.new_conversation()
    bob.new_conversation()
    inferred = alice.learn_fact("Alice probably likes jazz", confidence=0.8, source="inferred")
    stated = alice.learn_fact("Alice lives in Lyon", confidence=0.8, source="user")
    bobs = bob.learn_fact("Bob probably likes jazz", confidence=0.8, source="user")
    start = datetime.now(UTC)

    before = _store_counts(graph, ledger)
    dry = run_job(memory, JOBS["decay"], dry_run=True, clock=lambda: start + timedelta(days=14))
    assert dry.counts.get("decayed") == 1
    assert _store_counts(graph, ledger) == before
    assert _confidence(graph, inferred.id) == (0.8, None)

    for week in (1, 2, 3):
        moment = start + timedelta(days=7 * week, hours=1)
        run_job(memory, JOBS["decay"], clock=lambda: moment)  # noqa: B023 - called within this turn
    assert _confidence(graph, inferred.id)[0] == pytest.approx(decayed(0.8, 21, 0, 0.95), abs=1e-9)
    assert _confidence(graph, stated.id) == (0.8, None)
    assert _confidence(graph, bobs.id) == (0.8, None)

    report = run_job(memory, JOBS["decay"], clock=lambda: start + timedelta(days=7 * 60))
    assert report.counts["pruned"] == 1
    assert report.details["pruned"] == [f"alice/{inferred.id}"]
    assert _confidence(graph, inferred.id)[1] is not None
