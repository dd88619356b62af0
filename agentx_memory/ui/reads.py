"""The inspector's reads that the public facade has no method for: the users, a user's channels and
conversations, and turns by id (a fact's source turns). Everything else the pages show comes from
:class:`~agentx_memory.AsyncAgentMemory`'s own methods.

Each read of one user's data takes that user's facade and filters by its ``scope`` in the query (the
one place, as in the stores), so a page can show nothing of another user. They are reads only: every
write goes through the facade (same validation, same audit).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..facade_async import AsyncAgentMemory
from ..models import Turn

__all__ = ["ConversationRow", "UserRow", "conversations", "source_turns", "user_channels", "users"]

#: Users the users page lists at most.
MAX_USERS = 500
#: Conversations a user's page lists at most.
MAX_CONVERSATIONS = 200


class UserRow(BaseModel):
    """One user on the users page: what they have stored, in any channel."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    conversations: int
    channels: list[str] = Field(default_factory=list)
    turns: int
    facts: int
    entities: int
    latest: datetime | None = None


class ConversationRow(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    channel: str
    title: str | None = None
    created_at: datetime
    turns: int
    first_turn_at: datetime | None = None
    last_turn_at: datetime | None = None


async def users(root: AsyncAgentMemory) -> list[UserRow]:
    """Every user the ledger knows, in id order, with their counts (facts and entities: every version)."""
    rows = await _ledger_rows(root, "inspector_users", {"limit": MAX_USERS})
    return [UserRow.model_validate({**row, "channels": row["channels"] or []}) for row in rows]


async def user_channels(memory: AsyncAgentMemory) -> list[str]:
    """``_global`` and the project channels the user has conversations in."""
    rows = await _ledger_rows(memory, "list_user_project_channels", {"user_id": memory.scope.user_id})
    return ["_global", *(str(row["channel"]) for row in rows)]


async def conversations(memory: AsyncAgentMemory) -> list[ConversationRow]:
    """The user's conversations in the channels the facade reads, the latest first."""
    rows = await _ledger_rows(
        memory,
        "inspector_conversations",
        {
            "user_id": memory.scope.user_id,
            "channels": memory.scope.read_channels,
            "limit": MAX_CONVERSATIONS,
        },
    )
    return [ConversationRow.model_validate(row) for row in rows]


async def source_turns(memory: AsyncAgentMemory, ids: list[str]) -> dict[str, Turn]:
    """The user's turns with these ids (a fact's provenance), in the channels the facade reads."""

    async def read() -> dict[str, Turn]:
        backends = await memory._open_backends()
        return await backends.episodic.get_turns(memory.scope, ids, memory.scope.read_channels)

    return await memory.home.run(read())


async def _ledger_rows(memory: AsyncAgentMemory, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of a named ledger query, read on the loop the memory's connections live on (the page's
    request runs on the server's)."""

    async def read() -> list[dict[str, Any]]:
        backends = await memory._open_backends()
        return list(await backends.ledger.fetch_all(name, params))

    return await memory.home.run(read())
