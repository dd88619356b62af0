"""Episodic memory's pure functions and constants, shared by the async source and its generated twin."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..models import Turn
from ..timecodec import from_epoch_ms

__all__ = [
    "PendingConversation",
    "TurnHit",
    "content_hash",
    "pending_from_row",
    "turn_from_graph",
    "turn_from_row",
    "turn_hit",
    "turn_search_text",
]


def content_hash(role: str, content: str) -> str:
    """What makes two writes at one index "the same turn": role and exact content."""
    return hashlib.sha256(f"{role}\x00{content}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class TurnHit:
    """A turn as recall first sees it: where and when it is and who said it (``metadata.speaker``), not
    what it says (see ``get_turns``)."""

    id: str
    conversation_id: str
    index: int
    timestamp: datetime
    speaker: str | None


def turn_hit(row: dict[str, Any]) -> TurnHit:
    return TurnHit(row["id"], row["conversation_id"], row["turn_index"], row["timestamp"], row["speaker"])


def turn_from_row(row: dict[str, Any]) -> Turn:
    return Turn(
        id=row["id"],
        conversation_id=row["conversation_id"],
        user_id=row["user_id"],
        channel=row["channel"],
        index=row["turn_index"],
        role=row["role"],
        content=row["content"],
        timestamp=row["timestamp"],
        content_hash=row["content_hash"],
        metadata=row["metadata"] or {},
        synced=row["graph_synced"],
        token_count=row.get("token_count"),
    )


def turn_from_graph(item: dict[str, Any]) -> Turn:
    return Turn(
        id=item["id"],
        conversation_id=item["conversation_id"],
        user_id=item["user_id"],
        channel=item["channel"],
        index=item["turn_index"],
        role=item["role"],
        content=item["content"],
        timestamp=from_epoch_ms(item["timestamp"]),
        content_hash=item["content_hash"],
        metadata=json.loads(item["metadata"]) if item.get("metadata") else {},
    )


def turn_search_text(content: str, metadata: dict[str, Any]) -> str:
    """What a turn is embedded as: ``"<speaker>: <content>"`` when ``metadata["speaker"]`` names one.

    Questions name people ("What did Melanie paint?"), so the speaker belongs in the searchable text;
    the ledger's full-text column is built the same way (migration 002).
    """
    speaker = metadata.get("speaker")
    if isinstance(speaker, str) and speaker.strip():
        return f"{speaker.strip()}: {content}"
    return content


@dataclass(frozen=True)
class PendingConversation:
    """A conversation's consolidation watermark: turns below ``consolidated_turns`` were learned from."""

    id: str
    channel: str
    consolidated_turns: int
    next_turn_index: int
    last_turn_at: datetime | None

    @property
    def pending(self) -> bool:
        return self.next_turn_index > self.consolidated_turns


def pending_from_row(row: dict[str, Any]) -> PendingConversation:
    return PendingConversation(
        id=str(row["id"]),
        channel=row["channel"],
        consolidated_turns=int(row["consolidated_turns"]),
        next_turn_index=int(row["next_turn_index"]),
        last_turn_at=row.get("last_turn_at"),
    )
