# Generated from agentx_memory/api/documents_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for documents: JSON values under a namespace and key. Generated from
``api/documents_async.py``: edit that file.

The storage behind the framework adapters (``agentx_memory.integrations``): a LangGraph store's items
and an OpenAI Agents session's items. ``space`` names the adapter, so one never sees another's
namespaces; documents belong to this facade's user and channel like every other memory.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..memory.documents_pure import (
    validate_document_key,
    validate_document_value,
    validate_index_text,
    validate_namespace,
    validate_space,
    validate_ttl,
)
from ..models.documents import Document
from ..validation import validate_content
from .core import FacadeCore

__all__ = ["DocumentsApi"]


class DocumentsApi(FacadeCore):
    def put_document(
        self,
        space: str,
        namespace: Sequence[str],
        key: str,
        value: Mapping[str, Any],
        *,
        index_texts: Mapping[str, str] | None = None,
        ttl_minutes: float | None = None,
    ) -> None:
        """Store ``value`` (a JSON object) at ``(namespace, key)``, replacing what was there.

        ``index_texts`` (a name, e.g. a field path → its text) are embedded with this memory's
        embedder; a search by query scores the document by its best text. Without texts the document
        is not searchable by query. ``ttl_minutes``: gone that long after the write (or the last
        refreshing read).
        """
        space, labels = validate_space(space), validate_namespace(namespace)
        key, checked = validate_document_key(key), validate_document_value(value)
        ttl = validate_ttl(ttl_minutes)
        texts = {
            validate_document_key(path): validate_index_text(text)
            for path, text in (index_texts or {}).items()
        }
        backends = self._open_backends()
        vectors = backends.embed(list(texts.values())) if texts else []
        by_path = {path: (texts[path], vector) for path, vector in zip(texts, vectors, strict=True)}
        backends.documents.put(self.scope, space, labels, key, checked, by_path, ttl)
        backends.audit.log_write(
            self.scope, "put_document", "document", key, {"space": space, "namespace": list(labels)}
        )

    def get_document(
        self, space: str, namespace: Sequence[str], key: str, *, refresh_ttl: bool = False
    ) -> Document | None:
        """The document at ``(namespace, key)``, or ``None``; ``refresh_ttl`` restarts its TTL."""
        space, labels, key = validate_space(space), validate_namespace(namespace), validate_document_key(key)
        backends = self._open_backends()
        return backends.documents.get(self.scope, space, labels, key, refresh_ttl)

    def delete_document(self, space: str, namespace: Sequence[str], key: str) -> bool:
        """Delete one document; ``False`` when there was none."""
        space, labels, key = validate_space(space), validate_namespace(namespace), validate_document_key(key)
        backends = self._open_backends()
        deleted = backends.documents.delete(self.scope, space, labels, key)
        details = {"space": space, "namespace": list(labels), "found": deleted}
        backends.audit.log_write(self.scope, "delete_document", "document", key, details)
        return deleted

    def delete_document_namespace(self, space: str, namespace: Sequence[str]) -> int:
        """Delete every document directly in ``namespace``; returns how many."""
        space, labels = validate_space(space), validate_namespace(namespace)
        backends = self._open_backends()
        deleted = backends.documents.delete_namespace(self.scope, space, labels)
        details = {"space": space, "namespace": list(labels), "deleted": deleted}
        backends.audit.log_write(self.scope, "delete_document_namespace", "document", None, details)
        return deleted

    def scan_documents(
        self,
        space: str,
        prefix: Sequence[str] = (),
        *,
        query: str | None = None,
    ) -> list[Document]:
        """Every document under the namespace ``prefix``: in insertion order (namespaces in the order
        they were first filled, keys in first-insert order), each with its ``score`` against ``query``.
        Ranking, filtering and paging are the caller's (an adapter applies its framework's rules)."""
        space, labels = validate_space(space), validate_namespace(prefix, allow_empty=True)
        vector = None
        if query is None:
            backends = self._open_backends()
        else:  # a ranked scan is a recall: it embeds the query, so it counts against the rate limit
            query = validate_content(query, self.settings.limits, "query")
            backends = self._open_for_recall("scan_documents")
            vector = (backends.embed_queries([query]))[0]
        found = backends.documents.scan(self.scope, space, labels, vector)
        backends.audit.log_read(
            self.scope, "scan_documents", {"space": space, "prefix": list(labels), "results": len(found)}
        )
        return found

    def document_namespaces(self, space: str) -> list[tuple[str, ...]]:
        """Every namespace of ``space`` holding at least one document, sorted."""
        backends = self._open_backends()
        return backends.documents.namespaces(self.scope, validate_space(space))
