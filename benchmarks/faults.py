"""Crash consistency: each write path run in a loop while one store's server is SIGKILLed at random
points, then restarted, ``reconcile`` and ``doctor --repair`` run, and the invariants checked.

    python benchmarks/faults.py [--ops store_turn,learn_fact,…] [--stores falkordb,postgres]
                                [--iterations 100] [--kills 3] [--seed 0] [--sweep] [--json PATH]

One set of embedded servers in a temporary data dir; each cell (operation × store) gets its own
Postgres schema, graph and key prefix. During a cell's loop a killer thread SIGKILLs the store's server
``--kills`` times, each time at a random moment inside an operation, and a "supervisor" starts it again
0.2–1 s later (``embedded.start_or_attach``, what ``agentx-memory up`` or a restarted application
does); the loop backs off 50 ms after a refused call and runs on while its server is down. Then:
``reconcile``, ``doctor --repair``, the checks of ``benchmarks/crash_ops.py``. ``--sweep`` kills the
server after every statement of one call instead (``benchmarks/crash_points.py``).

Columns: acknowledged (calls that returned), refused (calls that raised an ``AgentMemoryError``, by
class), leaked (calls that raised anything else: a raw driver error; must be 0), lost, duplicated,
half-written, resurrected (must all be 0), repaired (what reconcile and the doctor replayed or fixed).
Results are written as JSON under ``benchmarks/results/``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import signal
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AgentMemory, AgentMemoryError, embedded
from agentx_memory.embedded._common import data_paths, read_pid
from agentx_memory.embedding import Embedder, LocalOnnxEmbedder
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.settings import Settings
from benchmarks.crash_ops import OPERATIONS, Operation, Tally, probing

STORES = ("falkordb", "postgres")
#: How long the loop waits after a refused call (a failing call to a dead server returns at once).
BACKOFF_S = 0.05
RESULTS = Path(__file__).resolve().parent / "results"


@dataclass
class Cell:
    """One row of the matrix."""

    operation: str
    store: str
    iterations: int
    kills: int = 0
    calls: int = 0
    acknowledged: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    leaked: dict[str, int] = field(default_factory=dict)
    lost: int = 0
    duplicated: int = 0
    half_written: int = 0
    resurrected: int = 0
    repaired: int = 0
    #: What reconcile replayed and the doctor repaired, by kind (the ``repaired`` column sums them).
    repairs: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not (self.leaked or self.lost or self.duplicated or self.half_written or self.resurrected)


def server_pid(settings: Settings, store: str) -> int | None:
    paths = data_paths(settings)
    if store == "falkordb":
        return read_pid(paths.falkordb_pidfile)
    return read_pid(paths.pgdata / "postmaster.pid")


class Killer(threading.Thread):
    """SIGKILL ``store``'s server after ``delay`` s, start it again ``down`` s later."""

    def __init__(self, settings: Settings, store: str, delay: float, down: float) -> None:
        super().__init__(daemon=True)
        self.settings, self.store, self.delay, self.down = settings, store, delay, down
        self.killed = False

    def run(self) -> None:
        time.sleep(self.delay)
        pid = server_pid(self.settings, self.store)
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
                self.killed = True
            except ProcessLookupError:
                pass
        time.sleep(self.down)
        embedded.start_or_attach(self.settings)


def cell_settings(base: Settings) -> Settings:
    """``base`` (its data dir and start-up timeout) with a schema, graph and key prefix of the cell's own."""
    suffix = uuid.uuid4().hex[:12]
    return base.model_copy(
        update={
            "postgres": base.postgres.model_copy(update={"schema": f"c_{suffix}"}),
            "graph": base.graph.model_copy(update={"name": f"c_{suffix}"}),
            "redis": base.redis.model_copy(update={"key_prefix": f"c{suffix}"}),
            "learning": base.learning.model_copy(update={"auto_consolidate": False}),
        }
    )


def run_cell(
    base: Settings, operation: str, store: str, iterations: int, kills: int, seed: int, embedder: Embedder
) -> Cell:
    """One cell of the matrix on the servers of ``base`` (running when it returns)."""
    settings = cell_settings(base)
    op = OPERATIONS[operation]()
    iterations = max(2, round(iterations * op.scale))
    rng = random.Random(f"{seed}/{operation}/{store}")
    kill_at = sorted(rng.sample(range(1, iterations), min(kills, iterations - 1)))
    cell = Cell(operation, store, iterations)
    refused: Counter[str] = Counter()
    leaked: Counter[str] = Counter()
    started = time.perf_counter()
    with AgentMemory("crash", settings=settings, embedder=embedder) as memory:
        op.prepare(memory)
        killer: Killer | None = None
        last = 0.05
        index = 0
        # Past ``iterations`` while a killer is still at work: the loop runs until its server is back.
        while index < iterations or (killer is not None and killer.is_alive() and index < 10 * iterations):
            if kill_at and index == kill_at[0]:
                kill_at.pop(0)
                if killer is not None:
                    killer.join()
                    cell.kills += killer.killed
                killer = Killer(settings, store, rng.uniform(0, last), rng.uniform(0.2, 1.0))
                killer.start()
            began, before = time.perf_counter(), len(op.acknowledged)
            attempt(op, memory, index, cell, refused, leaked)
            last = time.perf_counter() - began
            if len(op.acknowledged) == before:
                time.sleep(BACKOFF_S)  # a client backing off before the next call
            index += 1
        if killer is not None:
            killer.join()
            cell.kills += killer.killed
        embedded.start_or_attach(settings)
        cell.repaired = repair(memory, cell)
        with probing(settings) as probe:
            tally = op.check(memory, probe)
    cell.calls = index
    return finish(cell, settings, op, tally, (refused, leaked), started)


def finish(
    cell: Cell,
    settings: Settings,
    op: Operation,
    tally: Tally,
    errors: tuple[Counter[str], Counter[str]],
    started: float,
) -> Cell:
    """Fill ``cell`` from what the calls and the check counted; drop the cell's namespace."""
    cell.acknowledged, cell.refused, cell.leaked = len(op.acknowledged), dict(errors[0]), dict(errors[1])
    cell.lost, cell.duplicated = tally.lost, tally.duplicated
    cell.half_written, cell.resurrected = tally.half_written, tally.resurrected
    cell.notes.extend(tally.notes)
    cell.seconds = round(time.perf_counter() - started, 1)
    drop(settings)
    return cell


def attempt(
    op: Operation, memory: AgentMemory, index: int, cell: Cell, refused: Counter[str], leaked: Counter[str]
) -> None:
    """One call: acknowledged, refused (an ``AgentMemoryError``) or leaked (anything else)."""
    try:
        op.acknowledged.append(op.step(memory, index))
    except AgentMemoryError as exc:
        refused[type(exc).__name__] += 1
    except Exception as exc:  # a raw driver error (or a bug): what the matrix must show as 0
        leaked[f"{type(exc).__module__}.{type(exc).__name__}"] += 1
        cell.notes.append(f"leaked: {type(exc).__name__}: {str(exc)[:200]}")


#: Reconcile runs at most this many times after the kills (it is a scheduled job: a replay that fails
#: while the graph is still loading is retried by its next run).
RECONCILE_RUNS = 3


def repair(memory: AgentMemory, cell: Cell) -> int:
    """``reconcile`` (again, as its schedule would, while a replay still fails: a graph just restarted
    may still be loading its log under load), then ``doctor --repair``: what they replayed or fixed."""
    reconciled = run_job(memory, JOBS["reconcile"])
    for _ in range(RECONCILE_RUNS - 1):
        if reconciled.status == "done" and not reconciled.counts.get("failed"):
            break
        cell.notes.append(
            f"reconcile again: {reconciled.status}, {reconciled.counts.get('failed', 0)} failed"
        )
        time.sleep(1.0)
        again = run_job(memory, JOBS["reconcile"])
        counts = {
            k: reconciled.counts.get(k, 0) + again.counts.get(k, 0)
            for k in ("turns", "conversations", "invocations")
        }
        reconciled = again.model_copy(update={"counts": {**again.counts, **counts}})
    if reconciled.status != "done":
        cell.notes.append(f"reconcile {reconciled.status}: {reconciled.error}")
    doctor = run_job(memory, JOBS["doctor"])
    if doctor.status != "done":
        cell.notes.append(f"doctor {doctor.status}: {doctor.error}")
    # Stale vector-index entries are the ordinary cost of rewriting vector nodes, not crash damage.
    fixed = {
        name.removesuffix("_repaired"): value
        for name, value in doctor.counts.items()
        if value and name.endswith("_repaired") and not name.startswith("vector_index_bloat")
    }
    remaining = doctor.counts.get("remaining", 0)
    if remaining:
        cell.notes.append(f"doctor left {remaining} violations: {doctor.counts}")
    replayed = {
        f"reconcile_{kind}": reconciled.counts[kind]
        for kind in ("turns", "conversations", "invocations")
        if reconciled.counts.get(kind)
    }
    cell.repairs = {**replayed, **fixed}
    return sum(cell.repairs.values())


def drop(settings: Settings) -> None:
    """Remove the cell's schema, graph and keys (the servers stay up for the next cell): what
    ``agentx-memory reset`` does."""
    from agentx_memory.stores.factory import reset_stores

    reset_stores(settings)


def _counts(values: dict[str, int]) -> str:
    return ", ".join(f"{name.rsplit('.', 1)[-1]} {count}" for name, count in sorted(values.items())) or "0"


def print_row(cell: Cell) -> None:
    print(
        f"| {cell.operation} | {cell.store} | {cell.kills} | {cell.acknowledged} | {_counts(cell.refused)} | "
        f"**{_counts(cell.leaked)}** | **{cell.lost}** | **{cell.duplicated}** | **{cell.half_written}** | "
        f"**{cell.resurrected}** | {cell.repaired} | {cell.seconds} |",
        flush=True,
    )
    for note in cell.notes[:5]:
        print(f"    {note}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    names = list(OPERATIONS)
    parser.add_argument("--ops", default=",".join(names), help="comma-separated operations")
    parser.add_argument("--stores", default=",".join(STORES), help="comma-separated: falkordb, postgres")
    parser.add_argument("--iterations", type=int, default=100, help="operations per cell")
    parser.add_argument("--kills", type=int, default=3, help="SIGKILLs per cell")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="instead of random kills: kill after every statement of one call (benchmarks/crash_points.py)",
    )
    parser.add_argument("--json", type=Path, default=RESULTS / "faults.json")
    args = parser.parse_args()
    ops, stores = args.ops.split(","), args.stores.split(",")
    if unknown := [op for op in ops if op not in names] + [s for s in stores if s not in STORES]:
        parser.error(f"unknown: {', '.join(unknown)}")
    logging.disable(logging.WARNING)  # the library's warnings about the killed server, hundreds of them
    embedder = LocalOnnxEmbedder(threads=2)
    print(
        "| operation | store killed | kills | acknowledged | refused | leaked | lost | duplicated | "
        "half-written | resurrected | repaired | s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    cells: list[Cell] = []
    with tempfile.TemporaryDirectory(prefix="agx-b-", dir="/tmp") as directory:
        data_dir = Path(directory)
        base = Settings(data_dir=data_dir)
        try:
            embedded.start_or_attach(base)
            for store in stores:
                for op in ops:
                    if args.sweep:
                        from benchmarks.crash_points import sweep_cell  # it imports this module

                        cells.append(sweep_cell(base, op, store, embedder))
                    else:
                        cells.append(
                            run_cell(base, op, store, args.iterations, args.kills, args.seed, embedder)
                        )
                    print_row(cells[-1])
        finally:
            embedded.stop(base)
    payload: dict[str, Any] = {
        "iterations": args.iterations,
        "kills": args.kills,
        "seed": args.seed,
        "mode": "sweep" if args.sweep else "random",
        "cells": [asdict(cell) for cell in cells],
        "clean": all(cell.clean for cell in cells),
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"\nall clean: {payload['clean']} ({args.json})")


if __name__ == "__main__":
    main()
