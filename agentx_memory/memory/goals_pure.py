"""Goals memory's pure functions and constants, shared by the async source and its generated twin."""

from __future__ import annotations

from typing import Any

from ..models.goals import Goal
from ..timecodec import maybe_from_epoch_ms

__all__ = ["goal_from_row", "goal_importance"]


def goal_from_row(row: dict[str, Any]) -> Goal:
    """A :class:`Goal` from a ``get_goals`` row (``item`` map plus parent, subgoals, blocked_by)."""
    item = row["item"]
    return Goal(
        id=item["id"],
        user_id=item["user_id"],
        channel=item["channel"],
        description=item["description"],
        priority=item["priority"],
        status=item["status"],
        deadline=maybe_from_epoch_ms(item.get("deadline")),
        created_at=maybe_from_epoch_ms(item["created_at"]),
        completed_at=maybe_from_epoch_ms(item.get("completed_at")),
        result=item.get("result"),
        parent=row.get("parent"),
        subgoals=list(row.get("subgoals") or []),
        blocked_by=list(row.get("blocked_by") or []),
    )


def goal_importance(priority: int) -> float:
    """Timeline importance from priority: 0.5 for the default 0, 1.0 from priority 10 up."""
    return 0.5 + min(max(priority, 0), 10) / 20
