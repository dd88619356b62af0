# Generated from agentx_memory/memory/profile_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""User profiles in Postgres (``user_profiles``). Generated from ``memory/profile_async.py``: edit that
file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg.types.json import Jsonb

from ..models import Scope
from ..models.profile import UserProfile
from ..stores.ports import Ledger
from .profile_pure import profile_from_row

__all__ = ["ProfileMemory"]


class ProfileMemory:
    """One row per user; updates merge into it (see ``upsert_profile`` in ``stores/sql/profile.sql``)."""

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger

    def get(self, scope: Scope) -> UserProfile:
        row = self._ledger.fetch_one("get_profile", {"user_id": scope.user_id})
        return UserProfile(user_id=scope.user_id) if row is None else profile_from_row(row)

    def drop_preferences(self, scope: Scope, keys: Sequence[str]) -> None:
        """Remove these preference keys (what they said no longer holds)."""
        if keys:
            self._ledger.fetch_one("drop_profile_preferences", {"user_id": scope.user_id, "keys": list(keys)})

    def update(
        self,
        scope: Scope,
        preferences: dict[str, Any] | None,
        expertise_areas: Sequence[str] | None,
        communication_style: str | None,
    ) -> UserProfile:
        row = self._ledger.fetch_one(
            "upsert_profile",
            {
                "user_id": scope.user_id,
                "preferences": None if preferences is None else Jsonb(preferences),
                "expertise_areas": None if expertise_areas is None else Jsonb(list(expertise_areas)),
                "communication_style": communication_style,
            },
        )
        assert row is not None  # an upsert with RETURNING always returns its row
        return profile_from_row(row)
