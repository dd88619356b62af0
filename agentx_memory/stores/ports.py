# Generated from agentx_memory/stores/ports_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The store ports the subsystems hold, besides the graph's (``stores/graph_async.py``). Generated from
``stores/ports_async.py``: edit that file.

Typed by what a subsystem does with a store: the ledger runs named SQL statements (``stores/sql``) and
the working-memory store runs atomic key operations. Only ``memory/`` and ``stores/`` see statement
names and rows; the facade and retrieval call the subsystems' typed operations. Conformance:
``tests/conformance/test_postgres_store.py`` and ``test_redis_store.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

__all__ = ["Ledger", "WorkingStore"]


class Ledger(Protocol):
    """The Postgres ledger: the source of truth for turns, plus timeline, profiles and audit rows."""

    def fetch_one(self, name: str, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """The first row of a named statement, or None."""

    def fetch_all(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every row of a named statement."""

    def fetch_tuples(self, name: str, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Every row of a named read that returns no sealed column, as tuples in its column order."""

    def execute(self, name: str, params: Mapping[str, Any]) -> int:
        """Run a named statement; the number of rows it touched."""

    def execute_relaxed(self, name: str, params: Mapping[str, Any]) -> int:
        """Run a named statement without waiting for the WAL flush (state a replay recomputes only)."""

    def insert_audit(self, params: Mapping[str, Any]) -> None:
        """Insert an audit row (its day partition is created if missing: never lost)."""

    def user_lock(self, user_id: str, *, shared: bool) -> AbstractContextManager[None]:
        """Hold one user across processes: exclusively to forget, shared to write what was learned."""


class WorkingStore(Protocol):
    """Redis for working memory: each operation one atomic round trip, every key with a TTL."""

    def push_capped(self, key: str, values: Sequence[str], max_len: int, ttl_s: int) -> None: ...

    def tail(self, key: str, count: int) -> list[str]: ...

    def fold_head(self, list_key: str, count: int, value_key: str, value: str, ttl_s: int) -> None:
        """Drop a list's first ``count`` items and set ``value_key`` to ``value``, atomically."""
        ...

    def set_value(self, key: str, value: str, ttl_s: int, index_key: str | None = None) -> None: ...

    def get_value(self, key: str) -> str | None: ...

    def get_values(self, keys: Sequence[str]) -> list[str | None]: ...

    def set_values(self, values: Mapping[str, str], ttl_s: int) -> None: ...

    def acquire(self, key: str, token: str, ttl_s: int) -> bool: ...

    def extend(self, key: str, token: str, ttl_s: int) -> bool: ...

    def release(self, key: str, token: str) -> bool: ...

    def delete(self, *keys: str, index_key: str | None = None) -> int: ...

    def indexed_values(self, index_key: str) -> dict[str, str]: ...

    def ttl(self, key: str) -> int: ...

    def key_count(self) -> int:
        """Keys in the database (every key, not only this prefix's: O(1), for the metrics)."""
        ...

    def scan(self, pattern: str) -> Iterator[str]: ...

    def delete_matching(self, pattern: str) -> int: ...
