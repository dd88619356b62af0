"""Checks of document input (pure): what the ledger would refuse, refused first with a clear message."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidInputError
from ..models.semantic import MemoryStats

__all__ = [
    "validate_document_key",
    "validate_document_value",
    "validate_index_text",
    "validate_namespace",
    "validate_space",
    "validate_ttl",
    "with_documents",
]

_SPACE = re.compile(r"[a-z][a-z0-9_-]{0,63}")


def validate_space(space: object) -> str:
    if not isinstance(space, str) or not _SPACE.fullmatch(space):
        raise InvalidInputError(
            f"document space {space!r} is not allowed: 1-64 lowercase letters, digits, _ and -, "
            "starting with a letter"
        )
    return space


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a string, not {type(value).__name__}")
    if "\x00" in value:
        raise InvalidInputError(f"{what} contains a NUL character, which no store accepts")
    return value


def validate_namespace(namespace: object, *, allow_empty: bool = False) -> tuple[str, ...]:
    """A tuple of non-empty strings (empty only as a search prefix)."""
    if isinstance(namespace, str) or not isinstance(namespace, Sequence):
        raise InvalidInputError(f"a namespace is a tuple of strings, not {type(namespace).__name__}")
    labels = tuple(_text(label, "a namespace label") for label in namespace)
    if not allow_empty and not labels:
        raise InvalidInputError("a namespace needs at least one label")
    if any(not label for label in labels):
        raise InvalidInputError(f"namespace {labels!r} has an empty label")
    return labels


def validate_document_key(key: object) -> str:
    return _text(key, "a document key")


def validate_index_text(text: object) -> str:
    """A text to embed; empty is allowed (a field holding ``""`` is still indexed, as LangGraph does)."""
    return _text(text, "an indexed text")


def validate_document_value(value: object) -> dict[str, Any]:
    """A JSON object with no NaN or infinity. A NUL character is kept: the value column is ``json``
    (its text, which escapes one as ``\\u0000``), not ``jsonb``, which refuses one."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"a document value is a JSON object (dict), not {type(value).__name__}")
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInputError(f"a document value must be plain JSON: {exc}") from exc
    return dict(value)


def validate_ttl(ttl_minutes: object) -> float | None:
    if ttl_minutes is None:
        return None
    if isinstance(ttl_minutes, bool) or not isinstance(ttl_minutes, int | float):
        raise InvalidInputError(f"ttl must be a number of minutes, not {type(ttl_minutes).__name__}")
    if not math.isfinite(ttl_minutes) or ttl_minutes <= 0:
        raise InvalidInputError(f"ttl must be a positive number of minutes, not {ttl_minutes!r}")
    return float(ttl_minutes)


def with_documents(stats: MemoryStats, rows: Sequence[Mapping[str, Any]]) -> MemoryStats:
    """``stats`` with the ``document_counts`` rows counted as ``Document`` per channel (every space
    summed), their latest update taken into ``latest_write``."""
    if not rows:
        return stats
    counts = {label: dict(per_channel) for label, per_channel in stats.counts.items()}
    documents = counts.setdefault("Document", {})
    latest = stats.latest_write
    for row in rows:
        documents[row["channel"]] = documents.get(row["channel"], 0) + int(row["count"])
        if row["latest"] is not None and (latest is None or row["latest"] > latest):
            latest = row["latest"]
    return stats.model_copy(update={"counts": counts, "latest_write": latest})
