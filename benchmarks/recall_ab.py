"""Paired A/B latency of ``remember`` for two settings on the kept recall-latency corpus, in one process.

    python benchmarks/recall_latency.py --sizes 20000 --keep     # once: build and keep the corpus
    python benchmarks/recall_ab.py --set retrieval.speaker_boost=1.2 [--set …] [--queries 300]

On a shared 2-core host a separate run's absolute figures move by 10–20 % within minutes (and by 2×
between days), far more than the 1 ms a change is worth. Here both variants are open at once on the
same stores and take turns query by query (A B B A …), so a slow minute of the host slows both alike;
what is reported is the median of the per-query differences, with how often B was faster, beside
each variant's own p50 / p95 and its main-thread CPU per call. The background access reinforcement
is drained after every call, outside the timings, as in ``recall_latency.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agentx_memory import AsyncAgentMemory, Settings
from agentx_memory._compat.aio import drain
from agentx_memory.settings import owning_process
from benchmarks.here import here
from benchmarks.recall_latency import NAMESPACE, TOP_K, USER_ID, make_queries
from benchmarks.store_turn import Names, Stats, isolated


@dataclass
class Side:
    """One variant's per-call wall times (ns, as ``Stats.of`` takes them) and main-thread CPU times (ms)."""

    wall: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def override(settings: Settings, assignments: Sequence[str]) -> Settings:
    """``settings`` with each ``group.field=value`` applied (value read as JSON, else as a string)."""
    data = settings.model_dump()
    for assignment in assignments:
        path, separator, raw = assignment.partition("=")
        if not separator or not path:
            raise SystemExit(f"--set takes group.field=value, not {assignment!r}")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        *groups, name = path.split(".")
        target = data
        for group in groups:
            if not isinstance(target.get(group), dict):
                raise SystemExit(f"no settings group {group!r} in {path!r}")
            target = target[group]
        if name not in target:
            raise SystemExit(f"no setting {path!r}")
        target[name] = value
    return Settings.model_validate(data)


async def measure(a: AsyncAgentMemory, b: AsyncAgentMemory, queries: Sequence[str]) -> tuple[Side, Side]:
    sides = {id(a): Side(), id(b): Side()}
    for position, query in enumerate(queries):
        order = (a, b) if position % 4 in (0, 3) else (b, a)  # A B B A: neither always goes first
        for memory in order:
            backends = await memory._open_backends()
            began, began_cpu = time.perf_counter_ns(), time.thread_time()
            await memory.remember(query, top_k=TOP_K)
            side = sides[id(memory)]
            side.wall.append(time.perf_counter_ns() - began)
            side.cpu.append((time.thread_time() - began_cpu) * 1000)
            await drain(backends.pending)
    return sides[id(a)], sides[id(b)]


def report(a: Side, b: Side, assignments: Sequence[str]) -> str:
    differences = [(after - before) / 1e6 for before, after in zip(a.wall, b.wall, strict=True)]
    faster = sum(1 for difference in differences if difference < 0)
    lines = [
        f"### paired A/B of `remember` on the kept corpus, {len(differences)} queries",
        "",
        f"B = A with {', '.join(assignments)}",
        "",
        "| variant | p50 (ms) | p95 (ms) | main-thread CPU per call (ms) |",
        "|---|---:|---:|---:|",
    ]
    for name, side in (("A", a), ("B", b)):
        stats = Stats.of(side.wall)
        lines.append(f"| {name} | {stats.p50:.2f} | {stats.p95:.2f} | {statistics.mean(side.cpu):.2f} |")
    lines += [
        "",
        f"Median per-query difference B − A: {statistics.median(differences):+.2f} ms; "
        f"B faster on {faster} of {len(differences)} queries.",
    ]
    return "\n".join(lines)


async def run(settings: Settings, assignments: Sequence[str], count: int) -> str:
    variant = override(settings, assignments)
    async with (
        here(AsyncAgentMemory(USER_ID, settings=settings)) as a,
        here(AsyncAgentMemory(USER_ID, settings=variant)) as b,
    ):
        turns = await (await a._open_backends()).ledger.fetch_one("count_user_rows", {"user_id": USER_ID})
        if not turns or not turns.get("turns"):
            raise SystemExit(
                f"no kept corpus for {USER_ID} in namespace {NAMESPACE}: run "
                "`python benchmarks/recall_latency.py --sizes 20000 --keep` first"
            )
        await measure(a, b, make_queries(20, seed=5))  # warm-up: models, pools, prepared statements
        first, second = await measure(a, b, make_queries(count, seed=11))
    return report(first, second, assignments)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--set", dest="assignments", action="append", required=True, help="group.field=value for B"
    )
    parser.add_argument("--queries", type=int, default=300, help="measured queries (default 300)")
    args = parser.parse_args(argv)
    base = owning_process(Settings())  # the entry point: AGENTX_* is read here only
    settings = isolated(base, Names(NAMESPACE, NAMESPACE, f"{NAMESPACE}_floor", NAMESPACE))
    print(asyncio.run(run(settings, args.assignments, args.queries)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
