"""The resolve_entities job on the real servers: SAME_AS candidates with shared evidence merge (facts
moved, nothing lost, the winner's vector untouched), weak ones are kept then dismissed, mismatched types
dismissed; with an LLM configured it confirms each merge through the real SDK against the stub."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory import AgentMemory
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.models.semantic import Entity
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.llm_stub import LLMStub
from tests.maintenance.test_promote import _store_counts

LINK = (
    "MATCH (a:Entity {id: $a}) MATCH (b:Entity {id: $b}) MERGE (a)-[r:SAME_AS]->(b) "
    "SET r.status = 'candidate', r.score = $score, r.created_at = $now"
)
LINKS = (
    "MATCH (:Entity {id: $a})-[r:SAME_AS]->(:Entity {id: $b}) RETURN r.status AS status, r.reviewed_at AS at"
)
ABOUT = "MATCH (f:Fact)-[:ABOUT]->(:Entity {id: $id}) RETURN f.claim AS claim ORDER BY claim"
NODE = "MATCH (e:Entity {id: $id}) RETURN e.embedding AS v, e.aliases AS aliases"


def _link(graph: FalkorDBStore, a: Entity, b: Entity, score: float = 0.87) -> None:
    graph._execute(LINK, {"a": a.id, "b": b.id, "score": score, "now": int(time.time() * 1000)})


def _days(n: float) -> datetime:
    return datetime.now(UTC) + timedelta(days=n)


def _look_alikes(memory: AgentMemory, graph: FalkorDBStore) -> tuple[Entity, Entity]:
    """Maya and 'my sister': a fact about both and a shared neighbour; each with facts of its own."""
    maya = memory.upsert_entity("Maya Silva", "person", description="Alice's sister")
    sister = memory.upsert_entity("my sister", "person")
    osaka = memory.upsert_entity("Osaka", "location")
    memory.create_relationship(maya.id, osaka.id, "LOCATED_IN")
    memory.create_relationship(sister.id, osaka.id, "LOCATED_IN")
    memory.learn_fact("Maya is vegetarian", confidence=0.9, source="user", about=[maya.id, sister.id])
    memory.learn_fact("Maya works as an architect", confidence=0.9, source="user", about=[maya.id])
    memory.learn_fact("Maya was born in 1990", confidence=0.9, source="user", about=[maya.id])
    memory.learn_fact("My sister plays the cello", confidence=0.9, source="user", about=[sister.id])
    _link(graph, sister, maya)
    return maya, sister


def test_resolve_entities_merges_keeps_dismisses_and_is_idempotent(
    memory: AgentMemory, graph: FalkorDBStore, ledger: PostgresStore
) -> None:
    alice = memory.for_user("alice", channel="family")
    bob = memory.for_user("bob", channel="family")
    alice.new_conversation()
    bob.new_conversation()
    maya, sister = _look_alikes(alice, graph)
    tom, tomas = alice.upsert_entity("Tom", "person"), alice.upsert_entity("Tomas Berg", "person")
    _link(graph, tomas, tom, 0.86)
    place, person = alice.upsert_entity("Jordan", "location"), alice.upsert_entity("Jordan", "person")
    _link(graph, person, place, 0.88)
    bobs = bob.upsert_entity("my sister", "person")
    bob.learn_fact("Bob's sister is a pilot", confidence=0.9, source="user", about=[bobs.id])
    (before_node,) = graph._execute(NODE, {"id": maya.id})
    # The look-alike was said first (a learned entity's first_seen): the merged one dates from then.
    first_said = 1_700_000_000_000
    graph._execute("MATCH (e:Entity {id: $id}) SET e.first_seen = $at", {"id": sister.id, "at": first_said})

    counts = _store_counts(graph, ledger)
    dry = run_job(memory, JOBS["resolve_entities"], dry_run=True, clock=lambda: _days(1))
    assert _store_counts(graph, ledger) == counts
    assert dry.counts == {"merged": 1, "kept": 1, "dismissed": 1}
    assert f"merge alice/'my sister'~'Maya Silva' into {maya.id}" in dry.planned[0]

    report = run_job(memory, JOBS["resolve_entities"], clock=lambda: _days(1))
    assert report.status == "done"
    assert report.counts["merged"] == 1
    assert report.counts["kept"] == 1
    assert report.counts["dismissed"] == 1
    assert graph._execute("MATCH (e:Entity {id: $id}) RETURN e.id AS id", {"id": sister.id}) == []
    claims = [row["claim"] for row in graph._execute(ABOUT, {"id": maya.id})]
    assert claims == sorted(
        [
            "Maya is vegetarian",
            "Maya was born in 1990",
            "Maya works as an architect",
            "My sister plays the cello",
        ]
    )
    (after_node,) = graph._execute(NODE, {"id": maya.id})
    assert after_node["v"] == before_node["v"]  # aliases moved, the vector never rewritten
    assert "my sister" in after_node["aliases"]
    first_seen = graph._execute("MATCH (e:Entity {id: $id}) RETURN e.first_seen AS at", {"id": maya.id})
    assert first_seen == [{"at": first_said}]
    located = "MATCH (:Entity {id: $id})-[r:LOCATED_IN]->(:Entity) RETURN count(r) AS n"
    assert graph._execute(located, {"id": maya.id}) == [{"n": 1}]
    info = alice.get_entity_info(maya.id)
    assert len(info.facts) == 4
    assert graph._execute(LINKS, {"a": tomas.id, "b": tom.id})[0]["status"] == "candidate"
    assert graph._execute(LINKS, {"a": person.id, "b": place.id})[0]["status"] == "dismissed"
    assert [f.claim for f in bob.get_entity_info(bobs.id).facts] == ["Bob's sister is a pilot"]

    again = run_job(memory, JOBS["resolve_entities"], clock=lambda: _days(2))
    assert again.counts == {"unchanged": 1}  # the weak pair, evidence unchanged: not re-written
    stale = run_job(memory, JOBS["resolve_entities"], clock=lambda: _days(31))
    assert stale.counts == {"dismissed": 1}
    assert graph._execute(LINKS, {"a": tomas.id, "b": tom.id})[0]["status"] == "dismissed"
    assert run_job(memory, JOBS["resolve_entities"], clock=lambda: _days(32)).counts == {}


@pytest.mark.parametrize("llm_memory", ["openai", "anthropic"], indirect=True)
def test_resolve_entities_asks_the_llm_to_confirm(llm_memory: AgentMemory, stub: LLMStub) -> None:
    llm_memory.new_conversation()
    graph = FalkorDBStore(llm_memory.settings.graph.falkordb_url or "", llm_memory.settings.graph.name)
    try:
        maya, sister = _look_alikes(llm_memory, graph)
        stub.fail(500)
        failed = run_job(llm_memory, JOBS["resolve_entities"], clock=lambda: _days(1))
        assert failed.counts == {"llm_failed": 1, "unchanged": 1}
        assert graph._execute(LINKS, {"a": sister.id, "b": maya.id})[0]["status"] == "candidate"
        stub.script("No, these are two different people.")
        refused = run_job(llm_memory, JOBS["resolve_entities"], clock=lambda: _days(1))
        assert refused.counts.pop("llm_input_tokens") > 0  # the answer's tokens, for the metrics
        refused.counts.pop("llm_output_tokens")
        assert refused.counts == {"llm_refused": 1, "dismissed": 1}
        assert "maya is vegetarian" in str(stub.requests[-1].body)  # the claims, normalised

        other = llm_memory.upsert_entity("Maya S.", "person")
        llm_memory.learn_fact(
            "Maya S. is vegetarian", confidence=0.9, source="user", about=[maya.id, other.id]
        )
        llm_memory.create_relationship(other.id, llm_memory.get_entity_info("Osaka").entity.id, "LOCATED_IN")
        _link(graph, other, maya)
        stub.script("Yes - same person.")
        merged = run_job(llm_memory, JOBS["resolve_entities"], clock=lambda: _days(2))
        assert merged.counts["llm_confirmed"] == 1
        assert merged.counts["merged"] == 1
        assert graph._execute("MATCH (e:Entity {id: $id}) RETURN e.id AS id", {"id": other.id}) == []
    finally:
        graph.close()
