# Generated from agentx_memory/stores/neo4j_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Neo4j adapter (production). Generated from ``stores/neo4j_async.py``: edit that file.

Uses ``execute_query`` (managed, retried transactions), so every statement we send is idempotent;
read-only statements are routed to readers (a cluster's followers). Dialect points: vectors are plain
``LIST<FLOAT>`` (the shared statements' ``vecf32`` is rewritten away by the loader), schema DDL has
``IF NOT EXISTS``, vector and full-text search go through named indexes (``cypher/neo4j/``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import neo4j
import neo4j.exceptions
from neo4j import GraphDatabase

from .cypher import Dialect, is_read_only
from .driver_errors import NEO4J_ERRORS, neo4j_error
from .graph import CypherGraphStore

__all__ = ["Neo4jStore"]


class Neo4jStore(CypherGraphStore):
    dialect: Dialect = "neo4j"
    fulltext_or = " OR "

    def __init__(
        self,
        uri: str,
        user: str,
        password: str,
        *,
        database: str | None = None,
        oversample: int = 8,
        max_connections: int = 100,
        timeout_s: float = 60.0,
    ) -> None:
        super().__init__(oversample)
        self._driver = GraphDatabase.driver(
            uri,
            auth=(user, password),
            max_connection_pool_size=max_connections,
            connection_acquisition_timeout=timeout_s,
        )
        self._database = database

    def _execute(self, statement: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        routing = neo4j.RoutingControl.READ if is_read_only(statement) else neo4j.RoutingControl.WRITE
        try:
            result = self._driver.execute_query(
                statement, parameters_=dict(params), database_=self._database, routing_=routing
            )
        except NEO4J_ERRORS as exc:
            raise neo4j_error(exc, "running a query") from exc
        return [record.data() for record in result.records]

    def apply_schema(self, dimensions: int) -> None:
        for name, statement in self._queries.items():
            if name.startswith("schema_"):
                self._execute(statement.replace("{dimension}", str(int(dimensions))), {})

    def ping(self) -> None:
        try:
            self._driver.verify_connectivity()
        except NEO4J_ERRORS as exc:
            raise neo4j_error(exc, "connecting") from exc

    def drop(self) -> None:
        # CALL {…} IN TRANSACTIONS runs only in an auto-commit transaction: session.run, not execute_query.
        try:
            with self._driver.session(database=self._database) as session:
                result = session.run(self.statement("admin_drop_graph"))
                result.consume()
        except NEO4J_ERRORS as exc:
            raise neo4j_error(exc, "dropping the graph") from exc

    def close(self) -> None:
        self._driver.close()
