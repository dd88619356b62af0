"""Concurrency soak: several processes × async tasks reading and writing one memory at once, then the
invariants.

    python benchmarks/soak.py [--seconds 180] [--processes 3] [--tasks 4] [--data-dir DIR]

Each process (``multiprocessing``, spawn) opens one ``AsyncAgentMemory`` and runs ``--tasks`` tasks
until ``--seconds`` have passed. A task picks, operation by operation, one of two users every task of
every process shares, or a user of its own, and a mixed operation: ``new_conversation``,
``store_turn``, ``learn_fact``, ``correct_fact``, ``remember``, ``get_context``, ``forget_fact``,
``forget_conversation``, ``consolidate_conversation``, and the reads a worker uses to find the shared
users' conversations and facts (``get_recent_turns``, ``list_facts``), so the forgets and corrections
race those of the other processes. Every process attaches to the one set of embedded servers the parent
started (or found), in a throw-away schema, graph and key prefix dropped at the end.

An error is *expected* only where the race makes it the right answer (:data:`EXPECTED`: e.g.
``NotFoundError`` for a fact another worker forgot); any other error, and anything that is not an
``AgentMemoryError``, is unexpected. After the run the ``doctor`` job checks every invariant for every
user of the namespace. Prints per operation: count, expected and unexpected errors, p50/p95/p99 latency;
writes ``benchmarks/results/soak.json``; exits 1 on an unexpected error or a violated invariant.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import sys
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AgentMemory, AgentMemoryError, AsyncAgentMemory, Settings
from agentx_memory.embedded import resolve_endpoints
from agentx_memory.embedding import build_embedder
from agentx_memory.maintenance.doctor_rules import DoctorReport
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from benchmarks.store_turn import Stats, machine_info, make_queries, make_turns, scratch_namespace

RESULTS = Path(__file__).resolve().parent / "results" / "soak.json"
SHARED_USERS = ("soak-shared-0", "soak-shared-1")
#: Relative frequency of each operation.
WEIGHTS = {
    "new_conversation": 3,
    "store_turn": 30,
    "learn_fact": 10,
    "correct_fact": 6,
    "remember": 14,
    "get_context": 8,
    "forget_fact": 4,
    "forget_conversation": 1,
    "consolidate_conversation": 3,
    "get_recent_turns": 4,
    "list_facts": 4,
}
#: The errors a race makes right: (operation, error class) → how its message must start.
EXPECTED: dict[tuple[str, str], str] = {
    # the conversation was forgotten by another worker meanwhile
    ("store_turn", "NotFoundError"): r"(conversation|turn) \S+ does not exist",
    ("forget_conversation", "NotFoundError"): r"conversation \S+ does not exist",
    ("consolidate_conversation", "NotFoundError"): r"conversation \S+ does not exist",
    # its source turn went with a forgotten conversation
    ("learn_fact", "NotFoundError"): r"turn \S+ does not exist",
    # forgotten, or corrected first, by another worker; or two corrections at once (exactly one wins)
    ("correct_fact", "NotFoundError"): r"fact \S+ does not exist",
    ("correct_fact", "InvalidInputError"): r"fact \S+ is no longer current",
    ("correct_fact", "ConflictError"): r"fact \S+ is no longer current",
    ("forget_fact", "NotFoundError"): r"fact \S+ does not exist",
}
_ENTITIES = ["Maya", "Kenji", "Priya", "Lisbon", "Kyoto", "Verdant", "Globex", "bouldering"]
_SAMPLES_KEPT = 20


class Skipped(Exception):
    """The operation had nothing to act on (no fact or conversation known yet): neither timed nor counted."""


def expected(op: str, exc: BaseException) -> bool:
    """Whether ``exc`` is the right answer of ``op`` to a concurrent change (see :data:`EXPECTED`)."""
    if not isinstance(exc, AgentMemoryError):
        return False
    pattern = EXPECTED.get((op, type(exc).__name__))
    return pattern is not None and re.match(pattern, str(exc)) is not None


# ------------------------------------------------------------------------------------------ a worker


@dataclass
class Tally:
    """What one process saw: per operation the latencies of its successes (ns) and its errors."""

    latencies: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    expected: Counter[str] = field(default_factory=Counter)
    unexpected: Counter[str] = field(default_factory=Counter)
    expected_kinds: Counter[str] = field(default_factory=Counter)
    unexpected_samples: list[str] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        for op, values in other.latencies.items():
            self.latencies[op].extend(values)
        self.expected.update(other.expected)
        self.unexpected.update(other.unexpected)
        self.expected_kinds.update(other.expected_kinds)
        self.unexpected_samples.extend(
            other.unexpected_samples[: _SAMPLES_KEPT - len(self.unexpected_samples)]
        )


@dataclass
class Known:
    """Ids a process has seen for one user (its own writes, and what its reads discovered)."""

    conversations: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    turns: list[str] = field(default_factory=list)

    def forget(self, ids: list[str], item: str) -> None:
        if item in ids:
            ids.remove(item)

    def keep(self, ids: list[str], item: str, limit: int = 200) -> None:
        if item not in ids:
            ids.append(item)
            del ids[:-limit]


class Worker:
    """One async task's loop of random operations."""

    def __init__(self, memories: dict[str, AsyncAgentMemory], known: dict[str, Known], own: str,
                 rng: random.Random, tally: Tally) -> None:  # fmt: skip
        self.memories, self.known, self.own, self.rng, self.tally = memories, known, own, rng, tally
        self.turns = make_turns(400, seed=rng.randrange(1 << 30))
        self.queries = make_queries(100, seed=rng.randrange(1 << 30))

    async def run(self, deadline: float) -> None:
        ops, weights = list(WEIGHTS), list(WEIGHTS.values())
        while time.monotonic() < deadline:
            user = self.rng.choice(SHARED_USERS) if self.rng.random() < 0.5 else self.own
            op = self.rng.choices(ops, weights)[0]
            action = self._action(op, self.memories[user], self.known[user])
            began = time.perf_counter_ns()
            try:
                await action()
            except Skipped:
                continue
            except Exception as exc:  # every outcome is classified: that is the point of the soak
                self._failed(op, user, exc)
            else:
                self.tally.latencies[op].append(time.perf_counter_ns() - began)

    def _failed(self, op: str, user: str, exc: Exception) -> None:
        name = type(exc).__name__
        if expected(op, exc):
            self.tally.expected[op] += 1
            self.tally.expected_kinds[f"{op}: {name}"] += 1
            return
        self.tally.unexpected[op] += 1
        if len(self.tally.unexpected_samples) < _SAMPLES_KEPT:
            trace = "".join(traceback.format_exception(exc)[-3:])
            self.tally.unexpected_samples.append(f"{op} ({user}): {name}: {exc}\n{trace}")

    def _action(self, op: str, mem: AsyncAgentMemory, known: Known) -> Callable[[], Awaitable[None]]:
        rng = self.rng
        conversation = rng.choice(known.conversations) if known.conversations else None
        fact = rng.choice(known.facts) if known.facts else None

        async def new_conversation() -> None:
            known.keep(known.conversations, await mem.new_conversation(title="soak"))

        async def store_turn() -> None:
            target = conversation or await mem.new_conversation(title="soak")
            known.keep(known.conversations, target)
            role, content = rng.choice(self.turns)
            try:
                turn = await mem.store_turn(target, role, content)
            except AgentMemoryError:
                known.forget(known.conversations, target)
                raise
            known.keep(known.turns, turn.id)

        async def learn_fact() -> None:
            about = rng.sample(_ENTITIES, rng.randint(0, 2))
            source = rng.choice(known.turns) if known.turns and rng.random() < 0.3 else None
            claim = rng.choice(self.turns)[1]
            learned = await mem.learn_fact(claim, confidence=0.8, source="soak", about=about,
                                           source_turn_id=source)  # fmt: skip
            known.keep(known.facts, learned.id)

        async def correct_fact() -> None:
            if fact is None:
                raise Skipped
            known.forget(known.facts, fact)  # superseded (or gone) whatever the outcome
            known.keep(known.facts, (await mem.correct_fact(fact, rng.choice(self.turns)[1])).id)

        async def remember() -> None:
            await mem.remember(rng.choice(self.queries), top_k=10)

        async def get_context() -> None:
            await mem.get_context(rng.choice(self.queries), budget_tokens=800, conversation_id=conversation)

        async def forget_fact() -> None:
            if fact is None:
                raise Skipped
            known.forget(known.facts, fact)
            await mem.forget_fact(fact)

        async def forget_conversation() -> None:
            if conversation is None:
                raise Skipped
            known.forget(known.conversations, conversation)
            await mem.forget_conversation(conversation)

        async def consolidate_conversation() -> None:
            if conversation is None:
                raise Skipped
            await mem.consolidate_conversation(conversation)

        async def get_recent_turns() -> None:  # finds the conversations other workers write to
            for turn in await mem.get_recent_turns(hours=1, limit=20):
                known.keep(known.conversations, turn.conversation_id)
                known.keep(known.turns, turn.id)

        async def list_facts() -> None:  # finds the facts other workers learned
            for found in await mem.list_facts(limit=30):
                known.keep(known.facts, found.id)

        actions: dict[str, Callable[[], Awaitable[None]]] = {
            "new_conversation": new_conversation,
            "store_turn": store_turn,
            "learn_fact": learn_fact,
            "correct_fact": correct_fact,
            "remember": remember,
            "get_context": get_context,
            "forget_fact": forget_fact,
            "forget_conversation": forget_conversation,
            "consolidate_conversation": consolidate_conversation,
            "get_recent_turns": get_recent_turns,
            "list_facts": list_facts,
        }
        return actions[op]


async def _run_process(index: int, tasks: int, seconds: float, settings: Settings, seed: int) -> Tally:
    embedder = build_embedder(settings.embedding)
    tally = Tally()
    async with AsyncAgentMemory(SHARED_USERS[0], settings=settings, embedder=embedder) as root:
        own = [f"soak-p{index}-t{task}" for task in range(tasks)]
        memories = {user: await root.for_user(user) for user in (*SHARED_USERS, *own)}
        known = {user: Known() for user in memories}
        deadline = time.monotonic() + seconds  # after the model loaded: every process gets its seconds
        workers = [Worker(memories, known, own[task], random.Random(seed * 1000 + task), tally)
                   for task in range(tasks)]  # fmt: skip
        await asyncio.gather(*(worker.run(deadline) for worker in workers))
    return tally


def run_process(index: int, tasks: int, seconds: float, settings: Settings, seed: int) -> Tally:
    """One spawned process's whole run (the child's entry point)."""
    return asyncio.run(_run_process(index, tasks, seconds, settings, seed))


# ---------------------------------------------------------------------------------------- the parent


@dataclass
class SoakResult:
    processes: int
    tasks: int
    seconds: float
    wall_s: float
    tally: Tally
    #: The doctor right after the run, and after the ``vector_compaction`` job (see :func:`soak`).
    doctor: DoctorReport
    doctor_after_compaction: DoctorReport
    users: int

    @property
    def unexpected(self) -> int:
        return self.tally.unexpected.total()

    @property
    def violations(self) -> dict[str, int]:
        """Violated invariants right after the run (the stale vectors forgets leave behind are pending
        compaction work, not violations)."""
        return {
            item.name: item.violations
            for item in self.doctor.findings
            if item.violations and not item.pending
        }

    @property
    def ok(self) -> bool:
        return self.unexpected == 0 and not self.violations and self.doctor_after_compaction.ok


def pinned(settings: Settings) -> Settings:
    """``settings`` with every store's URL resolved, so the children attach and never start servers;
    background consolidation off (the soak calls it as an operation, and counts its outcome)."""
    endpoints = resolve_endpoints(settings)
    return settings.model_copy(
        update={
            "postgres": settings.postgres.model_copy(update={"url": endpoints.postgres_url}),
            "graph": settings.graph.model_copy(update={"falkordb_url": endpoints.falkordb_url}),
            "redis": settings.redis.model_copy(update={"url": endpoints.redis_url}),
            "learning": settings.learning.model_copy(update={"auto_consolidate": False}),
        }
    )


def soak(settings: Settings, *, processes: int, tasks: int, seconds: float, seed: int = 1) -> SoakResult:
    """Run the soak on ``settings``' namespace (which the caller owns and drops), then the doctor."""
    settings = pinned(settings)
    with AgentMemory(SHARED_USERS[0], settings=settings):  # migrate once, before the workers race to
        pass
    tally = Tally()
    began = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
        futures = [pool.submit(run_process, index, tasks, seconds, settings, seed + index)
                   for index in range(processes)]  # fmt: skip
        for future in futures:
            try:
                tally.merge(future.result())
            except Exception as exc:  # a worker process that died: the worst unexpected error
                tally.unexpected["process"] += 1
                tally.unexpected_samples.append(f"process: {type(exc).__name__}: {exc}")
    wall = time.perf_counter() - began
    with AgentMemory("maintenance", settings=settings) as root:
        before = _doctor(root)
        # A forget leaves its vector in FalkorDB's HNSW index until the vector_compaction job (every
        # worker runs it) rebuilds it; the doctor reports it as vector_index_bloat. Run it, check again.
        compaction = run_job(root, JOBS["vector_compaction"])
        if compaction.status != "done":
            raise AgentMemoryError(f"vector_compaction did not run: {compaction.error}")
        after = _doctor(root)
    users = len(SHARED_USERS) + processes * tasks  # the doctor checks each of them (and any other)
    return SoakResult(processes, tasks, seconds, wall, tally, before, after, users)


def _doctor(root: AgentMemory) -> DoctorReport:
    run = run_job(root, JOBS["doctor"], dry_run=True)
    report = DoctorReport.from_job(run)
    if report is None:
        raise AgentMemoryError(f"the doctor did not run: {run.error}")
    return report


# ---------------------------------------------------------------------------------------------- report


def per_operation(tally: Tally) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}
    for op in WEIGHTS:
        done = tally.latencies.get(op, [])
        stats = Stats.of(done) if done else None
        rows[op] = {
            "count": len(done) + tally.expected[op] + tally.unexpected[op],
            "ok": len(done),
            "expected_errors": tally.expected[op],
            "unexpected_errors": tally.unexpected[op],
            "p50_ms": stats.p50 if stats else None,
            "p95_ms": stats.p95 if stats else None,
            "p99_ms": stats.p99 if stats else None,
        }
    return rows


def build_report(result: SoakResult, load: tuple[float, float]) -> str:
    rows = per_operation(result.tally)
    total = sum(row["count"] for row in rows.values())
    lines = [
        f"### Concurrency soak — {result.processes} processes × {result.tasks} async tasks, "
        f"{result.seconds:g} s ({result.wall_s:.0f} s wall with start-up), {result.users} users "
        f"({len(SHARED_USERS)} shared by every task)",
        "",
        "| operation | count | expected errors | unexpected errors | p50 (ms) | p95 (ms) | p99 (ms) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}"

    for op, row in rows.items():
        lines.append(
            f"| `{op}` | {row['count']} | {row['expected_errors']} | {row['unexpected_errors']} | "
            f"{ms(row['p50_ms'])} | {ms(row['p95_ms'])} | {ms(row['p99_ms'])} |"
        )
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(result.tally.expected_kinds.items()))
    lines += [
        "",
        f"{total} operations ({total / result.seconds:.0f}/s), {result.tally.expected.total()} expected "
        f"errors ({kinds or 'none'}), "
        f"**{result.unexpected} unexpected**.",
        f"doctor (every user): {_findings(result.doctor)} after the run; "
        f"{_findings(result.doctor_after_compaction)} after vector_compaction.",
        f"{os.cpu_count()} CPUs; 1-min load average {load[0]:.1f} before, {load[1]:.1f} after.",
    ]
    for sample in result.tally.unexpected_samples:
        lines += ["", "```", sample.rstrip(), "```"]
    return "\n".join(lines)


def _findings(report: DoctorReport) -> str:
    found = [f"{item.name} {item.violations}" for item in report.findings if item.violations]
    return f"{len(report.findings)} invariants, " + (", ".join(found) + " violated" if found else "clean")


def write_json(path: Path, result: SoakResult, load: tuple[float, float]) -> None:
    document = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(*load),
        "config": {
            "processes": result.processes,
            "tasks_per_process": result.tasks,
            "seconds": result.seconds,
            "users": result.users,
            "shared_users": len(SHARED_USERS),
            "weights": WEIGHTS,
        },
        "wall_s": result.wall_s,
        "operations": per_operation(result.tally),
        "expected_errors": dict(result.tally.expected_kinds),
        "unexpected_errors": result.unexpected,
        "unexpected_samples": result.tally.unexpected_samples,
        "doctor": result.doctor.model_dump(mode="json"),
        "doctor_after_vector_compaction": result.doctor_after_compaction.model_dump(mode="json"),
        "ok": result.ok,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


# ------------------------------------------------------------------------------------------------ main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=180, help="how long the workers run (default 180)")
    parser.add_argument("--processes", type=int, default=3, help="worker processes (default 3)")
    parser.add_argument("--tasks", type=int, default=4, help="async tasks per process (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()[0]
    with scratch_namespace(args.data_dir) as (settings, _, names):
        print(f"soak namespace {names.schema}: {args.processes} processes × {args.tasks} tasks, "
              f"{args.seconds:g} s", file=sys.stderr)  # fmt: skip
        result = soak(settings, processes=args.processes, tasks=args.tasks, seconds=args.seconds,
                      seed=args.seed)  # fmt: skip
    load = (load_before, os.getloadavg()[0])
    print(build_report(result, load))
    write_json(args.out, result, load)
    return 0 if result.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
