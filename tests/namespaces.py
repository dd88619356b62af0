"""Isolated namespaces migrated ahead, in a background thread, for the tests that open a facade in setup.

A facade opened on a fresh namespace migrates it first: 13 migrations and 3 audit partitions (one day
ahead in tests, tests/conftest.py; ~100 relations) and the graph's indexes, ~70-100 ms of the ~150 ms a
typical test spent in setup. A test with ``memory`` or ``amemory`` would do that work in its setup
anyway, so a thread does it while the previous tests run, with the same calls a first open makes
(``PostgresStore.migrate`` is the path of ``PostgresStore.connect`` on a schema at version 0,
``open_graph`` applies the graph schema). The test's facade then opens a namespace at the latest
version, as every later start of an application does: it still reads the version, checks the embedding
lock and the partitions, and re-applies the graph schema. Each namespace is still used by one test only
and dropped after it."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable

from agentx_memory import Settings
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.stores.factory import open_graph
from agentx_memory.stores.postgres import PostgresStore

__all__ = ["DeferredDrops", "PreparedNamespaces", "migrate_namespace"]

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


class PreparedNamespaces:
    """A few namespaces migrated ahead for one embedding shape; :meth:`take` hands each out once.

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
        self._endpoints = endpoints
        self._fresh = fresh
        self._discard = discard
        self._ready: queue.Queue[Settings | Exception] = queue.Queue(maxsize=ahead)
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._fill, name="prepared-namespaces", daemon=True)
        self._thread.start()

    def _fill(self) -> None:
        while not self._closing.is_set():
            chosen = self._fresh()
            item: Settings | Exception = chosen
            try:
                migrate_namespace(chosen, self._endpoints, self.dimensions, self.model_id)
            except Exception as exc:  # the test that takes it fails with it; the next one tries again
                item = exc
                with contextlib.suppress(Exception):
                    self._discard(chosen)
            self._ready.put(item)

    def take(self) -> Settings:
        """The next migrated namespace (waiting for it if none is ready)."""
        try:
            item = self._ready.get(timeout=_TAKE_TIMEOUT_S)
        except queue.Empty:
            raise RuntimeError(f"no namespace was migrated within {_TAKE_TIMEOUT_S:g} s") from None
        if isinstance(item, Exception):
            raise RuntimeError("migrating a namespace ahead failed") from item
        return item

    def close(self) -> None:
        """Stop the thread and drop the namespaces no test took."""
        self._closing.set()
        while self._thread.is_alive():
            self._drain()
            self._thread.join(timeout=0.05)
        self._drain()

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
