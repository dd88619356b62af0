"""The embedded-server launcher against real FalkorDB and PostgreSQL processes (no mocks).

Every test gets its own short data dir and stops its servers in teardown, even when it fails.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis

from agentx_memory.embedded import (
    EmbeddedEndpoints,
    ensure_running,
    resolve_endpoints,
    start_or_attach,
    status,
    stop,
)
from agentx_memory.embedded._common import pid_alive
from agentx_memory.errors import StoreUnavailableError
from agentx_memory.settings import (
    EmbeddedSettings,
    GraphSettings,
    PostgresSettings,
    RedisSettings,
    Settings,
)

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)

REPO = Path(__file__).resolve().parents[2]

# Prints what the child did, so the parent can compare pids; anything on stderr is noise for users.
_CHILD = """
import json, sys
from pathlib import Path
from agentx_memory.embedded import start_or_attach
from agentx_memory.settings import Settings
report = start_or_attach(Settings(data_dir=Path(sys.argv[1])))
print(json.dumps({a.server: [a.action, a.pid] for a in report.actions}))
"""


def _child_command(data_dir: Path) -> list[str]:
    return [sys.executable, "-c", _CHILD, str(data_dir)]


def _child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}


@pytest.fixture
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("emb")
    try:
        yield path
    finally:
        stop(Settings(data_dir=path))


@pytest.fixture
def settings(data_dir: Path) -> Settings:
    return Settings(data_dir=data_dir)


def _pids(settings: Settings) -> tuple[int | None, int | None]:
    report = status(settings)
    return report.falkordb.pid, report.postgres.pid


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_first_call_starts_and_second_attaches(settings: Settings) -> None:
    first = start_or_attach(settings)
    assert [(a.server, a.action) for a in first.actions] == [("falkordb", "started"), ("postgres", "started")]

    began = time.monotonic()
    second = start_or_attach(settings)
    assert time.monotonic() - began < 1.0
    assert [a.action for a in second.actions] == ["attached", "attached"]
    assert [a.pid for a in second.actions] == [a.pid for a in first.actions]
    assert second.endpoints == first.endpoints == ensure_running(settings)

    endpoints = second.endpoints
    assert endpoints.falkordb_url == f"unix://{endpoints.falkordb_socket}"
    assert endpoints.falkordb_socket == settings.data_dir / "falkordb" / "falkordb.sock"
    with redis.Redis.from_url(endpoints.falkordb_url) as conn:
        assert conn.ping()
    with psycopg.connect(endpoints.postgres_url) as pg:
        assert pg.execute("SELECT 1").fetchone() == (1,)


def test_another_process_attaches_to_the_same_servers(settings: Settings) -> None:
    report = start_or_attach(settings)
    done = subprocess.run(
        _child_command(settings.data_dir), capture_output=True, text=True, env=_child_env(), timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # pgserver's warnings and logs are silenced
    child = json.loads(done.stdout)
    pids = {a.server: a.pid for a in report.actions}
    assert child == {"falkordb": ["attached", pids["falkordb"]], "postgres": ["attached", pids["postgres"]]}


def test_processes_starting_at_once_share_one_server_each(settings: Settings) -> None:
    children = [
        subprocess.Popen(
            _child_command(settings.data_dir),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_child_env(),
        )
        for _ in range(3)
    ]
    results = []
    for child in children:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        results.append(json.loads(out))
    for server in ("falkordb", "postgres"):
        assert len({result[server][1] for result in results}) == 1
        assert sorted(result[server][0] for result in results) == ["attached", "attached", "started"]
    assert _pids(settings) == (results[0]["falkordb"][1], results[0]["postgres"][1])


def _write_all_three(endpoints: EmbeddedEndpoints) -> None:
    with redis.Redis.from_url(endpoints.falkordb_url, decode_responses=True) as conn:
        conn.set("agentx-test:greeting", "hello")
        conn.execute_command("GRAPH.QUERY", "agentx_test", "CREATE (:Person {name: 'Ada'})")
    with psycopg.connect(endpoints.postgres_url) as pg:
        pg.execute("CREATE TABLE notes (body text)")
        pg.execute("INSERT INTO notes VALUES ('remember me')")


def _read_all_three(endpoints: EmbeddedEndpoints) -> tuple[object, object, object]:
    with redis.Redis.from_url(endpoints.falkordb_url, decode_responses=True) as conn:
        value = conn.get("agentx-test:greeting")
        result = conn.execute_command("GRAPH.QUERY", "agentx_test", "MATCH (p:Person) RETURN p.name")
    with psycopg.connect(endpoints.postgres_url) as pg:
        rows = pg.execute("SELECT body FROM notes").fetchall()
    return value, result[1], rows


def test_data_survives_stop_and_start(settings: Settings) -> None:
    before = ensure_running(settings)
    _write_all_three(before)
    old_pids = _pids(settings)

    assert len(stop(settings)) == 2
    after = ensure_running(settings)

    assert _pids(settings) != old_pids
    assert _read_all_three(after) == ("hello", [["Ada"]], [("remember me",)])


def _vector_index_entries(conn: redis.Redis) -> tuple[int, int]:
    """(live documents, entries ever added) of the :Doc vector index, from ``db.indexes()``."""
    listing = "CALL db.indexes() YIELD label, info"
    rows = conn.execute_command("GRAPH.RO_QUERY", "agentx_test", listing)[1]  # type: ignore[no-untyped-call]
    info = next(str(row[1]) for row in rows if row[0] == "Doc")
    fields = dict(re.findall(r"(numDocuments|maxDocId): (\d+)", info))
    return int(fields["numDocuments"]), int(fields["maxDocId"])


def test_a_planned_stop_compacts_the_graph_vector_indexes(settings: Settings) -> None:
    """FalkorDB 4.16 leaves a stale HNSW entry behind each write to a node with a vector, and replaying
    the append-only file replays them; stop rewrites the file first, so the restart indexes each live
    node once, and the data is the same."""
    endpoints = ensure_running(settings)
    with redis.Redis.from_url(endpoints.falkordb_url, decode_responses=True) as conn:
        conn.execute_command(
            "GRAPH.QUERY",
            "agentx_test",
            "CREATE VECTOR INDEX FOR (d:Doc) ON (d.v) OPTIONS {dimension: 2, similarityFunction: 'cosine'}",
        )
        conn.execute_command("GRAPH.QUERY", "agentx_test", "CREATE (:Doc {n: 0, v: vecf32([1.0, 0.0])})")
        for _ in range(30):
            conn.execute_command("GRAPH.QUERY", "agentx_test", "MATCH (d:Doc) SET d.n = d.n + 1")
        # 4.16 counts (1, 31): an entry per write. A fixed engine (1, 1); either way the restart must.
        assert _vector_index_entries(conn)[0] == 1
    stop(settings)
    with redis.Redis.from_url(ensure_running(settings).falkordb_url, decode_responses=True) as conn:
        assert _vector_index_entries(conn) == (1, 1)
        nearest = "CALL db.idx.vector.queryNodes('Doc', 'v', 1, vecf32([1.0, 0.1])) YIELD node RETURN node.n"
        assert conn.execute_command("GRAPH.RO_QUERY", "agentx_test", nearest)[1] == [[30]]


def test_crashed_servers_are_cleaned_up_and_restarted(settings: Settings) -> None:
    _write_all_three(ensure_running(settings))
    # FalkorDB (appendfsync everysec) may lose the last second of acknowledged writes to a SIGKILL, so
    # make them durable with a clean restart before crashing.
    stop(settings)
    before = start_or_attach(settings)
    for action in before.actions:
        os.kill(action.pid, signal.SIGKILL)
    # A killed process lives on for a moment while the kernel tears it down; status reads it as alive.
    deadline = time.monotonic() + 10
    while any(pid_alive(a.pid, a.server.replace("falkordb", "redis-server")) for a in before.actions):
        assert time.monotonic() < deadline
        time.sleep(0.02)

    crashed = status(settings)
    assert not crashed.falkordb.running
    assert not crashed.postgres.running
    assert "stale" in crashed.falkordb.note

    after = start_or_attach(settings)
    assert [a.action for a in after.actions] == ["started", "started"]
    assert _read_all_three(after.endpoints) == ("hello", [["Ada"]], [("remember me",)])


def test_status_and_idempotent_stop(settings: Settings) -> None:
    fresh = status(settings)
    assert not fresh.all_running
    assert (fresh.falkordb.running, fresh.postgres.running) == (False, False)
    assert fresh.postgres.note == "not initialised yet"

    endpoints = ensure_running(settings)
    running = status(settings)
    assert running.all_running
    assert running.falkordb.endpoint == endpoints.falkordb_url
    assert running.postgres.endpoint == endpoints.postgres_url
    assert running.falkordb.data_path == settings.data_dir / "falkordb"
    assert running.postgres.data_path == settings.data_dir / "postgres"
    assert running.postgres.uptime_s is not None
    assert running.falkordb.pid is not None
    assert running.postgres.pid is not None

    lines = stop(settings)
    assert len(lines) == 2
    assert f"pid {running.falkordb.pid}" in lines[0]
    assert f"pid {running.postgres.pid}" in lines[1]
    assert stop(settings) == []
    stopped = status(settings)
    assert (stopped.falkordb.running, stopped.postgres.running) == (False, False)
    assert stopped.falkordb.note == stopped.postgres.note == "not running"
    assert not endpoints.falkordb_socket.exists()


def test_taken_tcp_port_fails_with_the_servers_own_words(data_dir: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = Settings(data_dir=data_dir, embedded=EmbeddedSettings(falkordb_tcp_port=port))
        began = time.monotonic()
        with pytest.raises(StoreUnavailableError) as caught:
            ensure_running(settings)
    message = str(caught.value)
    assert time.monotonic() - began < 5  # noticed the dead server, did not wait for the timeout
    assert "Address already in use" in message
    assert f"127.0.0.1:{port}" in message
    assert "AGENTX_EMBEDDED__FALKORDB_TCP_PORT" in message
    assert not status(settings).falkordb.running


def test_tcp_port_serves_next_to_the_socket(data_dir: Path) -> None:
    port = _free_port()
    ensure_running(Settings(data_dir=data_dir, embedded=EmbeddedSettings(falkordb_tcp_port=port)))
    with redis.Redis(host="127.0.0.1", port=port) as conn:
        assert conn.ping()


def test_unresponsive_server_is_never_started_twice(data_dir: Path) -> None:
    settings = Settings(data_dir=data_dir, embedded=EmbeddedSettings(start_timeout_s=0.5))
    pid = start_or_attach(settings).actions[0].pid
    os.kill(pid, signal.SIGSTOP)
    try:
        # The message says what the silent process is doing: here stopped, not starved of the disk.
        with pytest.raises(StoreUnavailableError, match=rf"still running as pid {pid} \(stopped"):
            ensure_running(settings)
        assert status(settings).falkordb.note.startswith(f"process {pid} is alive")
    finally:
        os.kill(pid, signal.SIGCONT)
    assert start_or_attach(settings).actions[0].pid == pid


def test_long_data_dir_relocates_the_socket(tmp_path_factory: pytest.TempPathFactory) -> None:
    data_dir = tmp_path_factory.mktemp("long") / ("d" * 60) / ("e" * 50)
    assert len(str(data_dir / "falkordb" / "falkordb.sock")) > 110
    settings = Settings(data_dir=data_dir)
    try:
        report = start_or_attach(settings)
        socket_path = report.endpoints.falkordb_socket
        assert socket_path.parent.parent == Path("/tmp")
        assert socket_path.parent.name.startswith("agentx-")
        assert len(os.fsencode(socket_path)) <= 107
        _write_all_three(report.endpoints)

        again = start_or_attach(settings)  # attaching derives the same socket path
        assert [a.action for a in again.actions] == ["attached", "attached"]
        assert again.endpoints == report.endpoints
        assert _read_all_three(again.endpoints) == ("hello", [["Ada"]], [("remember me",)])
    finally:
        stop(settings)
    assert not socket_path.parent.exists()


def test_resolve_endpoints_prefers_configured_urls(data_dir: Path) -> None:
    external = Settings(
        data_dir=data_dir,
        graph=GraphSettings(backend="neo4j", neo4j_uri="bolt://localhost:7687"),
        postgres=PostgresSettings(url="postgresql://db.example/agentx"),
        redis=RedisSettings(url="redis://cache.example:6379/0"),
    )
    resolved = resolve_endpoints(external)
    assert resolved.embedded is None
    assert (resolved.postgres_url, resolved.redis_url, resolved.falkordb_url) == (
        "postgresql://db.example/agentx",
        "redis://cache.example:6379/0",
        None,
    )
    assert not status(external).falkordb.running  # nothing was started


def test_resolve_endpoints_fills_gaps_with_embedded_servers(data_dir: Path) -> None:
    mixed = Settings(data_dir=data_dir, redis=RedisSettings(url="redis://cache.example:6379/0"))
    resolved = resolve_endpoints(mixed)
    assert resolved.embedded is not None
    assert resolved.redis_url == "redis://cache.example:6379/0"
    assert resolved.falkordb_url == resolved.embedded.falkordb_url
    assert resolved.postgres_url == resolved.embedded.postgres_url

    embedded_only = resolve_endpoints(Settings(data_dir=data_dir))
    assert embedded_only.redis_url == embedded_only.falkordb_url == resolved.falkordb_url


def _dying(name: str, seconds: float) -> subprocess.Popen[bytes]:
    """A process that passes for a server called ``name`` (its command line says so) and ends soon,
    as a server SIGKILLed a moment ago does while the kernel tears it down."""
    process = subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({seconds})", name])
    # A killed server had been seen under its name long before; a process this young may not show its
    # command line yet, and a start that looked then rightly took the pidfile for a stale one (this
    # failed a suite run on a loaded machine: the start began 0.2 s after the spawn and did not wait)
    deadline = time.monotonic() + 10
    while not pid_alive(process.pid, name) and time.monotonic() < deadline:
        time.sleep(0.005)
    return process


@pytest.mark.parametrize("server", ["falkordb", "postgres"])
def test_a_pidfile_naming_a_dying_server_is_waited_out_then_started_anew(data_dir: Path, server: str) -> None:
    """The flaky restart: right after a SIGKILL the pidfile still names the killed server, which lives a
    moment more. FalkorDB waited for it as for a server still loading and read its end as the *new*
    server exiting during start-up; Postgres waited for it until the timeout. Now its end means: start."""
    settings = Settings(data_dir=data_dir, embedded=EmbeddedSettings(start_timeout_s=20))
    ensure_running(settings)
    stop(settings)
    pgdata = data_dir / "postgres"
    if server == "falkordb":
        dying = _dying("redis-server", 1.0)
        (data_dir / "falkordb" / "falkordb.pid").write_text(f"{dying.pid}\n")
    else:
        dying = _dying("postgres", 3.0)
        # pid, pgdata, start time, port, socket dir, listen address, "shmem key / id", status
        lines = [str(dying.pid), str(pgdata), "0", "1", str(pgdata), "", "0 2147483000", "starting"]
        (pgdata / "postmaster.pid").write_text("\n".join(lines) + "\n")
    try:
        began = time.monotonic()
        report = start_or_attach(settings)
        took = time.monotonic() - began
        # it was still there when the start began, and was waited out (seen failing once under two
        # suites at once: the message says what the start did, for the next time)
        log = data_dir / "falkordb" / "falkordb.log"
        said = log.read_text(errors="replace")[-600:] if log.exists() else ""
        assert dying.poll() is not None, (
            f"the start returned after {took:.2f} s with {report.actions} while pid {dying.pid} ran; {said!r}"
        )
    finally:
        dying.kill()
        dying.wait()
    assert [a.action for a in report.actions] == ["started", "started"]
    assert dying.pid not in [a.pid for a in report.actions]
    assert status(settings).all_running
