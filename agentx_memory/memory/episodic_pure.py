"""Episodic memory's pure functions and constants, shared by the async source and its generated twin."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from ..crypto import Encryptor, open_text
from ..extraction.english import absolute_date
from ..models import Turn
from ..retrieval.time_phrases import find_time_phrase
from ..timecodec import from_epoch_ms

__all__ = [
    "TURN_HIT_COLUMNS",
    "PendingConversation",
    "TurnEvent",
    "TurnHit",
    "content_hash",
    "event_params",
    "pending_from_row",
    "turn_event",
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
    #: When what it tells happened (:class:`TurnEvent`), if it says: a date question prefers it.
    event_start: datetime | None = None
    event_end: datetime | None = None


#: Columns of a lean turn row (``recall.sql``'s full-text, vector and neighbour reads): the statement's
#: first seven, in :class:`TurnHit`'s order; what a statement adds (score, similarity) follows them.
TURN_HIT_COLUMNS: Final = 7


def turn_hit(row: Sequence[Any]) -> TurnHit:
    """The :class:`TurnHit` of a lean turn row read as a tuple (``fetch_tuples``)."""
    return TurnHit(*row[:TURN_HIT_COLUMNS])


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


def turn_from_graph(item: dict[str, Any], encryptor: Encryptor | None = None) -> Turn:
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
        metadata=open_text(encryptor, item["metadata"], item["user_id"]) if item.get("metadata") else {},
    )


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """When what a turn tells happened, from a relative time phrase read against when it was said:
    "I went camping yesterday", said on 8 May 2023, happened on ``[7 May 2023, 8 May 2023)``."""

    start: datetime
    end: datetime
    #: The range in words ("7 May 2023", "the week of 1 May 2023", "May 2023"): searchable beside the turn.
    label: str


#: A phrase is resolved at ingest only when it is relative by its own words: "in May" or "on Friday"
#: may look back or ahead (the tense decides, which rules do not read), "yesterday" and "next week" not.
#: Checked first on the whole turn, so the time rules run only on the few turns that have such words
#: (39 µs a turn on average over the LoCoMo dev turns, against 273 µs for the rules on every turn).
_PERIOD: Final = (
    r"(?:night|morning|afternoon|evening|week|weekend|month|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
)
_RELATIVE: Final = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago|weekends?|from\s+now"
    rf"|(?:this|last|next)\s+(?:past\s+|coming\s+)?{_PERIOD}|(?:the\s+)?past\s+(?:few|couple|\d+|{_PERIOD}))\b",
    re.I,
)


def _event_label(start: datetime, end: datetime) -> str | None:
    """The range in the words learned facts use for dates ("7 May 2023", "the week of 1 May 2023",
    "May 2023", "2022"), without the preposition; None past a year (too vague to search by)."""
    if end - start > timedelta(days=366):
        return None
    return re.sub(r"^(?:on|in) ", "", absolute_date(start, end))


def turn_event(content: str, said_at: datetime) -> TurnEvent | None:
    """The event date of a turn (its first relative time phrase, resolved against ``said_at``), or None.

    Only phrases whose words make them relative count ("yesterday", "last week", "two days ago", "next
    month"); a dated phrase ("on 7 May 2023") is already searchable as written, and an ambiguous one
    ("in May") is left alone. Open ranges ("recently") and ranges over a year carry no date.
    """
    if _RELATIVE.search(content) is None:  # most turns: one regex scan instead of every time rule
        return None
    found = find_time_phrase(content, said_at)
    if found is None or _RELATIVE.search(found.time_range.phrase) is None:
        return None
    start, end = found.time_range.start, found.time_range.end
    if start is None or end is None:
        return None
    label = _event_label(start, end)
    return TurnEvent(start, end, label) if label is not None else None


def event_params(event: TurnEvent | None) -> dict[str, Any]:
    """A turn's event columns as ledger statement parameters (all None without an event)."""
    if event is None:
        return {"event_start": None, "event_end": None, "event_label": None}
    return {"event_start": event.start, "event_end": event.end, "event_label": event.label}


def turn_search_text(content: str, metadata: dict[str, Any], event_label: str | None = None) -> str:
    """What a turn is embedded as: ``"<speaker>: <content> [<event date>]"``, the speaker when
    ``metadata["speaker"]`` names one and the event date when the turn has one (:func:`turn_event`'s
    label).

    Questions name people ("What did Melanie paint?") and dates ("What did she do on 7 May?"), so both
    belong in the searchable text; the ledger's full-text column is built the same way (migrations 002
    and 011).
    """
    text = f"{content} [{event_label}]" if event_label else content
    speaker = metadata.get("speaker")
    if isinstance(speaker, str) and speaker.strip():
        return f"{speaker.strip()}: {text}"
    return text


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
