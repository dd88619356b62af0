"""What ``agentx-memory backfill`` decides without I/O: a stored turn's derived fields as ingest would
have written them, which turns need a new vector, the rows the write statement takes, and the report.

The I/O lives in ``backfill_async.py``; the question context is derived in SQL, by the rule the append
statements apply (migration 013's ``turn_question_context``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from ..memory.episodic_pure import turn_event, turn_search_text
from .reindex_rules import vector_literal

__all__ = [
    "FIRST_ID",
    "BackfillReport",
    "DerivedTurn",
    "derive_turn",
    "write_rows",
]

#: A key below every turn id: where a run starts.
FIRST_ID: Final = "00000000-0000-0000-0000-000000000000"


@dataclass(frozen=True, slots=True)
class DerivedTurn:
    """A stored turn's event columns as ingest derives them, and the text to embed again when its
    embedded text changed (``None``: the stored vector is still right)."""

    id: str
    event_start: datetime | None
    event_end: datetime | None
    event_label: str | None
    embed_text: str | None


def derive_turn(row: Mapping[str, Any]) -> DerivedTurn:
    """The derived fields of a ``backfill_turn_rows`` row. Ingest reads a turn's time phrase against its
    timestamp in UTC (``validate_timestamp``), whatever zone the database session hands it back in.
    Only a changed event label changes the embedded text: a turn stored between migrations 011 and 013
    already embeds the label it has; one whose label the rules now read differently, or no longer read,
    is embedded with the label it gets (or none)."""
    said_at = row["timestamp"].astimezone(UTC)
    event = turn_event(str(row["content"]), said_at)
    label = event.label if event is not None else None
    metadata = row.get("metadata") or {}
    stale = label != row.get("event_label")
    return DerivedTurn(
        id=str(row["id"]),
        event_start=event.start if event is not None else None,
        event_end=event.end if event is not None else None,
        event_label=label,
        embed_text=turn_search_text(str(row["content"]), metadata, label) if stale else None,
    )


def write_rows(turns: Sequence[DerivedTurn], vectors: Mapping[str, Sequence[float]]) -> str:
    """The ``rows`` parameter of ``backfill_write_turns`` (JSON): each turn's id and event columns, and
    its new vector when ``vectors`` holds one (else null: the statement keeps the stored one)."""
    return json.dumps(
        [
            {
                "id": turn.id,
                "event_start": turn.event_start.isoformat() if turn.event_start else None,
                "event_end": turn.event_end.isoformat() if turn.event_end else None,
                "event_label": turn.event_label,
                "embedding": vector_literal(vectors[turn.id]) if turn.id in vectors else None,
            }
            for turn in turns
        ]
    )


@dataclass
class BackfillReport:
    """What a backfill did: turns given their derived fields and turns re-embedded (this run), the turns
    still waiting (after a bounded run), and the time it took."""

    turns: int = 0
    embedded: int = 0
    remaining: int = 0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        """Turns backfilled per second."""
        return self.turns / self.seconds if self.seconds > 0 else 0.0
