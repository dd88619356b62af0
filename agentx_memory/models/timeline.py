"""Timeline model: one row of ``memory_timeline``, the index of every stored memory by time."""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["TIMELINE_KINDS", "TimelineEntry", "TimelineKind"]

TimelineKind = Literal["turn", "fact", "entity", "goal", "strategy"]
TIMELINE_KINDS: Final[tuple[TimelineKind, ...]] = ("turn", "fact", "entity", "goal", "strategy")


class TimelineEntry(BaseModel):
    """A memory as the timeline indexes it: its kind and id, when it happened, and a short summary."""

    model_config = ConfigDict(frozen=True)

    memory_type: str
    memory_id: str
    channel: str
    event_time: datetime
    summary: str
    importance: float
    conversation_id: str | None = None
