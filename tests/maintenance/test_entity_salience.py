"""Entity salience on the real servers: the decay job lowers it (in the ledger, never on the vector node)
for entities unused for a day, by the curve; the cleanup job deletes entities left below 0.1 and unused
for retention.low_salience_days, with every edge and ledger row of theirs, and keeps the facts and turns
that named them. Another user's entities are untouched."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory import AgentMemory, NotFoundError
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.stores.falkordb import FalkorDBStore
from tests.integration.test_promotion import _count

ENTITY = "MATCH (e:Entity {id: $id}) RETURN count(e) AS n"
ABOUT = "MATCH (:Fact)-[r:ABOUT]->(:Entity {id: $id}) RETURN count(r) AS n"


def _salience(memory: AgentMemory, entity_id: str) -> float | None:
    backends = memory._open_backends()
    record = backends.access.get(memory.scope, "entity", [entity_id]).get(entity_id)
    return None if record is None else record.salience


def test_entity_salience_decays_by_the_curve_then_cleanup_deletes_the_forgotten(
    memory: AgentMemory, graph: FalkorDBStore
) -> None:
    alice, bob = memory.for_user("alice"), memory.for_user("bob")
    kyoto = alice.upsert_entity("Kyoto", "location", description="a city Alice visited once")
    fact = alice.learn_fact("Alice visited Kyoto in 2019", confidence=0.9, source="chat", about=["Kyoto"])
    bobs = bob.upsert_entity("Kyoto", "location")
    start = datetime.now(UTC)

    assert (
        run_job(memory, JOBS["decay"], clock=lambda: start + timedelta(hours=12)).counts.get(
            "entities_decayed", 0
        )
        == 0
    )  # used within the last day: left alone
    ten_days = start + timedelta(days=10)
    dry = run_job(memory, JOBS["decay"], dry_run=True, clock=lambda: ten_days)
    assert any(line.startswith(f"decay entity alice/{kyoto.id} -> 0.59") for line in dry.planned)
    assert _salience(alice, kyoto.id) is None  # a dry run writes nothing
    report = run_job(memory, JOBS["decay"], clock=lambda: ten_days)
    assert report.counts["entities_decayed"] == 2  # alice's and bob's, each by its own clock
    assert _salience(alice, kyoto.id) == pytest.approx(0.95**10, rel=1e-3)
    assert _count(graph, ENTITY, id=kyoto.id) == 1

    # Fifty more idle days: below 0.1, unused for 30 days → cleanup deletes Alice's Kyoto.
    sixty_days = start + timedelta(days=60)
    run_job(memory, JOBS["decay"], clock=lambda: sixty_days)
    assert _salience(alice, kyoto.id) == pytest.approx(0.95**60, rel=1e-3)
    bob.get_entity_info("Kyoto")  # Bob uses his: it counts as an access today, far before sixty_days
    dry = run_job(memory, JOBS["cleanup"], dry_run=True, clock=lambda: sixty_days)
    assert f"delete entity alice/{kyoto.id}" in dry.planned
    assert _count(graph, ENTITY, id=kyoto.id) == 1
    cleaned = run_job(memory, JOBS["cleanup"], clock=lambda: sixty_days)
    assert cleaned.counts["entities_deleted"] == 2  # bob's was used only at the start, 60 days before
    assert _count(graph, ENTITY, id=kyoto.id) == 0
    assert _count(graph, ABOUT, id=kyoto.id) == 0
    with pytest.raises(NotFoundError):
        alice.get_entity_info("Kyoto")
    assert [f.id for f in alice.list_facts()] == [fact.id]  # the fact that named it stays
    assert _salience(alice, kyoto.id) is None  # its ledger rows went with it
    again = run_job(memory, JOBS["cleanup"], clock=lambda: sixty_days)
    assert again.counts.get("entities_deleted", 0) == 0
    assert bobs.id != kyoto.id
