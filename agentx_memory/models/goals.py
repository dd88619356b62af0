"""Goal models: what the agent is trying to achieve, with its subgoal tree and blockers."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["GOAL_END_STATUSES", "Goal", "GoalEndStatus", "GoalStatus"]

GoalStatus = Literal["active", "completed", "abandoned", "blocked"]
#: What ``complete_goal`` may move a goal to.
GoalEndStatus = Literal["completed", "abandoned", "blocked"]
GOAL_END_STATUSES: frozenset[str] = frozenset({"completed", "abandoned", "blocked"})


class Goal(BaseModel):
    """One goal node with the ids of its parent, subgoals (oldest first) and blockers."""

    model_config = ConfigDict(frozen=True)

    id: str
    user_id: str
    channel: str
    description: str
    priority: int
    status: GoalStatus
    deadline: datetime | None = None
    created_at: datetime
    #: Set when the goal is completed or abandoned.
    completed_at: datetime | None = None
    result: str | None = None
    parent: str | None = None
    subgoals: list[str] = Field(default_factory=list)
    blocked_by: list[str] = Field(default_factory=list)
