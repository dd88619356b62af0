# Generated from agentx_memory/maintenance/users_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Every user the ledger knows, with how much each holds: ``agentx-memory users``. Generated from
``maintenance/users_async.py``: edit that file. An operator's view across users (like the maintenance jobs),
never a facade method: a user's facade reaches that user only."""

from __future__ import annotations

from ..backends import Backends
from .base import UserSummary

__all__ = ["user_summaries"]


def user_summaries(backends: Backends) -> list[UserSummary]:
    """Every user with a conversation, a profile, a memory or a document, sorted by id."""
    rows = backends.ledger.fetch_all("user_summaries", {})
    return [UserSummary.model_validate(row) for row in rows]
