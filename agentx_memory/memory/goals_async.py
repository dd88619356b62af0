"""Goal memory over the graph. Async source of ``memory/goals.py``.

Every write is one statement that checks its own precondition (owner, status, no cycle); a refused write
returns no row, and the subsystem then reads the goal to tell :class:`NotFoundError` (not this user's)
from :class:`ConflictError` (an illegal transition).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..errors import ConflictError, NotFoundError
from ..models import Scope
from ..models.goals import Goal, GoalEndStatus
from ..stores.graph_async import AsyncGraphStore
from ..timecodec import maybe_epoch_ms
from .goals_pure import goal_from_row, goal_importance
from .timeline_async import AsyncTimeline

__all__ = ["AsyncGoalMemory"]


class AsyncGoalMemory:
    """Goals of one user: creation, the subgoal tree, blockers and status transitions."""

    def __init__(self, graph: AsyncGraphStore, timeline: AsyncTimeline) -> None:
        self._graph = graph
        self._timeline = timeline

    async def add(
        self,
        scope: Scope,
        *,
        goal_id: str,
        description: str,
        priority: int,
        deadline: datetime | None,
        parent_id: str | None,
        embedding: Sequence[float],
        created_at: datetime,
    ) -> Goal:
        rows = await self._graph.run(
            "create_goal",
            {
                "user_id": scope.user_id,
                "id": goal_id,
                "channel": scope.channel,
                "description": description,
                "priority": priority,
                "deadline": maybe_epoch_ms(deadline),
                "parent_id": parent_id,
                "created_at": maybe_epoch_ms(created_at),
                "embedding": list(embedding),
            },
        )
        if not rows:
            raise NotFoundError(f"parent goal {parent_id} not found")
        goal = await self.get(scope, goal_id)
        await self.ensure_timeline(scope, goal)
        return goal

    async def ensure_timeline(self, scope: Scope, goal: Goal) -> None:
        """The goal's timeline row, written if missing (a write that died between graph and ledger)."""
        await self._timeline.record(
            scope,
            memory_type="goal",
            memory_id=goal.id,
            summary=goal.description,
            importance=goal_importance(goal.priority),
            event_time=goal.created_at,
        )

    async def get_many(self, scope: Scope, goal_ids: Sequence[str]) -> dict[str, Goal]:
        if not goal_ids:  # get_context asks for the open goals of every user, most of whom have none
            return {}
        rows = await self._graph.run("get_goals", {"user_id": scope.user_id, "ids": list(goal_ids)})
        goals = [goal_from_row(row) for row in rows]
        return {goal.id: goal for goal in goals}

    async def get(self, scope: Scope, goal_id: str) -> Goal:
        goal = (await self.get_many(scope, [goal_id])).get(goal_id)
        if goal is None:
            raise NotFoundError(f"goal {goal_id} not found")
        return goal

    async def active(self, scope: Scope, limit: int) -> list[Goal]:
        """Active and blocked goals in the read channels, by priority (highest first), then age."""
        rows = await self._graph.run(
            "active_goal_ids", {"user_id": scope.user_id, "channels": scope.read_channels, "limit": limit}
        )
        ids = [row["id"] for row in rows]
        goals = await self.get_many(scope, ids)
        return [goals[goal_id] for goal_id in ids if goal_id in goals]

    async def finish(
        self, scope: Scope, goal_id: str, status: GoalEndStatus, result: str | None, now: datetime
    ) -> Goal:
        completed_at = None if status == "blocked" else now
        params = {
            "user_id": scope.user_id,
            "id": goal_id,
            "status": status,
            "completed_at": maybe_epoch_ms(completed_at),
            "result": result,
        }
        if not await self._graph.run("finish_goal", params):
            goal = await self.get(scope, goal_id)
            raise ConflictError(f"goal {goal_id} is already {goal.status}; it cannot become {status}")
        return await self.get(scope, goal_id)

    async def block(self, scope: Scope, goal_id: str, blocked_by_id: str) -> Goal:
        params = {"user_id": scope.user_id, "id": goal_id, "blocked_by_id": blocked_by_id}
        if not await self._graph.run("block_goal", params):
            goal = await self.get(scope, goal_id)
            await self.get(scope, blocked_by_id)
            if goal.status not in ("active", "blocked"):
                raise ConflictError(f"goal {goal_id} is already {goal.status}; it cannot be blocked")
            raise ConflictError(f"goal {goal_id} cannot be blocked by {blocked_by_id}: that would be a cycle")
        return await self.get(scope, goal_id)

    async def set_parent(self, scope: Scope, goal_id: str, parent_id: str) -> Goal:
        params = {"user_id": scope.user_id, "id": goal_id, "parent_id": parent_id}
        if not await self._graph.run("set_goal_parent", params):
            await self.get(scope, goal_id)
            await self.get(scope, parent_id)
            raise ConflictError(f"goal {parent_id} cannot be the parent of {goal_id}: that would be a cycle")
        return await self.get(scope, goal_id)
