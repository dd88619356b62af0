"""A LangGraph ``BaseStore`` over agentx-memory: ``AgentMemoryStore(memory)``.

Where items live: in the ledger's ``documents`` table (migration 009), one row per ``(namespace, key)``
with the value as ``jsonb`` and its embedded texts in ``document_vectors``. Facts were the other
candidate and do not fit: a fact is a sentence with a confidence, while a LangGraph item is an arbitrary
JSON object that must come back exactly as it was put; and the graph's vector nodes go stale on every
rewrite (FalkorDB#2197), which a key-value store does all the time. The ledger is already the source of
truth, is scoped by ``user_id`` (and channel) in every statement, and ``forget_user`` deletes the rows.

Semantics are LangGraph's reference ``InMemoryStore``'s (``langgraph_rules``): filters, paging, the
listing order without a query (namespaces in the order they were first filled, keys in insertion
order), ranking by the best-matching indexed text with a query, unindexed items topping up a short
page. Indexing uses this memory's embedder on the fields named by ``index_fields`` (default ``["$"]``:
the whole value as JSON) or by a put's ``index``; ``index=False`` leaves an item out of query ranking.
TTL is supported (minutes, ``ttl_config`` like LangGraph's stores). A search reads every item under
its namespace prefix (with its score when there is a query) and filters and pages them here, as the
reference does: right for an agent's memories, not for millions of items under one prefix.

The user: fixed by the facade (``AgentMemory(user_id=…)``), or, with ``user_from_namespace=i``, taken
from label ``i`` of every namespace (LangGraph's docs keep one store for all users and put the user id
in the namespace): each operation then runs as that user, so a search or listing must name the user in
its prefix. The facade's channel partitions items like the user does.

``batch`` calls the synchronous facade; ``abatch`` runs ``batch`` in the event loop's default executor,
as LangGraph's own synchronous ``PostgresStore`` does, so one store serves sync and async graphs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import InvalidInputError
from ..models.documents import Document
from . import MissingExtraError
from .langgraph_rules import page_namespaces, page_search

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        TTLConfig,
        validate_op_namespace,
    )
    from langgraph.store.base.embed import get_text_at_path, tokenize_path
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test in a subprocess
    raise MissingExtraError("langgraph", "agentx_memory.integrations.langgraph_store") from exc

from ..facade import AgentMemory

__all__ = ["SPACE", "AgentMemoryStore"]

#: The document space of LangGraph items (another adapter's documents are never listed here).
SPACE = "langgraph"


class AgentMemoryStore(BaseStore):
    """LangGraph long-term memory store backed by an :class:`~agentx_memory.AgentMemory`."""

    supports_ttl = True

    def __init__(
        self,
        memory: AgentMemory,
        *,
        user_from_namespace: int | None = None,
        index_fields: Sequence[str] | None = None,
        ttl_config: TTLConfig | None = None,
    ) -> None:
        if user_from_namespace is not None and (
            isinstance(user_from_namespace, bool) or user_from_namespace < 0
        ):
            raise InvalidInputError("user_from_namespace must be a label index >= 0")
        self.memory = memory
        self.user_from_namespace = user_from_namespace
        fields = list(index_fields) if index_fields is not None else ["$"]
        self._fields: list[tuple[str, str | list[str]]] = [
            (path, path if path == "$" else tokenize_path(path)) for path in fields
        ]
        self.ttl_config = ttl_config
        self._users: dict[str, AgentMemory] = {}

    def setup(self) -> None:
        """Open the memory, which applies its migrations: what ``setup()`` does on LangGraph's SQL
        stores, so code written for them runs unchanged (nothing else needs it: first use opens)."""
        self.memory.open()

    # -- the user of an operation ------------------------------------------------------------------

    def _memory_for(self, namespace: tuple[str, ...]) -> AgentMemory:
        index = self.user_from_namespace
        if index is None:
            return self.memory
        if len(namespace) <= index or namespace[index] == "*":
            raise InvalidInputError(
                f"namespace {namespace!r} does not name a user: label {index} is the user id "
                "(user_from_namespace), so every namespace and search prefix must include it"
            )
        user = namespace[index]
        if user not in self._users:
            self._users[user] = self.memory.for_user(user)
        return self._users[user]

    # -- operations ----------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run each operation in order (a read sees the puts before it in the same batch); results line
        up with ``ops``. A batch holding an invalid namespace is refused whole, before any operation
        runs (as LangGraph's SQL stores do)."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise InvalidInputError(f"unknown store operation: {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.get_running_loop().run_in_executor(None, self.batch, list(ops))

    def _get(self, op: GetOp) -> Item | None:
        document = self._memory_for(op.namespace).get_document(
            SPACE, op.namespace, op.key, refresh_ttl=op.refresh_ttl
        )
        return None if document is None else _item(document)

    def _put(self, op: PutOp) -> None:
        memory = self._memory_for(op.namespace)
        if op.value is None:
            memory.delete_document(SPACE, op.namespace, op.key)
            return
        memory.put_document(
            SPACE,
            op.namespace,
            op.key,
            op.value,
            index_texts=self._texts(op),
            ttl_minutes=op.ttl,
        )

    def _texts(self, op: PutOp) -> dict[str, str]:
        """What to embed, by path (``path.i`` for the i-th of several texts), as the reference does."""
        if op.index is False or op.value is None:
            return {}
        fields = self._fields if op.index is None else [(path, tokenize_path(path)) for path in op.index]
        texts: dict[str, str] = {}
        for path, tokens in fields:
            # The stored text takes no NUL (the value keeps it); the embedder does not see one anyway.
            found = [text.replace("\x00", "") for text in get_text_at_path(op.value, tokens)]
            if len(found) == 1:
                texts[path] = found[0]
            else:
                texts.update({f"{path}.{i}": text for i, text in enumerate(found)})
        return texts

    def _search(self, op: SearchOp) -> list[SearchItem]:
        memory = self._memory_for(op.namespace_prefix)
        found = memory.scan_documents(SPACE, op.namespace_prefix, query=op.query or None)
        page = page_search(found, op.filter, bool(op.query), op.limit, op.offset)
        if op.refresh_ttl:  # only what was returned, and only what can expire
            for document in page:
                if document.expires_at is not None:
                    memory.get_document(SPACE, document.namespace, document.key, refresh_ttl=True)
        return [_search_item(document) for document in page]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = [(c.match_type, tuple(c.path)) for c in op.match_conditions or ()]
        if self.user_from_namespace is None:
            memory = self.memory
        else:
            prefixes = [path for kind, path in conditions if kind == "prefix"]
            memory = self._memory_for(prefixes[0] if prefixes else ())
        namespaces = memory.document_namespaces(SPACE)
        return page_namespaces(namespaces, conditions, op.max_depth, op.limit, op.offset)


def _fields(document: Document) -> dict[str, Any]:
    return {
        "namespace": document.namespace,
        "key": document.key,
        "value": document.value,
        "created_at": document.created_at,
        "updated_at": document.updated_at,
    }


def _item(document: Document) -> Item:
    return Item(**_fields(document))


def _search_item(document: Document) -> SearchItem:
    return SearchItem(**_fields(document), score=document.score)
