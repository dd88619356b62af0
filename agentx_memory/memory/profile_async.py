"""User profiles in Postgres (``user_profiles``). Async source of ``memory/profile.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg.types.json import Jsonb

from ..models import Scope
from ..models.profile import UserProfile
from ..stores.ports_async import AsyncLedger
from .profile_pure import profile_from_row

__all__ = ["AsyncProfileMemory"]


class AsyncProfileMemory:
    """One row per user; updates merge into it (see ``upsert_profile`` in ``stores/sql/profile.sql``)."""

    def __init__(self, ledger: AsyncLedger) -> None:
        self._ledger = ledger

    async def get(self, scope: Scope) -> UserProfile:
        row = await self._ledger.fetch_one("get_profile", {"user_id": scope.user_id})
        return UserProfile(user_id=scope.user_id) if row is None else profile_from_row(row)

    async def drop_preferences(self, scope: Scope, keys: Sequence[str]) -> None:
        """Remove these preference keys (what they said no longer holds)."""
        if keys:
            await self._ledger.fetch_one(
                "drop_profile_preferences", {"user_id": scope.user_id, "keys": list(keys)}
            )

    async def update(
        self,
        scope: Scope,
        preferences: dict[str, Any] | None,
        expertise_areas: Sequence[str] | None,
        communication_style: str | None,
    ) -> UserProfile:
        row = await self._ledger.fetch_one(
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
