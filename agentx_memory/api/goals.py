# Generated from agentx_memory/api/goals_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for goals memory. Generated from ``api/goals_async.py``: edit that file."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from ..errors import InvalidInputError
from ..models.goals import GOAL_END_STATUSES, Goal, GoalEndStatus
from ..validation import (
    idempotent_id,
    is_one_of,
    validate_content,
    validate_deadline,
    validate_priority,
    validate_top_k,
    validate_uuid,
)
from .core import FacadeCore

__all__ = ["GoalsApi"]

#: Priorities are small integers; higher comes first in ``active_goals``.


class GoalsApi(FacadeCore):
    """Goals of ``AgentMemory``: a tree of subgoals, blockers and status transitions.

    A goal starts ``active``; ``complete_goal`` moves it to ``completed`` or ``abandoned`` (final) or
    ``blocked``; ``block_goal`` records what it waits on. Cycles in either relation are refused.
    """

    def add_goal(
        self,
        description: str,
        priority: int = 0,
        deadline: datetime | None = None,
        parent_id: str | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> Goal:
        """Add an active goal in the active channel, optionally as a subgoal of ``parent_id``. With
        ``idempotency_key`` a retried call returns the goal the first one stored instead of a second."""
        description = validate_content(description, self.settings.limits, "description")
        priority = validate_priority(priority)
        checked_deadline = validate_deadline(deadline)
        parent = None if parent_id is None else validate_uuid(parent_id, "parent_id")
        stable_id = idempotent_id(idempotency_key, self.settings.limits, self.scope.user_id, "goal")
        backends = self._open_backends()
        if stable_id is not None and (stored := (backends.goals.get_many(self.scope, [stable_id]))):
            backends.goals.ensure_timeline(self.scope, stored[stable_id])
            return stored[stable_id]
        embedding = backends.embed_one(description)
        created_at = datetime.now(UTC)
        goal = backends.goals.add(
            self.scope,
            goal_id=stable_id or str(uuid.uuid4()),
            description=description,
            priority=priority,
            deadline=checked_deadline,
            parent_id=parent,
            embedding=embedding,
            created_at=created_at,
        )
        backends.audit.log_write(
            self.scope,
            "add_goal",
            "goal",
            goal.id,
            {"priority": priority, "parent_id": parent},
            {"description": description},
        )
        return goal

    def get_goal(self, goal_id: str) -> Goal:
        """The goal with its parent, subgoals and blockers; :class:`NotFoundError` if not this user's."""
        goal_id = validate_uuid(goal_id, "goal_id")
        backends = self._open_backends()
        goal = backends.goals.get(self.scope, goal_id)
        backends.audit.log_read(self.scope, "get_goal", {"goal_id": goal_id})
        return goal

    def complete_goal(
        self, goal_id: str, status: GoalEndStatus = "completed", result: str | None = None
    ) -> Goal:
        """Move an active or blocked goal to ``status``; a completed or abandoned one is a conflict."""
        goal_id = validate_uuid(goal_id, "goal_id")
        if not is_one_of(status, GOAL_END_STATUSES):
            allowed = ", ".join(sorted(GOAL_END_STATUSES))
            raise InvalidInputError(f"status {status!r} is unknown: use one of {allowed}")
        if result is not None:
            result = validate_content(result, self.settings.limits, "result")
        backends = self._open_backends()
        goal = backends.goals.finish(self.scope, goal_id, status, result, datetime.now(UTC))
        backends.audit.log_write(
            self.scope, "complete_goal", "goal", goal_id, {"status": status}, {"result": result}
        )
        return goal

    def block_goal(self, goal_id: str, blocked_by_id: str) -> Goal:
        """Mark ``goal_id`` blocked by ``blocked_by_id``; refused for a finished goal or a cycle."""
        goal_id = validate_uuid(goal_id, "goal_id")
        blocked_by_id = validate_uuid(blocked_by_id, "blocked_by_id")
        backends = self._open_backends()
        goal = backends.goals.block(self.scope, goal_id, blocked_by_id)
        backends.audit.log_write(self.scope, "block_goal", "goal", goal_id, {"blocked_by_id": blocked_by_id})
        return goal

    def set_goal_parent(self, goal_id: str, parent_id: str) -> Goal:
        """Move ``goal_id`` under ``parent_id``; refused when the parent is (transitively) its subgoal."""
        goal_id = validate_uuid(goal_id, "goal_id")
        parent_id = validate_uuid(parent_id, "parent_id")
        backends = self._open_backends()
        goal = backends.goals.set_parent(self.scope, goal_id, parent_id)
        backends.audit.log_write(self.scope, "set_goal_parent", "goal", goal_id, {"parent_id": parent_id})
        return goal

    def active_goals(self, limit: int = 100) -> list[Goal]:
        """Active and blocked goals in the active channel and ``_global``: highest priority, then oldest."""
        limit = validate_top_k(limit, self.settings.limits, "limit")
        backends = self._open_backends()
        goals = backends.goals.active(self.scope, limit)
        backends.audit.log_read(self.scope, "active_goals", {"limit": limit, "results": len(goals)})
        return goals
