"""The project's time codec: every moment is a UTC ``datetime`` in Python and in Postgres
(``timestamptz``), and epoch milliseconds (an int) in the graph, where FalkorDB has no datetime type
and datetime parameters break queries. Pure functions."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["epoch_ms", "from_epoch_ms", "maybe_epoch_ms", "maybe_from_epoch_ms", "now_ms", "to_utc"]


def to_utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive one is taken as UTC, the only zone the stores use."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def epoch_ms(moment: datetime) -> int:
    """A moment as graph time (epoch milliseconds)."""
    return int(moment.timestamp() * 1000)


def maybe_epoch_ms(moment: datetime | None) -> int | None:
    return None if moment is None else epoch_ms(moment)


def now_ms() -> int:
    """The current moment as graph time."""
    return epoch_ms(datetime.now(UTC))


def from_epoch_ms(value: float) -> datetime:
    try:
        return datetime.fromtimestamp(value / 1000, tz=UTC)
    except (OverflowError, ValueError, OSError):
        # stored before moments were range-checked (a deadline of datetime.max): the range's end,
        # rather than a read that fails for every recall of that user
        return datetime.max.replace(tzinfo=UTC) if value > 0 else datetime.min.replace(tzinfo=UTC)


def maybe_from_epoch_ms(value: float | None) -> datetime | None:
    return None if value is None else from_epoch_ms(value)
