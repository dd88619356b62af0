"""Documents: JSON values under a namespace and key, kept for framework adapters (``documents`` table).

A LangGraph store's items and an OpenAI Agents session's items are documents; ``space`` keeps each
adapter's namespaces apart. Values round-trip exactly (stored as JSON text: numbers and key order kept).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["Document", "RecalledDocument"]


class Document(BaseModel):
    """One stored value. ``score`` is its best text's cosine with a search's query (``None`` without a
    query, or when the document has no embedded text)."""

    model_config = ConfigDict(frozen=True)

    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    #: When it expires (its TTL), ``None``: kept until deleted.
    expires_at: datetime | None = None
    score: float | None = None


class RecalledDocument(BaseModel):
    """A document found by recall (``remember``, ``get_context``): where it is, its value, the embedded
    text of it nearest the query and that text's cosine."""

    model_config = ConfigDict(frozen=True)

    space: str
    namespace: tuple[str, ...]
    key: str
    channel: str
    value: dict[str, Any]
    updated_at: datetime
    text: str
    score: float
