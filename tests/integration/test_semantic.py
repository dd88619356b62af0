"""Semantic memory end to end on the real servers: entity resolution, facts, relationships, corrections."""

from __future__ import annotations

import itertools
import uuid
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
from agentx_memory.models.semantic import Entity
from agentx_memory.stores.falkordb import FalkorDBStore
from tests.payloads import INJECTIONS


@pytest.fixture
def bob(memory: AgentMemory) -> AgentMemory:
    return memory.for_user("bob")


def node_counts(graph: FalkorDBStore, user_id: str = "alice") -> dict[str, int]:
    rows = graph.run("count_user_nodes", {"user_id": user_id})
    return {row["label"]: row["count"] for row in rows}


def timeline(settings: Settings) -> list[dict[str, Any]]:
    with psycopg.connect(settings.postgres.url or "", row_factory=dict_row) as conn:
        query = sql.SQL(
            "SELECT user_id, channel, memory_type, memory_id, summary FROM {}.memory_timeline"
        ).format(sql.Identifier(settings.postgres.schema_name))
        return conn.execute(query).fetchall()


# ------------------------------------------------------------------------------------------- entities


def test_same_name_in_another_case_resolves_to_one_node(memory: AgentMemory, graph: FalkorDBStore) -> None:
    first = memory.upsert_entity("Acme Corp", "organization", properties={"city": "Paris", "size": 10})
    second = memory.upsert_entity("  acme   CORP ", "organization", properties={"size": 12})
    assert second.id == first.id
    assert (first.mention_count, second.mention_count, second.access_count) == (1, 2, 1)
    assert second.name == "Acme Corp"
    assert second.aliases == []  # the same canonical name is not a new alias
    assert second.properties == {"city": "Paris", "size": 12}
    assert node_counts(graph)["Entity"] == 1


def test_alias_resolves_and_new_names_become_aliases(memory: AgentMemory) -> None:
    first = memory.upsert_entity("International Business Machines", "organization", aliases=["IBM"])
    by_alias = memory.upsert_entity("ibm", "organization", description="computer maker")
    assert by_alias.id == first.id
    assert by_alias.description == "computer maker"
    new_alias = memory.upsert_entity("Big Blue", "organization", aliases=["IBM"])
    assert new_alias.id == first.id
    assert new_alias.aliases == ["IBM", "Big Blue"]
    assert new_alias.mention_count == 3
    assert new_alias.description == "computer maker"  # not lost when a later mention has none


def test_resolution_is_blocked_by_type(memory: AgentMemory) -> None:
    place = memory.upsert_entity("Jordan", "location")
    person = memory.upsert_entity("Jordan", "person")
    assert place.id != person.id
    assert (place.type, person.type) == ("location", "person")


def test_near_duplicate_by_embedding_merges(memory: AgentMemory) -> None:
    first = memory.upsert_entity("Acme Corporation", "organization")
    second = memory.upsert_entity("Acme Corp", "organization")
    assert second.id == first.id
    assert second.aliases == ["Acme Corp"]
    unrelated = memory.upsert_entity("Banana bread", "organization")
    assert unrelated.id != first.id


def test_candidate_band_creates_a_node_with_a_same_as_candidate(memory: AgentMemory) -> None:
    first = memory.upsert_entity("PostgreSQL", "tool")
    second = memory.upsert_entity("PostgreSQL database", "tool")
    assert second.id != first.id
    graph = memory.get_entity_graph([second.id], depth=1)
    assert {node.id for node in graph.nodes} == {first.id, second.id}
    [edge] = graph.edges
    assert (edge.source_id, edge.target_id, edge.type) == (second.id, first.id, "SAME_AS")
    assert edge.properties["status"] == "candidate"
    assert 0.85 <= edge.properties["score"] < 0.90


@pytest.mark.parametrize("bad_type", ["Person", "animal", "", "person'}) DETACH DELETE n //"])
def test_unknown_entity_type_is_refused(memory: AgentMemory, graph: FalkorDBStore, bad_type: str) -> None:
    with pytest.raises(InvalidInputError, match="entity type"):
        memory.upsert_entity("Rex", bad_type)
    assert "Entity" not in node_counts(graph)


def test_entity_writes_leave_timeline_rows(memory: AgentMemory, settings: Settings) -> None:
    entity = memory.upsert_entity("Paris", "location")
    memory.upsert_entity("paris", "location")  # a merge is not a new memory
    rows = [row for row in timeline(settings) if row["memory_type"] == "entity"]
    assert [(row["memory_id"], row["user_id"], row["channel"]) for row in rows] == [
        (entity.id, "alice", "_global")
    ]


# ---------------------------------------------------------------------------------------------- facts


def test_learn_fact_about_ids_and_names(memory: AgentMemory, settings: Settings) -> None:
    acme = memory.upsert_entity("Acme Corp", "organization")
    fact = memory.learn_fact(
        "Alice works at Acme", confidence=0.8, source="conversation", about=[acme.id, "acme corp", "Alice"]
    )
    alice = memory.get_entity_info("alice").entity
    assert alice.type == "other"
    assert sorted(fact.about) == sorted([acme.id, alice.id])
    assert (fact.confidence, fact.source, fact.temporal, fact.priority) == (
        0.8,
        "conversation",
        "current",
        "medium",
    )
    assert fact.is_current
    assert fact.superseded_by is None
    assert fact.decay_rate == 0.05
    assert fact.salience == 0.5
    assert [f.id for f in memory.get_entity_info(acme.id).facts] == [fact.id]
    assert fact.id in {row["memory_id"] for row in timeline(settings) if row["memory_type"] == "fact"}


def test_learn_fact_with_an_unknown_id_writes_nothing(memory: AgentMemory, graph: FalkorDBStore) -> None:
    with pytest.raises(NotFoundError):
        memory.learn_fact("x", confidence=0.5, source="chat", about=["Brand new name", str(uuid.uuid4())])
    assert node_counts(graph) == {}


def test_learn_fact_derived_from_a_turn_of_this_user_only(memory: AgentMemory, bob: AgentMemory) -> None:
    cid = memory.new_conversation()
    turn = memory.store_turn(cid, "user", "I moved to Berlin")
    fact = memory.learn_fact("Alice lives in Berlin", confidence=0.9, source="turn", source_turn_id=turn.id)
    assert fact.source_turn_id == turn.id
    with pytest.raises(NotFoundError):
        bob.learn_fact("Bob lives in Berlin", confidence=0.9, source="turn", source_turn_id=turn.id)
    assert bob.search_facts("Berlin") == []


@pytest.mark.parametrize(
    "kwargs",
    [
        {"confidence": 1.5},
        {"confidence": -0.1},
        {"confidence": True},
        {"temporal": "someday"},
        {"priority": "urgent"},
        {"about": "Acme"},
        {"source_turn_id": "not-a-uuid"},
    ],
)
def test_learn_fact_refuses_bad_input(
    memory: AgentMemory, graph: FalkorDBStore, kwargs: dict[str, Any]
) -> None:
    values: dict[str, Any] = {"confidence": 0.5, "source": "test", **kwargs}
    with pytest.raises(InvalidInputError):
        memory.learn_fact("a claim", **values)
    assert "Fact" not in node_counts(graph)


def test_search_facts_ranks_by_similarity_and_filters_confidence(memory: AgentMemory) -> None:
    blue = memory.learn_fact("Alice's favourite colour is blue", confidence=0.9, source="chat")
    memory.learn_fact("The build server runs on Kubernetes", confidence=0.4, source="chat")
    memory.learn_fact("Lunch is served at noon", confidence=0.7, source="chat")
    hits = memory.search_facts("which colour does Alice like best?", top_k=3)
    assert hits[0][0].id == blue.id
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True)
    assert hits[0][0].access_count == 1
    confident = memory.search_facts("Kubernetes build server", top_k=3, min_confidence=0.5)
    assert all(fact.confidence >= 0.5 for fact, _ in confident)
    assert "The build server runs on Kubernetes" not in [fact.claim for fact, _ in confident]
    assert len(memory.search_facts("anything", top_k=1)) == 1


# -------------------------------------------------------------------------------------- relationships


def test_create_relationship_and_typed_edges(memory: AgentMemory) -> None:
    alice = memory.upsert_entity("Alice", "person")
    acme = memory.upsert_entity("Acme Corp", "organization")
    edge = memory.create_relationship(alice.id, acme.id, "WORKS_FOR", {"since": 2020})
    assert (edge.source_id, edge.target_id, edge.type) == (alice.id, acme.id, "WORKS_FOR")
    memory.create_relationship(alice.id, acme.id, "WORKS_FOR", {"since": 2021})  # idempotent per type
    graph = memory.get_entity_graph([alice.id])
    assert {node.id for node in graph.nodes} == {alice.id, acme.id}
    [edge] = graph.edges
    assert (edge.source_id, edge.target_id, edge.type, edge.properties) == (
        alice.id,
        acme.id,
        "WORKS_FOR",
        {"since": 2021},
    )
    info = memory.get_entity_info("acme corp")
    assert [(n.entity.id, n.type, n.outgoing) for n in info.neighbours] == [(alice.id, "WORKS_FOR", False)]


@pytest.mark.parametrize(
    "rel_type", ["works_for", "SAME_AS", "ABOUT", "HAS_TURN", "KNOWS]->(x) DETACH DELETE x //", "KNOWS`", ""]
)
def test_relationship_type_outside_the_allow_list_is_refused(memory: AgentMemory, rel_type: str) -> None:
    a = memory.upsert_entity("A", "concept")
    b = memory.upsert_entity("B", "concept")
    with pytest.raises(InvalidInputError, match="relationship type"):
        memory.create_relationship(a.id, b.id, rel_type)
    assert memory.get_entity_graph([a.id]).edges == []


def test_get_entity_graph_depth_is_capped_at_three(memory: AgentMemory) -> None:
    chain: list[Entity] = [memory.upsert_entity(f"Node {letter}", "concept") for letter in "VWXYZ"]
    for left, right in itertools.pairwise(chain):
        memory.create_relationship(left.id, right.id, "RELATED_TO")
    start = chain[0].id
    assert len(memory.get_entity_graph([start], depth=1).nodes) == 2
    assert len(memory.get_entity_graph([start], depth=2).nodes) == 3
    deep = memory.get_entity_graph([start], depth=10)
    assert {node.id for node in deep.nodes} == {entity.id for entity in chain[:4]}
    assert len(deep.edges) == 3
    with pytest.raises(InvalidInputError):
        memory.get_entity_graph([start], depth=0)


def test_search_entities_ranks_by_similarity(memory: AgentMemory) -> None:
    python = memory.upsert_entity("Python", "tool", description="programming language")
    memory.upsert_entity("Eiffel Tower", "location", description="landmark in Paris")
    hits = memory.search_entities("a programming language for scripting", top_k=2)
    assert hits[0][0].id == python.id
    assert hits[0][1] > hits[1][1]


def test_search_entities_matches_aliases_by_full_text(memory: AgentMemory) -> None:
    ibm = memory.upsert_entity("International Business Machines", "organization", aliases=["IBM"])
    for name in ("Intel", "IKEA", "IBIS hotels", "Business Insider"):
        memory.upsert_entity(name, "organization")
    hits = memory.search_entities("IBM", top_k=3)
    assert hits[0][0].id == ibm.id


@pytest.mark.parametrize("query", [*INJECTIONS, "@name:(x) | -y* ~z", "%%% ***", "AND OR NOT"])
def test_search_entities_survives_query_syntax(memory: AgentMemory, query: str) -> None:
    entity = memory.upsert_entity("Delete Corp", "organization")
    hits = memory.search_entities(query, top_k=5)
    assert [hit.id for hit, _ in hits] == [entity.id]
    assert memory.get_entity_info(entity.id).entity.name == "Delete Corp"


# -------------------------------------------------------------------------------------- corrections


def test_correct_fact_and_undo(memory: AgentMemory) -> None:
    acme = memory.upsert_entity("Acme Corp", "organization")
    old = memory.learn_fact("Acme's office is in Paris", confidence=0.7, source="chat", about=[acme.id])
    new = memory.correct_fact(old.id, "Acme's office is in Lyon")
    assert new.id != old.id
    assert new.is_current
    assert (new.about, new.confidence, new.source) == ([acme.id], 0.7, "chat")
    [current] = memory.get_entity_info(acme.id).facts
    assert current.id == new.id
    assert [fact.id for fact, _ in memory.search_facts("where is Acme's office?")] == [new.id]
    with pytest.raises(InvalidInputError, match="no longer current"):
        memory.correct_fact(old.id, "Acme's office is in Nice")

    restored = memory.undo_correction(new.id)
    assert restored.id == old.id
    assert restored.is_current
    assert restored.superseded_by is None
    assert [fact.id for fact, _ in memory.search_facts("where is Acme's office?")] == [old.id]
    with pytest.raises(ConflictError):
        memory.undo_correction(new.id)


def test_undo_correction_accepts_the_superseded_fact(memory: AgentMemory) -> None:
    old = memory.learn_fact("The meeting is on Monday", confidence=0.6, source="chat")
    memory.correct_fact(old.id, "The meeting is on Tuesday")
    assert memory.undo_correction(old.id).id == old.id
    with pytest.raises(ConflictError):
        memory.undo_correction(old.id)  # a plain fact is not a correction


def test_confirm_fact_protects_it(memory: AgentMemory) -> None:
    fact = memory.learn_fact(
        "Alice is allergic to peanuts", confidence=0.6, source="chat", priority="critical"
    )
    assert (fact.decay_rate, fact.salience) == (0.05, 1.0)
    confirmed = memory.confirm_fact(fact.id)
    assert (confirmed.id, confirmed.confidence, confirmed.decay_rate) == (fact.id, 1.0, 0.0)


def test_memory_stats_by_kind_and_channel(memory: AgentMemory) -> None:
    empty = memory.memory_stats()
    assert (empty.total, empty.latest_write) == (0, None)
    memory.upsert_entity("Alice", "person")
    fact = memory.learn_fact("Alice likes tea", confidence=0.9, source="chat")
    project = memory.for_user("alice", channel="apollo")
    project.learn_fact("Apollo ships in May", confidence=0.9, source="chat")
    project.correct_fact(fact.id, "Alice likes green tea")
    stats = project.memory_stats()
    assert stats.counts["Entity"] == {"_global": 1}
    assert stats.counts["Fact"] == {"_global": 1, "apollo": 2}
    assert stats.current_facts == 2
    assert stats.latest_write is not None
    assert memory.memory_stats().counts["Fact"] == {"_global": 1}  # _global does not read project channels


def test_writes_land_in_the_active_channel(memory: AgentMemory) -> None:
    apollo = memory.for_user("alice", channel="apollo")
    gemini = memory.for_user("alice", channel="gemini")
    fact = apollo.learn_fact("Apollo uses Rust", confidence=0.9, source="chat")
    assert fact.channel == "apollo"
    shared = memory.learn_fact("Alice prefers Rust", confidence=0.9, source="chat")
    assert {f.id for f, _ in apollo.search_facts("Rust")} == {fact.id, shared.id}
    assert {f.id for f, _ in gemini.search_facts("Rust")} == {shared.id}
    with pytest.raises(NotFoundError):
        gemini.confirm_fact(fact.id)


# -------------------------------------------------------------------------------- isolation, injection


def test_bob_sees_nothing_of_alices_semantic_memory(memory: AgentMemory, bob: AgentMemory) -> None:
    alice = memory.upsert_entity("Alice", "person")
    acme = memory.upsert_entity("Acme Corp", "organization")
    memory.create_relationship(alice.id, acme.id, "WORKS_FOR")
    fact = memory.learn_fact("Alice works at Acme", confidence=0.9, source="chat", about=[alice.id])
    correction = memory.correct_fact(fact.id, "Alice worked at Acme")

    assert bob.search_facts("Alice works at Acme") == []
    assert bob.search_entities("Alice") == []
    assert bob.memory_stats().total == 0
    for call in (
        lambda: bob.get_entity_graph([alice.id]),
        lambda: bob.get_entity_info(alice.id),
        lambda: bob.get_entity_info("Alice"),
        lambda: bob.create_relationship(alice.id, acme.id, "KNOWS"),
        lambda: bob.learn_fact("Bob knows Alice", confidence=0.5, source="chat", about=[alice.id]),
        lambda: bob.correct_fact(correction.id, "hijacked"),
        lambda: bob.undo_correction(correction.id),
        lambda: bob.confirm_fact(correction.id),
    ):
        with pytest.raises(NotFoundError):
            call()
    bob_alice = bob.upsert_entity("Alice", "person")  # bob's own Alice is a different node
    assert bob_alice.id != alice.id
    assert bob_alice.mention_count == 1
    assert memory.get_entity_info(alice.id).entity.mention_count == 1
    assert [f.id for f, _ in memory.search_facts("Alice worked at Acme")] == [correction.id]


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_payloads_are_stored_verbatim(
    memory: AgentMemory, graph: FalkorDBStore, payload: str
) -> None:
    other = memory.upsert_entity("Bystander", "person")
    entity = memory.upsert_entity(
        payload, "concept", aliases=[payload + " alias"], properties={payload: payload}
    )
    fact = memory.learn_fact(payload, confidence=0.5, source=payload, about=[entity.id, payload + "!"])
    memory.create_relationship(entity.id, other.id, "KNOWS", {payload: payload})
    assert (entity.name, entity.aliases, entity.properties) == (
        payload,
        [payload + " alias"],
        {payload: payload},
    )
    assert (fact.claim, fact.source) == (payload, payload)
    assert memory.get_entity_info(payload).entity.id == entity.id
    assert memory.get_entity_graph([entity.id]).edges[0].properties == {payload: payload}
    assert node_counts(graph) == {"Entity": 3, "Fact": 1, "User": 1}  # learn_fact keeps a User node
    assert memory.get_entity_info(other.id).entity.name == "Bystander"


# --------------------------------------------------------------------------------------------- async


async def test_async_twin_semantic_round_trip(amemory: AsyncAgentMemory) -> None:
    entity = await amemory.upsert_entity("Grace Hopper", "person", description="computer scientist")
    again = await amemory.upsert_entity("grace hopper", "person")
    assert again.id == entity.id
    assert again.mention_count == 2
    fact = await amemory.learn_fact(
        "Grace Hopper wrote the first compiler", confidence=0.8, source="book", about=[entity.id]
    )
    [(found, score)] = await amemory.search_facts("who wrote the first compiler?", top_k=1)
    assert found.id == fact.id
    assert score > 0.5
    confirmed = await amemory.confirm_fact(fact.id)
    assert confirmed.decay_rate == 0.0
    info = await amemory.get_entity_info("Grace Hopper")
    assert [f.id for f in info.facts] == [fact.id]
