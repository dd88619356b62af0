"""Access reinforcement off the vector-indexed nodes: recalls, searches, entity look-ups and merges that
bring nothing new count in the ledger (``memory_access``) and write no graph node, so FalkorDB's vector
indexes gain no entry (FalkorDB 4.16 leaves a stale one per node write, FalkorDB#2197); what callers read
still carries the counts, and another user sees none of them."""

from __future__ import annotations

from agentx_memory import AgentMemory
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.schema import VectorLabel


def _entries(graph: FalkorDBStore) -> dict[VectorLabel, int]:
    return {label: size.entries for label, size in graph.vector_index_sizes().items()}


def _compacted(graph: FalkorDBStore) -> dict[VectorLabel, int]:
    graph.compact_vector_indexes(["Fact", "Entity"], timeout_s=30)
    sizes = graph.vector_index_sizes()
    assert all(size.entries == size.live for size in sizes.values())
    return _entries(graph)


def test_recall_and_searches_count_accesses_without_writing_a_vector_node(
    memory: AgentMemory, graph: FalkorDBStore
) -> None:
    osaka = memory.upsert_entity("Osaka", "location", description="a city in Japan")
    fact = memory.learn_fact("Alice's sister lives in Osaka", confidence=0.9, source="chat", about=["Osaka"])
    before = _compacted(graph)

    for _ in range(5):
        bundle = memory.remember("Where does Alice's sister live?", top_k=5)
        assert {fact.id, osaka.id} <= {item.id for item in bundle.items}
    memory.search_facts("Where does Alice's sister live?", top_k=1)
    memory.search_entities("Osaka", top_k=1)
    memory.get_entity_info("Osaka")
    memory.close()  # waits for the async facade's background reinforcement; reopens on use

    assert _entries(graph) == before
    backends = memory._open_backends()
    assert backends.facts.get(memory.scope, fact.id).access_count == 6
    entity = backends.entities.get(memory.scope, osaka.id)
    assert entity.access_count == 6  # five recalls and get_entity_info (a search counts nothing)
    assert entity.last_accessed is not None
    again = memory.remember("Where does Alice's sister live?", top_k=5)
    seen = {item.id: item.last_accessed for item in again.items}
    assert seen[fact.id] is not None
    assert seen[osaka.id] == entity.last_accessed


def test_a_merge_writes_the_entity_only_when_it_adds_something(
    memory: AgentMemory, graph: FalkorDBStore
) -> None:
    first = memory.upsert_entity("Maya Tanaka", "person", description="Alice's sister")
    before = _compacted(graph)

    same = memory.upsert_entity("Maya Tanaka", "person")
    assert (same.id, same.mention_count, same.access_count) == (first.id, 2, 1)
    assert same.updated_at == first.updated_at
    assert _entries(graph) == before

    aliased = memory.upsert_entity("Maya Tanaka", "person", aliases=["Maya"])
    assert (aliased.aliases, aliased.mention_count, aliased.description) == (["Maya"], 3, "Alice's sister")
    assert _entries(graph)["Entity"] == before["Entity"] + 1  # one node write: the new alias
    assert memory.get_entity_info("Maya").entity.id == first.id


def test_a_name_shared_by_two_entities_finds_the_most_mentioned(memory: AgentMemory) -> None:
    company = memory.upsert_entity("Jaguar", "organization")
    animal = memory.upsert_entity("Jaguar", "concept")
    for _ in range(2):
        memory.upsert_entity("Jaguar", "concept")
    assert memory.get_entity_info("jaguar").entity.id == animal.id
    for _ in range(3):
        memory.upsert_entity("Jaguar", "organization")
    assert memory.get_entity_info("Jaguar").entity.id == company.id


def test_another_user_sees_no_access_of_alices(memory: AgentMemory) -> None:
    fact = memory.learn_fact("The spare key is under the blue pot", confidence=0.9, source="chat")
    memory.search_facts("where is the spare key?", top_k=1)
    bob = memory.for_user("bob")
    bobs = bob.learn_fact("The spare key is under the blue pot", confidence=0.9, source="chat")
    assert bob.search_facts("where is the spare key?", top_k=1)[0][0].id == bobs.id
    assert memory._open_backends().access.get(bob.scope, "fact", [fact.id]) == {}
    assert bob.search_facts("where is the spare key?", top_k=1)[0][0].access_count == 2
    assert memory.search_facts("where is the spare key?", top_k=1)[0][0].access_count == 2
