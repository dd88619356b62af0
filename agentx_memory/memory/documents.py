# Generated from agentx_memory/memory/documents_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Documents over the ledger: JSON values under ``(space, namespace, key)``. Generated from
``memory/documents_async.py``: edit that file.

The ledger is their only home (no graph node): a framework's key-value items change often and are read
by key, and their vectors sit beside them in ``document_vectors`` (one per embedded text, searched by
exact cosine within the caller's namespace prefix). Every statement is scoped by user and channel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
from psycopg.types.json import Json

from ..models import Scope
from ..models.documents import Document, RecalledDocument
from ..stores.ports import Ledger

__all__ = ["DocumentMemory"]


def _vector_literal(vector: Sequence[float]) -> str:
    """pgvector's text form (``[0.1,0.2]``): a list of these goes over as one ``text[]`` parameter."""
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


def _document(row: Mapping[str, Any]) -> Document:
    score = row.get("score")
    return Document(
        namespace=tuple(row["namespace"]),
        key=row["key"],
        value=row["value"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        expires_at=row.get("expires_at"),
        score=None if score is None else float(score),
    )


class DocumentMemory:
    """One user's documents in one channel (a stateless view over the ledger)."""

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger

    @staticmethod
    def _key(scope: Scope, space: str) -> dict[str, Any]:
        return {"user_id": scope.user_id, "channel": scope.channel, "space": space, "now": datetime.now(UTC)}

    def put(
        self,
        scope: Scope,
        space: str,
        namespace: Sequence[str],
        key: str,
        value: Mapping[str, Any],
        vectors: Mapping[str, tuple[str, Sequence[float]]],
        ttl_minutes: float | None,
    ) -> None:
        """Insert or replace one value and its vectors (path → (text, vector); none: not searchable)."""
        params = self._key(scope, space)
        self._ledger.execute("document_sweep", params)
        self._ledger.fetch_one(
            "document_put",
            {
                **params,
                "namespace": list(namespace),
                "key": key,
                "value": Json(dict(value)),
                "ttl_minutes": ttl_minutes,
                "paths": list(vectors),
                "texts": [text for text, _ in vectors.values()],
                "embeddings": [_vector_literal(vector) for _, vector in vectors.values()],
            },
        )

    def get(
        self, scope: Scope, space: str, namespace: Sequence[str], key: str, refresh_ttl: bool
    ) -> Document | None:
        params = {**self._key(scope, space), "namespace": list(namespace), "key": key, "refresh": refresh_ttl}
        row = self._ledger.fetch_one("document_get", params)
        return None if row is None else _document(row)

    def delete(self, scope: Scope, space: str, namespace: Sequence[str], key: str) -> bool:
        params = {**self._key(scope, space), "namespace": list(namespace), "key": key}
        return self._ledger.execute("document_delete", params) > 0

    def delete_namespace(self, scope: Scope, space: str, namespace: Sequence[str]) -> int:
        params = {**self._key(scope, space), "namespace": list(namespace)}
        return self._ledger.execute("document_delete_namespace", params)

    def scan(
        self, scope: Scope, space: str, prefix: Sequence[str], query: Sequence[float] | None
    ) -> list[Document]:
        """Every live document under ``prefix`` in listing order (namespaces in the order they were
        first filled, keys in first-insert order), each scored against ``query`` when given."""
        params = {
            **self._key(scope, space),
            "prefix": list(prefix),
            "depth": len(prefix),
            "query": None if query is None else _vector_literal(query),
        }
        return [_document(row) for row in self._ledger.fetch_all("document_scan", params)]

    def namespaces(self, scope: Scope, space: str) -> list[tuple[str, ...]]:
        """Every namespace holding at least one live document, sorted."""
        rows = self._ledger.fetch_all("document_namespaces", self._key(scope, space))
        return sorted(tuple(row["namespace"]) for row in rows)

    def recall(
        self, scope: Scope, channels: Sequence[str], query: Sequence[float], limit: int
    ) -> list[RecalledDocument]:
        """The ``limit`` documents of every space in ``channels`` whose best text is nearest ``query``."""
        params = {
            "user_id": scope.user_id,
            "channels": list(channels),
            # binary, as pgvector's adapter sends an array (the text form cost ~0.2 ms of every recall)
            "query": np.asarray(query, dtype=np.float32),
            "limit": limit,
            "now": datetime.now(UTC),
        }
        rows = self._ledger.fetch_all("document_recall", params)
        return [
            RecalledDocument.model_validate({**row, "namespace": tuple(row["namespace"])}) for row in rows
        ]

    def counts(self, scope: Scope, channels: Sequence[str]) -> list[dict[str, Any]]:
        """Live documents per ``space`` and ``channel`` (with the ``latest`` update) in ``channels``."""
        params = {"user_id": scope.user_id, "channels": list(channels), "now": datetime.now(UTC)}
        return self._ledger.fetch_all("document_counts", params)
