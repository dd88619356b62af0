"""Shared types, paths and process helpers of the embedded servers."""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import quote

from redis.backoff import NoBackoff
from redis.retry import Retry

from ..settings import Settings

#: ``sun_path`` holds 108 bytes on Linux (104 on macOS) including the terminating NUL.
_SOCKET_MAX_BYTES = 103 if sys.platform == "darwin" else 107
POLL_S = 0.02
_LOG_TAIL_LINES = 15
POSTGRES_VERSION = 18
NO_RETRY = Retry(NoBackoff(), 0)

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
class Paths:
    data_dir: Path
    lockfile: Path
    falkordb_dir: Path
    falkordb_pidfile: Path
    falkordb_log: Path
    falkordb_socket: Path
    pgdata: Path


def data_paths(settings: Settings) -> Paths:
    data_dir = settings.data_dir.expanduser().resolve()
    falkordb_dir = data_dir / "falkordb"
    return Paths(
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


def falkordb_url(socket_path: Path) -> str:
    return "unix://" + quote(str(socket_path))


# --------------------------------------------------------------------------------------------- public API


def pid_alive(pid: int, name: str) -> bool:
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


_STATES = {"R": "running", "S": "sleeping", "D": "waiting on the disk", "T": "stopped", "t": "stopped"}


def process_doing(pid: int) -> str:
    """What a live process is doing, for the message of a server that does not answer in time: its state
    and the kernel function it waits in, where ``/proc`` tells ("" where it does not). A start that
    stalls on a busy machine says whether it was starved of the disk or hung."""
    proc = Path("/proc") / str(pid)
    try:
        state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""
    with contextlib.suppress(OSError):
        wchan = (proc / "wchan").read_text().strip()
        if wchan and wchan != "0":
            return f"{_STATES.get(state, state)}, in {wchan}"
    return _STATES.get(state, state)


def terminate(pid: int, name: str, sig: signal.Signals, timeout_s: float) -> bool:
    """Send ``sig`` and wait for the process to go away, escalating to SIGKILL; True if it ended."""
    for current, wait_s in ((sig, timeout_s), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, current)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if not pid_alive(pid, name):
                return True
            time.sleep(POLL_S)
    return not pid_alive(pid, name)


def read_pid(pidfile: Path) -> int | None:
    try:
        return int(pidfile.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def log_since(path: Path, offset: int) -> str | None:
    """What the server logged past ``offset``, or None when there is no log to read."""
    try:
        with open(path, "rb") as handle:
            handle.seek(offset)
            return handle.read().decode(errors="replace")
    except OSError:
        return None


def log_tail(path: Path, offset: int = 0, lines: int = _LOG_TAIL_LINES) -> str:
    text = log_since(path, offset)
    if text is None:
        return f"(no log at {path})"
    if not text.strip() and offset:
        return log_tail(path, 0, lines)  # nothing new: the old lines may still explain it
    kept = text.strip().splitlines()[-lines:]
    return "\n".join(kept) if kept else f"({path} is empty)"


# -------------------------------------------------------------------------------------------- FalkorDB
