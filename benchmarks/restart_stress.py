"""Kill and restart the embedded servers many times, optionally on a loaded machine, and check that a new
client always gets both back with every write made before the kills.

    python benchmarks/restart_stress.py [--restarts 50] [--load 2] [--timeout 120] [--json PATH]

Servers of its own under a temporary data dir (``/tmp/agx-restart-*``), stopped at the end. Each round
writes a marker (a graph node and a committed SQL row), SIGKILLs the FalkorDB server (every second round
the Postgres postmaster too) and at once calls ``embedded.start_or_attach``, as a client starting right
then would: no wait for the killed process to end, which is the race of issue 36 (a pidfile that still
names a server the kernel is tearing down). Then a graph query and ``SELECT 1`` must answer and every
marker written so far must be there. ``--load N`` runs N CPU burners throughout, so the teardown of a
killed server and the start of the next one compete for the cores.

Reported: restarts, failures (each with its error text), restart time p50/p95/max (the
``start_or_attach`` call), markers missing. Results go to ``benchmarks/results/restart_stress.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psycopg
import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import embedded
from agentx_memory.embedded import EmbeddedEndpoints
from agentx_memory.embedded._common import pid_alive
from agentx_memory.settings import Settings

RESULTS = Path(__file__).resolve().parent / "results"
GRAPH = "restart_stress"
#: An endless loop in a fresh interpreter: one core's worth of load each, ended with SIGKILL.
_BURNER = "while True: pass"
_PROCESS = {"falkordb": "redis-server", "postgres": "postgres"}


@dataclass
class Failure:
    round: int
    killed: list[str]
    error: str


@dataclass
class Report:
    restarts: int
    load: int
    timeout_s: float
    failures: list[Failure] = field(default_factory=list)
    #: Markers written before a kill and absent after the restart, by store, summed over rounds.
    markers_missing: dict[str, int] = field(default_factory=lambda: {"falkordb": 0, "postgres": 0})
    restart_s: list[float] = field(default_factory=list)
    #: The same times by what was killed: a FalkorDB start takes milliseconds, a Postgres crash recovery
    #: seconds, so the overall median of alternating rounds falls between the two and means little.
    restart_s_by_kill: dict[str, list[float]] = field(default_factory=dict)
    #: What ``start_or_attach`` did per round, e.g. "falkordb started, postgres attached".
    actions: dict[str, int] = field(default_factory=dict)
    #: Kills whose process was still alive (being torn down) when the restart began: the race's window.
    still_dying: dict[str, int] = field(default_factory=lambda: {"falkordb": 0, "postgres": 0})
    load_average: list[float] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not self.failures and not any(self.markers_missing.values())

    def summary(self) -> dict[str, object]:
        times = sorted(self.restart_s)
        return {
            "restarts": self.restarts,
            "load": self.load,
            "timeout_s": self.timeout_s,
            "failures": len(self.failures),
            "markers_missing": self.markers_missing,
            "restart_p50_s": round(statistics.median(times), 3) if times else None,
            "restart_p95_s": round(_percentile(times, 0.95), 3) if times else None,
            "restart_max_s": round(times[-1], 3) if times else None,
            "restart_by_kill": {kill: _quantiles(sorted(t)) for kill, t in self.restart_s_by_kill.items()},
            "actions": self.actions,
            "still_dying_at_restart": self.still_dying,
            "load_average_1m_max": max(self.load_average, default=None),
            "seconds": round(self.seconds, 1),
        }


def _quantiles(ordered: list[float]) -> dict[str, float]:
    return {
        "p50_s": round(statistics.median(ordered), 3),
        "p95_s": round(_percentile(ordered, 0.95), 3),
        "max_s": round(ordered[-1], 3),
    }


def _percentile(ordered: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list (no interpolation: 50 samples, p95 is the 48th)."""
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


@contextlib.contextmanager
def burners(count: int) -> Iterator[list[int]]:
    """``count`` busy-looping processes for the duration of the block; each ended by its own pid."""
    started = [
        subprocess.Popen([sys.executable, "-c", _BURNER], stdin=subprocess.DEVNULL) for _ in range(count)
    ]
    try:
        yield [process.pid for process in started]
    finally:
        for process in started:
            process.kill()
        for process in started:
            process.wait()


def _server_pids(settings: Settings) -> dict[str, int]:
    report = embedded.status(settings)
    pids = {"falkordb": report.falkordb.pid, "postgres": report.postgres.pid}
    return {server: pid for server, pid in pids.items() if pid is not None}


def _prepare(endpoints: EmbeddedEndpoints) -> None:
    with psycopg.connect(endpoints.postgres_url, autocommit=True) as pg:
        pg.execute("CREATE TABLE IF NOT EXISTS restart_markers (n integer PRIMARY KEY)")
        pg.execute("TRUNCATE restart_markers")
    with redis.Redis.from_url(endpoints.falkordb_url) as conn, contextlib.suppress(redis.ResponseError):
        conn.execute_command("GRAPH.DELETE", GRAPH)  # absent on a fresh data dir


def _write_marker(endpoints: EmbeddedEndpoints, n: int) -> None:
    # Both acknowledged before the kill: the row committed, the node written to the append-only file,
    # which a killed process cannot lose once the kernel has it. FalkorDB may acknowledge a write a moment
    # before it reaches the file (docs/benchmarks/reliability.md); a lost marker would show that window.
    with redis.Redis.from_url(endpoints.falkordb_url) as conn:
        conn.execute_command("GRAPH.QUERY", GRAPH, f"CYPHER n={int(n)} CREATE (:Marker {{n: $n}})")
    with psycopg.connect(endpoints.postgres_url, autocommit=True) as pg:
        pg.execute("INSERT INTO restart_markers VALUES (%s)", (n,))


def _read_markers(endpoints: EmbeddedEndpoints) -> dict[str, set[int]]:
    """The markers each store holds; each read also proves its server answers."""
    with redis.Redis.from_url(endpoints.falkordb_url, socket_timeout=30) as conn:
        rows = conn.execute_command("GRAPH.RO_QUERY", GRAPH, "MATCH (m:Marker) RETURN m.n")[1]
    with psycopg.connect(endpoints.postgres_url, connect_timeout=30) as pg:
        assert pg.execute("SELECT 1").fetchone() == (1,)
        sql = pg.execute("SELECT n FROM restart_markers").fetchall()
    return {"falkordb": {int(row[0]) for row in rows}, "postgres": {int(row[0]) for row in sql}}


def _one_round(settings: Settings, report: Report, n: int) -> float | None:
    """Write marker ``n``, kill, restart at once, check; a failure is recorded, not raised. Returns the
    restart's seconds, None when it failed."""
    killed = ["falkordb", "postgres"] if n % 2 else ["falkordb"]
    try:
        endpoints = embedded.ensure_running(settings)
        _write_marker(endpoints, n)
        pids = _server_pids(settings)
        for server in killed:
            os.kill(pids[server], signal.SIGKILL)
        for server in killed:
            report.still_dying[server] += pid_alive(pids[server], _PROCESS[server])
        started = time.monotonic()
        startup = embedded.start_or_attach(settings)
        seconds = time.monotonic() - started
        report.restart_s.append(seconds)
        report.restart_s_by_kill.setdefault("+".join(killed), []).append(seconds)
        what = ", ".join(f"{action.server} {action.action}" for action in startup.actions)
        report.actions[what] = report.actions.get(what, 0) + 1
        held = _read_markers(startup.endpoints)
    except Exception as exc:  # the point is to see any of them, with its text
        text = "".join(traceback.format_exception_only(exc)).strip()
        report.failures.append(Failure(n, killed, text))
        print(f"round {n}: FAILED after killing {'+'.join(killed)}: {text}", file=sys.stderr, flush=True)
        return None
    for store, markers in held.items():
        missing = set(range(n + 1)) - markers
        report.markers_missing[store] += len(missing)
        if missing:
            note = f"{store} lost markers {sorted(missing)}"
            report.failures.append(Failure(n, killed, note))
            print(f"round {n}: {note}", file=sys.stderr, flush=True)
    return seconds


def run(settings: Settings, restarts: int, load: int, verbose: bool = False) -> Report:
    """Kill and restart the servers under ``settings.data_dir`` ``restarts`` times with ``load`` burners.

    The servers are left running (the caller stops them)."""
    report = Report(restarts=restarts, load=load, timeout_s=settings.embedded.start_timeout_s)
    began = time.monotonic()
    _prepare(embedded.ensure_running(settings))
    with burners(load):
        for n in range(restarts):
            seconds = _one_round(settings, report, n)
            report.load_average.append(round(os.getloadavg()[0], 2))
            if verbose:
                took = "failed" if seconds is None else f"{seconds:.2f} s"
                print(f"round {n}: restart {took}, load {report.load_average[-1]}", flush=True)
    report.seconds = time.monotonic() - began
    return report


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--restarts", type=int, default=50)
    parser.add_argument("--load", type=int, default=0, help="CPU burners running throughout (default 0)")
    parser.add_argument("--timeout", type=float, default=120.0, help="embedded.start_timeout_s (s)")
    parser.add_argument("--json", type=Path, default=RESULTS / "restart_stress.json")
    parser.add_argument("--verbose", action="store_true", help="a line per round")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="agx-restart-", dir="/tmp") as directory:
        settings = Settings(data_dir=Path(directory), embedded={"start_timeout_s": args.timeout})
        try:
            report = run(settings, args.restarts, args.load, verbose=args.verbose)
        finally:
            embedded.stop(settings)
    summary = report.summary()
    print(json.dumps(summary, indent=2))
    for failure in report.failures:
        print(f"round {failure.round} ({'+'.join(failure.killed)} killed): {failure.error}")
    command = "python benchmarks/restart_stress.py " + shlex.join(sys.argv[1:])
    payload = {
        "command": command.strip(),
        "cpus": os.cpu_count(),
        **summary,
        "failures": [asdict(failure) for failure in report.failures],
        "restart_s": [round(seconds, 3) for seconds in report.restart_s],
        "load_average_1m": report.load_average,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(payload, indent=2) + "\n")
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
