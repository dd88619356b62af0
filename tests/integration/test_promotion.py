"""Promotion of project facts to ``_global`` on the real servers: thresholds, copy, idempotence, audit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row

from agentx_memory import (
    AgentMemory,
    AsyncAgentMemory,
    ConflictError,
    InvalidInputError,
    NotFoundError,
    Settings,
)
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.models.semantic import Fact
from agentx_memory.stores.falkordb import FalkorDBStore
from tests.conftest import cleanup, isolated_settings
from tests.payloads import INJECTIONS


@pytest.fixture
def project(memory: AgentMemory) -> AgentMemory:
    return memory.for_user("alice", channel="proj-a")


def _rows(settings: Settings, query: str, *params: object) -> list[dict[str, Any]]:
    with psycopg.connect(settings.postgres.url or "", row_factory=dict_row) as conn:
        conn.execute(
            sql.SQL("SET search_path TO {}, public").format(sql.Identifier(settings.postgres.schema_name))
        )
        return conn.execute(query.encode(), params).fetchall()


def _count(graph: FalkorDBStore, statement: str, **params: object) -> int:
    rows = graph._execute(statement, params)
    return int(rows[0]["n"])


def _fact(
    mem: AgentMemory,
    graph: FalkorDBStore,
    claim: str,
    *,
    confidence: float = 0.9,
    conversations: int = 2,
) -> Fact:
    """A fact of ``mem``'s channel derived from a turn in each of ``conversations`` conversations."""
    turns = []
    for index in range(conversations):
        cid = mem.new_conversation()
        turns.append(mem.store_turn(cid, "user", f"{claim} (said in conversation {index})").id)
    fact = mem.learn_fact(
        claim, confidence=confidence, source="user", source_turn_id=turns[0] if turns else None
    )
    for turn_id in turns[1:]:  # the extractor re-deriving the same fact in a later conversation
        graph.run(
            "link_fact_turns", {"user_id": mem.scope.user_id, "fact_id": fact.id, "turn_ids": [turn_id]}
        )
    return fact


def _bump(mem: AgentMemory, times: int, query: str = "facts", top_k: int = 10) -> None:
    for _ in range(times):
        mem.search_facts(query, top_k=top_k)


def _qualified(project: AgentMemory, graph: FalkorDBStore, claim: str = "Alice deploys with Nomad") -> Fact:
    fact = _fact(project, graph, claim)
    _bump(project, 5, claim)
    return fact


# ---------------------------------------------------------------------------------------- candidates


def test_candidates_respect_every_threshold(project: AgentMemory, graph: FalkorDBStore) -> None:
    good = _fact(project, graph, "Alice prefers tabs over spaces", confidence=0.9)
    edge = _fact(project, graph, "Alice writes Rust at work", confidence=0.85)
    low = _fact(project, graph, "Alice might like Haskell", confidence=0.84)
    single = _fact(project, graph, "Alice uses vim keybindings", conversations=1)
    orphan = _fact(project, graph, "Alice runs Arch Linux", conversations=0)
    _bump(project, 5)  # every fact is among the top 10: each access_count becomes 5
    found = {
        c.fact.id: (c.confidence, c.access_count, c.conversations) for c in project.promotion_candidates()
    }
    assert found == {good.id: (0.9, 5, 2), edge.id: (0.85, 5, 2)}
    assert {low.id, single.id, orphan.id}.isdisjoint(found)


def test_access_count_threshold_is_inclusive(project: AgentMemory, graph: FalkorDBStore) -> None:
    fact = _fact(project, graph, "Alice deploys with Nomad")
    _bump(project, 4)
    assert project.promotion_candidates() == []
    _bump(project, 1)
    [candidate] = project.promotion_candidates()
    assert (candidate.fact.id, candidate.access_count) == (fact.id, 5)


def test_superseded_and_promoted_facts_are_not_candidates(project: AgentMemory, graph: FalkorDBStore) -> None:
    first = _qualified(project, graph, "Alice deploys with Nomad")
    second = _qualified(project, graph, "Alice's team is in Lisbon")
    assert {c.fact.id for c in project.promotion_candidates()} == {first.id, second.id}
    project.correct_fact(first.id, "Alice deploys with Kubernetes")
    project.promote_to_global(second.id, "team location matters everywhere")
    assert project.promotion_candidates() == []


def test_candidates_are_empty_in_global_and_for_bob(
    memory: AgentMemory, project: AgentMemory, graph: FalkorDBStore
) -> None:
    _qualified(project, graph)
    assert len(project.promotion_candidates()) == 1
    assert memory.promotion_candidates() == []
    assert memory.for_user("bob", channel="proj-a").promotion_candidates() == []


def test_thresholds_come_from_settings(
    endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> None:
    loose = isolated_settings(
        endpoints, data_dir, promotion={"min_confidence": 0.5, "min_access_count": 0, "min_conversations": 0}
    )
    try:
        with AgentMemory(user_id="alice", channel="proj-a", settings=loose, embedder=embedder) as mem:
            fact = mem.learn_fact("Alice likes green tea", confidence=0.6, source="user")
            [candidate] = mem.promotion_candidates()
            assert (candidate.fact.id, candidate.access_count, candidate.conversations) == (fact.id, 0, 0)
            mem.promote_to_global(fact.id, "loose thresholds")
            [row] = _rows(loose, "SELECT details FROM memory_audit_log WHERE operation = 'promote_to_global'")
            assert row["details"]["thresholds"] == {
                "min_confidence": 0.5,
                "min_access_count": 0,
                "min_conversations": 0,
            }
    finally:
        cleanup(loose, endpoints)


# ----------------------------------------------------------------------------------------- promotion


def test_promotion_creates_one_global_copy(project: AgentMemory, graph: FalkorDBStore) -> None:
    entity = project.upsert_entity("Nomad", "tool")
    fact = _fact(project, graph, "Alice deploys with Nomad")
    project.learn_fact("Nomad runs the staging cluster", confidence=0.9, source="user", about=[entity.id])
    about = project.learn_fact(
        "Alice maintains the Nomad jobs", confidence=0.95, source="user", about=[entity.id]
    )
    promoted = project.promote_to_global(about.id, "she owns it in every project")
    assert promoted.id != about.id
    assert (promoted.channel, promoted.claim, promoted.confidence) == ("_global", about.claim, 0.95)
    assert promoted.about == [entity.id]
    assert promoted.is_current
    assert promoted.user_id == "alice"
    assert (
        _count(
            graph,
            "MATCH (g:Fact {user_id: $user_id, channel: '_global'})-[:PROMOTED_FROM]->(p:Fact {id: $id}) "
            "RETURN count(g) AS n",
            user_id="alice",
            id=about.id,
        )
        == 1
    )
    assert _count(graph, "MATCH (g:Fact {channel: '_global'}) RETURN count(g) AS n") == 1
    # the project fact is untouched
    assert project.search_facts("Alice deploys with Nomad", top_k=1)[0][0].id == fact.id


def test_promotion_is_idempotent(project: AgentMemory, graph: FalkorDBStore, settings: Settings) -> None:
    fact = _qualified(project, graph)
    first = project.promote_to_global(fact.id, "first")
    again = project.promote_to_global(fact.id, "second")
    assert again.id == first.id
    assert _count(graph, "MATCH (g:Fact)-[:PROMOTED_FROM]->(:Fact) RETURN count(g) AS n") == 1
    timeline = _rows(
        settings, "SELECT channel, memory_type FROM memory_timeline WHERE memory_id = %s", first.id
    )
    assert timeline == [{"channel": "_global", "memory_type": "fact"}]


async def test_concurrent_promotions_create_one_copy(
    amemory: AsyncAgentMemory, settings: Settings, endpoints: ResolvedEndpoints
) -> None:
    import asyncio

    project = await amemory.for_user("alice", channel="proj-a")
    fact = await project.learn_fact("Alice deploys with Nomad", confidence=0.9, source="user")
    results = await asyncio.gather(*(project.promote_to_global(fact.id, "race") for _ in range(5)))
    assert len({result.id for result in results}) == 1
    store = FalkorDBStore(endpoints.falkordb_url or "", settings.graph.name)
    try:
        assert _count(store, "MATCH (g:Fact {channel: '_global'}) RETURN count(g) AS n") == 1
    finally:
        store.close()


def test_audit_row_has_reason_thresholds_and_measures(
    project: AgentMemory, graph: FalkorDBStore, settings: Settings
) -> None:
    fact = _qualified(project, graph)
    promoted = project.promote_to_global(fact.id, "used in both projects")
    [row] = _rows(
        settings,
        "SELECT channel, memory_type, memory_id, details FROM memory_audit_log "
        "WHERE operation = 'promote_to_global'",
    )
    assert (row["channel"], row["memory_type"], row["memory_id"]) == ("proj-a", "fact", promoted.id)
    details = row["details"]
    assert details["reason"] == "used in both projects"
    assert details["promoted_from"] == fact.id
    assert details["thresholds"] == {"min_confidence": 0.85, "min_access_count": 5, "min_conversations": 2}
    assert details["measured"] == {"confidence": 0.9, "access_count": 5, "conversations": 2}


def test_promoted_fact_is_visible_from_another_channel_only_to_alice(
    memory: AgentMemory, project: AgentMemory, graph: FalkorDBStore
) -> None:
    fact = _qualified(project, graph, "Alice's staging cluster runs on Hetzner")
    other = memory.for_user("alice", channel="proj-b")
    assert other.search_facts("Where does the staging cluster run?") == []
    promoted = project.promote_to_global(fact.id, "infra is shared")
    hits = other.search_facts("Where does the staging cluster run?")
    assert [hit.id for hit, _ in hits] == [promoted.id]
    assert memory.for_user("bob", channel="proj-b").search_facts("Where does the staging cluster run?") == []
    assert memory.for_user("bob").search_facts("Where does the staging cluster run?") == []


# ------------------------------------------------------------------------------------------ errors


def test_bob_cannot_promote_alices_fact(
    memory: AgentMemory, project: AgentMemory, graph: FalkorDBStore
) -> None:
    fact = _qualified(project, graph)
    with pytest.raises(NotFoundError):
        memory.for_user("bob", channel="proj-a").promote_to_global(fact.id, "mine now")
    with pytest.raises(NotFoundError):
        project.promote_to_global("00000000-0000-4000-8000-000000000000", "unknown")
    assert _count(graph, "MATCH (g:Fact {channel: '_global'}) RETURN count(g) AS n") == 0


def test_bad_promotions_are_rejected(memory: AgentMemory, project: AgentMemory, graph: FalkorDBStore) -> None:
    global_fact = memory.learn_fact("Alice is vegetarian", confidence=0.9, source="user")
    with pytest.raises(InvalidInputError):
        memory.promote_to_global(global_fact.id, "already global")
    with pytest.raises(InvalidInputError):
        project.promote_to_global(global_fact.id, "already global, seen from a project")
    fact = _qualified(project, graph)
    project.correct_fact(fact.id, "Alice deploys with Kubernetes")
    with pytest.raises(ConflictError):
        project.promote_to_global(fact.id, "superseded")
    current = project.search_facts("Kubernetes", top_k=1)[0][0]
    for reason in ["", "   ", None, 42]:
        with pytest.raises(InvalidInputError):
            project.promote_to_global(current.id, reason)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        project.promote_to_global("not-a-uuid", "bad id")
    assert _count(graph, "MATCH (g:Fact)-[:PROMOTED_FROM]->() RETURN count(g) AS n") == 0


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_in_reason_is_stored_verbatim(
    payload: str, project: AgentMemory, graph: FalkorDBStore, settings: Settings
) -> None:
    fact = _qualified(project, graph)
    before = _count(graph, "MATCH (n) RETURN count(n) AS n")
    promoted = project.promote_to_global(fact.id, payload)
    assert _count(graph, "MATCH (n) RETURN count(n) AS n") == before + 1
    [row] = _rows(settings, "SELECT details FROM memory_audit_log WHERE operation = 'promote_to_global'")
    assert row["details"]["reason"] == payload
    assert (
        _count(
            graph,
            "MATCH (g:Fact {id: $id}) WHERE g.promotion_reason = $reason RETURN count(g) AS n",
            id=promoted.id,
            reason=payload,
        )
        == 1
    )
