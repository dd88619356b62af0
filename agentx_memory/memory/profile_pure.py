"""Profile rows of the ledger as models. Pure."""

from __future__ import annotations

from typing import Any

from ..models import UserProfile

__all__ = ["profile_from_row"]


def profile_from_row(row: dict[str, Any]) -> UserProfile:
    return UserProfile(
        user_id=row["user_id"],
        preferences=row["preferences"] or {},
        expertise_areas=row["expertise_areas"] or [],
        communication_style=row["communication_style"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )
