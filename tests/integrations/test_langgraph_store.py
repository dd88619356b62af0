"""AgentMemoryStore against LangGraph's store contract.

The ``test_list_namespaces_*``, ``test_cannot_put_empty_namespace``, ``test_vector_*``,
``test_embed_with_path`` and ``test_non_ascii`` cases are ported from langgraph's
``libs/checkpoint/tests/test_store.py`` (github.com/langchain-ai/langgraph at f09cfe8, 2026-08-20),
which runs them against ``InMemoryStore``; the upstream ones use a character-count fake embedder, these
use the real local embedder, so assertions about exact scores became assertions about order and
membership. Isolation, the user-per-namespace option and TTL are ours.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest
from langgraph.store.base import InvalidNamespaceError, PutOp

from agentx_memory import AgentMemory, InvalidInputError
from agentx_memory.integrations.langgraph_store import SPACE, AgentMemoryStore

NAMESPACES = [
    ("a", "b", "c"),
    ("a", "b", "d", "e"),
    ("a", "b", "d", "i"),
    ("a", "b", "f"),
    ("a", "c", "f"),
    ("b", "a", "f"),
    ("users", "123"),
    ("users", "456", "settings"),
    ("admin", "users", "789"),
]


@pytest.fixture
def store(agent_memory: AgentMemory) -> AgentMemoryStore:
    return AgentMemoryStore(agent_memory)


def test_list_namespaces_basic(store: AgentMemoryStore) -> None:
    for i, ns in enumerate(NAMESPACES):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    ab = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]
    assert store.list_namespaces(prefix=("a", "b")) == ab
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("a",), suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == ab[:2]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == ab[2:]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(suffix=("*", "f")) == [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]


def test_list_namespaces_with_wildcards(store: AgentMemoryStore) -> None:
    for i, ns in enumerate(
        [
            ("users", "123"),
            ("users", "456"),
            ("users", "789", "settings"),
            ("admin", "users", "789"),
            ("guests", "123"),
            ("guests", "456", "preferences"),
        ]
    ):
        store.put(namespace=ns, key=f"id_{i}", value={"data": f"value_{i:02d}"})
    assert store.list_namespaces(prefix=("users", "*")) == [
        ("users", "123"),
        ("users", "456"),
        ("users", "789", "settings"),
    ]
    assert store.list_namespaces(suffix=("*", "preferences")) == [("guests", "456", "preferences")]
    assert store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings")) == []


def test_list_namespaces_pagination_and_depth(store: AgentMemoryStore) -> None:
    for i in range(12):
        store.put(("namespace", f"sub_{i:02d}"), f"id_{i:02d}", {"data": i})
    assert store.list_namespaces(prefix=("namespace",), limit=5, offset=5) == [
        ("namespace", f"sub_{i:02d}") for i in range(5, 10)
    ]
    assert store.list_namespaces(max_depth=1) == [("namespace",)]
    assert store.list_namespaces(prefix=("other",)) == []


def test_cannot_put_empty_namespace(store: AgentMemoryStore) -> None:
    doc = {"foo": "bar"}
    for bad in [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(bad, "foo", doc)
    store.put(("foo", "langgraph", "foo"), "bar", doc)
    assert store.get(("foo", "langgraph", "foo"), "bar").value == doc  # type: ignore[union-attr]
    assert store.search(("foo", "langgraph", "foo"), query="bar")[0].value == doc
    store.delete(("foo", "langgraph", "foo"), "bar")
    assert store.get(("foo", "langgraph", "foo"), "bar") is None
    # past the public put API, as upstream: only the labels are checked
    store.batch([PutOp(("langgraph", "foo"), "bar", doc)])
    assert store.search(("langgraph", "foo"))[0].value == doc
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("a.b",), "bar", doc)])


def test_vector_update_with_embedding(store: AgentMemoryStore) -> None:
    store.put(("test",), "doc1", {"text": "zany zebra Xerxes"})
    store.put(("test",), "doc2", {"text": "something about dogs"})
    store.put(("test",), "doc3", {"text": "text about birds"})
    initial = store.search(("test",), query="Zany Xerxes")
    assert initial[0].key == "doc1"
    assert initial[0].score is not None
    store.put(("test",), "doc1", {"text": "new text about dogs"})
    after = next(r.score for r in store.search(("test",), query="Zany Xerxes") if r.key == "doc1")
    assert after is not None
    assert after < initial[0].score
    store.put(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    top3 = store.search(("test",), query="new text about dogs", limit=3)
    assert "doc4" not in [r.key for r in top3]
    everything = store.search(("test",), query="new text about dogs", limit=10)
    assert [(r.key, r.score) for r in everything][-1] == ("doc4", None)  # tops up an unfilled page


def test_vector_search_with_filters(store: AgentMemoryStore) -> None:
    for key, value in [
        ("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
        ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
        ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
        ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
    ]:
        store.put(("test",), key, value)
    results = store.search(("test",), query="apple", filter={"color": "red"})
    assert [r.key for r in results] == ["doc1", "doc2"]
    results = store.search(("test",), query="car", filter={"color": "red"})
    assert [r.key for r in results] == ["doc2", "doc1"]
    results = store.search(("test",), query="blue vehicle", filter={"score": {"$gt": 3.2}})
    assert results[0].key == "doc4"
    assert {r.key for r in results} == {"doc1", "doc3", "doc4"}
    results = store.search(("test",), query="apple", filter={"score": {"$gte": 4.0}, "color": "green"})
    assert [r.key for r in results] == ["doc3"]


def test_vector_search_pagination(store: AgentMemoryStore) -> None:
    for i in range(5):
        store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = store.search(("test",), query="test", limit=2)
    page2 = store.search(("test",), query="test", limit=2, offset=2)
    assert len(page1) == len(page2) == 2
    assert not {r.key for r in page1} & {r.key for r in page2}
    assert len(store.search(("test",), query="test", limit=10)) == 5


async def test_embed_with_path(agent_memory: AgentMemory) -> None:
    store = AgentMemoryStore(agent_memory, index_fields=["key0", "key1", "key3"])
    await store.aput(("test",), "doc1", {"key1": "xxx", "key2": "yyy", "key3": "zzz"})
    await store.aput(("test",), "doc2", {"key0": "uuu", "key1": "vvv", "key2": "www", "key3": "xxx"})
    results = await store.asearch(("test",), query="xxx")
    assert len(results) == 2
    assert results[0].score == pytest.approx(results[1].score, abs=1e-5)  # both hold "xxx" in a field
    best = results[0].score
    assert best is not None
    results = await store.asearch(("test",), query="uuu")
    assert results[0].key == "doc2"
    results = await store.asearch(("test",), query="www")  # key2 is not indexed
    assert all(r.score is not None and r.score < best for r in results)

    per_op = AgentMemoryStore(agent_memory.for_user("bob"), index_fields=["key17"])
    await per_op.aput(
        ("test",), "doc3", {"key0": "aaa", "key1": "bbb", "key2": "ccc"}, index=["key0", "key1"]
    )
    await per_op.aput(
        ("test",), "doc4", {"key0": "eee", "key1": "bbb", "key3": "ggg"}, index=["key1", "key3"]
    )
    assert (await per_op.asearch(("test",), query="aaa"))[0].key == "doc3"
    assert (await per_op.asearch(("test",), query="ggg"))[0].key == "doc4"
    tie = await per_op.asearch(("test",), query="bbb")
    assert tie[0].score == pytest.approx(tie[1].score, abs=1e-5)
    await per_op.aput(("test",), "doc5", {"key0": "hhh", "key1": "iii"}, index=False)
    results = await per_op.asearch(("test",), query="hhh")
    assert len(results) == 3
    assert next(r for r in results if r.key == "doc5").score is None


def test_non_ascii(store: AgentMemoryStore) -> None:
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for i, text in enumerate(texts, start=1):
        store.put(("user_123", "memories"), str(i), {"text": text})
    for i, text in enumerate(texts, start=1):
        found = store.search(("user_123", "memories"), query=text)
        assert found[0].key == str(i)
        assert found[0].value == {"text": text}


def test_values_round_trip_exactly(store: AgentMemoryStore) -> None:
    value = {
        "text": "Ünïcode ✓ \n tabs\t",
        "n": 12345678901234567,
        "f": 0.1,
        "neg": -2.5e-12,
        "big": 7.002895247839731e16,  # jsonb would hand back the int 70028952478397310
        "huge": 1e300,
        "one": 1.0,
        "flag": False,
        "none": None,
        "list": [1, "two", [3.0], {"four": 4}],
        "nested": {"deep": {"deeper": ["x"]}, "": "empty key"},
    }
    store.put(("docs",), "k", value)
    item = store.get(("docs",), "k")
    assert item is not None
    assert item.value == value
    assert list(item.value) == list(value)  # key order kept
    assert type(item.value["one"]) is float
    assert item.namespace == ("docs",)
    first = item.created_at
    store.put(("docs",), "k", {"v": 2})
    again = store.get(("docs",), "k")
    assert again is not None
    assert again.value == {"v": 2}
    assert again.created_at == first
    assert again.updated_at >= first
    with pytest.raises(InvalidInputError, match="plain JSON"):
        store.put(("docs",), "bad", {"x": float("nan")})


def test_values_holding_a_nul_round_trip_and_are_found(store: AgentMemoryStore) -> None:
    # LangGraph's InMemoryStore keeps any Python string; the value column (``json``) keeps a NUL too.
    value = {"text": "tea\x00 with milk", "tags\x00": ["\x00", "C:\\u0000"], "kind": "a\x00"}
    store.put(("docs",), "k", value, index=["text"])
    item = store.get(("docs",), "k")
    assert item is not None
    assert item.value == value
    assert [found.key for found in store.search(("docs",), filter={"kind": "a\x00"})] == ["k"]
    assert store.search(("docs",), filter={"kind": "a"}) == []
    hits = store.search(("docs",), query="tea with milk")
    assert [hit.key for hit in hits] == ["k"]
    assert hits[0].score is not None
    assert hits[0].score > 0.9  # the NUL is not part of what was embedded


def test_repeated_texts_in_one_item(store: AgentMemoryStore) -> None:
    # LangGraph's InMemoryStore raises ValueError here (it keys the texts to embed by text)
    store.put(("t",), "k", {"tags": ["red", "red", "blue"]}, index=["tags[*]"])
    found = store.search(("t",), query="red")
    assert [(r.key, r.score is not None) for r in found] == [("k", True)]
    assert found[0].score == pytest.approx(1.0, abs=1e-3)


def test_users_are_isolated(agent_memory: AgentMemory) -> None:
    alice = AgentMemoryStore(agent_memory)
    bob = AgentMemoryStore(agent_memory.for_user("bob"))
    alice.put(("memories",), "m1", {"text": "alice likes tea"})
    assert bob.get(("memories",), "m1") is None
    assert bob.search(("memories",)) == []
    assert bob.search(("memories",), query="tea") == []
    assert bob.list_namespaces() == []
    bob.delete(("memories",), "m1")  # another user's key behaves as missing: nothing deleted
    assert alice.get(("memories",), "m1") is not None
    # another adapter's documents (an agents session) are not this store's namespaces
    agent_memory.put_document("openai-agents", ("session", "s1"), "0", {"role": "user"})
    assert alice.list_namespaces() == [("memories",)]


def test_user_from_namespace(agent_memory: AgentMemory) -> None:
    store = AgentMemoryStore(agent_memory, user_from_namespace=1)
    store.put(("memories", "carol"), "m", {"text": "carol's note"})
    store.put(("memories", "dave"), "m", {"text": "dave's note"})
    carol = store.search(("memories", "carol"), query="note")
    assert [(r.namespace, r.value["text"]) for r in carol] == [(("memories", "carol"), "carol's note")]
    assert store.list_namespaces(prefix=("memories", "dave")) == [("memories", "dave")]
    with pytest.raises(InvalidInputError, match="does not name a user"):
        store.search(("memories",))
    with pytest.raises(InvalidInputError, match="does not name a user"):
        store.list_namespaces(prefix=("memories", "*"))
    # stored as that user: the facade of carol sees it, alice (the store's own facade) does not
    doc = agent_memory.for_user("carol").get_document(SPACE, ("memories", "carol"), "m")
    assert doc is not None
    assert agent_memory.get_document(SPACE, ("memories", "carol"), "m") is None
    assert agent_memory.for_user("dave").forget_user()["documents"] == 1
    assert store.get(("memories", "dave"), "m") is None


def test_ttl(agent_memory: AgentMemory) -> None:
    store = AgentMemoryStore(agent_memory, ttl_config={"default_ttl": 10, "refresh_on_read": True})
    assert store.supports_ttl
    store.put(("t",), "short", {"v": 1}, ttl=0.001)  # 60 ms
    store.put(("t",), "default", {"v": 2})
    store.put(("t",), "forever", {"v": 3}, ttl=None)
    expiring = agent_memory.get_document(SPACE, ("t",), "default")
    assert expiring is not None
    assert expiring.expires_at is not None
    assert expiring.expires_at - datetime.now(UTC) > timedelta(minutes=9)
    forever = agent_memory.get_document(SPACE, ("t",), "forever")
    assert forever is not None
    assert forever.expires_at is None
    time.sleep(0.1)
    assert store.get(("t",), "short") is None
    assert [r.key for r in store.search(("t",))] == ["default", "forever"]
    assert store.list_namespaces() == [("t",)]


def test_dotted_filter_keys_reach_nested_values(store: AgentMemoryStore) -> None:
    # As LangGraph's SQLite store reads them (``json_extract(value, '$.u.a')``); InMemoryStore and the
    # Postgres store read the top-level field "u.a" only, which a value that has one still gets.
    store.put(("d",), "k", {"u": {"a": 1, "b": {"c": "deep"}}, "n": 2})
    store.put(("d",), "flat", {"u.a": 1, "u": {"a": 5}})
    assert [r.key for r in store.search(("d",), filter={"u.a": 1})] == ["k", "flat"]
    assert [r.key for r in store.search(("d",), filter={"u.a": {"$gt": 2}})] == []
    assert [r.key for r in store.search(("d",), filter={"u.b.c": "deep", "n": 2})] == ["k"]
    assert [r.key for r in store.search(("d",), filter={"u.b": {"c": "deep"}})] == ["k"]
    assert [r.key for r in store.search(("d",), filter={"u.x": {"$ne": 1}})] == ["k", "flat"]
    assert store.search(("d",), filter={"u.a.z": 1}) == []


def test_async_methods_from_several_event_loops(store: AgentMemoryStore) -> None:
    # ``abatch`` runs the synchronous facade in the calling loop's executor: any loop may call it.
    asyncio.run(store.aput(("loops",), "one", {"v": 1}))
    asyncio.run(store.aput(("loops",), "two", {"v": 2}))
    found = asyncio.run(store.asearch(("loops",), filter={"v": {"$gte": 2}}))
    assert [item.key for item in found] == ["two"]


def test_a_batch_with_an_invalid_namespace_is_refused_whole(store: AgentMemoryStore) -> None:
    # As LangGraph's SQL stores do (InMemoryStore runs the operations before the bad one).
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("valid",), "key", {}), PutOp(("bad.label",), "key", {})])
    assert store.get(("valid",), "key") is None
