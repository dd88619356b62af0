"""Episodic models and the shared ones: scope, turns, recalled items."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "MemoryBundle",
    "MemoryItem",
    "MemoryKind",
    "Role",
    "Scope",
    "Turn",
]

Role = Literal["user", "assistant", "system", "tool"]
ROLES: frozenset[str] = frozenset({"user", "assistant", "system", "tool"})
MemoryKind = Literal["episodic", "semantic", "entity", "procedural", "goal"]


class Scope(BaseModel):
    """Who a read or write is for: every query is filtered by ``user_id``; reads cover ``channels``."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    channel: str

    @property
    def read_channels(self) -> list[str]:
        """The active channel and ``_global`` (once when they are the same)."""
        return [self.channel] if self.channel == "_global" else [self.channel, "_global"]


class Turn(BaseModel):
    """One message of a conversation, as stored in the ledger (and mirrored in the graph)."""

    model_config = ConfigDict(frozen=True)

    id: str
    conversation_id: str
    user_id: str
    channel: str
    index: int
    role: Role
    content: str
    timestamp: datetime
    content_hash: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    #: False while the graph copy is missing (the reconcile job replays it from the ledger).
    synced: bool = True


class MemoryItem(BaseModel):
    """One recalled memory with the score that ranked it."""

    model_config = ConfigDict(frozen=True)

    kind: MemoryKind
    id: str
    content: str
    score: float
    channel: str
    timestamp: datetime | None = None
    conversation_id: str | None = None
    turn_index: int | None = None
    role: Role | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class MemoryBundle(BaseModel):
    """What ``remember`` returns: ranked items plus how they were found."""

    query: str
    items: list[MemoryItem] = Field(default_factory=list)
    #: Per-technique timings in milliseconds (``embed``, ``vector_turns`` …).
    timings_ms: dict[str, float] = Field(default_factory=dict)

    @property
    def episodic(self) -> list[MemoryItem]:
        return [item for item in self.items if item.kind == "episodic"]

    def __len__(self) -> int:
        return len(self.items)
