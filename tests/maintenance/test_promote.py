"""The promote job on the real servers: qualified project facts reach _global, the rest stay."""

from __future__ import annotations

from agentx_memory import AgentMemory
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.integration.test_promotion import _bump, _count, _fact

PROMOTED = "MATCH (:Fact)-[:PROMOTED_FROM]->(p:Fact {id: $id}) RETURN count(p) AS n"


def _store_counts(graph: FalkorDBStore, ledger: PostgresStore) -> tuple[int, int, int]:
    nodes = _count(graph, "MATCH (n) RETURN count(n) AS n")
    edges = _count(graph, "MATCH ()-[r]->() RETURN count(r) AS n")
    audit = sum(len(ledger.fetch_all("list_audit", {"user_id": user})) for user in ("alice", "bob"))
    return nodes, edges, audit


def test_promote_copies_qualified_facts_and_leaves_each_shortfall(
    memory: AgentMemory, graph: FalkorDBStore, ledger: PostgresStore
) -> None:
    alice = memory.for_user("alice", channel="proj-a")
    bob = memory.for_user("bob", channel="proj-a")
    good = _fact(alice, graph, "Alice deploys with Nomad")
    low = _fact(alice, graph, "Alice might like Haskell", confidence=0.84)
    single = _fact(alice, graph, "Alice uses vim keybindings", conversations=1)
    bobs = _fact(bob, graph, "Bob deploys with Nomad")
    _bump(alice, 5)
    _bump(bob, 5)
    unused = _fact(alice, graph, "Alice runs Arch Linux")  # after the bumps: never accessed

    before = _store_counts(graph, ledger)
    dry = run_job(memory, JOBS["promote"], dry_run=True)
    assert (
        _store_counts(graph, ledger)[:2] == before[:2]
    )  # the dry run's own audit row is the maintenance user's
    assert _store_counts(graph, ledger)[2] == before[2]
    assert dry.planned == [f"promote alice/proj-a/{good.id}", f"promote bob/proj-a/{bobs.id}"]

    report = run_job(memory, JOBS["promote"])
    assert report.status == "done"
    assert report.counts["promoted"] == 2
    for fact in (good, bobs):
        assert _count(graph, PROMOTED, id=fact.id) == 1
    for fact in (low, single, unused):
        assert _count(graph, PROMOTED, id=fact.id) == 0
    # Bob's copy is his own: alice's _global does not see it, and a second run copies nothing twice.
    claims = {fact.claim for fact in memory.for_user("alice", channel="_global").list_facts()}
    assert "Alice deploys with Nomad" in claims
    assert "Bob deploys with Nomad" not in claims
    run_job(memory, JOBS["promote"])
    assert _count(graph, PROMOTED, id=good.id) == 1
