"""Facts memory's pure functions and constants, shared by the async source and its generated twin."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..extraction.atoms import FactAtom
from ..models.semantic import Fact
from ..timecodec import maybe_epoch_ms, maybe_from_epoch_ms

__all__ = ["DEFAULT_DECAY_RATE", "PRIORITY_SALIENCE", "atom_params", "fact_from_graph"]


DEFAULT_DECAY_RATE: Final = 0.05
#: A fact's starting salience from its priority.
PRIORITY_SALIENCE: Final = {"low": 0.25, "medium": 0.5, "high": 0.75, "critical": 1.0}


def fact_from_graph(item: Mapping[str, Any], about: Sequence[str] = (), turns: Sequence[str] = ()) -> Fact:
    created_at = maybe_from_epoch_ms(item["created_at"])
    assert created_at is not None  # every statement that creates a fact sets created_at
    return Fact(
        id=item["id"],
        user_id=item["user_id"],
        channel=item["channel"],
        claim=item["claim"],
        confidence=float(item["confidence"]),
        source=item["source"],
        temporal=item.get("temporal") or "current",
        priority=item.get("priority") or "medium",
        salience=float(item.get("salience") or 0.0),
        decay_rate=float(item.get("decay_rate") or 0.0),
        access_count=item.get("access_count") or 0,
        last_accessed=maybe_from_epoch_ms(item.get("last_accessed")),
        created_at=created_at,
        valid_until=maybe_from_epoch_ms(item.get("valid_until")),
        superseded_by=item.get("superseded_by"),
        about=sorted(about),
        source_turn_id=sorted(turns)[0] if turns else None,
        source_turn_ids=sorted(turns),
        fact_kind=item.get("fact_kind"),
        subject=item.get("subject"),
        key=item.get("key"),
        value=item.get("value"),
        negated=bool(item.get("negated")),
        certainty=item.get("certainty"),
        event_time=maybe_from_epoch_ms(item.get("event_time")),
        stated_at=maybe_from_epoch_ms(item.get("stated_at")),
        ends=list(item.get("ends") or ()),
        ends_words=list(item.get("ends_words") or ()),
    )


def atom_params(atom: FactAtom | None) -> dict[str, Any]:
    """The graph parameters of a learned fact's atom (all null for a fact without one)."""
    if atom is None:
        return dict.fromkeys(
            ("fact_kind", "subject", "key", "value", "event_time", "certainty", "ends", "ends_words"), None
        ) | {"negated": False}
    return {
        "fact_kind": atom.fact_kind,
        "subject": atom.subject,
        "key": atom.key,
        "value": atom.value,
        "negated": atom.negated,
        "event_time": maybe_epoch_ms(atom.event_time),
        "certainty": atom.certainty,
        # What an ending ends (a list property; null when none), so a fact said before it and learned
        # after it is history at once.
        "ends": atom.ends or None,
        "ends_words": atom.ends_words or None,
    }
