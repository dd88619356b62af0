"""Isolated namespaces migrated ahead, in background threads, for the tests that open a facade in setup.

A facade opened on a fresh namespace migrates it first: 13 migrations and 3 audit partitions (one day
ahead in tests, tests/conftest.py; ~130 relations) and the graph's indexes, ~70-100 ms of Postgres CPU.
A test with ``memory`` or ``amemory`` would do that work in its setup anyway, so a thread does it while
the previous tests run, with the same calls a first open makes (``PostgresStore.migrate`` is the path
of ``PostgresStore.connect`` on a schema at version 0, ``open_graph`` applies the graph schema). The
test's facade then opens a namespace at the latest version, as every later start of an application
does: it still reads the version, checks the embedding lock and the partitions, and re-applies the
graph schema.

A finished test's namespace comes back (:meth:`PreparedNamespaces.give_back`): another thread empties
its Postgres schema and renames it for a later test when it then reads back exactly as it did after its
migration (tests/recycling.py), and drops it otherwise; its graph and Redis keys are dropped either way
and the later test gets new ones. Each test still has a schema, graph and key prefix of its own."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable
from datetime import UTC, date, datetime

import psycopg
from psycopg import sql

from agentx_memory import Settings
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.stores.factory import open_graph
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from agentx_memory.stores.redis import RedisStore
from tests.recycling import SchemaState, read_state, reset_schema

__all__ = ["DeferredDrops", "PreparedNamespaces", "drop_graph_and_keys", "drop_schema", "migrate_namespace"]

#: How long a test waits for its namespace before failing (a migration takes ~0.1 s).
_TAKE_TIMEOUT_S = 120.0


def migrate_namespace(
    settings: Settings, endpoints: ResolvedEndpoints, dimensions: int, model_id: str
) -> None:
    """What a facade's first open does to a fresh namespace: migrate the ledger, apply the graph schema."""
    PostgresStore.migrate(
        endpoints.postgres_url, settings.postgres, embedding_dim=dimensions, embedding_model=model_id
    )
    open_graph(settings, endpoints.falkordb_url, dimensions).close()


def drop_graph_and_keys(settings: Settings, endpoints: ResolvedEndpoints) -> None:
    graph = FalkorDBStore(endpoints.falkordb_url or "", settings.graph.name)
    graph.drop()
    graph.close()
    redis = RedisStore(endpoints.redis_url)
    redis.delete_matching(f"{settings.redis.key_prefix}:*")
    redis.close()


def drop_schema(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> None:
    conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


class PreparedNamespaces:
    """Namespaces migrated ahead (or recycled) for one embedding shape; :meth:`take` hands each out once.

    ``fresh`` makes a new isolated ``Settings`` (tests/conftest.py ``isolated_settings``), ``discard``
    drops one (``cleanup``): the caller owns both, so the namespaces are the ones any test gets.
    """

    def __init__(
        self,
        endpoints: ResolvedEndpoints,
        fresh: Callable[[], Settings],
        discard: Callable[[Settings], None],
        *,
        dimensions: int,
        model_id: str,
        ahead: int = 2,
    ) -> None:
        self.dimensions = dimensions
        self.model_id = model_id
        self.recycled = 0
        self._endpoints = endpoints
        self._fresh = fresh
        self._discard = discard
        self._ahead = ahead
        self._ready: queue.Queue[Settings | Exception] = queue.Queue()
        # Each handed-out schema's state right after its migration, and the day it was migrated on.
        self._pristine: dict[str, tuple[SchemaState, date]] = {}
        self._taken: dict[str, datetime] = {}
        self._returned: queue.Queue[tuple[Settings, tuple[datetime, datetime]] | None] = queue.Queue()
        self._failures: list[Exception] = []
        # The backends of the two threads' own connections: a recycle waits for every other one that
        # started before the test ended.
        self._helpers: set[int] = set()
        self._wanted = threading.Event()
        self._closing = threading.Event()
        self._threads = [
            threading.Thread(target=self._fill, name="prepared-namespaces", daemon=True),
            threading.Thread(target=self._recycle, name="recycled-namespaces", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _fill(self) -> None:
        with psycopg.connect(self._endpoints.postgres_url, autocommit=True) as conn:
            self._helpers.add(conn.info.backend_pid)
            self._fill_on(conn)

    def _fill_on(self, conn: psycopg.Connection[tuple[object, ...]]) -> None:
        while not self._closing.is_set():
            if self._ready.qsize() >= self._ahead:
                self._wanted.wait(timeout=0.5)
                self._wanted.clear()
                continue
            chosen = self._fresh()
            item: Settings | Exception = chosen
            try:
                migrate_namespace(chosen, self._endpoints, self.dimensions, self.model_id)
                state = read_state(conn, chosen.postgres.schema_name)
                self._pristine[chosen.postgres.schema_name] = (state, datetime.now(UTC).date())
            except Exception as exc:  # the test that takes it fails with it; the next one tries again
                item = exc
                with contextlib.suppress(Exception):
                    self._discard(chosen)
            self._ready.put(item)

    def take(self) -> Settings:
        """The next migrated namespace (waiting for it if none is ready)."""
        self._wanted.set()
        try:
            item = self._ready.get(timeout=_TAKE_TIMEOUT_S)
        except queue.Empty:
            raise RuntimeError(f"no namespace was migrated within {_TAKE_TIMEOUT_S:g} s") from None
        if isinstance(item, Exception):
            raise RuntimeError("migrating a namespace ahead failed") from item
        self._taken[item.postgres.schema_name] = datetime.now(UTC)
        return item

    def give_back(self, chosen: Settings) -> None:
        """``chosen`` (from :meth:`take`) is no longer used: recycle it, or drop it."""
        taken = self._taken.pop(chosen.postgres.schema_name)
        self._returned.put((chosen, (taken, datetime.now(UTC))))

    def _recycle(self) -> None:
        with psycopg.connect(self._endpoints.postgres_url, autocommit=True) as conn:
            self._helpers.add(conn.info.backend_pid)
            while (returned := self._returned.get()) is not None:
                chosen, used = returned
                try:
                    self._recycle_one(conn, chosen, used)
                except Exception as exc:  # reported at close, as a failed drop was
                    self._failures.append(exc)

    def _recycle_one(
        self, conn: psycopg.Connection[tuple[object, ...]], chosen: Settings, used: tuple[datetime, datetime]
    ) -> None:
        drop_graph_and_keys(chosen, self._endpoints)
        schema = chosen.postgres.schema_name
        pristine, day = self._pristine.pop(schema)
        successor = self._fresh()
        renamed = successor.postgres.schema_name
        reset = False
        try:
            reset = day == datetime.now(UTC).date() and reset_schema(
                conn, schema, renamed, pristine, used, self._helpers
            )
        except psycopg.Error:  # e.g. the test dropped its schema itself, or a lock was not granted
            pass
        finally:  # whatever went wrong (another error is reported at close), the schema is dropped
            if not reset:
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    conn.rollback()
                drop_schema(conn, schema)
                drop_schema(conn, renamed)
        if not reset:
            return
        open_graph(successor, self._endpoints.falkordb_url, self.dimensions).close()
        self._pristine[renamed] = (pristine, day)
        self.recycled += 1
        self._ready.put(successor)

    def close(self) -> None:
        """Stop the threads, drop the namespaces no test took; raise the first recycle that failed."""
        self._returned.put(None)
        self._threads[1].join()
        self._closing.set()
        self._wanted.set()
        while self._threads[0].is_alive():
            self._drain()
            self._threads[0].join(timeout=0.05)
        self._drain()
        if self._failures:
            raise RuntimeError(f"{len(self._failures)} namespaces could not be recycled") from self._failures[
                0
            ]

    def _drain(self) -> None:
        while True:
            try:
                item = self._ready.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, Settings):
                self._discard(item)


class DeferredDrops:
    """Drops the namespaces of finished tests in a background thread, off the next test's path.

    Each namespace is used by one test only, so dropping it a moment later changes nothing another test
    sees; it is still dropped (graphs hold ~1.4 MB of FalkorDB memory each, a schema ~3 MB of disk).
    A failed drop fails the session at :meth:`close`, as it failed the test's teardown before.
    """

    def __init__(self, discard: Callable[[Settings], None]) -> None:
        self._discard = discard
        self._pending: queue.Queue[Settings | None] = queue.Queue()
        self._failures: list[Exception] = []
        self._thread = threading.Thread(target=self._drain, name="deferred-drops", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while (chosen := self._pending.get()) is not None:
            try:
                self._discard(chosen)
            except Exception as exc:  # reported at close
                self._failures.append(exc)

    def drop(self, chosen: Settings) -> None:
        self._pending.put(chosen)

    def close(self) -> None:
        """Wait for every drop; raise the first that failed."""
        self._pending.put(None)
        self._thread.join()
        if self._failures:
            raise RuntimeError(f"{len(self._failures)} namespaces could not be dropped") from self._failures[
                0
            ]
