"""Data models (pydantic, no I/O): what the public API accepts and returns, one module per memory kind."""

from __future__ import annotations

from .episodic import ROLES, MemoryBundle, MemoryItem, MemoryKind, Role, Scope, Turn
from .goals import GOAL_END_STATUSES, Goal, GoalEndStatus, GoalStatus
from .procedural import Strategy, StrategyMatch, ToolInvocation, ToolStats
from .profile import UserProfile

__all__ = [
    "GOAL_END_STATUSES",
    "ROLES",
    "Goal",
    "GoalEndStatus",
    "GoalStatus",
    "MemoryBundle",
    "MemoryItem",
    "MemoryKind",
    "Role",
    "Scope",
    "Strategy",
    "StrategyMatch",
    "ToolInvocation",
    "ToolStats",
    "Turn",
    "UserProfile",
]
