"""The ``memory_timeline`` index: one row per stored memory. Async source of ``memory/timeline.py``.

Time-range questions ("what did we decide last week?") read this table instead of scanning every store.
A row is written once per ``(memory_type, memory_id)``; writing it again is a no-op. The subsystems'
create operations write it (facts, entities, strategies, goals, promoted copies; turns get theirs from
the ledger statement that stores them), so no facade method ever does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from ..models import Scope, TimelineEntry
from ..stores.ports_async import AsyncLedger

__all__ = ["SUMMARY_CHARS", "AsyncTimeline"]

#: The summary a timeline row keeps of its memory.
SUMMARY_CHARS = 500


class AsyncTimeline:
    """Writes timeline rows for the subsystems and reads them for the facade (a stateless view over the
    ledger)."""

    def __init__(self, ledger: AsyncLedger) -> None:
        self._ledger = ledger

    async def record(
        self,
        scope: Scope,
        *,
        memory_type: str,
        memory_id: str,
        summary: str,
        importance: float = 0.5,
        conversation_id: str | None = None,
        event_time: datetime | None = None,
        channel: str | None = None,
    ) -> None:
        """Index one stored memory (``memory_type``: fact, entity, strategy, goal) in ``scope``'s channel
        (or ``channel``, for a copy written elsewhere), at ``event_time`` (default: now)."""
        await self._ledger.execute(
            "insert_timeline",
            {
                "user_id": scope.user_id,
                "channel": scope.channel if channel is None else channel,
                "memory_type": memory_type,
                "memory_id": memory_id,
                "conversation_id": conversation_id,
                "event_time": datetime.now(UTC) if event_time is None else event_time,
                "summary": summary[:SUMMARY_CHARS],
                "importance": importance,
            },
        )

    async def entries(
        self,
        scope: Scope,
        channels: Sequence[str],
        *,
        since: datetime | None,
        until: datetime | None,
        kinds: Sequence[str] | None,
        limit: int,
    ) -> list[TimelineEntry]:
        """This user's timeline rows in ``channels``, newest first."""
        rows = await self._ledger.fetch_all(
            "list_timeline",
            {
                "user_id": scope.user_id,
                "channels": list(channels),
                "since": since,
                "until": until,
                "kinds": None if kinds is None else list(kinds),
                "limit": limit,
            },
        )
        return [TimelineEntry.model_validate(row) for row in rows]
