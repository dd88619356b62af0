"""Episodic models and the shared ones: scope, turns, recalled items."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..kinds import MemoryKind

__all__ = [
    "MemoryBundle",
    "MemoryItem",
    "MemoryKind",
    "Role",
    "Scope",
    "TechniqueMetric",
    "Turn",
    "TurnSpec",
]

Role = Literal["user", "assistant", "system", "tool"]
ROLES: frozenset[str] = frozenset({"user", "assistant", "system", "tool"})


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
    #: What the content costs in a prompt (the offline WordPiece count), None for turns stored before it.
    token_count: int | None = None


class TurnSpec(BaseModel):
    """One turn to store with ``store_turns``: what ``store_turn`` takes, as a value.

    ``speaker`` is a shorthand for ``metadata["speaker"]`` (who said it, searchable with the content).
    ``turn_index`` works as in ``store_turn``: given, the write is idempotent at that index; omitted,
    the next index is allocated. Give it for every turn of a batch or for none.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    role: str
    content: str
    timestamp: datetime | None = None
    turn_index: int | None = None
    metadata: dict[str, Any] | None = None
    speaker: str | None = None


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
    #: When the memory was last returned by a recall (facts and entities), if ever.
    last_accessed: datetime | None = None
    #: Why it was returned: the techniques that found it (``vector``, ``fulltext``, ``neighbour``,
    #: ``entity``, ``graph``, ``expansion``, ``hyde`` …), strongest first.
    found_by: list[str] = Field(default_factory=list)
    #: The turns this memory stands for: a turn itself, the turns a fact was derived from.
    source_turn_ids: list[str] = Field(default_factory=list)
    #: A turn every fact learned from which was since superseded: what it said has changed. It ranks
    #: below what replaced it, and ``get_context`` leaves it out.
    stale: bool = False
    #: For a stale turn, the facts that replaced what it said (their ids).
    superseded_by: list[str] = Field(default_factory=list)


class TechniqueMetric(BaseModel):
    """One retrieval technique in one call: how long it took and how many candidates it gave."""

    model_config = ConfigDict(frozen=True)

    latency_ms: float = 0.0
    results: int = 0
    #: Why the technique did not run (switched off, no LLM configured, not applicable), else None.
    skipped: str | None = None


class MemoryBundle(BaseModel):
    """What ``remember`` returns: ranked items plus how they were found."""

    query: str
    items: list[MemoryItem] = Field(default_factory=list)
    #: Per-step timings in milliseconds (``embed``, ``total`` …).
    timings_ms: dict[str, float] = Field(default_factory=dict)
    #: Per-technique latency and result count (RecallMetrics of this call).
    metrics: dict[str, TechniqueMetric] = Field(default_factory=dict)
    #: The channels that were searched.
    channels: list[str] = Field(default_factory=list)
    #: What self-query understood of the query (time range, kinds, entities), if it ran.
    filters: QueryFilters | None = None

    @property
    def episodic(self) -> list[MemoryItem]:
        return [item for item in self.items if item.kind == "episodic"]

    def __len__(self) -> int:
        return len(self.items)


# Defined after MemoryBundle because models.retrieval imports MemoryKind from this module.
from .retrieval import QueryFilters  # noqa: E402

MemoryBundle.model_rebuild()
