"""Forgetting reaches Postgres, the graph and Redis, leaves no orphans, and touches no one else."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from agentx_memory import AgentMemory, NotFoundError
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.memory.forgetting import Forgetting
from agentx_memory.settings import Settings
from agentx_memory.stores.redis import RedisStore
from tests.conftest import cleanup, isolated_settings


def _populate(mem: AgentMemory, words: str) -> str:
    cid = mem.new_conversation(title=f"about {words}")
    mem.store_turn(cid, "user", f"I love {words} and my sister Maya")
    mem.store_turn(cid, "assistant", f"Noted: {words}.")
    mem.record_invocation(cid, 1, "search", {"q": words}, {"hits": 3}, True, 12.5)
    working = mem.working(cid)
    working.set("draft", {"words": words})
    working.push_thought(f"thinking about {words}")
    return cid


def _remaining(mem: AgentMemory) -> dict[str, int]:
    backends = mem._open_backends()
    forgetting = Forgetting(backends.ledger, backends.graph, backends.redis, mem.settings.redis.key_prefix)
    return forgetting.remaining(mem.scope)


def _audit_rows(postgres_url: str, schema: str, user_id: str) -> list[tuple[str, object, object]]:
    with psycopg.connect(postgres_url) as conn:
        conn.execute(f'SET search_path TO "{schema}", public')
        rows = conn.execute(
            "SELECT operation, details, payload FROM memory_audit_log WHERE user_id = %s ORDER BY id",
            (user_id,),
        ).fetchall()
    return [(str(op), details, payload) for op, details, payload in rows]


@pytest.fixture
def verbose_memory(
    endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> Iterator[tuple[AgentMemory, ResolvedEndpoints]]:
    settings = isolated_settings(endpoints, data_dir, audit={"level": "verbose"})
    mem = AgentMemory(user_id="alice", settings=settings, embedder=embedder).open()
    yield mem, endpoints
    mem.close()
    cleanup(settings, endpoints)


def test_forget_conversation_everywhere_and_only_it(
    verbose_memory: tuple[AgentMemory, ResolvedEndpoints],
) -> None:
    mem, endpoints = verbose_memory
    bob = mem.for_user("bob")
    gone = _populate(mem, "hiking")
    kept = _populate(mem, "chess")
    _populate(bob, "hiking")
    before_bob = _remaining(bob)

    report = mem.forget_conversation(gone)
    # the audit keeps that it happened, not what was said (checked before any read logs a new query)
    rows = _audit_rows(endpoints.postgres_url, mem.settings.postgres.schema_name, "alice")
    assert "forget_conversation" in [operation for operation, _, _ in rows]
    assert not any("hiking" in str(details) + str(payload) for _, details, payload in rows)
    assert any("chess" in str(payload) for _, _, payload in rows)

    assert report["conversations"] == 1
    assert report["turns"] == 2
    assert report["tool_invocations"] == 1
    assert report["graph_turns"] == 2
    assert report["graph_tool_invocations"] == 1
    assert report["redis_keys"] >= 3
    assert mem.get_conversation(gone) == []
    assert [t.content for t in mem.get_conversation(kept)] == [
        "I love chess and my sister Maya",
        "Noted: chess.",
    ]
    assert all("hiking" not in item.content for item in mem.remember("hiking", top_k=10).items)
    assert all(turn.conversation_id != gone for turn in mem.get_recent_turns())
    assert mem.working(gone).get_context() == {}
    assert mem.working(gone).get_thoughts() == []
    assert mem.working(kept).get("draft") == {"words": "chess"}
    with pytest.raises(NotFoundError):
        mem.store_turn(gone, "user", "still there?")
    # what is left of alice is exactly the kept conversation (graph: User, Conversation, 2 turns,
    # 1 invocation, the shared Tool)
    left = _remaining(mem)
    assert (left["conversations"], left["turns"], left["tool_invocations"]) == (1, 2, 1)
    assert left["graph_nodes"] == 6
    assert _remaining(bob) == before_bob


def test_forget_conversation_of_another_user_is_not_found(
    verbose_memory: tuple[AgentMemory, ResolvedEndpoints],
) -> None:
    mem, _ = verbose_memory
    cid = _populate(mem, "sailing")
    with pytest.raises(NotFoundError):
        mem.for_user("bob").forget_conversation(cid)
    assert len(mem.get_conversation(cid)) == 2


def test_forget_user_leaves_nothing_and_spares_others(
    verbose_memory: tuple[AgentMemory, ResolvedEndpoints],
) -> None:
    mem, endpoints = verbose_memory
    bob = mem.for_user("bob")
    project = mem.for_user("alice", channel="proj-a")
    _populate(mem, "hiking")
    _populate(project, "budgets")
    mem.add_goal("Plan the trip")
    mem.update_profile(preferences={"seat": "window"})
    bob_cid = _populate(bob, "hiking")
    for who in (mem, bob):  # a search counts an access: a row in the ledger's memory_access
        who.learn_fact("The hiking boots are in the attic", confidence=0.9, source="chat")
        assert who.search_facts("where are the hiking boots?", top_k=1)[0][0].access_count == 1
    before_bob = _remaining(bob)
    assert before_bob["access"] == 1

    report = mem.forget_user()
    rows = _audit_rows(endpoints.postgres_url, mem.settings.postgres.schema_name, "alice")
    assert "forget_user" in [operation for operation, _, _ in rows]
    assert not any("hiking" in str(details) + str(payload) for _, details, payload in rows)

    assert report["conversations"] == 2
    assert report["profiles"] == 1
    assert report["access"] == 1
    assert report["graph_nodes"] > 0
    assert _remaining(mem) == {
        "conversations": 0, "turns": 0, "tool_invocations": 0, "timeline": 0, "profiles": 0, "access": 0,
        "documents": 0, "graph_nodes": 0, "redis_keys": 0,
    }  # fmt: skip
    assert mem.get_recent_turns() == []
    assert project.get_recent_turns() == []
    assert mem.remember("hiking").items == []
    assert mem.active_goals() == []
    assert mem.get_profile().preferences == {}
    assert _remaining(bob) == before_bob
    assert len(bob.get_conversation(bob_cid)) == 2
    # idempotent: forgetting again finds nothing and fails nothing
    again = mem.forget_user()
    assert again["conversations"] == 0
    assert again["graph_nodes"] == 0


def test_forget_user_removes_redis_keys_written_directly(
    verbose_memory: tuple[AgentMemory, ResolvedEndpoints],
) -> None:
    mem, endpoints = verbose_memory
    cid = mem.new_conversation()
    mem.working(cid).set_active_goal("book flights")
    redis = RedisStore(endpoints.redis_url)
    try:
        assert any(True for _ in redis.scan(f"{mem.settings.redis.key_prefix}:working:alice:*"))
        mem.forget_user()
        assert not any(True for _ in redis.scan(f"{mem.settings.redis.key_prefix}:working:alice:*"))
    finally:
        redis.close()


def test_forget_fact_takes_its_corrections_and_leaves_the_rest(
    verbose_memory: tuple[AgentMemory, ResolvedEndpoints],
) -> None:
    mem, endpoints = verbose_memory
    original = mem.learn_fact("Maya lives in Kyoto", confidence=0.9, source="user", about=["Maya"])
    corrected = mem.correct_fact(original.id, "Maya lives in Osaka")
    kept = mem.learn_fact("Maya is a violinist", confidence=0.8, source="user", about=["Maya"])
    bobs = mem.for_user("bob").learn_fact("Maya lives in Osaka", confidence=0.9, source="user")
    access = mem._open_backends().access
    access.touch(mem.scope, "fact", [original.id, corrected.id, kept.id])  # as recalls would

    report = mem.forget_fact(corrected.id)

    assert report["graph_facts"] == 2
    assert report["timeline"] == 2
    assert report["access"] == 2
    assert set(access.get(mem.scope, "fact", [original.id, corrected.id, kept.id])) == {kept.id}
    claims = [fact.claim for fact, _ in mem.search_facts("Where does Maya live?", top_k=10)]
    assert claims == ["Maya is a violinist"]
    assert [fact.id for fact in mem.get_entity_info("Maya").facts] == [kept.id]
    assert [fact.id for fact, _ in mem.for_user("bob").search_facts("Maya", top_k=5)] == [bobs.id]
    rows = _audit_rows(endpoints.postgres_url, mem.settings.postgres.schema_name, "alice")
    assert "forget_fact" in [operation for operation, _, _ in rows]
    assert not any("Kyoto" in str(details) + str(payload) for _, details, payload in rows)
    with pytest.raises(NotFoundError):
        mem.forget_fact(original.id)
    with pytest.raises(NotFoundError):
        mem.for_user("bob").forget_fact(kept.id)
    assert [fact.id for fact in mem.get_entity_info("Maya").facts] == [kept.id]


def test_forget_user_waits_for_a_background_consolidation(
    settings: Settings, embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    """A new conversation consolidates the earlier one in the background; forgetting the user at once
    must not let that consolidation write learned facts after the deletion (nor fail on a vanished
    conversation)."""
    auto = settings.model_copy(
        update={"learning": settings.learning.model_copy(update={"auto_consolidate": True})}
    )
    with AgentMemory(user_id="alice", settings=auto, embedder=embedder) as memory:
        earlier = memory.new_conversation()
        for text in ("My sister Maya is a dentist in Lisbon.", "I'm allergic to peanuts.", "I play chess."):
            memory.store_turn(earlier, "user", text)
        memory.new_conversation()  # queues the earlier one's consolidation
        time.sleep(0.3)  # under way: it has read the turns and is learning from them
        memory.forget_user()
        memory.close()  # whatever was still running has finished
        assert _remaining(memory) == dict.fromkeys(
            ("conversations", "turns", "tool_invocations", "timeline", "profiles", "access", "documents"), 0
        ) | {"graph_nodes": 0, "redis_keys": 0}
    assert "background consolidation" not in caplog.text


def test_forget_turn_everywhere_and_only_it(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    keep = memory.store_turn(cid, "user", "I keep bees on the roof")
    drop = memory.store_turn(cid, "user", "My locker code is 4711")
    later = memory.store_turn(cid, "assistant", "Noted.")
    bob = memory.for_user("bob")
    with pytest.raises(NotFoundError):
        bob.forget_turn(drop.id)  # another user's turn id behaves as missing

    report = memory.forget_turn(drop.id)
    assert report["turns"] == report["graph_turns"] == report["working_turns"] == 1
    assert [t.id for t in memory.get_conversation(cid)] == [keep.id, later.id]
    assert [t.id for t in memory.working(cid).all_turns()] == [keep.id, later.id]
    assert all(item.id != drop.id for item in memory.remember("locker code", top_k=10).items)
    backends = memory._open_backends()
    assert backends.graph.run("forget_turn_graph", {"turn_id": drop.id, "user_id": "alice"})[0]["turns"] == 0
    with pytest.raises(NotFoundError):
        memory.forget_turn(drop.id)
    assert memory.store_turn(cid, "user", "next").index == 3  # indexes are not reused
