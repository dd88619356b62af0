"""Latency of ``remember`` and ``get_context`` for one user as their history grows (2k, then 20k turns).

    python benchmarks/recall_latency.py [--sizes 2000,20000] [--queries 200] [--quick]

A seeded generator writes one user's assistant chats (no external data): sessions of 10–30 turns, each
its own conversation, spread over the last year with real timestamps, about a fixed cast of people,
cities, companies, products, orders and topics; some sessions carry ``metadata.speaker``, some turns
are tool outputs. Before the first size the user also gets a few hundred entities, facts, strategies
and goals through the facade, so every memory kind answers. A second "noise" user gets 20 % as many
turns and memories in the same stores: the indexes are shared and every query must filter by user.

Turns are ingested through ``AsyncAgentMemory.store_turn`` by concurrent writers (one conversation
each at a time), up to each size in turn. At each size the same seeded queries (names, places, order
numbers, paraphrases, "what did I say about X last month", "tell me about X") go through
``remember(q, top_k=10)``, ``get_context(q, budget_tokens=1500)`` (if the facade has it) and the
*floor*, after a warm-up. The floor is the cheapest honest recall: one local embedding of the query
(``embedder.embed_one``) plus the ledger's ``vector_search_turns`` statement (HNSW, top 10, this
user's channels), i.e. what ``recall_by_vector`` does. The three are interleaved, in rotating order,
so they share the machine's load; the background access reinforcement ``remember`` spawns is drained
between calls, outside the timings. Everything lives in its own Postgres schema, graph and Redis key
prefix (``bench_recall`` unless ``--name`` says otherwise), dropped before the run and, unless
``--keep``, after it.

Prints a markdown table and writes ``benchmarks/results/recall_latency.json``.
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
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from agentx_memory import AsyncAgentMemory, Settings, embedded
from agentx_memory._compat.aio import drain
from agentx_memory.backends_async import AsyncBackends
from agentx_memory.embedding import build_embedder
from agentx_memory.settings import owning_process
from benchmarks.here import here
from benchmarks.store_turn import Names, Stats, isolated, machine_info

RESULTS = Path(__file__).resolve().parent / "results" / "recall_latency.json"
NAMESPACE = "bench_recall"
USER_ID = "bench-recall"
NOISE_USER_ID = "bench-recall-noise"
NOISE_SHARE = 0.2
WRITERS = 8
WARM_UP_QUERIES = 20
PROGRESS_EVERY = 1000
TOP_K = 10
BUDGET_TOKENS = 1500
TARGET_P50_MS = 25.0
TARGET_P95_MS = 60.0
TARGET_GROWTH = 1.5

# ------------------------------------------------------------------------------------------- the corpus

_PEOPLE = [("Maya", "sister"), ("Kenji", "colleague"), ("Priya", "manager"), ("Tom", "brother"),
           ("Lena", "friend"), ("Omar", "neighbour"), ("Sofia", "cousin"), ("Dmitri", "landlord"),
           ("Aisha", "dentist"), ("Lucas", "son"), ("Mei", "daughter"), ("Jonas", "flatmate"),
           ("Grace", "mother"), ("Hugo", "father"), ("Ines", "partner"), ("Ravi", "mentor"),
           ("Nora", "aunt"), ("Felix", "trainer"), ("Yara", "accountant"), ("Ben", "classmate")]  # fmt: skip
_CITIES = ["Lisbon", "Kyoto", "Oaxaca", "Reykjavik", "Cape Town", "Vancouver", "Tbilisi", "Hanoi", "Porto",
           "Edinburgh", "Marrakesh", "Seoul", "Bologna", "Valparaíso", "Copenhagen", "Istanbul", "Montreal",
           "Ljubljana", "Chiang Mai", "Granada", "Tallinn", "Buenos Aires", "Osaka", "Krakow"]  # fmt: skip
_COMPANIES = ["Verdant", "Northwind", "Globex", "Initech", "Umbrella Health", "Blue Harbor", "Kestrel Labs",
              "Pinecrest Bank", "Orbital Freight", "Lumen Studio"]  # fmt: skip
_JOBS = ["data engineer", "product manager", "nurse", "teacher", "UX designer", "accountant",
         "site reliability engineer", "architect", "pharmacist", "sales lead"]  # fmt: skip
_PRODUCTS = ["Sony WH-1000XM5 headphones", "Kindle Paperwhite", "standing desk", "espresso machine",
             "trail running shoes", "robot vacuum", "4K monitor", "mechanical keyboard", "air purifier",
             "carbon road bike", "cast-iron skillet", "smart thermostat", "camping tent"]  # fmt: skip
_EVENTS = ["wedding", "product launch", "team offsite", "half marathon", "conference", "family reunion",
           "job interview", "board meeting", "birthday party", "photography workshop"]  # fmt: skip
_TOPICS = ["the kitchen renovation", "my tax return", "the Q3 roadmap", "learning Japanese", "my sleep",
           "the mortgage", "the garden", "my knee injury", "the car lease", "the book club", "my budget",
           "the hiring plan", "the migration to Postgres", "saving for retirement"]  # fmt: skip
_FOODS = ["peanuts", "shellfish", "gluten", "lactose", "sesame", "eggs", "soy", "tree nuts"]
_TOOLS = ["search_flights", "book_hotel", "track_order", "calendar_create", "web_search", "send_email",
          "currency_convert", "weather_lookup", "compare_prices", "summarise_doc"]  # fmt: skip
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]  # fmt: skip
_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_ORDERS = [f"#{'ABCDEFGHJK'[n % 10]}{48211 + 250 * n}" for n in range(200)]

_USER = [
    "I'm flying to {city} on {date} for the {event}, can you remind me to check in the day before?",
    "My {relation} {name} works at {company} as a {job}.",
    "{name} just moved to {city} and I want to visit in {month}.",
    "Where is my order {order}? It was supposed to arrive on {weekday}.",
    "I ordered the {product} ({order}) for {price} euros, is that a good price?",
    "Heads up: I'm allergic to {food}, keep that in mind for restaurants.",
    "Can you find a quiet hotel in {city} under {price} euros a night for the {event}?",
    "I've been stressing about {topic} again, can we make a plan?",
    "Remind me that {name}'s birthday is on {date}; I always forget it.",
    "I prefer window seats and I never check a bag if I can avoid it.",
    "The {product} broke after {number} weeks, how do I return it?",
    "Can you draft a message to {name} saying I'll be {number} minutes late to the {event}?",
    "I told {company} I'd send the signed contract by {weekday}.",
    "What do you think about moving to {city}? {name} loves it there.",
    "Last time in {city} I loved the food market near the old harbour.",
    "Please don't book anything before 9 am, I'm not a morning person.",
    "Budget check: I spent {price} euros on {topic} this month.",
    "{name} recommended the {product}, should I get one?",
]
_ASSISTANT = [
    "Noted: your flight to {city} leaves on {date}. I'll remind you to check in 24 hours before.",
    "Got it, {name} is your {relation} and works at {company} as a {job}.",
    "Order {order} ({product}) shipped on {weekday}; the carrier estimates {number} more days.",
    "I found three quiet hotels in {city} below {price} euros a night; the second one has a garden.",
    "I'll keep in mind that you are allergic to {food} and flag dishes that usually contain it.",
    "Here's a plan for {topic}: list the open items, pick the top three, and review every {weekday}.",
    "I've added {name}'s birthday on {date} to your reminders, with a nudge one week ahead.",
    "Draft for {name}: 'Running about {number} minutes late for the {event}, sorry!'",
    "The {product} is usually {price} euros; yours was a fair price, not a bargain.",
    "Returns for the {product} are free within 30 days; I started one for order {order}.",
    "Window seat and carry-on only, noted for every future booking.",
    "{city} in {month} is mild and busy; book the {event} venue early.",
    "Summary for {company}: contract due {weekday}, follow-up call with {name} the week after.",
]
_TOOL = [
    "{tool} returned {number} results: cheapest option {price} EUR to {city} on {date}.",
    "{tool}: order {order} status=in_transit carrier=DHL eta={date}.",
    "{tool}: created event '{event}' on {date} with {name}.",
    "{tool} output: 1 EUR = 1.0{number} USD; {price} EUR is about {price}.{number} USD.",
    "{tool}: forecast for {city} on {date}: {number} °C, light rain in the afternoon.",
]
_QUERIES = [
    "tell me about {name}",
    "Who is {name}?",
    "What did I say about {topic} last month?",
    "When is my flight to {city}?",
    "What's the status of order {order}?",
    "Where does my {relation} work?",
    "What did I tell you about the {product}?",
    "Which hotel did I look at in {city}?",
    "that trip to {city}, what were the dates again?",
    "What am I allergic to?",
    "How do I usually handle {topic}?",
    "What are my goals around {topic}?",
    "When is {name}'s birthday?",
    "What did I promise to send to {company}?",
    "what happened with the {event} in {month}?",
    "how much did I pay for the {product}",
]


def _values(rng: random.Random, session: dict[str, str]) -> dict[str, str]:
    """Slot values for one turn: the session's cast most of the time, a random other one sometimes."""
    name, relation = rng.choice(_PEOPLE)
    values = {
        "name": name,
        "relation": relation,
        "city": rng.choice(_CITIES),
        "company": rng.choice(_COMPANIES),
        "product": rng.choice(_PRODUCTS),
        "event": rng.choice(_EVENTS),
        "topic": rng.choice(_TOPICS),
        "order": rng.choice(_ORDERS),
    }
    if rng.random() < 0.8:
        values.update(session)
    return values | {
        "job": rng.choice(_JOBS),
        "food": rng.choice(_FOODS),
        "tool": rng.choice(_TOOLS),
        "month": rng.choice(_MONTHS),
        "weekday": rng.choice(_WEEKDAYS),
        "date": f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}",
        "price": str(rng.randint(40, 900)),
        "number": str(rng.randint(2, 45)),
    }


@dataclass(frozen=True)
class Draft:
    """One turn to store."""

    role: str
    content: str
    timestamp: datetime
    metadata: dict[str, Any] | None


@dataclass(frozen=True)
class Session:
    """One conversation of one user; ``key`` names it across the pieces a size boundary cuts it into."""

    key: str
    user_id: str
    title: str
    turns: tuple[Draft, ...]


def make_sessions(user_id: str, total: int, rng: random.Random, now: datetime) -> list[Session]:
    """Sessions of 10–30 turns (the last one cut to make ``total``) spread over the last year."""
    sessions: list[Session] = []
    count = 0
    while count < total:
        cast = _values(rng, {})
        session = {key: cast[key] for key in ("name", "relation", "city", "company", "product", "order")}
        stamp = now - timedelta(days=rng.uniform(1, 365), seconds=rng.uniform(0, 86_400))
        speakers = rng.random() < 0.3
        turns: list[Draft] = []
        for index in range(min(rng.randint(10, 30), total - count)):
            role = "user" if index % 2 == 0 else "assistant"
            if role == "assistant" and rng.random() < 0.15:
                role = "tool"
            templates = {"user": _USER, "assistant": _ASSISTANT, "tool": _TOOL}[role]
            chosen = rng.sample(templates, 2 if role != "tool" and rng.random() < 0.25 else 1)
            content = " ".join(template.format_map(_values(rng, session)) for template in chosen)
            stamp += timedelta(seconds=rng.uniform(15, 240))
            metadata = {"speaker": "Alex" if role == "user" else role} if speakers else None
            turns.append(Draft(role, content, stamp, metadata))
        title = f"{session['city']} / {session['name']}"
        sessions.append(Session(f"{user_id}:{len(sessions)}", user_id, title, tuple(turns)))
        count += len(turns)
    return sessions


def make_queries(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(_QUERIES).format_map(_values(rng, {})) for _ in range(count)]


class SessionStream:
    """Hands out a user's sessions in order, up to a running total of turns (cutting a session if needed)."""

    def __init__(self, sessions: list[Session]) -> None:
        self._sessions = sessions
        self._index = 0
        self._offset = 0
        self.taken = 0

    def take(self, upto: int) -> list[Session]:
        pieces: list[Session] = []
        while self.taken < upto and self._index < len(self._sessions):
            session = self._sessions[self._index]
            rest = session.turns[self._offset :]
            count = min(len(rest), upto - self.taken)
            pieces.append(replace(session, turns=rest[:count]))
            self.taken += count
            self._offset += count
            if self._offset == len(session.turns):
                self._index, self._offset = self._index + 1, 0
        return pieces


# --------------------------------------------------------------------------------------------- ingest


@dataclass
class Progress:
    """Turns stored so far; a line on stderr every ``PROGRESS_EVERY``."""

    started: float = field(default_factory=time.perf_counter)
    turns: int = 0

    def tick(self) -> None:
        self.turns += 1
        if self.turns % PROGRESS_EVERY == 0:
            rate = self.turns / (time.perf_counter() - self.started)
            print(f"  {self.turns} turns stored ({rate:.0f} turns/s)", file=sys.stderr, flush=True)


async def ingest(
    memories: dict[str, AsyncAgentMemory],
    sessions: list[Session],
    conversations: dict[str, str],
    progress: Progress,
) -> None:
    """``WRITERS`` concurrent writers, each storing whole sessions (pieces) from one shared queue."""
    queue = iter(sessions)

    async def writer() -> None:
        for session in queue:  # the event loop is single-threaded: next() on a shared iterator is safe
            memory = memories[session.user_id]
            conversation = conversations.get(session.key)
            if conversation is None:
                conversation = await memory.new_conversation(title=session.title)
                conversations[session.key] = conversation
            for draft in session.turns:
                await memory.store_turn(
                    conversation,
                    draft.role,
                    draft.content,
                    timestamp=draft.timestamp,
                    metadata=draft.metadata,
                )
                progress.tick()

    await asyncio.gather(*(writer() for _ in range(WRITERS)))


async def bounded(steps: Sequence[Callable[[], Awaitable[Any]]]) -> None:
    """Run ``steps`` with at most ``WRITERS`` at a time."""
    queue = iter(steps)

    async def worker() -> None:
        for step in queue:
            await step()

    await asyncio.gather(*(worker() for _ in range(WRITERS)))


Step = Callable[[], Awaitable[Any]]


def entity_steps(memory: AsyncAgentMemory) -> list[Step]:
    def person(name: str, relation: str) -> Step:
        return lambda: memory.upsert_entity(name, "person", [f"my {relation}"], f"the user's {relation}")

    def other(name: str, kind: str, description: str | None) -> Step:
        return lambda: memory.upsert_entity(name, kind, description=description)

    return [
        *(person(name, relation) for name, relation in _PEOPLE),
        *(other(company, "organization", None) for company in _COMPANIES),
        *(other(city, "location", "a city") for city in _CITIES),
        *(other(product, "other", "a product the user owns") for product in _PRODUCTS),
        *(other(event.title(), "event", None) for event in _EVENTS),
    ]


def fact_steps(memory: AsyncAgentMemory, rng: random.Random, count: int) -> list[Step]:
    def fact(claim: str, about: list[str]) -> Step:
        return lambda: memory.learn_fact(claim, confidence=0.9, source="bench", about=about)

    steps: list[Step] = []
    for _ in range(count):
        v = _values(rng, {})
        claims = [
            (f"{v['name']} works at {v['company']} as a {v['job']}", [v["name"], v["company"]]),
            (f"{v['name']} lives in {v['city']}", [v["name"], v["city"]]),
            (f"The user bought the {v['product']} for {v['price']} euros", [v["product"]]),
            (f"The user is worried about {v['topic']}", []),
            (f"The user plans a trip to {v['city']} in {v['month']}", [v["city"]]),
        ]
        steps.append(fact(*rng.choice(claims)))
    return steps


def procedural_steps(memory: AsyncAgentMemory, rng: random.Random, strategies: int, goals: int) -> list[Step]:
    def strategy(text: str, tools: list[str], success: bool) -> Step:
        return lambda: memory.learn_strategy(text, text, tools, None, success)

    def goal(text: str, priority: int, deadline: datetime) -> Step:
        return lambda: memory.add_goal(text, priority, deadline)

    steps: list[Step] = []
    for _ in range(strategies):
        v = _values(rng, {})
        text = f"For {v['topic']}, start with {v['tool']} and confirm the result with {v['name']}"
        steps.append(strategy(text, [v["tool"], *rng.sample(_TOOLS, 2)], rng.random() < 0.8))
    for _ in range(goals):
        v = _values(rng, {})
        text = f"Sort out {v['topic']} before the {v['event']} in {v['city']}"
        steps.append(goal(text, rng.randint(0, 10), datetime.now(UTC) + timedelta(days=rng.randint(10, 200))))
    return steps


async def seed_knowledge(memory: AsyncAgentMemory, share: float, rng: random.Random) -> int:
    """Entities, then facts, strategies and goals through the facade; returns how many were written.

    ``share`` scales the counts (the noise user gets fewer); entities come first so that facts find
    theirs by name.
    """
    entities = entity_steps(memory)
    entities = entities[: max(1, round(len(entities) * share))]
    rest = fact_steps(memory, rng, round(200 * share)) + procedural_steps(
        memory, rng, round(40 * share), round(30 * share)
    )
    await bounded(entities)
    await bounded(rest)
    return len(entities) + len(rest)


# ---------------------------------------------------------------------------------------- measurements


class CpuMeter:
    """CPU time (user + system) of this process and of the database servers, from ``/proc``.

    On a small machine latency is bounded by the CPU one call needs across every process it involves:
    with 2 cores, a call that needs 60 ms of CPU cannot take less than 30 ms. The servers are found by
    their command line (``postgres``, ``redis-server``); where ``/proc`` is missing, nothing is measured.
    """

    _TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def __init__(self) -> None:
        self.available = Path("/proc/self/stat").exists()
        self._servers = self._find_servers() if self.available else {}

    @staticmethod
    def _find_servers() -> dict[int, str]:
        found: dict[int, str] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"redis-server" in command:
                found[int(entry.name)] = "falkordb"
            elif b"postgres" in command:
                found[int(entry.name)] = "postgres"
        return found

    def _ticks(self, pid: int | str) -> float:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return 0.0
        return (int(fields[11]) + int(fields[12])) / self._TICK

    def snapshot(self) -> dict[str, float]:
        """Seconds of CPU so far: ``python`` (this process), ``postgres`` and ``falkordb`` (all backends)."""
        if not self.available:
            return {}
        totals = {"python": time.process_time(), "postgres": 0.0, "falkordb": 0.0}
        for pid, name in list(self._servers.items()):
            totals[name] += self._ticks(pid)
        return totals


@dataclass
class Samples:
    """Per-call durations (ns) at one size, and the per-technique metrics of each ``remember``."""

    turns: int
    remember: list[int] = field(default_factory=list)
    context: list[int] = field(default_factory=list)
    floor: list[int] = field(default_factory=list)
    #: CPU seconds spent during each operation's calls, by process kind (see :class:`CpuMeter`).
    cpu: dict[str, dict[str, float]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))
    techniques: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    results: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    skipped: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


class Probe:
    """The three measured operations for one user; each records its duration (ns) in ``samples``, if given."""

    def __init__(self, memory: AsyncAgentMemory, backends: AsyncBackends) -> None:
        self._memory = memory
        self._backends = backends
        self.has_context = hasattr(memory, "get_context")

    async def floor(self, query: str, samples: Samples | None) -> None:
        began = time.perf_counter_ns()
        vector = self._backends.embedder.embed_one(query)
        params = {
            "user_id": self._memory.scope.user_id,
            "channels": list(self._memory.scope.read_channels),
            "vector": np.asarray(vector, dtype=np.float32),
            "limit": TOP_K,
        }
        await self._backends.ledger.fetch_all("vector_search_turns", params)
        if samples is not None:
            samples.floor.append(time.perf_counter_ns() - began)

    async def remember(self, query: str, samples: Samples | None) -> None:
        began = time.perf_counter_ns()
        bundle = await self._memory.remember(query, top_k=TOP_K)
        elapsed = time.perf_counter_ns() - began
        await drain(self._backends.pending)  # the access reinforcement it spawned, outside the timing
        if samples is None:
            return
        samples.remember.append(elapsed)
        samples.techniques["embed (batched)"].append(bundle.timings_ms.get("embed", 0.0))
        for name, metric in bundle.metrics.items():
            if metric.skipped is not None:
                samples.skipped[name].add(metric.skipped)
                continue
            samples.techniques[name].append(metric.latency_ms)
            samples.results[name].append(metric.results)

    async def context(self, query: str, samples: Samples | None) -> None:
        if not self.has_context:
            return
        began = time.perf_counter_ns()
        await self._memory.get_context(query, budget_tokens=BUDGET_TOKENS)
        elapsed = time.perf_counter_ns() - began
        await drain(self._backends.pending)
        if samples is not None:
            samples.context.append(elapsed)


async def measure(probe: Probe, turns: int, queries: list[str], warm_up: list[str]) -> Samples:
    """Every query through the three operations, in an order that rotates from one query to the next.
    The CPU each operation's calls used, in every process, is summed beside their durations."""
    operations = [probe.remember, probe.context, probe.floor]
    for query in warm_up:
        for operation in operations:
            await operation(query, None)
    meter = CpuMeter()
    samples = Samples(turns)
    for position, query in enumerate(queries):
        shift = position % len(operations)
        for operation in operations[shift:] + operations[:shift]:
            before = meter.snapshot()
            await operation(query, samples)
            for name, seconds in meter.snapshot().items():
                samples.cpu[operation.__name__][name] += seconds - before[name]
    return samples


def cpu_per_call(samples: Samples, operation: str, calls: int) -> dict[str, float]:
    """Mean CPU ms per call of ``operation`` by process kind, plus ``total``."""
    used = {name: seconds * 1000 / calls for name, seconds in samples.cpu.get(operation, {}).items()}
    if used:
        used["total"] = sum(used.values())
    return used


# ---------------------------------------------------------------------------------------------- report


def stats_or_none(nanoseconds: list[int]) -> Stats | None:
    return Stats.of(nanoseconds) if nanoseconds else None


def targets(runs: list[Samples]) -> list[tuple[str, str, bool]]:
    first, last = Stats.of(runs[0].remember), Stats.of(runs[-1].remember)
    at = f"{runs[-1].turns:,} turns"
    checks = [
        (f"`remember` p50 ≤ {TARGET_P50_MS:g} ms at {at}", f"{last.p50:.1f} ms", last.p50 <= TARGET_P50_MS),
        (f"`remember` p95 ≤ {TARGET_P95_MS:g} ms at {at}", f"{last.p95:.1f} ms", last.p95 <= TARGET_P95_MS),
    ]
    if len(runs) > 1:
        growth = last.p95 / first.p95
        checks.append(
            (
                f"`remember` p95 growth {runs[0].turns:,} → {runs[-1].turns:,} turns ≤ {TARGET_GROWTH:g}×",
                f"{growth:.2f}×",
                growth <= TARGET_GROWTH,
            )
        )
    return checks


def breakdown(samples: Samples) -> list[tuple[str, float, float, int, str]]:
    """(technique, mean ms, mean results, runs, skip reasons), slowest first."""
    rows = []
    for name in sorted(samples.techniques.keys() | samples.skipped.keys()):
        latencies = samples.techniques.get(name, [])
        found = samples.results.get(name, [])
        mean = float(np.mean(latencies)) if latencies else 0.0
        mean_found = float(np.mean(found)) if found else 0.0
        rows.append(
            (name, mean, mean_found, len(latencies), "; ".join(sorted(samples.skipped.get(name, ()))))
        )
    return sorted(rows, key=lambda row: -row[1])


def build_report(runs: list[Samples], ingest: list[dict[str, float]], meta: dict[str, Any]) -> str:
    lines = [
        f"### recall latency — one user, {meta['queries']} queries per size, after {WARM_UP_QUERIES} warm-up",
        "",
        "| turns | operation | p50 (ms) | p95 (ms) | p99 (ms) | mean (ms) | ratio to floor p50 / p95 |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        floor = Stats.of(run.floor)
        rows = [
            (f"`remember` (top_k={TOP_K})", stats_or_none(run.remember)),
            (f"`get_context` ({BUDGET_TOKENS} tokens)", stats_or_none(run.context)),
            ("floor: embed + `vector_search_turns`", floor),
        ]
        for name, stats in rows:
            if stats is None:
                lines.append(f"| {run.turns:,} | {name} | not available | | | | |")
                continue
            ratio = f"{stats.p50 / floor.p50:.2f}× / {stats.p95 / floor.p95:.2f}×"
            lines.append(
                f"| {run.turns:,} | {name} | {stats.p50:.2f} | {stats.p95:.2f} | {stats.p99:.2f} "
                f"| {stats.mean:.2f} | {ratio} |"
            )
    last = runs[-1]
    cpu_rows = [
        (f"`remember` (top_k={TOP_K})", cpu_per_call(last, "remember", len(last.remember))),
        (f"`get_context` ({BUDGET_TOKENS} tokens)", cpu_per_call(last, "context", len(last.context) or 1)),
        ("floor", cpu_per_call(last, "floor", len(last.floor))),
    ]
    if any(used for _, used in cpu_rows):
        lines += [
            "",
            f"CPU per call at {last.turns:,} turns, summed over every process (this Python process with its "
            f"embedding threads, the Postgres backends, FalkorDB); {os.cpu_count()} CPUs bound the latency "
            "from below at total ÷ CPUs:",
            "",
            "| operation | python (ms) | postgres (ms) | falkordb (ms) | total (ms) | ÷ CPUs (ms) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for name, used in cpu_rows:
            if used:
                lines.append(
                    f"| {name} | {used['python']:.1f} | {used['postgres']:.1f} | {used['falkordb']:.1f} "
                    f"| {used['total']:.1f} | {used['total'] / (os.cpu_count() or 1):.1f} |"
                )
    lines += ["", "| target | measured | result |", "|---|---:|---|"]
    lines += [f"| {t} | {m} | {'PASS' if ok else '**FAIL**'} |" for t, m, ok in targets(runs)]
    lines += [
        "",
        f"Mean per-technique latency of `remember` at {runs[-1].turns:,} turns (the retriever runs its "
        "techniques concurrently, so they overlap and do not add up to the total):",
        "",
        "| technique | mean (ms) | mean results | runs | skipped because |",
        "|---|---:|---:|---:|---|",
    ]
    for name, mean, found, count, why in breakdown(runs[-1]):
        lines.append(f"| {name} | {mean:.2f} | {found:.1f} | {count} | {why} |")
    lines += ["", f"| ingest up to | turns (user + noise) | seconds | turns/s ({WRITERS} writers) |"]
    lines += ["|---:|---:|---:|---:|"]
    for phase in ingest:
        lines.append(
            f"| {phase['size']:,.0f} | {phase['turns']:,.0f} | {phase['seconds']:.1f} "
            f"| {phase['turns'] / phase['seconds']:.0f} |"
        )
    lines += [
        "",
        f"{meta['knowledge']} entities/facts/strategies/goals seeded in {meta['knowledge_s']:.1f} s. "
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"{platform.platform()}; 1-min load average {meta['load_before']:.1f} before, "
        f"{meta['load_after']:.1f} after.",
    ]
    return "\n".join(lines)


def write_json(path: Path, runs: list[Samples], ingest: list[dict[str, float]], meta: dict[str, Any]) -> None:
    def latency(run: Samples) -> dict[str, Any]:
        floor = Stats.of(run.floor)
        entry: dict[str, Any] = {"turns": run.turns, "floor": vars(floor)}
        for name, values in (("remember", run.remember), ("get_context", run.context)):
            stats = stats_or_none(values)
            entry[name] = None if stats is None else vars(stats)
            if stats is not None:
                entry[f"{name}_ratio_to_floor"] = {"p50": stats.p50 / floor.p50, "p95": stats.p95 / floor.p95}
        calls = {"remember": len(run.remember), "context": len(run.context), "floor": len(run.floor)}
        entry["cpu_ms_per_call"] = {op: cpu_per_call(run, op, n) for op, n in calls.items() if n}
        entry["techniques"] = [
            {"name": n, "mean_ms": m, "mean_results": f, "runs": c, "skipped": s}
            for n, m, f, c, s in breakdown(run)
        ]
        return entry

    document = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(meta["load_before"], meta["load_after"]),
        "config": {
            "sizes": [run.turns for run in runs],
            "queries": meta["queries"],
            "warm_up_queries": WARM_UP_QUERIES,
            "top_k": TOP_K,
            "budget_tokens": BUDGET_TOKENS,
            "writers": WRITERS,
            "noise_share": NOISE_SHARE,
            "knowledge_items": meta["knowledge"],
        },
        "sizes": [latency(run) for run in runs],
        "ingest": ingest,
        "targets": [{"target": t, "measured": m, "pass": ok} for t, m, ok in targets(runs)],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


# ------------------------------------------------------------------------------------------------ main


async def reset(settings: Settings) -> None:
    """Drop the benchmark's graph, schema and Redis keys (a fresh facade migrates them again)."""
    async with here(AsyncAgentMemory("bench-recall-setup", settings=settings)) as setup:
        backends = await setup._open_backends()
        await backends.graph.drop()
        await backends.ledger.drop_schema()
        await backends.redis.delete_matching(f"{settings.redis.key_prefix}:*")


async def run(
    settings: Settings, sizes: list[int], queries: list[str], meta: dict[str, Any]
) -> tuple[list[Samples], list[dict[str, float]]]:
    now = datetime.now(UTC)
    rng = random.Random(2024)
    noise_sizes = [round(size * NOISE_SHARE) for size in sizes]
    streams = {
        USER_ID: SessionStream(make_sessions(USER_ID, sizes[-1], rng, now)),
        NOISE_USER_ID: SessionStream(make_sessions(NOISE_USER_ID, noise_sizes[-1], rng, now)),
    }
    warm_up = make_queries(WARM_UP_QUERIES, seed=5)
    embedder = build_embedder(settings.embedding)
    runs: list[Samples] = []
    ingest_log: list[dict[str, float]] = []
    async with here(AsyncAgentMemory(USER_ID, settings=settings, embedder=embedder)) as memory:
        memories = {USER_ID: memory, NOISE_USER_ID: await memory.for_user(NOISE_USER_ID)}
        probe = Probe(memory, await memory._open_backends())
        started = time.perf_counter()
        meta["knowledge"] = await seed_knowledge(memory, 1.0, rng)
        meta["knowledge"] += await seed_knowledge(memories[NOISE_USER_ID], NOISE_SHARE, rng)
        meta["knowledge_s"] = time.perf_counter() - started
        conversations: dict[str, str] = {}
        for size, noise_size in zip(sizes, noise_sizes, strict=True):
            pieces = streams[USER_ID].take(size) + streams[NOISE_USER_ID].take(noise_size)
            rng.shuffle(pieces)
            turns = sum(len(piece.turns) for piece in pieces)
            print(f"ingesting up to {size:,} turns (+{noise_size:,} noise) …", file=sys.stderr, flush=True)
            progress = Progress()
            await ingest(memories, pieces, conversations, progress)
            ingest_log.append(
                {"size": size, "turns": turns, "seconds": time.perf_counter() - progress.started}
            )
            print(f"measuring at {size:,} turns …", file=sys.stderr, flush=True)
            runs.append(await measure(probe, size, queries, warm_up))
    return runs, ingest_log


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="2000,20000", help="user turns to measure at (default 2000,20000)")
    parser.add_argument("--queries", type=int, default=200, help="measured queries per size (default 200)")
    parser.add_argument("--quick", action="store_true", help="smoke run: sizes 500,2000 and 50 queries")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark's data after the run")
    parser.add_argument(
        "--name", default=NAMESPACE, help=f"schema, graph and key prefix to use (default {NAMESPACE})"
    )
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})")
    args = parser.parse_args(argv)
    sizes = [500, 2000] if args.quick else sorted({int(size) for size in args.sizes.split(",")})
    query_count = 50 if args.quick else args.queries

    base = owning_process(Settings())  # the entry point: AGENTX_* is read here only
    if args.data_dir is not None:
        base = base.model_copy(update={"data_dir": args.data_dir})
    started_servers = base.uses_embedded and not embedded.status(base).all_running
    name = args.name
    settings = isolated(base, Names(name, name, f"{name}_floor", name))
    meta: dict[str, Any] = {"queries": query_count, "load_before": os.getloadavg()[0]}
    print(f"benchmark namespace {name}; sizes {sizes}, {query_count} queries", file=sys.stderr)
    try:
        asyncio.run(reset(settings))
        runs, ingest_log = asyncio.run(run(settings, sizes, make_queries(query_count, seed=11), meta))
    finally:
        if not args.keep:
            asyncio.run(reset(settings))
        if started_servers:
            embedded.stop(base)
    meta["load_after"] = os.getloadavg()[0]
    print(build_report(runs, ingest_log, meta))
    if not runs[-1].context:
        print("\n`get_context`: not available in this version of the facade.")
    write_json(args.out, runs, ingest_log, meta)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
