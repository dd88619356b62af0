"""The sync facade end to end on the real servers: episodic writes, recall, working memory, audit."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from psycopg import sql

from agentx_memory import AgentMemory, ConflictError, GraphSyncError, InvalidInputError, Settings, Turn
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.stores import keys
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from agentx_memory.stores.redis import RedisStore
from tests.conftest import cleanup, isolated_settings


@pytest.fixture
def redis_store(endpoints: ResolvedEndpoints) -> Iterator[RedisStore]:
    store = RedisStore(endpoints.redis_url)
    yield store
    store.close()


def ledger_turns(ledger: PostgresStore, conversation_id: str, user_id: str = "alice") -> list[dict[str, Any]]:
    return ledger.fetch_all("list_turns", {"conversation_id": conversation_id, "user_id": user_id})


def graph_turns(graph: FalkorDBStore, conversation_id: str, user_id: str = "alice") -> list[dict[str, Any]]:
    rows = graph.run("get_conversation_turns", {"conversation_id": conversation_id, "user_id": user_id})
    return [dict(row["item"]) for row in rows]


# ----------------------------------------------------------------------------------------------- episodic


def test_new_conversation_returns_a_fresh_uuid(memory: AgentMemory, ledger: PostgresStore) -> None:
    first = memory.new_conversation(title="trip planning", metadata={"source": "test"})
    second = memory.new_conversation()
    assert str(uuid.UUID(first)) == first
    assert uuid.UUID(first).version == 4
    assert first != second
    row = ledger.fetch_one("get_conversation", {"conversation_id": first, "user_id": "alice"})
    assert row is not None
    assert (row["title"], row["metadata"], row["channel"]) == ("trip planning", {"source": "test"}, "_global")
    assert row["next_turn_index"] == 0
    assert row["graph_synced"] is True
    assert memory.get_conversation(first) == []


def test_store_turn_allocates_consecutive_indexes(
    memory: AgentMemory, ledger: PostgresStore, graph: FalkorDBStore
) -> None:
    cid = memory.new_conversation()
    script = [
        ("user", "hello"),
        ("assistant", "hi, how can I help?"),
        ("user", "book a flight"),
        ("tool", "ok"),
    ]
    stored = [memory.store_turn(cid, role, content) for role, content in script]
    assert [turn.index for turn in stored] == [0, 1, 2, 3]
    assert all(turn.synced for turn in stored)
    assert {turn.user_id for turn in stored} == {"alice"}
    conversation = memory.get_conversation(cid)
    assert [(turn.role, turn.content) for turn in conversation] == script
    assert [turn.id for turn in conversation] == [turn.id for turn in stored]
    assert [row["graph_synced"] for row in ledger_turns(ledger, cid)] == [True] * 4
    assert [item["id"] for item in graph_turns(graph, cid)] == [turn.id for turn in stored]
    edges = graph.run("get_turn_chain", {"conversation_id": cid, "user_id": "alice"})
    assert [(row["source"], row["target"]) for row in edges] == [(0, 1), (1, 2), (2, 3)]


def test_retry_with_the_same_index_is_idempotent(
    memory: AgentMemory, ledger: PostgresStore, graph: FalkorDBStore
) -> None:
    cid = memory.new_conversation()
    first = memory.store_turn(cid, "user", "remember the milk", turn_index=0, metadata={"try": 1})
    again = memory.store_turn(cid, "user", "remember the milk", turn_index=0, metadata={"try": 2})
    assert again.id == first.id
    assert again.index == 0
    assert again.metadata == {"try": 1}  # the stored turn, not the retried one
    assert len(ledger_turns(ledger, cid)) == 1
    assert len(graph_turns(graph, cid)) == 1
    assert memory.store_turn(cid, "assistant", "noted").index == 1


def test_different_content_at_an_existing_index_conflicts(memory: AgentMemory, ledger: PostgresStore) -> None:
    cid = memory.new_conversation()
    original = memory.store_turn(cid, "user", "original", turn_index=0)
    before = ledger_turns(ledger, cid)
    with pytest.raises(ConflictError, match="index 0"):
        memory.store_turn(cid, "user", "something else", turn_index=0)
    with pytest.raises(ConflictError):
        memory.store_turn(cid, "assistant", "original", turn_index=0)  # the role is part of the turn
    assert ledger_turns(ledger, cid) == before
    assert [turn.content for turn in memory.get_conversation(cid)] == ["original"]
    assert memory.store_turn(cid, "user", "next").index == original.index + 1


def test_explicit_index_ahead_then_auto_continues_after_it(
    memory: AgentMemory, ledger: PostgresStore
) -> None:
    cid = memory.new_conversation()
    assert memory.store_turn(cid, "user", "first").index == 0
    assert memory.store_turn(cid, "user", "jump", turn_index=5).index == 5
    assert memory.store_turn(cid, "user", "after the jump").index == 6
    assert memory.store_turn(cid, "user", "back-fill", turn_index=2).index == 2
    assert memory.store_turn(cid, "user", "still after").index == 7
    assert [row["turn_index"] for row in ledger_turns(ledger, cid)] == [0, 2, 5, 6, 7]
    row = ledger.fetch_one("get_conversation", {"conversation_id": cid, "user_id": "alice"})
    assert row is not None
    assert row["next_turn_index"] == 8


def test_concurrent_writers_get_consecutive_indexes(
    memory: AgentMemory, ledger: PostgresStore, graph: FalkorDBStore
) -> None:
    cid = memory.new_conversation()
    threads, per_thread = 8, 25
    barrier = threading.Barrier(threads)

    def writer(worker: int) -> list[int]:
        barrier.wait()
        return [memory.store_turn(cid, "user", f"worker {worker} line {n}").index for n in range(per_thread)]

    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(writer, range(threads)))
    total = threads * per_thread
    assert sorted(index for indexes in results for index in indexes) == list(range(total))
    for indexes in results:  # each writer's own turns are in its call order
        assert indexes == sorted(indexes)
    rows = ledger_turns(ledger, cid)
    assert [row["turn_index"] for row in rows] == list(range(total))
    assert all(row["graph_synced"] for row in rows)
    assert len({row["content"] for row in rows}) == total
    edges = graph.run("get_turn_chain", {"conversation_id": cid, "user_id": "alice"})
    assert [(row["source"], row["target"]) for row in edges] == [(i, i + 1) for i in range(total - 1)]
    counts = {row["label"]: row["count"] for row in graph.run("count_user_nodes", {"user_id": "alice"})}
    assert counts["Turn"] == total


def test_remember_finds_the_relevant_turn_first(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    facts = [
        "My favourite food is sushi, especially salmon nigiri.",
        "I'm flying to Lisbon on May 3rd for a conference.",
        "The quarterly sales report is due next Friday.",
        "I adopted a grey cat named Whiskers last year.",
        "Our team uses PostgreSQL and Redis in production.",
    ]
    stored = [memory.store_turn(cid, "user", fact) for fact in facts]
    bundle = memory.remember("When does my trip to Portugal start?", top_k=3)
    assert bundle.query == "When does my trip to Portugal start?"
    assert len(bundle) == 3
    top = bundle.items[0]
    assert top.id == stored[1].id
    assert top.content == facts[1]
    assert (top.kind, top.conversation_id, top.turn_index, top.role) == ("episodic", cid, 1, "user")
    scores = [item.score for item in bundle.items]
    assert scores == sorted(scores, reverse=True)
    assert set(bundle.timings_ms) >= {"embed", "total"}
    assert {"turns.vector", "turns.fulltext", "facts", "entities"} <= set(bundle.metrics)
    pets = memory.remember("what is the name of my pet?", top_k=1)
    assert [item.id for item in pets.items] == [stored[3].id]


def test_get_recent_turns_covers_the_channel_and_global(memory: AgentMemory) -> None:
    proj_a = memory.for_user("alice", channel="proj-a")
    proj_b = memory.for_user("alice", channel="proj-b")
    for facade, text in ((memory, "global note"), (proj_a, "project a note"), (proj_b, "project b note")):
        facade.store_turn(facade.new_conversation(), "user", text)
    assert {turn.content for turn in proj_a.get_recent_turns()} == {"global note", "project a note"}
    assert {turn.content for turn in proj_b.get_recent_turns()} == {"global note", "project b note"}
    assert [turn.content for turn in memory.get_recent_turns()] == ["global note"]
    assert {turn.channel for turn in proj_a.get_recent_turns()} == {"proj-a", "_global"}


def test_get_recent_turns_window_order_and_limit(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    now = datetime.now(UTC)
    memory.store_turn(cid, "user", "two days ago", timestamp=now - timedelta(hours=48))
    memory.store_turn(cid, "user", "an hour ago", timestamp=now - timedelta(hours=1))
    memory.store_turn(cid, "user", "just now", timestamp=now)
    assert [turn.content for turn in memory.get_recent_turns()] == ["just now", "an hour ago"]
    assert [turn.content for turn in memory.get_recent_turns(hours=72)] == [
        "just now",
        "an hour ago",
        "two days ago",
    ]
    assert [turn.content for turn in memory.get_recent_turns(hours=0.5)] == ["just now"]
    assert [turn.content for turn in memory.get_recent_turns(hours=72, limit=1)] == ["just now"]


# ---------------------------------------------------------------------------------------- working memory


def test_store_turn_fills_working_memory(
    memory: AgentMemory, redis_store: RedisStore, settings: Settings
) -> None:
    cid = memory.new_conversation()
    stored = [memory.store_turn(cid, "user", f"line {n}") for n in range(3)]
    working = memory.working(cid)
    recent = working.get_recent_turns()
    assert [turn.id for turn in recent] == [turn.id for turn in stored]
    assert recent[0] == stored[0]
    assert [turn.index for turn in working.get_recent_turns(2)] == [1, 2]
    assert working.get_recent_turns(0) == []
    key = keys.working_key(settings.redis.key_prefix, "alice", "_global", cid, "turns")
    assert 0 < redis_store.ttl(key) <= settings.working.ttl_seconds


def test_working_context_values_with_ttls(
    memory: AgentMemory, redis_store: RedisStore, settings: Settings
) -> None:
    cid = memory.new_conversation()
    working = memory.working(cid)
    assert working.get("plan") is None
    assert working.get("plan", default="none") == "none"
    working.set("plan", {"steps": ["search", "book"], "done": False})
    working.set("budget", 1200, ttl_s=120)
    working.set("note", 'Ωmega "quoted" 😀')
    assert working.get("plan") == {"steps": ["search", "book"], "done": False}
    assert working.get("budget") == 1200
    assert working.get_context() == {
        "plan": {"steps": ["search", "book"], "done": False},
        "budget": 1200,
        "note": 'Ωmega "quoted" 😀',
    }
    prefix = settings.redis.key_prefix
    default_ttl = settings.working.ttl_seconds
    plan_key = keys.working_context_item(prefix, "alice", "_global", cid, "plan")
    budget_key = keys.working_context_item(prefix, "alice", "_global", cid, "budget")
    index_key = keys.working_key(prefix, "alice", "_global", cid, "context")
    assert default_ttl - 5 <= redis_store.ttl(plan_key) <= default_ttl
    assert 110 <= redis_store.ttl(budget_key) <= 120
    assert default_ttl - 5 <= redis_store.ttl(index_key) <= default_ttl
    working.set("plan", "replaced")
    assert working.get("plan") == "replaced"
    assert working.delete("plan") is True
    assert working.delete("plan") is False
    assert working.get("plan") is None
    assert set(working.get_context()) == {"budget", "note"}
    with pytest.raises(InvalidInputError):
        working.set("bad name", 1)
    with pytest.raises(InvalidInputError):
        working.set("x", object())
    with pytest.raises(InvalidInputError):
        working.set("x", 1, ttl_s=0)
    assert set(working.get_context()) == {"budget", "note"}


def test_working_memory_trims_to_max_turns(
    endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> None:
    small = isolated_settings(endpoints, data_dir, working={"max_turns": 3, "max_thoughts": 2})
    try:
        with AgentMemory("alice", settings=small, embedder=embedder) as mem:
            cid = mem.new_conversation()
            for n in range(5):
                mem.store_turn(cid, "user", f"turn {n}")
            working = mem.working(cid)
            assert [turn.index for turn in working.get_recent_turns(10)] == [2, 3, 4]
            assert len(mem.get_conversation(cid)) == 5
            for thought in ("one", "two", "three"):
                working.push_thought(thought)
            assert working.get_thoughts() == ["two", "three"]
    finally:
        cleanup(small, endpoints)


def test_active_goal_and_thoughts(memory: AgentMemory, redis_store: RedisStore, settings: Settings) -> None:
    cid = memory.new_conversation()
    working = memory.working(cid)
    assert working.get_active_goal() is None
    working.set_active_goal("book the Lisbon flight")
    assert working.get_active_goal() == "book the Lisbon flight"
    working.set_active_goal({"goal": "ship v1", "deadline": "friday"})
    assert working.get_active_goal() == {"goal": "ship v1", "deadline": "friday"}
    goal_key = keys.working_key(settings.redis.key_prefix, "alice", "_global", cid, "goal")
    assert 0 < redis_store.ttl(goal_key) <= settings.working.ttl_seconds
    assert working.get_thoughts() == []
    for thought in ("check prices", "compare airlines", "ask about seats"):
        working.push_thought(thought)
    assert working.get_thoughts() == ["check prices", "compare airlines", "ask about seats"]
    assert working.get_thoughts(limit=2) == ["compare airlines", "ask about seats"]
    with pytest.raises(InvalidInputError):
        working.push_thought("   ")
    assert len(working.get_thoughts()) == 3


def test_clear_session_removes_only_that_session(
    memory: AgentMemory, redis_store: RedisStore, settings: Settings
) -> None:
    first, second = memory.new_conversation(), memory.new_conversation()
    bob = memory.for_user("bob")
    proj = memory.for_user("alice", channel="proj-a")
    for facade in (memory, bob, proj):
        for cid in (first, second):
            working = facade.working(cid)
            working.set("k", cid)
            working.push_thought("t")
            working.set_active_goal("g")
    memory.store_turn(first, "user", "cached turn")
    memory.store_turn(second, "user", "other cached turn")
    deleted = memory.working(first).clear_session()
    assert deleted == 5  # turns, context index, one context value, thoughts, goal
    cleared = memory.working(first)
    assert cleared.get_recent_turns() == []
    assert cleared.get_context() == {}
    assert cleared.get_thoughts() == []
    assert cleared.get_active_goal() is None
    assert (
        list(redis_store.scan(keys.working_pattern(settings.redis.key_prefix, "alice", "_global", first)))
        == []
    )
    untouched = [memory.working(second), bob.working(first), proj.working(first)]
    for working in untouched:
        assert working.get("k") is not None
        assert working.get_thoughts() == ["t"]
        assert working.get_active_goal() == "g"
    assert [turn.content for turn in memory.working(second).get_recent_turns()] == ["other cached turn"]
    assert memory.working(first).clear_session() == 0


# ---------------------------------------------------------------------------------------------------- audit


@pytest.mark.parametrize("level", ["off", "writes", "reads", "verbose"])
def test_audit_levels(endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder, level: str) -> None:
    chosen = isolated_settings(endpoints, data_dir, audit={"level": level})
    try:
        with AgentMemory("alice", settings=chosen, embedder=embedder) as mem:
            cid = mem.new_conversation(title="audited")
            turn = mem.store_turn(cid, "user", "the secret plan")
            mem.store_turn(cid, "user", "the secret plan", turn_index=0)  # an idempotent retry: no new row
            mem.remember("what is the plan?")
            mem.get_conversation(cid)
        audit = PostgresStore.connect(
            endpoints.postgres_url, chosen.postgres, embedding_dim=embedder.dimensions,
            embedding_model=embedder.model_id,
        )  # fmt: skip
        try:
            rows = audit.fetch_all("list_audit", {"user_id": "alice"})
        finally:
            audit.close()
    finally:
        cleanup(chosen, endpoints)
    operations = [row["operation"] for row in rows]
    if level == "off":
        assert rows == []
        return
    writes = ["new_conversation", "store_turn"]
    reads = ["remember", "get_conversation"]
    assert operations == (writes if level == "writes" else writes + reads)
    by_operation = {row["operation"]: row for row in rows}
    store_row = by_operation["store_turn"]
    assert store_row["level"] == "writes"
    assert (store_row["memory_type"], store_row["memory_id"]) == ("turn", turn.id)
    # Written in the same commit as the turn (before the graph write), so no sync state in it.
    assert store_row["details"] == {"conversation_id": cid, "turn_index": 0, "role": "user"}
    snapshot = store_row["config_snapshot"]
    assert snapshot["audit_level"] == level
    assert snapshot["embedding"]["dimensions"] == 384
    assert "postgres" not in snapshot  # no URLs in the audit trail
    assert "redis" not in snapshot
    assert by_operation["new_conversation"]["memory_id"] == cid
    if level == "verbose":
        assert store_row["payload"] == {"content": "the secret plan"}
        assert by_operation["remember"]["payload"] == {"query": "what is the plan?"}
        assert by_operation["remember"]["level"] == "reads"
    else:
        assert all(row["payload"] is None for row in rows)
        assert "the secret plan" not in str([row["details"] for row in rows])


def test_the_settings_snapshot_is_stored_once_and_read_back_with_every_row(
    settings: Settings, endpoints: ResolvedEndpoints, embedder: Embedder
) -> None:
    """~1.4 KB of identical JSON per audit row was most of the audit log's bytes (issue 36)."""
    with AgentMemory("alice", settings=settings, embedder=embedder) as mem:
        cid = mem.new_conversation(title="audited")  # an audit row of its own statement
        mem.store_turns(cid, [{"role": "user", "content": f"note {n}"} for n in range(3)])  # inline rows
        mem.store_turn(cid, "user", "one more")
    schema = sql.Identifier(settings.postgres.schema_name)
    with psycopg.connect(endpoints.postgres_url, autocommit=True) as conn:
        stored = conn.execute(
            sql.SQL("SELECT hash, snapshot FROM {}.audit_config_snapshots").format(schema)
        ).fetchall()
        rows = conn.execute(
            sql.SQL("SELECT config_hash, config_snapshot FROM {}.memory_audit_log").format(schema)
        ).fetchall()
    assert len(stored) == 1
    assert len(rows) == 5
    assert rows == [(stored[0][0], {})] * 5
    ledger = PostgresStore.connect(
        endpoints.postgres_url, settings.postgres, embedding_dim=embedder.dimensions,
        embedding_model=embedder.model_id,
    )  # fmt: skip
    try:
        listed = ledger.fetch_all("list_audit", {"user_id": "alice"})
    finally:
        ledger.close()
    assert [row["config_snapshot"] for row in listed] == [stored[0][1]] * 5
    assert stored[0][1]["embedding"]["dimensions"] == embedder.dimensions


# -------------------------------------------------------------------------------------- graph failure


def break_graph_and_store(
    memory: AgentMemory, settings: Settings, url: str, ledger: PostgresStore, cid: str
) -> Turn:
    """Store a turn while the graph key holds a plain string; check what survived, then remove the key."""
    breaker = redis.Redis.from_url(url)
    try:
        breaker.delete(settings.graph.name)
        breaker.set(settings.graph.name, "x")  # GRAPH.QUERY on a string key fails with WRONGTYPE
        with pytest.raises(GraphSyncError) as caught:
            memory.store_turn(cid, "user", "durable anyway", turn_index=0)
        stored = caught.value.turn
        assert isinstance(stored, Turn)
        assert (stored.content, stored.index, stored.synced) == ("durable anyway", 0, False)
        assert "reconcile" in str(caught.value)
        [row] = ledger_turns(ledger, cid)
        assert (row["id"], row["graph_synced"]) == (stored.id, False)
        assert [turn.content for turn in memory.get_conversation(cid)] == ["durable anyway"]
        assert [turn.id for turn in memory.working(cid).get_recent_turns()] == [stored.id]
        return stored
    finally:
        breaker.delete(settings.graph.name)
        breaker.close()


def test_graph_failure_keeps_the_turn(
    memory: AgentMemory, settings: Settings, endpoints: ResolvedEndpoints, ledger: PostgresStore
) -> None:
    cid = memory.new_conversation()
    stored = break_graph_and_store(memory, settings, endpoints.falkordb_url or "", ledger, cid)
    assert memory.get_conversation(cid)[0].id == stored.id


def test_retry_after_graph_failure_syncs_the_turn(
    memory: AgentMemory, settings: Settings, endpoints: ResolvedEndpoints, ledger: PostgresStore
) -> None:
    cid = memory.new_conversation()
    url = endpoints.falkordb_url or ""
    stored = break_graph_and_store(memory, settings, url, ledger, cid)
    repair = FalkorDBStore(url, settings.graph.name)
    try:
        repair.apply_schema(384)
        retried = memory.store_turn(cid, "user", "durable anyway", turn_index=0)
        assert (retried.id, retried.synced) == (stored.id, True)
        [row] = ledger_turns(ledger, cid)
        assert row["graph_synced"] is True
        assert [item["id"] for item in graph_turns(repair, cid)] == [stored.id]
        hits = memory.remember("durable anyway", top_k=1)
        assert [item.id for item in hits.items] == [stored.id]
        assert memory.store_turn(cid, "assistant", "and the chain continues").index == 1
        edges = repair.run("get_turn_chain", {"conversation_id": cid, "user_id": "alice"})
        assert [(edge["source"], edge["target"]) for edge in edges] == [(0, 1)]
    finally:
        repair.close()
