"""The embedded FalkorDB's append-only file: slow writes are logged as queries, never as effect records
(FalkorDB#2235: an effect that names a missing edge crashes every start), and a file that already holds
such a record is salvaged. Real servers, real files; the poisoned file is made by the server itself."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from typer.testing import CliRunner

from agentx_memory.cli import app
from agentx_memory.embedded import salvage_graph_log, start_or_attach, stop
from agentx_memory.embedded._aof import EFFECT
from agentx_memory.embedded._falkordb import NEVER_EFFECTS_US
from agentx_memory.errors import StoreUnavailableError
from agentx_memory.settings import Settings

pytestmark = pytest.mark.long  # several server starts

_NODES = "UNWIND range(1, 20000) AS i CREATE (:Slow {k: i})"
# One change behind a scan of 20,000 nodes: FalkorDB logs a write as an effect record when its average
# time per change passes EFFECTS_THRESHOLD µs (default 300; writes that touch a vector index do here).
_SLOW_WRITE = "MATCH (n:Slow) WHERE n.k = 19999 SET n.last = true"


@pytest.fixture
def settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("aof"), embedded={"start_timeout_s": 60})
    try:
        yield settings
    finally:
        stop(settings)


def _log_bytes(settings: Settings) -> bytes:
    directory = settings.data_dir / "falkordb" / "appendonlydir"
    return b"".join(path.read_bytes() for path in sorted(directory.glob("*.aof")))


def _logged(settings: Settings, needle: bytes, count: int = 1) -> bytes:
    """The log once it holds ``needle`` ``count`` times: FalkorDB runs a write on a worker thread and
    may log it just after replying, so a file read (or a kill) right after the reply can miss it."""
    deadline = time.monotonic() + 10
    while (data := _log_bytes(settings)).count(needle) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    return data


def _run(conn: redis.Redis, *args: str) -> Any:
    return conn.execute_command(*args)  # type: ignore[no-untyped-call]


def _connect(settings: Settings) -> redis.Redis:
    return redis.Redis(unix_socket_path=str(start_or_attach(settings).endpoints.falkordb_socket))


def _kill_falkordb(settings: Settings) -> None:
    pid = int((settings.data_dir / "falkordb" / "falkordb.pid").read_text())
    os.kill(pid, signal.SIGKILL)


def test_slow_writes_are_logged_as_queries_and_replayed(settings: Settings) -> None:
    conn = _connect(settings)
    _run(conn, "GRAPH.QUERY", "g", _NODES)
    _run(conn, "GRAPH.QUERY", "g", _SLOW_WRITE)
    assert EFFECT not in _logged(settings, b"SET n.last")

    # The check can fail: under a threshold it passes, the same write is an effect record.
    _run(conn, "GRAPH.CONFIG", "SET", "EFFECTS_THRESHOLD", "1")
    _run(conn, "GRAPH.QUERY", "g", _SLOW_WRITE.replace("last", "again"))
    assert EFFECT in _logged(settings, EFFECT)

    # A server left with the default (started by an earlier version) is switched when we attach.
    conn = _connect(settings)
    assert _run(conn, "GRAPH.CONFIG", "GET", "EFFECTS_THRESHOLD") == [
        b"EFFECTS_THRESHOLD",
        NEVER_EFFECTS_US,
    ]

    _kill_falkordb(settings)
    conn = _connect(settings)
    counted = _run(conn, "GRAPH.QUERY", "g", "MATCH (n:Slow) RETURN count(n), count(n.last), count(n.again)")
    assert counted[1] == [[20000, 1, 1]]


def _poison(settings: Settings) -> None:
    """Leave a log whose effect record names an edge that replay never creates, as FalkorDB#2235's
    minimal reproduction does: the edge's creation (an effect record) is cut out of the file."""
    conn = _connect(settings)
    _run(conn, "GRAPH.QUERY", "g", "CREATE (:N {k: 1}), (:N {k: 2})")
    conn.set("kept", "yes")
    _run(conn, "GRAPH.CONFIG", "SET", "EFFECTS_THRESHOLD", "0")  # every write an effect
    _run(conn, "GRAPH.QUERY", "g", "MATCH (a:N {k: 1}), (b:N {k: 2}) CREATE (a)-[:R {w: 1}]->(b)")
    _run(conn, "GRAPH.QUERY", "g", "MATCH ()-[e:R]->() SET e.w = 2")
    _logged(settings, EFFECT, count=2)
    _kill_falkordb(settings)
    (incremental,) = (settings.data_dir / "falkordb" / "appendonlydir").glob("*.incr.aof")
    data = incremental.read_bytes()
    first = data.index(EFFECT)
    second = data.index(EFFECT, first + 1)
    cut_from, cut_to = data.rindex(b"*3\r\n", 0, first), data.rindex(b"*3\r\n", 0, second)
    incremental.write_bytes(data[:cut_from] + data[cut_to:])


def test_a_log_that_crashes_the_server_is_salvaged(settings: Settings) -> None:
    _poison(settings)
    poisoned = _log_bytes(settings)
    with pytest.raises(StoreUnavailableError, match="--salvage-graph-log"):
        start_or_attach(settings)

    report = salvage_graph_log(settings)
    assert report is not None
    assert (report.dropped, report.files) == (1, 1)
    assert b"".join(path.read_bytes() for path in sorted(report.original.glob("*.aof"))) == poisoned

    conn = _connect(settings)
    assert conn.get("kept") == b"yes"
    nodes = _run(conn, "GRAPH.QUERY", "g", "MATCH (n:N) RETURN n.k ORDER BY n.k")
    assert nodes[1] == [[1], [2]]
    assert EFFECT not in _log_bytes(settings)


def test_salvage_is_refused_while_the_server_runs(settings: Settings) -> None:
    _connect(settings)
    with pytest.raises(StoreUnavailableError, match="agentx-memory down"):
        salvage_graph_log(settings)


def test_up_salvages_then_starts(settings: Settings) -> None:
    _poison(settings)
    args = ["--data-dir", str(settings.data_dir)]
    refused = CliRunner().invoke(app, [*args, "up"])
    assert refused.exit_code != 0
    assert "--salvage-graph-log" in refused.output

    salvaged = CliRunner().invoke(app, [*args, "up", "--salvage-graph-log"])
    assert salvaged.exit_code == 0, salvaged.output
    assert "dropped 1 effect records" in salvaged.stdout
    assert "doctor --repair" in salvaged.stdout
    assert salvaged.stdout.count("started") == 1  # Postgres was left running by the refused start
    assert Path(settings.data_dir / "falkordb" / "falkordb.sock").is_socket()
