"""Every user the ledger knows, with how much each holds: ``agentx-memory users``. Async source of
``users.py``. An operator's view across users (like the maintenance jobs), never a facade method: a
user's facade reaches that user only."""

from __future__ import annotations

from ..backends_async import AsyncBackends
from .base import UserSummary

__all__ = ["user_summaries"]


async def user_summaries(backends: AsyncBackends) -> list[UserSummary]:
    """Every user with a conversation, a profile, a memory or a document, sorted by id."""
    rows = await backends.ledger.fetch_all("user_summaries", {})
    return [UserSummary.model_validate(row) for row in rows]
