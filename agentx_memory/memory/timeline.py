# Generated from agentx_memory/memory/timeline_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The ``memory_timeline`` index: one row per stored memory. Generated from ``memory/timeline_async.py``: edit
that file.

Time-range questions ("what did we decide last week?") read this table instead of scanning every store.
A row is written once per ``(memory_type, memory_id)``; writing it again is a no-op.
"""

from __future__ import annotations

from datetime import datetime

from ..models import Scope
from ..stores.postgres import PostgresStore

__all__ = ["record_timeline"]


def record_timeline(
    ledger: PostgresStore,
    scope: Scope,
    *,
    memory_type: str,
    memory_id: str,
    event_time: datetime,
    summary: str,
    importance: float = 0.5,
    conversation_id: str | None = None,
) -> None:
    """Index one stored memory (``memory_type``: turn, fact, entity, strategy, goal) in ``scope``."""
    ledger.execute(
        "insert_timeline",
        {
            "user_id": scope.user_id,
            "channel": scope.channel,
            "memory_type": memory_type,
            "memory_id": memory_id,
            "conversation_id": conversation_id,
            "event_time": event_time,
            "summary": summary,
            "importance": importance,
        },
    )
