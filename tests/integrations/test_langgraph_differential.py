"""Differential test: AgentMemoryStore against LangGraph's own InMemoryStore (the oracle).

Random sequences of put (indexed, not indexed, per-field) / delete / get / search (filter, limit,
offset; with and without a query) / list_namespaces (prefix, suffix, max_depth, limit, offset) go to
both stores; every answer must agree. Searches by query are compared by membership and value (the two
stores rank with the same embedder, but float32 vectors in pgvector may reorder near-ties); the oracle
gets the same local embedder. Each example runs as a fresh user on the test's stores.

One normalisation of the oracle: InMemoryStore keeps a namespace in its dict after its last item is
deleted, and a ``get`` in an unknown namespace creates one (``defaultdict``); both then show up in
``list_namespaces`` and fix the namespace's place in the listing order. LangGraph's Postgres and SQLite
stores list only namespaces that hold items, as ours does, so empty namespaces are pruned from the
oracle before every step. And one restriction of the inputs: the oracle raises ``ValueError: Number of
embeddings (2) does not match number of indices (3)`` when one put holds the same text twice at
indexed paths (``{"tags": ["red", "red"]}`` indexed at ``tags[*]``: it keys texts to embed by text), so
generated lists hold distinct values; ours embeds each path (tested in test_langgraph_store.py).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from langgraph.store.base import IndexConfig, Item
from langgraph.store.memory import InMemoryStore

from agentx_memory import AgentMemory
from agentx_memory.embedding import Embedder
from agentx_memory.integrations.langgraph_store import AgentMemoryStore

NAMESPACES = [("docs",), ("docs", "a"), ("docs", "b"), ("notes", "a"), ("docs", "a", "x")]
PREFIXES = [(), ("docs",), ("docs", "a"), ("notes",), ("nothing",)]
KEYS = ["k1", "k2", "k3"]
WORDS = ["tea", "coffee", "the trip to Lisbon", "a red car", "quarterly report"]
FILTERS: list[dict[str, Any] | None] = [
    None,
    {"kind": "a"},
    {"kind": {"$ne": "a"}},
    {"n": {"$gt": 2}},
    {"n": {"$lte": 3}, "kind": "b"},
    {"nested": {"x": 1}},
    {"tags": ["red", "blue"]},
]

values = st.fixed_dictionaries(
    {
        "text": st.sampled_from(WORDS),
        "kind": st.sampled_from(["a", "b"]),
        "n": st.integers(0, 5) | st.floats(0, 5, allow_nan=False),
    },
    optional={
        "nested": st.fixed_dictionaries({"x": st.integers(0, 2)}),
        "tags": st.lists(st.sampled_from(["red", "blue"]), max_size=2, unique=True),
        "extra": st.none()
        | st.booleans()
        | st.text(max_size=5)
        | st.sampled_from(["\x00", "a\x00b", "C:\\u0000"])  # a NUL (and its escape) as InMemoryStore keeps it
        | st.floats(allow_nan=False, allow_infinity=False),
    },
)
puts = st.tuples(
    st.just("put"),
    st.sampled_from(NAMESPACES),
    st.sampled_from(KEYS),
    values,
    st.sampled_from([None, False, ["text"], ["kind", "tags[*]"]]),
)
deletes = st.tuples(st.just("delete"), st.sampled_from(NAMESPACES), st.sampled_from(KEYS))
gets = st.tuples(st.just("get"), st.sampled_from([*NAMESPACES, ("unknown",)]), st.sampled_from(KEYS))
searches = st.tuples(
    st.just("search"),
    st.sampled_from(PREFIXES),
    st.sampled_from(FILTERS),
    st.integers(0, 6),
    st.integers(0, 4),
)
queries = st.tuples(
    st.just("query"), st.sampled_from(PREFIXES), st.sampled_from(FILTERS), st.sampled_from(WORDS)
)
listings = st.tuples(
    st.just("list"),
    st.sampled_from([None, ("docs",), ("docs", "*"), ("*", "a")]),
    st.sampled_from([None, ("a",), ("*", "x")]),
    st.sampled_from([None, 1, 2]),
    st.integers(1, 4),
    st.integers(0, 2),
)
steps = st.lists(st.one_of(puts, puts, deletes, gets, searches, queries, listings), min_size=1, max_size=14)

#: The listing order without a query: namespaces in the order they were first filled (again after being
#: emptied), keys in first-insert order (a replacement keeps its place, a re-insert goes last).
ORDER_QUIRKS: list[tuple[Any, ...]] = [
    ("put", ("docs", "a"), "k1", {"text": "tea", "kind": "a", "n": 1}, None),
    ("put", ("docs",), "k1", {"text": "tea", "kind": "a", "n": 1}, False),
    ("put", ("docs", "a"), "k2", {"text": "tea", "kind": "b", "n": 2}, None),
    ("put", ("docs", "a"), "k1", {"text": "coffee", "kind": "a", "n": 3}, None),
    ("search", (), None, 6, 0),
    ("delete", ("docs", "a"), "k1"),
    ("put", ("docs", "a"), "k1", {"text": "tea", "kind": "a", "n": 4}, None),
    ("search", ("docs",), None, 6, 0),
    ("delete", ("docs", "a"), "k1"),
    ("delete", ("docs", "a"), "k2"),
    ("get", ("docs", "a"), "k2"),
    ("put", ("docs", "a"), "k3", {"text": "tea", "kind": "a", "n": 5}, None),
    ("search", (), None, 6, 1),
    ("list", None, None, None, 4, 0),
]


def _prune_empty(oracle: InMemoryStore) -> None:
    for namespace in [ns for ns, items in oracle._data.items() if not items]:
        del oracle._data[namespace]
        oracle._vectors.pop(namespace, None)


def _unindex(oracle: InMemoryStore, step: tuple[Any, ...]) -> None:
    """A put with ``index=False`` leaves the item out of query ranking (the documented meaning, and
    what the Postgres and SQLite stores do); InMemoryStore keeps the vectors of the item it replaces,
    so a re-put with ``index=False`` still ranks with a score there. Found by hypothesis: put k2
    indexed, put k2 with ``index=False``, query."""
    if step[0] == "put" and step[4] is False:
        oracle._vectors.get(tuple(step[1]), {}).pop(step[2], None)


def _view(item: Item | None) -> tuple[tuple[str, ...], str, dict[str, Any]] | None:
    return None if item is None else (item.namespace, item.key, item.value)


def _apply(store: AgentMemoryStore | InMemoryStore, step: tuple[Any, ...]) -> object:
    match step:
        case ("put", namespace, key, value, index):
            store.put(namespace, key, value, index=index)
            return None
        case ("delete", namespace, key):
            store.delete(namespace, key)
            return None
        case ("get", namespace, key):
            return _view(store.get(namespace, key))
        case ("search", prefix, conditions, limit, offset):
            found = store.search(prefix, filter=conditions, limit=limit, offset=offset)
            return [_view(item) for item in found]
        case ("query", prefix, conditions, query):
            found = store.search(prefix, query=query, filter=conditions, limit=50)
            return sorted((json.dumps(_view(item), sort_keys=True), item.score is None) for item in found)
        case ("list", prefix, suffix, max_depth, limit, offset):
            return store.list_namespaces(
                prefix=prefix, suffix=suffix, max_depth=max_depth, limit=limit, offset=offset
            )
    raise AssertionError(step)


def test_same_answers_as_in_memory_store(agent_memory: AgentMemory, embedder: Embedder) -> None:
    def embed(texts: Sequence[str]) -> list[list[float]]:
        return [list(map(float, vector)) for vector in embedder.embed(list(texts))]

    @settings(
        max_examples=50,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(steps)
    @example(ORDER_QUIRKS)
    def run(sequence: list[tuple[Any, ...]]) -> None:
        ours = AgentMemoryStore(agent_memory.for_user(f"u{uuid.uuid4().hex[:10]}"))
        oracle = InMemoryStore(index=IndexConfig(dims=embedder.dimensions, embed=embed))
        for number, step in enumerate(sequence):
            _prune_empty(oracle)
            _unindex(oracle, step)
            expected, got = _apply(oracle, step), _apply(ours, step)
            assert got == expected, f"step {number}: {step}"

    run()
