"""Postgres adapter: connection pool, migrations, named statements, error translation.

This file is the async source; ``stores/postgres.py`` is generated from it by ``tools/async_to_sync.py``.
Every statement comes from ``stores/sql/*.sql`` by name and takes values only as parameters.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from pgvector.psycopg import register_vector_async
from psycopg import AsyncConnection, AsyncCursor, errors, sql
from psycopg.rows import DictRow, TupleRow, dict_row, tuple_row
from psycopg_pool import AsyncConnectionPool

from .._compat.aio import Semaphore
from ..crypto import Encryptor
from ..errors import SchemaVersionError, StoreError
from ..settings import PostgresSettings
from .driver_errors import audit_day, missing_audit_partition, postgres_errors
from .migrations import (
    AUDIT_DEFAULTS,
    MIGRATION_LOCK,
    SchemaState,
    check_embedding_lock,
    latest_migration,
    migration_files,
    partition_days,
)
from .sealing import SEALED_COLUMNS, FieldCodec
from .sql import load_sql

__all__ = ["AsyncPostgresStore", "AsyncSqlSession", "drop_schema", "read_metadata"]


#: Statements planned for each call's values and never prepared. A prepared statement gets Postgres'
#: generic plan after its fifth run whenever that plan's estimate is no worse (``plan_cache_mode =
#: auto``); for a nearest-neighbour search, with the LIMIT and the filters unknown, that is a sequential
#: scan of every user's rows sorted by exact cosine: ``recall_vector_turns`` took 5.3-5.8 ms a call on
#: 2,560 turns (and grows with the table) against 0.9 ms planned per call through the HNSW index
#: (issue 36). The other hot statements keep their cached plans: the full-text search's generic plan
#: (bitmap scans of its GIN indexes) ran in 1.4 ms, its custom one (a sequential scan) in 2.6 ms.
_PLANNED_PER_CALL = frozenset({"recall_vector_turns", "vector_search_turns"})


#: The statements :meth:`AsyncSqlSession.fetch_tuples` found free of sealed columns (their description
#: builds a column object per column: 13 % of a lean read's client CPU when looked at on every run).
_LEAN_READS: set[str] = set()


class AsyncSqlSession:
    """Named statements on one connection (inside a transaction when obtained from ``transaction``).

    Sensitive values are sealed on the way in and opened on the way out by ``codec``
    (``stores/sealing.py``): callers read and write plain values whether or not a key is set.
    """

    def __init__(
        self, conn: AsyncConnection[DictRow], codec: FieldCodec, *, in_transaction: bool = False
    ) -> None:
        self._conn = conn
        self._codec = codec
        self._in_transaction = in_transaction

    async def _run(self, name: str, params: Mapping[str, Any]) -> AsyncCursor[DictRow]:
        statement = load_sql()[name]
        params = self._codec.seal_params(name, params)
        prepare = False if name in _PLANNED_PER_CALL else None
        with postgres_errors(name):
            try:
                return await self._conn.execute(statement, params, prepare=prepare)
            except errors.CheckViolation as exc:
                # An audit row for a day without a partition: create the partition and write again, so
                # the row is never lost (no DEFAULT partition to fall into, by design). In autocommit
                # only: inside a transaction the failure has already aborted it.
                if self._in_transaction or not missing_audit_partition(exc):
                    raise
            await self._conn.execute(load_sql()["ensure_audit_partition"], {"day": audit_day(params)})
            return await self._conn.execute(statement, params, prepare=prepare)

    async def fetch_tuples(self, name: str, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Every row of a read, as a tuple in the statement's column order. For the hot recall reads
        of lean rows (~250 a recall): a dict per row, and the look-ups by name, cost ~0.3 ms a statement
        of client CPU. Such a statement returns no sealed column (nothing to open): one that does is
        refused."""
        statement = load_sql()[name]
        params = self._codec.seal_params(name, params)
        prepare = False if name in _PLANNED_PER_CALL else None
        cursor: AsyncCursor[TupleRow] = self._conn.cursor(row_factory=tuple_row)
        with postgres_errors(name):
            await cursor.execute(statement, params, prepare=prepare)
            rows = await cursor.fetchall()
        if name not in _LEAN_READS:  # a statement's columns are its own: looked at on its first run
            if any(column.name in SEALED_COLUMNS for column in cursor.description or ()):
                raise StoreError(f"{name} returns a sealed column: read it with fetch_all")
            _LEAN_READS.add(name)
        return rows

    async def fetch_one(self, name: str, params: Mapping[str, Any]) -> dict[str, Any] | None:
        cursor = await self._run(name, params)
        with postgres_errors(name):
            row = await cursor.fetchone()
        if row is None:
            return None
        found = dict(row)
        self._codec.open_row(found, params)
        return found

    async def fetch_all(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        cursor = await self._run(name, params)
        with postgres_errors(name):
            rows = await cursor.fetchall()
        # dict_row builds a fresh dict per row already: opened in place, not copied (~150 rows a recall)
        return self._codec.open_rows(rows, params)

    async def execute(self, name: str, params: Mapping[str, Any]) -> int:
        """Run a statement; returns the number of rows it touched."""
        return (await self._run(name, params)).rowcount

    async def execute_composed(self, statement: sql.SQL | sql.Composed, what: str) -> None:
        """Run DDL whose identifiers were composed with ``psycopg.sql`` (never with user input)."""
        with postgres_errors(what):
            await self._conn.execute(statement)


class AsyncPostgresStore:
    """The Postgres port: ledger, timeline, profiles, audit. Build it with :meth:`connect`."""

    def __init__(
        self,
        pool: AsyncConnectionPool[AsyncConnection[DictRow]],
        schema: str,
        encryptor: Encryptor | None = None,
    ) -> None:
        self._pool = pool
        self.schema = schema
        self.codec = FieldCodec(encryptor)
        # A user lock holds a pooled connection while its holder writes on others: at most half the pool
        # may be held that way, or concurrent holders (a consolidation per new conversation) would take
        # every connection and wait for one forever (found by benchmarks/recall_latency.py's writers).
        self._lock_slots = Semaphore(max(1, pool.max_size // 2))

    @classmethod
    async def connect(
        cls,
        url: str,
        settings: PostgresSettings,
        *,
        embedding_dim: int,
        embedding_model: str,
        encryptor: Encryptor | None = None,
    ) -> AsyncPostgresStore:
        """Check the schema version (one read when it is current), lock the embedding shape, open the pool.

        A fresh store is migrated on its first open; one that is behind is migrated when
        ``settings.auto_migrate`` allows it, refused otherwise (``agentx-memory migrate`` applies it).
        """
        schema = settings.schema_name
        async with await _connect(url, settings) as conn:
            state = await _schema_state(conn, schema, settings.partitions_ahead_days)
            latest = latest_migration()
            if state.version > latest:
                raise SchemaVersionError(
                    f"Postgres schema {schema!r} is at version {state.version}, newer than this "
                    f"agentx-memory knows ({latest}): upgrade agentx-memory"
                )
            if state.version < latest:
                if not settings.auto_migrate and state.version > 0:
                    raise SchemaVersionError(
                        f"Postgres schema {schema!r} is at version {state.version}, this agentx-memory "
                        f"needs {latest}: run `agentx-memory migrate` (or set AGENTX_POSTGRES__AUTO_MIGRATE"
                        "=true to migrate on open)"
                    )
                await _migrate(conn, schema, embedding_dim, embedding_model)
            else:
                check_embedding_lock(state.locked, embedding_dim, embedding_model)
            if not state.partitions_ready:
                await _ensure_partitions(conn, schema, settings.partitions_ahead_days)

        return await cls._open_pool(url, settings, encryptor)

    @classmethod
    async def attach(
        cls, url: str, settings: PostgresSettings, encryptor: Encryptor | None = None
    ) -> AsyncPostgresStore:
        """Open the pool on a migrated store without checking its embedding lock: for the one job
        that changes the lock (``agentx-memory reindex``), which must run while it mismatches."""
        return await cls._open_pool(url, settings, encryptor)

    @classmethod
    async def _open_pool(
        cls, url: str, settings: PostgresSettings, encryptor: Encryptor | None = None
    ) -> AsyncPostgresStore:
        schema = settings.schema_name

        async def configure(connection: AsyncConnection[DictRow]) -> None:
            await connection.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(schema)))
            await register_vector_async(connection)
            # Filtered HNSW scans (one user's turns in a shared index) keep walking the graph until
            # enough rows pass the filter, instead of returning fewer than asked (pgvector >= 0.8).
            await connection.execute("SET hnsw.iterative_scan = relaxed_order")
            if settings.generic_plans:
                await connection.execute("SET plan_cache_mode = force_generic_plan")

        pool: AsyncConnectionPool[AsyncConnection[DictRow]] = AsyncConnectionPool(
            url,
            min_size=settings.pool_min,
            max_size=settings.pool_max,
            kwargs={"autocommit": True, "row_factory": dict_row},
            configure=configure,
            open=False,
            timeout=settings.connect_timeout_s,
        )
        with postgres_errors("opening the connection pool"):
            await pool.open(wait=True, timeout=settings.connect_timeout_s)
        return cls(pool, schema, encryptor)

    @staticmethod
    async def migrate(
        url: str, settings: PostgresSettings, *, embedding_dim: int, embedding_model: str
    ) -> list[str]:
        """Apply the pending migrations and create the audit partitions; returns the applied names."""
        async with await _connect(url, settings) as conn:
            applied = await _migrate(conn, settings.schema_name, embedding_dim, embedding_model)
            await _ensure_partitions(conn, settings.schema_name, settings.partitions_ahead_days)
        return applied

    async def close(self) -> None:
        await self._pool.close()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[AsyncConnection[DictRow]]:
        """A pooled connection. One found dead means the server restarted since the pool opened it: the
        pool's idle connections died with that server, so they are checked (and replaced) at once,
        rather than each failing one more call."""
        async with self._pool.connection() as conn:
            try:
                yield conn
            except Exception:  # the driver's error, or ours translated from it inside the block
                if conn.closed:
                    await self._pool.check()
                raise

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSqlSession]:
        """One pooled connection in autocommit mode."""
        with postgres_errors("borrowing a connection"):
            async with self._connection() as conn:
                yield AsyncSqlSession(conn, self.codec)

    @asynccontextmanager
    async def user_lock(self, user_id: str, *, shared: bool) -> AsyncIterator[None]:
        """Hold one user of this schema: exclusively (forgetting) or shared (consolidation's writes).

        A session advisory lock on its own pooled connection, so it spans the statements the holder
        runs on other connections and any process on the same database; the server releases it if the
        process dies.
        """
        suffix = "_shared" if shared else ""
        params = {"schema": self.schema, "user_id": user_id}
        async with self._lock_slots, self.session() as session:
            await session.fetch_one(f"user_lock{suffix}", params)
            try:
                yield
            finally:
                await session.fetch_one(f"user_unlock{suffix}", params)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSqlSession]:
        """One pooled connection inside a transaction: committed on exit, rolled back on error."""
        with postgres_errors("running a transaction"):
            async with self._connection() as conn, conn.transaction():
                yield AsyncSqlSession(conn, self.codec, in_transaction=True)

    async def fetch_one(self, name: str, params: Mapping[str, Any]) -> dict[str, Any] | None:
        async with self.session() as session:
            return await session.fetch_one(name, params)

    async def ping(self) -> bool:
        """A round trip to the server (a pooled connection, ``SELECT 1``)."""
        return await self.fetch_one("ping", {}) is not None

    async def fetch_all(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        async with self.session() as session:
            return await session.fetch_all(name, params)

    async def fetch_tuples(self, name: str, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Every row of a read that returns no sealed column, as tuples (see the session's method)."""
        async with self.session() as session:
            return await session.fetch_tuples(name, params)

    async def execute(self, name: str, params: Mapping[str, Any]) -> int:
        async with self.session() as session:
            return await session.execute(name, params)

    async def execute_relaxed(self, name: str, params: Mapping[str, Any]) -> int:
        """Run one statement whose commit does not wait for the WAL flush, in one round trip.

        The statement relaxes its own transaction: it returns
        ``set_config('synchronous_commit', 'off', true)`` (local to the transaction its autocommit opens,
        read at that commit). A pipelined ``BEGIN; SET LOCAL …; statement; COMMIT`` did the same in ~3×
        the time. Only for state a replay recomputes (sync confirmations): a server crash may lose the
        last such writes, and reconcile then replays an idempotent graph write.
        """
        return await self.execute(name, params)

    async def insert_audit(self, params: Mapping[str, Any]) -> None:
        """Insert an audit row; a missing day partition is created and the insert retried, never lost.
        A row that does not say otherwise records a success outside any conversation."""
        await self.execute("insert_audit", {**AUDIT_DEFAULTS, **params})

    async def ensure_partitions(self, days_ahead: int) -> list[str]:
        """Create the audit partitions from yesterday to ``days_ahead`` days from now; returns their names."""
        async with self.session() as session:
            names: list[str] = []
            for day in partition_days(days_ahead):
                row = await session.fetch_one("ensure_audit_partition", {"day": day})
                names.append(str(row["partition"]) if row else "")
            return names

    async def drop_schema(self) -> None:
        """Remove every table of this store's schema (tests and ``agentx-memory reset`` only)."""
        statement = sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema))
        async with self.session() as session:
            await session.execute_composed(statement, "dropping the schema")


async def drop_schema(url: str, settings: PostgresSettings) -> None:
    """Drop the schema of ``settings`` with every table in it (``agentx-memory reset``); unlike
    :meth:`AsyncPostgresStore.drop_schema` it needs no open store (whose opening checks the schema)."""
    statement = sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(settings.schema_name))
    async with await _connect(url, settings) as conn:
        with postgres_errors("dropping the schema"):
            await conn.execute(statement)


async def read_metadata(url: str, settings: PostgresSettings) -> dict[str, str] | None:
    """Every ``agentx_metadata`` entry of the schema of ``settings`` (the embedding lock, a reindex's
    progress); ``None`` for a schema never migrated. Needs no open store, like :func:`drop_schema`."""
    statement = sql.SQL(load_sql()["read_metadata"]).format(schema=sql.Identifier(settings.schema_name))
    async with await _connect(url, settings) as conn:
        with postgres_errors("reading the store's metadata"):
            try:
                cursor = await conn.execute(statement)
            except errors.UndefinedTable:
                return None
            return {str(row["key"]): str(row["value"]) for row in await cursor.fetchall()}


async def _connect(url: str, settings: PostgresSettings) -> AsyncConnection[DictRow]:
    with postgres_errors("connecting"):
        return await AsyncConnection.connect(
            url,
            autocommit=True,
            connect_timeout=max(1, math.ceil(settings.connect_timeout_s)),
            row_factory=dict_row,
        )


async def _schema_state(conn: AsyncConnection[DictRow], schema: str, days_ahead: int) -> SchemaState:
    """Where the store stands, in one read: version 0 when it was never migrated."""
    last_partition = f"{schema}.memory_audit_log_{partition_days(days_ahead)[-1]:%Y%m%d}"
    with postgres_errors("reading the schema version"):
        try:
            cursor = await conn.execute(
                sql.SQL(load_sql()["schema_state"]).format(schema=sql.Identifier(schema)),
                {"last_partition": last_partition},
            )
        except errors.UndefinedTable:
            return SchemaState(version=0, locked={}, partitions_ready=False)
        row = await cursor.fetchone()
    assert row is not None  # an aggregate over subqueries always yields one row
    keys = ("embedding_dimensions", "embedding_model", "reindex_model", "reindex_dimensions")
    locked = {key: str(row[key]) for key in keys if row[key]}
    return SchemaState(int(row["version"] or 0), locked, bool(row["partitions_ready"]))


async def _migrate(
    conn: AsyncConnection[DictRow], schema: str, embedding_dim: int, embedding_model: str
) -> list[str]:
    applied_now: list[str] = []
    ident = sql.Identifier(schema)
    with postgres_errors("applying migrations"):
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            await conn.execute("CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public")
            await conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(ident))
            await conn.execute(sql.SQL("SET LOCAL search_path TO {}, public").format(ident))
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, name text NOT NULL,"
                " checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            cursor = await conn.execute("SELECT version FROM schema_version")
            applied = {int(row["version"]) for row in await cursor.fetchall()}
            if applied:
                await _check_stored_embedding_lock(conn, embedding_dim, embedding_model)
            for version, name, text in migration_files():
                if version in applied:
                    continue
                body = text.replace("@EMBEDDING_DIM@", str(int(embedding_dim)))
                await conn.execute(body.encode())
                await conn.execute(
                    "INSERT INTO schema_version (version, name, checksum) VALUES (%s, %s, %s)",
                    (version, name, hashlib.sha256(text.encode()).hexdigest()),
                )
                applied_now.append(f"{version:03d}_{name}")
            await conn.execute(
                "INSERT INTO agentx_metadata (key, value) VALUES ('embedding_dimensions', %s),"
                " ('embedding_model', %s) ON CONFLICT (key) DO NOTHING",
                (str(embedding_dim), embedding_model),
            )
            await _check_stored_embedding_lock(conn, embedding_dim, embedding_model)
    return applied_now


async def _check_stored_embedding_lock(
    conn: AsyncConnection[DictRow], embedding_dim: int, embedding_model: str
) -> None:
    cursor = await conn.execute(
        "SELECT key, value FROM agentx_metadata WHERE key IN ('embedding_dimensions', 'embedding_model')"
    )
    locked = {str(row["key"]): str(row["value"]) for row in await cursor.fetchall()}
    check_embedding_lock(locked, embedding_dim, embedding_model)


async def _ensure_partitions(conn: AsyncConnection[DictRow], schema: str, days_ahead: int) -> None:
    with postgres_errors("creating audit partitions"):
        async with conn.transaction():
            await conn.execute(sql.SQL("SET LOCAL search_path TO {}, public").format(sql.Identifier(schema)))
            for day in partition_days(days_ahead):
                await conn.execute("SELECT ensure_audit_partition(%s)", (day,))
