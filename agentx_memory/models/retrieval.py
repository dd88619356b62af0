"""Retrieval models: the structured filters a query carries (self-query)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from .episodic import MemoryKind

__all__ = ["QueryFilters", "TimeRange"]


class TimeRange(BaseModel):
    """A half-open UTC interval ``[start, end)``; either end may be open; ``phrase`` is its source text."""

    model_config = ConfigDict(frozen=True)

    start: datetime | None = None
    end: datetime | None = None
    phrase: str = ""


class QueryFilters(BaseModel):
    """What self-query extracted from a query. Empty fields mean "no constraint"."""

    model_config = ConfigDict(frozen=True)

    #: The query with the filter phrases removed (what gets embedded and full-text searched).
    text: str
    time_range: TimeRange | None = None
    #: Channels the query names explicitly ("in the billing project" → ``billing``), if any.
    channels: list[str] = Field(default_factory=list)
    #: Memory kinds the query asks for ("what strategies…" → ``procedural``), if any.
    kinds: list[MemoryKind] = Field(default_factory=list)
    #: Names the query mentions (people, places, things), as written.
    entities: list[str] = Field(default_factory=list)
    #: One question per need when the query joins several ("what do X and Y both like?" → one per
    #: person), each recalled on its own and interleaved; empty for a single need.
    parts: list[str] = Field(default_factory=list)
    #: Which parser produced this: ``rules`` or ``llm``.
    source: str = "rules"
