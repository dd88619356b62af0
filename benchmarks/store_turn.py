"""Latency of ``AgentMemory.store_turn`` against the floor of what it must do, plus ``remember`` and ingest.

    python benchmarks/store_turn.py [--turns 2000] [--queries 200] [--data-dir DIR]

The *floor* is the raw cost of the work a stored turn cannot avoid, measured on the same servers with the
same sentences: one Postgres INSERT (autocommit) into a scratch table with a ``vector(384)`` column and an
HNSW index like the ledger's, one FalkorDB ``CREATE`` of a node with a ``vecf32`` embedding under a vector
index, one Redis ``RPUSH``, and one local embedding. Everything lives in a throw-away Postgres schema, graph
and key prefix that are dropped at the end; embedded servers this run had to start are stopped again.
Prints a markdown table and writes ``benchmarks/results/store_turn.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import redis
from falkordb import FalkorDB
from pgvector.psycopg import register_vector
from psycopg import sql

from agentx_memory import AgentMemory, AsyncAgentMemory, Settings, embedded
from agentx_memory.embedded import ResolvedEndpoints, resolve_endpoints
from agentx_memory.embedding import Embedder, build_embedder
from agentx_memory.settings import owning_process

RESULTS = Path(__file__).resolve().parent / "results" / "store_turn.json"
TARGET_P50_MS = 10.0
TARGET_P95_MS = 20.0
TARGET_FLOOR_RATIO = 1.5
CONVERSATIONS = 20
WARM_UP_TURNS = 100
BULK_WRITERS = 8

# ------------------------------------------------------------------------------------------- the corpus

_NAMES = [
    "Maya",
    "Kenji",
    "Priya",
    "Tom",
    "Lena",
    "Omar",
    "Sofia",
    "Dmitri",
    "Aisha",
    "Lucas",
    "Mei",
    "Jonas",
]
_PLACES = ["Lisbon", "Kyoto", "Oaxaca", "Reykjavik", "Cape Town", "Vancouver", "Tbilisi", "Hanoi", "Porto",
           "Edinburgh", "Marrakesh", "Seoul", "the Dolomites", "Patagonia", "Sicily"]  # fmt: skip
_FOODS = ["peanuts", "shellfish", "gluten", "lactose", "sesame", "eggs", "soy", "tree nuts", "mustard"]
_HOBBIES = ["bouldering", "sourdough baking", "trail running", "birdwatching", "chess", "pottery",
            "sea kayaking", "film photography", "salsa dancing", "gardening", "woodworking"]  # fmt: skip
_JOBS = ["data engineer", "product manager", "nurse", "high-school teacher", "UX designer", "accountant",
         "site reliability engineer", "architect", "pharmacist", "sales lead"]  # fmt: skip
_COMPANIES = ["Verdant", "Northwind", "Globex", "Initech", "Umbrella Health", "Blue Harbor", "Kestrel Labs"]
_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTHS = ["January", "March", "April", "May", "June", "September", "October", "November"]

_USER = [
    "I'm flying to {place} on {month} {day}, can you remind me to check in the day before?",
    "My sister {name} just moved to {place} and I want to visit her in {month}.",
    "Heads up: I'm allergic to {food}, so please keep that in mind for any restaurant suggestions.",
    "I started a new job as a {job} at {company} last {weekday} and it's been intense.",
    "Can you find a quiet hotel in {place} under {price} euros a night, ideally with a garden?",
    "I've been getting into {hobby} lately, any tips for a beginner?",
    "My budget for the whole trip is about {price}0 euros, flights not included.",
    "Remind me that {name}'s birthday is on {month} {day}; I always forget it.",
    "I prefer window seats and I never check a bag if I can avoid it.",
    "We had a long meeting about the Q{quarter} roadmap and I need to summarise it for {name}.",
    "Ugh, the train to {place} got cancelled again. What are my options for {weekday}?",
    "I'd rather walk than take taxis when the weather is nice, even for {minutes} minutes.",
    "Can you draft a short message to {name} saying I'll be {minutes} minutes late?",
    "I'm thinking about switching careers and becoming a {job}. Is that realistic at my age?",
    "Last time in {place} I loved the food market near the old harbour.",
    "Please don't book anything before 9 am, I'm not a morning person at all.",
    "How many steps did I say my {hobby} class takes, was it {minutes} or more?",
    "I told {company} I'd send the signed contract by {weekday}.",
]
_ASSISTANT = [
    "Got it. I'll remember that you are allergic to {food} and flag dishes that usually contain it.",
    "Noted: your flight to {place} leaves on {month} {day}. I'll remind you to check in 24 hours before.",
    "Congratulations on the new role at {company}! The first weeks as a {job} are usually the hardest.",
    "I found three quiet hotels in {place} below {price} euros a night; the second one has a small garden.",
    "For {hobby}, start with short sessions twice a week and focus on technique before intensity.",
    "Here's a draft for {name}: 'Running about {minutes} minutes late, sorry! See you soon.'",
    "On {weekday} there is a bus at 10:40 and a train at 14:15; the bus takes {minutes} minutes longer.",
    "I've added {name}'s birthday on {month} {day} to your reminders, with a nudge one week ahead.",
    "That budget works for about two weeks in {place} if you mix guesthouses with a couple of nicer nights.",
    "Summary of the Q{quarter} roadmap meeting: ship the search revamp, pause the mobile rewrite, hire two "
    "engineers, and revisit pricing in {month}.",
    "Window seat and carry-on only, noted for every future booking.",
    "Moving into a {job} role is common in your thirties; a short course and a portfolio project help.",
    "The market by the old harbour in {place} opens at 8 on {weekday}s; the fish stalls close by noon.",
    "I won't schedule anything before 9 am. Your earliest slot on {weekday} is now 9:30.",
]
_QUESTIONS = [
    "What am I allergic to?",
    "Where is my sister living now?",
    "When is my flight to {place}?",
    "Which company did I join?",
    "What kind of hotel do I like?",
    "What hobby did I pick up recently?",
    "When is {name}'s birthday?",
    "What was decided in the roadmap meeting?",
    "What did I say about early mornings?",
    "How much can I spend on the trip?",
    "Do I prefer an aisle or a window seat?",
    "What did I promise to send to {company}?",
]


def _fill(template: str, rng: random.Random) -> str:
    return template.format(
        name=rng.choice(_NAMES),
        place=rng.choice(_PLACES),
        food=rng.choice(_FOODS),
        hobby=rng.choice(_HOBBIES),
        job=rng.choice(_JOBS),
        company=rng.choice(_COMPANIES),
        weekday=rng.choice(_WEEKDAYS),
        month=rng.choice(_MONTHS),
        day=rng.randint(1, 28),
        price=rng.randint(60, 400),
        minutes=rng.randint(5, 45),
        quarter=rng.randint(1, 4),
    )


def make_turns(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` (role, content) pairs, alternating user and assistant; some turns are two sentences."""
    rng = random.Random(seed)
    turns: list[tuple[str, str]] = []
    for index in range(count):
        role = "user" if index % 2 == 0 else "assistant"
        templates = _USER if role == "user" else _ASSISTANT
        content = _fill(rng.choice(templates), rng)
        if rng.random() < 0.3:
            content += " " + _fill(rng.choice(templates), rng)
        turns.append((role, content))
    return turns


def make_queries(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [_fill(rng.choice(_QUESTIONS), rng) for _ in range(count)]


# ------------------------------------------------------------------------------------------ statistics


@dataclass(frozen=True)
class Stats:
    p50: float
    p95: float
    p99: float
    mean: float
    max: float
    count: int

    @classmethod
    def of(cls, nanoseconds: Sequence[int]) -> Stats:
        ms = np.asarray(nanoseconds, dtype=np.float64) / 1e6
        p50, p95, p99 = np.percentile(ms, [50, 95, 99])
        return cls(float(p50), float(p95), float(p99), float(ms.mean()), float(ms.max()), len(ms))


# ---------------------------------------------------------------------------------------- measurements


class FloorRig:
    """The raw work per turn: one embedding, one INSERT, one graph CREATE, one RPUSH (sync clients).

    The scratch graph has a vector index (``remember`` needs one). The scratch table has a plain vector
    column; with ``hnsw`` it also gets the HNSW index the ledger has, which nothing reads yet.
    """

    def __init__(self, endpoints: ResolvedEndpoints, names: Names, embedder: Embedder, *, hnsw: bool) -> None:
        self._embedder = embedder
        self._conversation = uuid.uuid4()
        self._key = f"{names.prefix}:floor:turns"
        self._pool = redis.BlockingConnectionPool.from_url(endpoints.falkordb_url or endpoints.redis_url)
        self._graph = FalkorDB(connection_pool=self._pool).select_graph(names.floor_graph)
        self._cache = redis.Redis.from_url(endpoints.redis_url)
        self._conn = psycopg.connect(endpoints.postgres_url, autocommit=True)
        register_vector(self._conn)
        table = sql.Identifier(names.schema, "floor_turns")
        self._conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(names.schema)))
        self._conn.execute(
            sql.SQL(
                "CREATE TABLE {} (id uuid PRIMARY KEY, conversation_id uuid NOT NULL, content text NOT NULL,"
                " embedding vector({}), ts timestamptz NOT NULL)"
            ).format(table, sql.Literal(embedder.dimensions))
        )
        self._conn.execute(
            sql.SQL("CREATE INDEX ON {} USING hnsw (embedding vector_cosine_ops)").format(table)
        )
        self._graph.query(
            f"CREATE VECTOR INDEX FOR (n:T) ON (n.embedding) OPTIONS {{dimension: {embedder.dimensions}, "
            "similarityFunction: 'cosine'}"
        )
        self._insert = sql.SQL(
            "INSERT INTO {} (id, conversation_id, content, embedding, ts) VALUES (%s, %s, %s, %s, %s)"
        ).format(table)

    def step(self, content: str) -> tuple[int, int, int, int]:
        """One turn's raw work; returns the (embed, postgres, graph, redis) durations in ns."""
        began = time.perf_counter_ns()
        vector = self._embedder.embed_one(content)
        embedded_at = time.perf_counter_ns()
        row = (
            uuid.uuid4(),
            self._conversation,
            content,
            np.asarray(vector, dtype=np.float32),
            datetime.now(UTC),
        )
        self._conn.execute(self._insert, row)
        inserted_at = time.perf_counter_ns()
        self._graph.query(
            "CREATE (:T {id: $id, content: $content, embedding: vecf32($embedding)})",
            {"id": str(uuid.uuid4()), "content": content, "embedding": vector},
        )
        created_at = time.perf_counter_ns()
        self._cache.rpush(self._key, content)
        pushed_at = time.perf_counter_ns()
        return (
            embedded_at - began,
            inserted_at - embedded_at,
            created_at - inserted_at,
            pushed_at - created_at,
        )

    def close(self) -> None:
        self._conn.close()
        self._cache.close()
        self._pool.disconnect()


@dataclass
class Samples:
    """Per-iteration durations (ns) of the interleaved loop."""

    store_turn: list[int] = field(default_factory=list)
    floor_embed: list[int] = field(default_factory=list)
    floor_postgres: list[int] = field(default_factory=list)
    floor_graph: list[int] = field(default_factory=list)
    floor_redis: list[int] = field(default_factory=list)

    @property
    def floor(self) -> list[int]:
        parts = zip(self.floor_embed, self.floor_postgres, self.floor_graph, self.floor_redis, strict=True)
        return [sum(part) for part in parts]

    @property
    def overhead(self) -> list[int]:
        """store_turn minus the floor of the same sentence (the embedding cost cancels out)."""
        return [store - floor for store, floor in zip(self.store_turn, self.floor, strict=True)]


def measure_store_turn(
    mem: AgentMemory,
    rig: FloorRig,
    turns: list[tuple[str, str]],
    warm_up: list[tuple[str, str]],
) -> Samples:
    """``store_turn`` round-robin over several conversations, interleaved with the floor of the same turn.

    Interleaving makes both see the same machine load (the ratio is what matters on a shared box); the
    order alternates so neither side always runs with the other's data hot in the caches.
    """
    conversations = [mem.new_conversation(title=f"bench {n}") for n in range(CONVERSATIONS)]
    for position, (role, content) in enumerate(warm_up):
        mem.store_turn(conversations[position % CONVERSATIONS], role=role, content=content)
        rig.step(content)
    samples = Samples()
    for position, (role, content) in enumerate(turns):
        conversation = conversations[position % CONVERSATIONS]
        if position % 2:
            floor = rig.step(content)
        start = time.perf_counter_ns()
        mem.store_turn(conversation, role=role, content=content)
        samples.store_turn.append(time.perf_counter_ns() - start)
        if not position % 2:
            floor = rig.step(content)
        samples.floor_embed.append(floor[0])
        samples.floor_postgres.append(floor[1])
        samples.floor_graph.append(floor[2])
        samples.floor_redis.append(floor[3])
    return samples


def measure_remember(mem: AgentMemory, queries: list[str]) -> list[int]:
    for query in queries[:10]:  # warm-up
        mem.remember(query)
    samples: list[int] = []
    for query in queries:
        start = time.perf_counter_ns()
        mem.remember(query, top_k=10)
        samples.append(time.perf_counter_ns() - start)
    return samples


async def measure_bulk(settings: Settings, embedder: Embedder, turns: list[tuple[str, str]]) -> float:
    """Turns per second with ``BULK_WRITERS`` concurrent writers (one conversation each), async facade."""
    async with AsyncAgentMemory(user_id="bench-bulk", settings=settings, embedder=embedder) as mem:
        conversations = [await mem.new_conversation(title=f"bulk {n}") for n in range(BULK_WRITERS)]

        async def writer(offset: int) -> None:
            for role, content in turns[offset::BULK_WRITERS]:
                await mem.store_turn(conversations[offset], role=role, content=content)

        began = time.perf_counter()
        await asyncio.gather(*(writer(offset) for offset in range(BULK_WRITERS)))
        return len(turns) / (time.perf_counter() - began)


# ----------------------------------------------------------------------------------- namespace, cleanup


@dataclass(frozen=True)
class Names:
    schema: str
    graph: str
    floor_graph: str
    prefix: str

    @classmethod
    def fresh(cls) -> Names:
        suffix = uuid.uuid4().hex[:10]
        return cls(f"bench_{suffix}", f"bench_{suffix}", f"bench_{suffix}_floor", f"bench_{suffix}")


def isolated(base: Settings, names: Names) -> Settings:
    return base.model_copy(
        update={
            "postgres": base.postgres.model_copy(update={"schema_name": names.schema}),
            "graph": base.graph.model_copy(update={"name": names.graph}),
            "redis": base.redis.model_copy(update={"key_prefix": names.prefix}),
        }
    )


def drop_everything(endpoints: ResolvedEndpoints, names: Names) -> None:
    with psycopg.connect(endpoints.postgres_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(names.schema)))
    pool = redis.BlockingConnectionPool.from_url(endpoints.falkordb_url or endpoints.redis_url)
    falkordb = FalkorDB(connection_pool=pool)
    # list_graphs() gives bytes on this pool (no decode_responses): compare as text, or nothing matches
    # and every run leaves its graphs behind (they slow every later server start).
    existing = {name.decode() if isinstance(name, bytes) else name for name in falkordb.list_graphs()}
    for graph in (names.graph, names.floor_graph):
        if graph in existing:
            falkordb.select_graph(graph).delete()
    pool.disconnect()
    cache = redis.Redis.from_url(endpoints.redis_url)
    keys = list(cache.scan_iter(match=f"{names.prefix}:*", count=1000))
    for start in range(0, len(keys), 500):
        cache.delete(*keys[start : start + 500])
    cache.close()


@contextmanager
def scratch_namespace(
    data_dir: Path | None, *, auto_consolidate: bool = True
) -> Iterator[tuple[Settings, ResolvedEndpoints, Names]]:
    """Settings for a throw-away schema, graph and key prefix on the servers under ``data_dir`` (the
    default one: None), with their endpoints and names. Everything in the namespace is dropped at the
    end, and servers this had to start are stopped again."""
    # the entry point: AGENTX_* is read here only
    base = owning_process(Settings(learning={"auto_consolidate": auto_consolidate}))
    if data_dir is not None:
        base = base.model_copy(update={"data_dir": data_dir})
    started_servers = base.uses_embedded and not embedded.status(base).all_running
    endpoints = resolve_endpoints(base)
    names = Names.fresh()
    try:
        yield isolated(base, names), endpoints, names
    finally:
        drop_everything(endpoints, names)
        if started_servers:
            embedded.stop(base)


# ---------------------------------------------------------------------------------------------- report


def build_report(args: argparse.Namespace, results: dict[str, Any]) -> str:
    store: Stats = results["store_turn"]
    floor: Stats = results["floor"]
    rows = [
        ("`store_turn`", store, True),
        ("floor: total", floor, True),
        ("floor: embed (local ONNX)", results["floor_embed"], False),
        (
            f"floor: Postgres INSERT ({'HNSW' if args.floor_hnsw else 'no'} vector index)",
            results["floor_postgres"],
            False,
        ),
        ("floor: graph CREATE (vecf32)", results["floor_graph"], False),
        ("floor: Redis RPUSH", results["floor_redis"], False),
        ("`store_turn` − floor, same turn", results["overhead"], False),
        ("`remember` (top_k=10)", results["remember"], False),
    ]
    lines = [
        f"### store_turn latency — {store.count} turns, {CONVERSATIONS} conversations, "
        f"after {WARM_UP_TURNS} warm-up turns",
        "",
        "| metric | p50 (ms) | p95 (ms) | p99 (ms) | mean (ms) | ratio to floor p50 / p95 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, stats, ratio in rows:
        shown = f"{stats.p50 / floor.p50:.2f}× / {stats.p95 / floor.p95:.2f}×" if ratio else ""
        lines.append(
            f"| {name} | {stats.p50:.2f} | {stats.p95:.2f} | {stats.p99:.2f} | {stats.mean:.2f} | {shown} |"
        )
    lines += ["", "| target | measured | result |", "|---|---:|---|"]
    for target, measured, ok in targets(store, floor):
        lines.append(f"| {target} | {measured} | {'pass' if ok else '**FAIL**'} |")
    lines += [
        "",
        "| ingest | turns/s |",
        "|---|---:|",
        f"| sequential (`AgentMemory.store_turn`: 1 / mean latency) | {results['sequential_tps']:.0f} |",
        f"| {BULK_WRITERS} concurrent writers (`AsyncAgentMemory`) | {results['bulk_tps']:.0f} |",
        "",
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"{platform.platform()}; embedded servers under {args.data_dir or 'the default data dir'}; "
        f"1-min load average {results['load_before']:.1f} before, {results['load_after']:.1f} after.",
    ]
    return "\n".join(lines)


def targets(store: Stats, floor: Stats) -> list[tuple[str, str, bool]]:
    return [
        (f"p50 ≤ {TARGET_P50_MS:g} ms", f"{store.p50:.2f} ms", store.p50 <= TARGET_P50_MS),
        (f"p95 ≤ {TARGET_P95_MS:g} ms", f"{store.p95:.2f} ms", store.p95 <= TARGET_P95_MS),
        (
            f"p50 ≤ {TARGET_FLOOR_RATIO:g}× floor",
            f"{store.p50 / floor.p50:.2f}×",
            store.p50 <= TARGET_FLOOR_RATIO * floor.p50,
        ),
    ]


# ------------------------------------------------------------------------------------------------ main


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=2000, help="measured store_turn calls (default 2000)")
    parser.add_argument("--queries", type=int, default=200, help="measured remember calls (default 200)")
    parser.add_argument("--bulk-turns", type=int, default=1000, help="turns for the concurrent ingest")
    parser.add_argument(
        "--floor-hnsw", action="store_true", help="give the floor's scratch table the ledger's HNSW index"
    )
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})")
    args = parser.parse_args(argv)

    corpus = make_turns(WARM_UP_TURNS + args.turns + args.bulk_turns, seed=7)
    warm_up, turns, bulk = (
        corpus[:WARM_UP_TURNS],
        corpus[WARM_UP_TURNS : WARM_UP_TURNS + args.turns],
        corpus[WARM_UP_TURNS + args.turns :],
    )
    load_before = os.getloadavg()[0]
    with scratch_namespace(args.data_dir) as (settings, endpoints, names):
        embedder = build_embedder(settings.embedding)
        print(
            f"benchmark namespace {names.schema}; {args.turns} turns, {args.queries} queries", file=sys.stderr
        )
        with AgentMemory(user_id="bench", settings=settings, embedder=embedder) as mem:
            rig = FloorRig(endpoints, names, embedder, hnsw=args.floor_hnsw)  # after migrations: pgvector
            try:
                print("store_turn and floor, interleaved …", file=sys.stderr)
                samples = measure_store_turn(mem, rig, turns, warm_up)
            finally:
                rig.close()
            print("remember …", file=sys.stderr)
            remember_ns = measure_remember(mem, make_queries(args.queries, seed=11))
        print("bulk ingest …", file=sys.stderr)
        bulk_tps = asyncio.run(measure_bulk(settings, embedder, bulk))
    results: dict[str, Any] = {
        "store_turn": Stats.of(samples.store_turn),
        "floor": Stats.of(samples.floor),
        "floor_embed": Stats.of(samples.floor_embed),
        "floor_postgres": Stats.of(samples.floor_postgres),
        "floor_graph": Stats.of(samples.floor_graph),
        "floor_redis": Stats.of(samples.floor_redis),
        "overhead": Stats.of(samples.overhead),
        "remember": Stats.of(remember_ns),
        "sequential_tps": len(samples.store_turn) / (sum(samples.store_turn) / 1e9),
        "bulk_tps": bulk_tps,
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
    }
    report = build_report(args, results)
    print(report)
    write_json(args.out, args, results)
    return 0


def machine_info(load_before: Any, load_after: Any) -> dict[str, Any]:
    """The machine a result was measured on, with the load average around the run."""
    return {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "load_average_before_after": [load_before, load_after],
    }


def write_result(
    path: Path, args: argparse.Namespace, result: dict[str, Any], load: tuple[float, float]
) -> None:
    """A one-run benchmark's JSON: when, on what machine (``load`` around the run), with which
    arguments, and its ``result``."""
    document = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(*load),
        "args": {k: str(v) for k, v in vars(args).items()},
        "result": result,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def write_json(path: Path, args: argparse.Namespace, results: dict[str, Any]) -> None:
    store: Stats = results["store_turn"]
    floor: Stats = results["floor"]
    document = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(results["load_before"], results["load_after"]),
        "config": {
            "turns": args.turns,
            "queries": args.queries,
            "bulk_turns": args.bulk_turns,
            "conversations": CONVERSATIONS,
            "warm_up_turns": WARM_UP_TURNS,
            "bulk_writers": BULK_WRITERS,
            "floor_hnsw": args.floor_hnsw,
        },
        "latency_ms": {name: vars(stats) for name, stats in results.items() if isinstance(stats, Stats)},
        "ratio_to_floor": {"p50": store.p50 / floor.p50, "p95": store.p95 / floor.p95},
        "throughput_turns_per_s": {"sequential": results["sequential_tps"], "bulk": results["bulk_tps"]},
        "targets": [{"target": t, "measured": m, "pass": ok} for t, m, ok in targets(store, floor)],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
