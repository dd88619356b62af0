"""Bad input is refused with an InvalidInputError that says what is allowed, and changes nothing.

"Nothing" is measured on the real stores: every row of the test's Postgres schema (ledger and audit), every
node and edge of its graph and every Redis key under its prefix are counted before and after.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import psycopg
import pytest
from falkordb import FalkorDB
from psycopg import sql

from agentx_memory import (
    AgentMemory,
    AgentMemoryError,
    EmbeddingDimensionError,
    InvalidInputError,
    Settings,
    StoreUnavailableError,
)
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from agentx_memory.stores.redis import RedisStore
from tests.conftest import cleanup, isolated_settings
from tests.payloads import INJECTIONS


@dataclass
class Guarded:
    """A facade with small limits, one conversation, and a way to count everything it could touch."""

    memory: AgentMemory
    settings: Settings
    endpoints: ResolvedEndpoints
    conversation_id: str

    def snapshot(self) -> tuple[object, ...]:
        schema = sql.Identifier(self.settings.postgres.schema_name)
        with psycopg.connect(self.endpoints.postgres_url, autocommit=True) as conn:
            counts = tuple(
                conn.execute(
                    sql.SQL("SELECT count(*) FROM {}.{}").format(schema, sql.Identifier(table))
                ).fetchone()
                for table in ("conversations", "conversation_logs", "memory_audit_log", "memory_timeline")
            )
            ledger = conn.execute(
                sql.SQL("SELECT coalesce(max(next_turn_index), -1) FROM {}.conversations").format(schema)
            ).fetchone()
        db = FalkorDB.from_url(self.endpoints.falkordb_url)
        try:
            graph = db.select_graph(self.settings.graph.name)
            nodes = graph.ro_query("MATCH (n) RETURN count(n)").result_set
            edges = graph.ro_query("MATCH ()-[r]->() RETURN count(r)").result_set
        finally:
            db.connection.close()
        redis = RedisStore(self.endpoints.redis_url)
        try:
            redis_keys = sorted(redis.scan(f"{self.settings.redis.key_prefix}:*"))
        finally:
            redis.close()
        return counts, ledger, nodes, edges, redis_keys


@pytest.fixture(scope="module")
def guarded(endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder) -> Iterator[Guarded]:
    chosen = isolated_settings(
        endpoints,
        data_dir,
        limits={"max_content_chars": 100, "max_metadata_bytes": 200, "max_title_chars": 50},
        audit={"level": "reads"},  # a read that slipped past validation would leave an audit row
    )
    try:
        with AgentMemory("alice", settings=chosen, embedder=embedder) as mem:
            cid = mem.new_conversation(title="guarded")
            mem.store_turn(cid, "user", "the only turn")
            mem.working(cid).set("k", "v")
            yield Guarded(mem, chosen, endpoints, cid)
    finally:
        cleanup(chosen, endpoints)


Call = Callable[[AgentMemory, str], object]


def _as_user(user_id: str) -> Call:
    return lambda m, c: m.for_user(user_id)


def _in_channel(channel: str) -> Call:
    return lambda m, c: m.for_user("alice", channel=channel)


CASES: list[tuple[str, Call, str]] = [
    # content
    ("empty-content", lambda m, c: m.store_turn(c, "user", ""), "empty"),
    ("blank-content", lambda m, c: m.store_turn(c, "user", "  \n\t "), "empty"),
    ("long-content", lambda m, c: m.store_turn(c, "user", "x" * 101), "max_content_chars"),
    ("nul-content", lambda m, c: m.store_turn(c, "user", "a\x00b"), "NUL"),
    ("int-content", lambda m, c: m.store_turn(c, "user", 42), "must be a string"),  # type: ignore[arg-type]
    # role
    ("unknown-role", lambda m, c: m.store_turn(c, "robot", "hi"), "role 'robot'"),
    ("uppercase-role", lambda m, c: m.store_turn(c, "USER", "hi"), "assistant, system, tool, user"),
    ("none-role", lambda m, c: m.store_turn(c, None, "hi"), "role None"),  # type: ignore[arg-type]
    # conversation id
    ("non-uuid", lambda m, c: m.store_turn("not-a-uuid", "user", "hi"), "not a UUID"),
    ("empty-uuid", lambda m, c: m.store_turn("", "user", "hi"), "not a UUID"),
    ("sql-uuid", lambda m, c: m.store_turn("' OR 1=1 --", "user", "hi"), "not a UUID"),
    ("get-non-uuid", lambda m, c: m.get_conversation("123"), "not a UUID"),
    ("working-non-uuid", lambda m, c: m.working("x"), "not a UUID"),
    # turn index
    ("negative-index", lambda m, c: m.store_turn(c, "user", "hi", turn_index=-1), "turn_index"),
    ("bool-index", lambda m, c: m.store_turn(c, "user", "hi", turn_index=True), "turn_index"),
    ("float-index", lambda m, c: m.store_turn(c, "user", "hi", turn_index=1.5), "turn_index"),  # type: ignore[arg-type]
    ("str-index", lambda m, c: m.store_turn(c, "user", "hi", turn_index="3"), "turn_index"),  # type: ignore[arg-type]
    # metadata
    ("str-metadata", lambda m, c: m.store_turn(c, "user", "hi", metadata="{}"), "dict"),  # type: ignore[arg-type]
    ("object-metadata", lambda m, c: m.store_turn(c, "user", "hi", metadata={"a": object()}), "JSON"),
    ("nan-metadata", lambda m, c: m.store_turn(c, "user", "hi", metadata={"a": float("nan")}), "JSON"),
    ("int-key-metadata", lambda m, c: m.store_turn(c, "user", "hi", metadata={1: "x"}), "string keys"),  # type: ignore[dict-item]
    (
        "big-metadata",
        lambda m, c: m.store_turn(c, "user", "hi", metadata={"k": "x" * 300}),
        "max_metadata_bytes",
    ),
    ("nul-metadata", lambda m, c: m.store_turn(c, "user", "hi", metadata={"k": "a\x00"}), "NUL"),
    ("conversation-metadata", lambda m, c: m.new_conversation(metadata={"a": {1, 2}}), "JSON"),
    # timestamp
    ("str-timestamp", lambda m, c: m.store_turn(c, "user", "hi", timestamp="2024-01-01"), "datetime"),  # type: ignore[arg-type]
    # title
    ("empty-title", lambda m, c: m.new_conversation(title=""), "title is empty"),
    ("long-title", lambda m, c: m.new_conversation(title="t" * 60), "50"),
    ("nul-title", lambda m, c: m.new_conversation(title="a\x00"), "NUL"),
    # recall
    ("top-k-zero", lambda m, c: m.remember("hi", top_k=0), "top_k"),
    ("top-k-huge", lambda m, c: m.remember("hi", top_k=10_000), "top_k"),
    ("top-k-bool", lambda m, c: m.remember("hi", top_k=True), "top_k"),
    ("empty-query", lambda m, c: m.remember("   "), "query is empty"),
    ("long-query", lambda m, c: m.remember("q" * 101), "max_content_chars"),
    ("hours-zero", lambda m, c: m.get_recent_turns(hours=0), "hours"),
    ("hours-negative", lambda m, c: m.get_recent_turns(hours=-1), "hours"),
    ("hours-bool", lambda m, c: m.get_recent_turns(hours=True), "hours"),
    ("hours-str", lambda m, c: m.get_recent_turns(hours="24"), "hours"),  # type: ignore[arg-type]
    ("limit-zero", lambda m, c: m.get_recent_turns(limit=0), "limit"),
    # working memory
    ("working-name-colon", lambda m, c: m.working(c).set("a:b", 1), "working-memory key"),
    ("working-name-empty", lambda m, c: m.working(c).set("", 1), "working-memory key"),
    ("working-name-glob", lambda m, c: m.working(c).set("*", 1), "working-memory key"),
    ("working-name-long", lambda m, c: m.working(c).set("n" * 101, 1), "working-memory key"),
    ("working-value", lambda m, c: m.working(c).set("n", object()), "JSON"),
    ("working-ttl-zero", lambda m, c: m.working(c).set("n", 1, ttl_s=0), "ttl"),
    ("working-ttl-bool", lambda m, c: m.working(c).set("n", 1, ttl_s=True), "ttl"),
    ("working-goal", lambda m, c: m.working(c).set_active_goal({"x": object()}), "JSON"),
    ("working-thought", lambda m, c: m.working(c).push_thought(""), "thought"),
    ("working-get-name", lambda m, c: m.working(c).get("a b"), "working-memory key"),
    # identities
    *[
        (f"user-{n}", _as_user(bad), "user_id")
        for n, bad in enumerate(["", "a:b", "x*", "u" * 200, "../etc", "-lead", "sp ace", "ä"])
    ],
    *[
        (f"channel-{n}", _in_channel(bad), "channel")
        for n, bad in enumerate(["Proj", "a b", "_other", "p" * 101, "a:b", "", "-x", "proj*"])
    ],
    ("new-facade-user", lambda m, c: AgentMemory("a:b", settings=m.settings), "user_id"),
    ("new-facade-channel", lambda m, c: AgentMemory("alice", "Proj", settings=m.settings), "channel"),
]


@pytest.mark.parametrize(
    ("call", "expected"),
    [pytest.param(call, expected, id=name) for name, call, expected in CASES],
)
def test_bad_input_is_refused_and_changes_nothing(guarded: Guarded, call: Call, expected: str) -> None:
    before = guarded.snapshot()
    with pytest.raises(InvalidInputError) as caught:
        call(guarded.memory, guarded.conversation_id)
    assert isinstance(caught.value, AgentMemoryError)
    assert isinstance(caught.value, ValueError)
    assert expected in str(caught.value)
    assert guarded.snapshot() == before


def test_limits_are_inclusive(guarded: Guarded) -> None:
    """The boundary values themselves are accepted (so the refusals above are about the limit)."""
    cid = guarded.memory.new_conversation(title="t" * 50)
    turn = guarded.memory.store_turn(cid, "user", "x" * 100, metadata={"k": "x" * 150})
    assert len(turn.content) == 100
    assert len(guarded.memory.remember("x" * 100, top_k=200).items) >= 1
    assert guarded.memory.get_recent_turns(hours=0.001, limit=1)[0].id == turn.id


# ------------------------------------------------------------------------------- accepted odd values


def test_naive_timestamp_is_taken_as_utc(memory: AgentMemory, ledger: PostgresStore) -> None:
    cid = memory.new_conversation()
    naive = memory.store_turn(cid, "user", "naive", timestamp=datetime(2024, 5, 3, 12, 30))
    assert naive.timestamp == datetime(2024, 5, 3, 12, 30, tzinfo=UTC)
    lisbon = timezone(timedelta(hours=2))
    aware = memory.store_turn(cid, "user", "aware", timestamp=datetime(2024, 5, 3, 14, 30, tzinfo=lisbon))
    assert aware.timestamp == datetime(2024, 5, 3, 12, 30, tzinfo=UTC)
    rows = ledger.fetch_all("list_turns", {"conversation_id": cid, "user_id": "alice"})
    assert [row["timestamp"] for row in rows] == [datetime(2024, 5, 3, 12, 30, tzinfo=UTC)] * 2
    assert [turn.timestamp for turn in memory.get_conversation(cid)] == [naive.timestamp, aware.timestamp]


def test_injection_strings_are_stored_verbatim(
    memory: AgentMemory, ledger: PostgresStore, settings: Settings, endpoints: ResolvedEndpoints
) -> None:
    conversations = []
    for payload in INJECTIONS:
        cid = memory.new_conversation(title=payload, metadata={"p": payload, payload: 1})
        memory.store_turn(cid, "user", payload, metadata={"p": payload})
        conversations.append(cid)
    for payload, cid in zip(INJECTIONS, conversations, strict=True):
        row = ledger.fetch_one("get_conversation", {"conversation_id": cid, "user_id": "alice"})
        assert row is not None
        assert (row["title"], row["metadata"]) == (payload, {"p": payload, payload: 1})
        [turn] = memory.get_conversation(cid)
        assert (turn.content, turn.metadata) == (payload, {"p": payload})
        recalled = memory.remember(payload, top_k=1).items[0]
        assert (recalled.content, recalled.metadata, recalled.conversation_id) == (
            payload,
            {"p": payload},
            cid,
        )
    graph = FalkorDBStore(endpoints.falkordb_url or "", settings.graph.name)
    try:
        counts = {row["label"]: row["count"] for row in graph.run("count_user_nodes", {"user_id": "alice"})}
    finally:
        graph.close()
    assert counts == {"Conversation": len(INJECTIONS), "Turn": len(INJECTIONS), "User": 1}
    assert len(memory.get_recent_turns(limit=50)) == len(INJECTIONS)


# ------------------------------------------------------------------------------------ misconfiguration


class ThreeDimensionalEmbedder:
    """A misconfigured embedder: it claims the model's 384 dimensions but returns 3-d vectors."""

    def __init__(self, model_id: str, claimed: int = 384) -> None:
        self._model_id = model_id
        self._claimed = claimed

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimensions(self) -> int:
        return self._claimed

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0, 0.0] for _ in texts]

    def embed_one(self, text: str) -> list[float]:
        return self.embed([text])[0]


def test_wrong_dimension_embedder_stores_nothing(
    memory: AgentMemory, settings: Settings, embedder: Embedder, ledger: PostgresStore
) -> None:
    cid = memory.new_conversation()
    memory.store_turn(cid, "user", "a good turn")
    bad: Embedder = ThreeDimensionalEmbedder(embedder.model_id)
    with AgentMemory("alice", settings=settings, embedder=bad) as broken:
        with pytest.raises(EmbeddingDimensionError, match="AGENTX_EMBEDDING__DIMENSIONS") as caught:
            broken.store_turn(cid, "user", "never stored")
        assert "3-dimensional" in str(caught.value)
    rows = ledger.fetch_all("list_turns", {"conversation_id": cid, "user_id": "alice"})
    assert [row["content"] for row in rows] == ["a good turn"]
    assert [turn.content for turn in memory.working(cid).get_recent_turns()] == ["a good turn"]
    assert memory.store_turn(cid, "user", "next").index == 1


def test_wrong_dimension_embedder_on_recall(
    memory: AgentMemory, settings: Settings, embedder: Embedder
) -> None:
    cid = memory.new_conversation()
    memory.store_turn(cid, "user", "a good turn")
    bad: Embedder = ThreeDimensionalEmbedder(embedder.model_id)
    with (
        AgentMemory("alice", settings=settings, embedder=bad) as broken,
        pytest.raises(EmbeddingDimensionError, match="AGENTX_EMBEDDING__DIMENSIONS"),
    ):
        broken.remember("a good turn")


def test_embedder_of_another_dimension_is_refused_at_open(
    memory: AgentMemory, settings: Settings, embedder: Embedder
) -> None:
    memory.new_conversation()  # the schema is locked to 384 dimensions
    other: Embedder = ThreeDimensionalEmbedder(embedder.model_id, claimed=3)
    with pytest.raises(EmbeddingDimensionError, match="AGENTX_EMBEDDING__DIMENSIONS=384"):
        AgentMemory("alice", settings=settings, embedder=other).open()


def _unreachable(settings: Settings, **store: Any) -> Settings:
    values = settings.model_dump(by_alias=True)
    for group, override in store.items():
        values[group] = {**values[group], **override}
    return Settings.model_validate(values)


@pytest.mark.parametrize(
    ("group", "override", "hint"),
    [
        (
            "postgres",
            {"url": "postgresql://postgres@127.0.0.1:1/postgres", "connect_timeout_s": 2},
            "AGENTX_POSTGRES__URL",
        ),
        ("redis", {"url": "redis://127.0.0.1:1/0"}, "AGENTX_REDIS__URL"),
        pytest.param(
            "graph",
            {"falkordb_url": "redis://127.0.0.1:1/0"},
            "AGENTX_GRAPH__FALKORDB_URL",
            id="falkordb",
        ),
    ],
    ids=["postgres", "redis", "falkordb"],
)
def test_unreachable_store_names_the_setting(
    endpoints: ResolvedEndpoints,
    data_dir: Path,
    embedder: Embedder,
    group: str,
    override: dict[str, object],
    hint: str,
) -> None:
    chosen = isolated_settings(endpoints, data_dir)
    broken = _unreachable(chosen, **{group: override})
    try:
        with pytest.raises(StoreUnavailableError) as caught:
            AgentMemory("alice", settings=broken, embedder=embedder).open()
        assert hint in str(caught.value)
        with pytest.raises(StoreUnavailableError):  # a later call fails the same way, it does not hang
            AgentMemory("alice", settings=broken, embedder=embedder).get_recent_turns()
    finally:
        cleanup(chosen, endpoints)


def test_metadata_round_trip_is_json(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    metadata: dict[str, Any] = {"nested": {"list": [1, 2.5, None, True]}, "unicode": "Ωmega"}
    turn = memory.store_turn(cid, "user", "with metadata", metadata=metadata)
    assert turn.metadata == metadata
    assert memory.get_conversation(cid)[0].metadata == json.loads(json.dumps(metadata))
