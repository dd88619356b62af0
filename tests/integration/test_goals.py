"""Goals end to end on the real servers: tree, blockers, transitions, cycles, isolation, timeline, audit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from falkordb.graph import Graph
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
from agentx_memory.models.goals import Goal
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.conftest import cleanup, isolated_settings
from tests.payloads import INJECTIONS

MISSING = "00000000-0000-4000-8000-000000000000"


def node_counts(graph: FalkorDBStore, user_id: str = "alice") -> dict[str, int]:
    return {row["label"]: row["count"] for row in graph.run("count_user_nodes", {"user_id": user_id})}


def timeline_rows(settings: Settings, user_id: str = "alice") -> list[dict[str, Any]]:
    # Test-only read: the library has no timeline query yet.
    with psycopg.connect(settings.postgres.url or "", row_factory=dict_row) as conn:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(settings.postgres.schema_name)))
        return conn.execute(
            "SELECT channel, memory_type, memory_id, summary, importance, event_time FROM memory_timeline "
            "WHERE user_id = %s ORDER BY id",
            (user_id,),
        ).fetchall()


# ---------------------------------------------------------------------------------------------- happy path


def test_add_and_get_goal_with_tree(memory: AgentMemory) -> None:
    deadline = datetime(2030, 5, 3, 12, 0, tzinfo=UTC)
    root = memory.add_goal("plan the Lisbon trip", priority=5, deadline=deadline)
    assert isinstance(root, Goal)
    assert (root.status, root.priority, root.deadline, root.channel) == ("active", 5, deadline, "_global")
    assert root.completed_at is None
    assert root.parent is None
    assert root.subgoals == []
    first = memory.add_goal("book the flight", parent_id=root.id)
    second = memory.add_goal("book the hotel", parent_id=root.id)
    assert first.parent == root.id
    fetched = memory.get_goal(root.id)
    assert fetched.subgoals == [first.id, second.id]
    assert fetched.description == "plan the Lisbon trip"
    assert fetched.created_at <= datetime.now(UTC)


def test_goal_embedding_fills_the_vector_index(
    memory: AgentMemory, embedder: Embedder, settings: Settings, endpoints: ResolvedEndpoints
) -> None:
    goal = memory.add_goal("learn Portuguese before the trip")
    memory.add_goal("fix the kitchen sink")
    # No goal search API yet: ask FalkorDB's vector index directly.
    client = redis.Redis.from_url(endpoints.falkordb_url or "", decode_responses=True)
    try:
        result = Graph(client, settings.graph.name).query(
            "CALL db.idx.vector.queryNodes('Goal', 'embedding', 1, vecf32($vector)) YIELD node "
            "RETURN node.id",
            {"vector": embedder.embed_one("learn Portuguese")},
        )
    finally:
        client.close()
    assert result.result_set == [[goal.id]]


def test_active_goals_order_and_channels(memory: AgentMemory, settings: Settings) -> None:
    low = memory.add_goal("low priority", priority=1)
    high = memory.add_goal("high priority", priority=9)
    later_low = memory.add_goal("another low priority", priority=1)
    project = memory.for_user("alice", "trip")
    local = project.add_goal("project goal", priority=5)
    other = memory.for_user("alice", "work")
    hidden = other.add_goal("work goal", priority=100)
    done = memory.add_goal("done already", priority=50)
    memory.complete_goal(done.id)
    assert [g.id for g in project.active_goals()] == [high.id, local.id, low.id, later_low.id]
    assert [g.id for g in memory.active_goals()] == [high.id, low.id, later_low.id]
    assert [g.id for g in other.active_goals()] == [hidden.id, high.id, low.id, later_low.id]
    assert [g.id for g in memory.active_goals(limit=1)] == [high.id]


def test_timeline_row_on_add(memory: AgentMemory, settings: Settings) -> None:
    goal = memory.add_goal("ship the release", priority=10)
    memory.complete_goal(goal.id)
    rows = timeline_rows(settings)
    assert len(rows) == 1
    row = rows[0]
    assert (row["memory_type"], row["memory_id"], row["summary"], row["channel"]) == (
        "goal", goal.id, "ship the release", "_global"
    )  # fmt: skip
    assert row["importance"] == pytest.approx(1.0)
    assert abs(row["event_time"] - goal.created_at) < timedelta(seconds=1)


def test_audit_rows_for_writes_and_reads(
    endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> None:
    chosen = isolated_settings(endpoints, data_dir, audit={"level": "reads"})
    try:
        with AgentMemory(user_id="alice", settings=chosen, embedder=embedder) as mem:
            first = mem.add_goal("a")
            second = mem.add_goal("b")
            mem.block_goal(first.id, second.id)
            mem.complete_goal(second.id, result="done")
            mem.get_goal(first.id)
            mem.active_goals()
            audit = PostgresStore.connect(
                chosen.postgres.url or "",
                chosen.postgres,
                embedding_dim=384,
                embedding_model=embedder.model_id,
            )
            try:
                rows = audit.fetch_all("list_audit", {"user_id": "alice"})
            finally:
                audit.close()
    finally:
        cleanup(chosen, endpoints)
    seen = [(row["operation"], row["memory_id"], row["level"]) for row in rows]
    assert seen == [
        ("add_goal", first.id, "writes"),
        ("add_goal", second.id, "writes"),
        ("block_goal", first.id, "writes"),
        ("complete_goal", second.id, "writes"),
        ("get_goal", None, "reads"),
        ("active_goals", None, "reads"),
    ]
    assert rows[2]["details"] == {"blocked_by_id": second.id}


# -------------------------------------------------------------------------------------------- transitions


def test_complete_and_abandon_set_completed_at(memory: AgentMemory) -> None:
    goal = memory.add_goal("finish the report")
    done = memory.complete_goal(goal.id, result="sent to Bob")
    assert (done.status, done.result) == ("completed", "sent to Bob")
    assert done.completed_at is not None
    assert done.completed_at >= goal.created_at
    dropped = memory.complete_goal(memory.add_goal("learn the banjo").id, status="abandoned")
    assert dropped.status == "abandoned"
    assert dropped.completed_at is not None
    assert memory.active_goals() == []


def test_final_states_are_final(memory: AgentMemory) -> None:
    goal = memory.add_goal("one-off")
    memory.complete_goal(goal.id)
    for status in ("completed", "abandoned", "blocked"):
        with pytest.raises(ConflictError):
            memory.complete_goal(goal.id, status=status)
    abandoned = memory.add_goal("dropped")
    memory.complete_goal(abandoned.id, status="abandoned")
    with pytest.raises(ConflictError):
        memory.complete_goal(abandoned.id)
    with pytest.raises(ConflictError):
        memory.block_goal(abandoned.id, goal.id)
    assert memory.get_goal(goal.id).status == "completed"
    assert memory.get_goal(abandoned.id).blocked_by == []


def test_blocked_goal_can_still_be_completed(memory: AgentMemory) -> None:
    goal = memory.add_goal("deploy")
    blocker = memory.add_goal("get approval")
    blocked = memory.block_goal(goal.id, blocker.id)
    assert (blocked.status, blocked.blocked_by) == ("blocked", [blocker.id])
    assert blocked.completed_at is None
    assert {g.id for g in memory.active_goals()} == {goal.id, blocker.id}
    marked = memory.complete_goal(memory.add_goal("waiting").id, status="blocked")
    assert marked.status == "blocked"
    assert marked.completed_at is None
    done = memory.complete_goal(goal.id, result="deployed")
    assert done.status == "completed"
    assert done.blocked_by == [blocker.id]


# ------------------------------------------------------------------------------------------------- cycles


def test_block_cycles_are_refused(memory: AgentMemory) -> None:
    a = memory.add_goal("a")
    b = memory.add_goal("b")
    c = memory.add_goal("c")
    with pytest.raises(ConflictError):
        memory.block_goal(a.id, a.id)
    memory.block_goal(a.id, b.id)
    with pytest.raises(ConflictError):
        memory.block_goal(b.id, a.id)
    memory.block_goal(b.id, c.id)
    with pytest.raises(ConflictError):
        memory.block_goal(c.id, a.id)
    assert memory.get_goal(c.id).blocked_by == []
    assert memory.get_goal(c.id).status == "active"
    assert memory.block_goal(a.id, b.id).blocked_by == [b.id]  # idempotent


def test_subgoal_cycles_are_refused(memory: AgentMemory) -> None:
    a = memory.add_goal("a")
    b = memory.add_goal("b", parent_id=a.id)
    c = memory.add_goal("c", parent_id=b.id)
    with pytest.raises(ConflictError):
        memory.set_goal_parent(a.id, b.id)
    with pytest.raises(ConflictError):
        memory.set_goal_parent(a.id, c.id)
    with pytest.raises(ConflictError):
        memory.set_goal_parent(a.id, a.id)
    assert memory.get_goal(a.id).parent is None
    other = memory.add_goal("other")
    moved = memory.set_goal_parent(c.id, other.id)
    assert moved.parent == other.id
    assert memory.get_goal(b.id).subgoals == []
    assert memory.get_goal(other.id).subgoals == [c.id]
    memory.set_goal_parent(a.id, c.id)  # no longer a cycle: c left a's tree
    assert memory.get_goal(c.id).subgoals == [a.id]


# ---------------------------------------------------------------------------------------------- isolation


def test_other_users_see_and_change_nothing(memory: AgentMemory, graph: FalkorDBStore) -> None:
    parent = memory.add_goal("alice's secret plan", priority=3)
    child = memory.add_goal("alice's step", parent_id=parent.id)
    bob = memory.for_user("bob")
    bob_goal = bob.add_goal("bob's own goal")
    assert [g.id for g in bob.active_goals()] == [bob_goal.id]
    calls: list[Callable[[], object]] = [
        lambda: bob.get_goal(parent.id),
        lambda: bob.complete_goal(parent.id),
        lambda: bob.block_goal(parent.id, bob_goal.id),
        lambda: bob.block_goal(bob_goal.id, parent.id),
        lambda: bob.set_goal_parent(bob_goal.id, parent.id),
        lambda: bob.set_goal_parent(child.id, bob_goal.id),
        lambda: bob.add_goal("sneaky", parent_id=parent.id),
    ]
    for call in calls:
        with pytest.raises(NotFoundError):
            call()
    assert memory.get_goal(parent.id) == parent.model_copy(update={"subgoals": [child.id]})
    assert memory.get_goal(child.id).parent == parent.id
    assert bob.get_goal(bob_goal.id).blocked_by == []
    assert bob.get_goal(bob_goal.id).parent is None
    assert node_counts(graph, "bob") == {"Goal": 1, "User": 1}


def test_unknown_ids_and_bad_input(memory: AgentMemory) -> None:
    goal = memory.add_goal("real")
    calls: list[Callable[[], object]] = [
        lambda: memory.get_goal(MISSING),
        lambda: memory.complete_goal(MISSING),
        lambda: memory.block_goal(goal.id, MISSING),
        lambda: memory.block_goal(MISSING, goal.id),
        lambda: memory.add_goal("orphan", parent_id=MISSING),
    ]
    for call in calls:
        with pytest.raises(NotFoundError):
            call()
    bad: list[Any] = [
        lambda: memory.add_goal(""),
        lambda: memory.add_goal("x", priority="high"),  # type: ignore[arg-type]
        lambda: memory.add_goal("x", priority=True),
        lambda: memory.add_goal("x", priority=10_000),
        lambda: memory.add_goal("x", deadline="tomorrow"),  # type: ignore[arg-type]
        lambda: memory.add_goal("x", parent_id="not-a-uuid"),
        lambda: memory.get_goal("'}) DETACH DELETE n //"),
        lambda: memory.complete_goal(goal.id, status="done"),  # type: ignore[arg-type]
        lambda: memory.complete_goal(goal.id, result=""),
        lambda: memory.active_goals(limit=0),
    ]
    for call in bad:
        with pytest.raises(InvalidInputError):
            call()
    assert [g.id for g in memory.active_goals()] == [goal.id]


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_strings_are_stored_verbatim(
    memory: AgentMemory, graph: FalkorDBStore, payload: str
) -> None:
    bob = memory.for_user("bob")
    bob_goal = bob.add_goal("bob keeps this")
    goal = memory.add_goal(payload, parent_id=memory.add_goal("root").id)
    done = memory.complete_goal(goal.id, result=payload)
    assert (done.description, done.result) == (payload, payload)
    assert node_counts(graph) == {"Goal": 2, "User": 1}
    assert bob.get_goal(bob_goal.id).description == "bob keeps this"


def test_naive_deadline_is_utc(memory: AgentMemory) -> None:
    goal = memory.add_goal("renew passport", deadline=datetime(2031, 1, 2, 3, 4, 5))
    assert memory.get_goal(goal.id).deadline == datetime(2031, 1, 2, 3, 4, 5, tzinfo=UTC)


# -------------------------------------------------------------------------------------------------- async


async def test_async_goals(amemory: AsyncAgentMemory) -> None:
    root = await amemory.add_goal("async root", priority=2)
    child = await amemory.add_goal("async child", parent_id=root.id)
    blocker = await amemory.add_goal("async blocker", priority=7)
    blocked = await amemory.block_goal(child.id, blocker.id)
    assert (blocked.status, blocked.blocked_by, blocked.parent) == ("blocked", [blocker.id], root.id)
    with pytest.raises(ConflictError):
        await amemory.block_goal(blocker.id, child.id)
    with pytest.raises(ConflictError):
        await amemory.set_goal_parent(root.id, child.id)
    assert [g.id for g in await amemory.active_goals()] == [blocker.id, root.id, child.id]
    done = await amemory.complete_goal(blocker.id, result="ok")
    assert done.status == "completed"
    assert done.completed_at is not None
    with pytest.raises(ConflictError):
        await amemory.complete_goal(blocker.id)
    assert (await amemory.get_goal(root.id)).subgoals == [child.id]
    bob = await amemory.for_user("bob")
    assert await bob.active_goals() == []
    with pytest.raises(NotFoundError):
        await bob.get_goal(root.id)
