"""Many users in one store: per-user recall against the same users alone, latency, ingest rate, bytes.

    python benchmarks/scale.py [../shared/bench-data/locomo-dev.json] [--users 10,30,100]
        [--turns-per-user N] [--probes N] [--learning] [--data-dir DIR] [--json PATH]

Users. The PROBE users are the file's conversations as they are (one user each; sessions as
conversations with their real date-times, ``metadata.dia_id``); their questions are asked. Every other
user is a FILLER made from conversation ``u % n`` of the file, so the shared vector index is full of
talk as close to the probes' as real data gets, the hard case for an index filtered by user:

- its two speakers are renamed (a pair of first names from ``NAMES``: pair ``u // n``, so no two users
  share a conversation and names below 435 n users) in the speaker field and in the text, whole words
  only. (An earlier version cycled names every 30 users: users 30+ repeated users 0-29 word for word
  and pgvector's HNSW index shares one element among identical vectors, so the index looked smaller.)
- its sessions are shuffled (``random.Random(u)``) and re-dated: session k of the shuffle starts
  ``u`` days + k weeks after 2020-01-01, its turns one second apart;
- ``--turns-per-user`` caps every user (probes included) at that many turns, whole sessions first.

The probes are ingested first, then fillers until the store holds the next ``--users`` count; at each
count the probes' questions run again. The same probes are ingested alone into a fresh namespace of the
same servers first: their R@10 there is the reference. Users are generated one at a time and streamed
(nothing but the current user's turns is held), so ``--users 2000 --turns-per-user 500`` (1M turns) only
needs the disk (~6-13 KB a turn, see the report).

At each count: probe R@10 (LoCoMo's: share of gold evidence turns among the first 10 distinct turns
``remember(top_k=20)`` stands for), ``remember`` p50/p95 beside its floor (embed the question + exact
top-10 cosine in numpy over that user's vectors, interleaved call by call), the filler ingest rate
(``store_turns``, one call per session), and the bytes: every Postgres table and index of the namespace
(``store_bytes``), WAL written (LSN), the graph's memory, the append-only file (as grown, and after a
rewrite at the end), the Redis keys, and the servers' resident memory. Learning is off unless
``--learning`` (then every user's history is consolidated before it is measured). The data file is
CC BY-NC and is never copied into the repository.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from agentx_memory import AgentMemory, Settings, TurnSpec
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder, build_embedder
from benchmarks import store_bytes
from benchmarks.locomo import Scores, evidence_of, ranked_turns, session_turns, turn_text
from benchmarks.real_memory import Paired, interleaved, recall_floor, settle, turn_vectors
from benchmarks.store_turn import Names, scratch_namespace

DATA = Path(__file__).resolve().parents[2] / "shared" / "bench-data" / "locomo-dev.json"
RESULTS = Path(__file__).resolve().parent / "results" / "scale.json"
NAMES = (
    "Avery",
    "Blake",
    "Casey",
    "Devon",
    "Emery",
    "Finley",
    "Harper",
    "Jordan",
    "Kendall",
    "Logan",
    "Morgan",
    "Nico",
    "Oakley",
    "Parker",
    "Quinn",
    "Reese",
    "Rowan",
    "Sage",
    "Skyler",
    "Tatum",
    "Alex",
    "Bailey",
    "Cameron",
    "Dakota",
    "Eden",
    "Frankie",
    "Hayden",
    "Indigo",
    "Jamie",
    "Kai",
)
_PAIRS = list(itertools.combinations(NAMES, 2))
EPOCH = datetime(2020, 1, 1, tzinfo=UTC)
TOP_K = 20


@dataclass(frozen=True)
class User:
    user_id: str
    #: (title, turns) per session, in ingest order
    sessions: tuple[tuple[str, tuple[TurnSpec, ...]], ...]
    turns: int


def probe_user(number: int, sample: dict[str, Any], cap: int | None) -> User:
    conversation = sample["conversation"]
    first = conversation["speaker_a"]
    sessions = []
    for index, stamp, turns in session_turns(conversation):
        specs = tuple(
            TurnSpec(
                role="user" if turn["speaker"] == first else "assistant",
                content=turn_text(turn),
                timestamp=stamp + timedelta(seconds=position),
                metadata={"speaker": turn["speaker"], "dia_id": turn["dia_id"]},
            )
            for position, turn in enumerate(turns)
        )
        sessions.append((f"session {index}", specs))
    return capped(f"probe-{number}", sessions, cap)


def filler_user(number: int, sample: dict[str, Any], cap: int | None, n_conversations: int = 5) -> User:
    """Conversation ``sample`` with its speakers renamed, its sessions shuffled and re-dated."""
    conversation = sample["conversation"]
    old = (conversation["speaker_a"], conversation["speaker_b"])
    # user u gets name pair u // n (n = the file's conversations): (conversation, names) is unique per user
    # up to 435 n users (then the pairs repeat; the copies still differ by shuffle and dates)
    new = _PAIRS[(number // n_conversations) % len(_PAIRS)]
    renames = dict(zip(old, new, strict=True))
    pattern = re.compile(r"\b(" + "|".join(re.escape(name) for name in old) + r")\b")
    order = session_turns(conversation)
    random.Random(number).shuffle(order)
    sessions = []
    for position, (index, _, turns) in enumerate(order):
        start = EPOCH + timedelta(days=number, weeks=position)
        specs = tuple(
            TurnSpec(
                role="user" if turn["speaker"] == old[0] else "assistant",
                content=pattern.sub(lambda m: renames[m.group(1)], turn_text(turn)),
                timestamp=start + timedelta(seconds=offset),
                metadata={"speaker": renames.get(turn["speaker"], turn["speaker"])},
            )
            for offset, turn in enumerate(turns)
        )
        sessions.append((f"session {index}", specs))
    return capped(f"user-{number}", sessions, cap)


def capped(user_id: str, sessions: list[tuple[str, tuple[TurnSpec, ...]]], cap: int | None) -> User:
    kept, left = [], cap if cap is not None else sys.maxsize
    for title, turns in sessions:
        if left <= 0:
            break
        kept.append((title, turns[:left]))
        left -= len(kept[-1][1])
    return User(user_id, tuple(kept), sum(len(turns) for _, turns in kept))


def fillers(samples: Sequence[dict[str, Any]], start: int, stop: int, cap: int | None) -> Iterator[User]:
    for number in range(start, stop):
        yield filler_user(number, samples[number % len(samples)], cap, len(samples))


# ------------------------------------------------------------------------------------------- measuring


def ingest(root: AgentMemory, user: User, learning: bool) -> dict[str, str]:
    """Store the user's sessions (one ``store_turns`` each); turn id -> dia id of what was stored."""
    memory = root.for_user(user.user_id)
    dia_of: dict[str, str] = {}
    for title, turns in user.sessions:
        conversation = memory.new_conversation(title=title)
        ids = memory.store_turns(conversation, list(turns))
        for turn_id, spec in zip(ids, turns, strict=True):
            if "dia_id" in (spec.metadata or {}):
                dia_of[turn_id] = str((spec.metadata or {})["dia_id"])
    if learning:
        settle(memory)
    return dia_of


@dataclass(frozen=True)
class Probe:
    user_id: str
    question: str
    category: int
    evidence: list[str]


def probes_of(samples: Sequence[dict[str, Any]], dia_ids: set[str] | None = None) -> list[Probe]:
    """Each probe's questions whose evidence it holds (all of it, unless ``--turns-per-user`` cut some)."""
    probes = []
    for number, sample in enumerate(samples):
        for qa in sample.get("qa", []):
            evidence = evidence_of(qa)
            if evidence and (dia_ids is None or all(f"{number}:{dia}" in dia_ids for dia in evidence)):
                probes.append(Probe(f"probe-{number}", str(qa["question"]), int(qa["category"]), evidence))
    return probes


def recall(root: AgentMemory, probes: Sequence[Probe], dia_of: dict[str, str]) -> dict[str, Any]:
    scores = Scores()
    per_user: dict[str, list[float]] = {}
    for probe in probes:
        bundle = root.for_user(probe.user_id).remember(probe.question, top_k=TOP_K)
        ranked = ranked_turns(bundle, dia_of)
        scores.add(probe.category, ranked, probe.evidence)
        per_user.setdefault(probe.user_id, []).append(scores.by_k[10][-1])
    return {
        "r_at_10": scores.mean(10),
        "r_at_10_by_user": {user: float(np.mean(values)) for user, values in sorted(per_user.items())},
        "questions": len(probes),
    }


def latency(
    root: AgentMemory,
    settings: Settings,
    endpoints: ResolvedEndpoints,
    embedder: Embedder,
    probes: Sequence[Probe],
    limit: int,
) -> Paired:
    """``remember(top_k=10)`` beside its floor, over the first ``limit`` probe questions (round-robin)."""
    asked = [probes[i] for i in np.linspace(0, len(probes) - 1, min(limit, len(probes))).astype(int)]
    floors = {
        user: recall_floor(embedder, turn_vectors(endpoints, settings, user))
        for user in sorted({probe.user_id for probe in asked})
    }
    by_text = {probe.question: probe for probe in asked}
    return interleaved(
        lambda q: root.for_user(by_text[q].user_id).remember(q, top_k=10),
        lambda q: floors[by_text[q].user_id](q),
        list(by_text),
    )


def per_turn(snapshot: dict[str, Any], turns: int, wal_since: int) -> dict[str, Any]:
    """Bytes per stored turn of a namespace: tables (heap, TOAST) and indexes, graph, keys, WAL."""
    rows: dict[str, float] = {}
    for table, parts in snapshot["postgres_tables"].items():
        if parts["heap"] or parts["toast_fsm_vm"]:
            rows[f"pg {table} (heap)"] = parts["heap"] / turns
            rows[f"pg {table} (toast+fsm+vm)"] = parts["toast_fsm_vm"] / turns
        for index, size in parts["indexes"].items():
            rows[f"pg index {index}"] = size / turns
    rows = {
        name: round(value, 1) for name, value in sorted(rows.items(), key=lambda kv: -kv[1]) if value >= 1
    }
    return {
        "postgres": round(snapshot["postgres_total"] / turns, 1),
        "postgres_parts": rows,
        "wal_written": round((snapshot["wal_lsn"] - wal_since) / turns, 1),
        "graph_memory": round(snapshot["graph_memory"] / turns, 1) if snapshot["graph_memory"] else None,
        "redis_keys": round(snapshot["redis"]["bytes"] / turns, 1),
    }


Namespace = Callable[[], AbstractContextManager[tuple[Settings, ResolvedEndpoints, Names]]]


def measure(
    args: argparse.Namespace,
    samples: list[dict[str, Any]],
    namespace: Namespace | None = None,
    embedder: Embedder | None = None,
    on_point: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """The whole benchmark; ``namespace`` opens a throw-away namespace (default: ``scratch_namespace``
    on the servers of ``--data-dir``) and is called twice, for the shared store and the alone one;
    ``on_point`` gets the report so far after each point of the curve (a long run keeps what it did)."""
    if namespace is None:
        namespace = partial(scratch_namespace, args.data_dir, auto_consolidate=args.learning)
    counts = sorted(int(n) for n in args.users.split(","))
    probes_n = min(args.probes, len(samples), counts[0])
    report: dict[str, Any] = {"curve": [], "learning": args.learning, "probes": probes_n}
    probe_users = [probe_user(n, samples[n], args.turns_per_user) for n in range(probes_n)]
    held = {
        f"{n}:{(spec.metadata or {})['dia_id']}"
        for n, u in enumerate(probe_users)
        for _, t in u.sessions
        for spec in t
    }
    probes = probes_of(samples[:probes_n], held)
    with namespace() as (settings, endpoints, names):
        embedder = embedder or build_embedder(settings.embedding)
        data_dir = settings.data_dir.expanduser().resolve()
        report["postgres_settings"] = store_bytes.postgres_settings(endpoints.postgres_url)
        # the reference: the probes alone, in their own namespace on the same servers
        with namespace() as (alone, _, alone_names):
            wal0 = store_bytes.wal_lsn(endpoints.postgres_url)
            with AgentMemory("scale-setup", settings=alone, embedder=embedder) as root:
                dia_of: dict[str, str] = {}
                for user in probe_users:
                    dia_of.update(ingest(root, user, args.learning))
                alone_turns = sum(user.turns for user in probe_users)
                report["alone"] = {"turns": alone_turns, **recall(root, probes, dia_of)}
                snap = store_bytes.snapshot(
                    endpoints, data_dir, alone_names.schema, alone_names.graph, alone_names.prefix
                )
                report["alone"]["bytes_per_turn"] = per_turn(snap, alone_turns, wal0)
            print(f"alone: {alone_turns} turns, R@10 {report['alone']['r_at_10']:.3f}", file=sys.stderr)
        points = curve(
            args, samples, counts, probe_users, probes, settings, endpoints, embedder, names, data_dir
        )
        for point in points:
            report["curve"].append(point)
            if on_point is not None:
                on_point(report)
    return report


def curve(
    args: argparse.Namespace,
    samples: list[dict[str, Any]],
    counts: list[int],
    probe_users: list[User],
    probes: list[Probe],
    settings: Settings,
    endpoints: ResolvedEndpoints,
    embedder: Embedder,
    names: Names,
    data_dir: Path,
) -> Iterator[dict[str, Any]]:
    wal0 = store_bytes.wal_lsn(endpoints.postgres_url)
    aof0 = store_bytes.directory_bytes(data_dir / "falkordb" / "appendonlydir")
    with AgentMemory("scale-setup", settings=settings, embedder=embedder) as root:
        dia_of: dict[str, str] = {}
        users = turns = 0
        for user in probe_users:
            dia_of.update(ingest(root, user, args.learning))
            users, turns = users + 1, turns + user.turns
        for count in counts:
            began, added = time.perf_counter(), 0
            for user in fillers(samples, users, count, args.turns_per_user):
                ingest(root, user, args.learning)
                added += user.turns
            seconds = time.perf_counter() - began
            users, turns = count, turns + added
            point: dict[str, Any] = {
                "users": users,
                "turns": turns,
                "ingest_turns_per_s": round(added / seconds, 1) if added else None,
                **recall(root, probes, dia_of),
                "remember": asdict(
                    latency(root, settings, endpoints, embedder, probes, args.latency_questions)
                ),
            }
            snap = store_bytes.snapshot(endpoints, data_dir, names.schema, names.graph, names.prefix)
            point["bytes_per_turn"] = per_turn(snap, turns, wal0)
            point["bytes_per_turn"]["falkordb_aof_as_grown"] = round(
                (snap["falkordb_aof_dir"] - aof0) / turns, 1
            )
            point["pg_wal_dir_bytes"] = snap["pg_wal_dir"]
            point["rss_mib"] = {
                "postgres_upper_bound": round((snap["postgres_rss_kib"] or 0) / 1024, 1),
                "falkordb": round((snap["falkordb_rss_kib"] or 0) / 1024, 1),
            }
            if count == counts[-1]:
                store_bytes.rewrite_append_only_file(endpoints.falkordb_url or endpoints.redis_url)
                aof = store_bytes.directory_bytes(data_dir / "falkordb" / "appendonlydir")
                point["bytes_per_turn"]["falkordb_aof_rewritten"] = round(aof / turns, 1)
            r = point["remember"]
            print(
                f"{users} users, {turns} turns: R@10 {point['r_at_10']:.3f}, remember p50 "
                f"{r['operation']['p50']:.1f} ms ({r['ratio_p50']:.2f}x floor), ingest "
                f"{point['ingest_turns_per_s']} turns/s, pg {point['bytes_per_turn']['postgres']:.0f} B/turn",
                file=sys.stderr,
                flush=True,
            )
            yield point


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=DATA, help="a LoCoMo-format JSON file")
    parser.add_argument("--users", default="10,30,100", help="user counts of the curve, ascending")
    parser.add_argument("--turns-per-user", type=int, default=None, help="cap every user's history")
    parser.add_argument("--probes", type=int, default=5, help="probe users (the file's first conversations)")
    parser.add_argument("--latency-questions", type=int, default=200, help="remember calls timed per point")
    parser.add_argument("--learning", action="store_true", help="consolidate every user's history")
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    parser.add_argument("--json", type=Path, default=RESULTS, help="write the report here")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    samples = json.loads(args.data.read_text(encoding="utf-8"))
    began, run_id = time.perf_counter(), uuid.uuid4().hex[:8]
    args.json.parent.mkdir(parents=True, exist_ok=True)

    def write(report: dict[str, Any]) -> None:
        report["run"] = {
            "argv": list(argv if argv is not None else sys.argv[1:]),
            "id": run_id,
            "seconds": round(time.perf_counter() - began, 1),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")

    report = measure(args, samples, on_point=write)
    write(report)
    print(json.dumps({p["users"]: p["r_at_10"] for p in report["curve"]}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
