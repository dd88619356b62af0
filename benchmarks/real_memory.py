"""Latency on real memory, through the public API, each beside its floor measured in the same run.

    python benchmarks/real_memory.py [../shared/bench-data/locomo-dev.json] [--conversations N]
        [--questions N] [--store-turns N] [--data-dir DIR] [--json PATH]

The LoCoMo conversations of the file become ONE user's history: every session a conversation whose
turns carry the session's real date-time (``session_N_date_time``, one second apart), auto-learning on,
and the learning settled (``consolidate_pending`` until nothing is left) and the tables analysed (as
autovacuum would have within a minute) before anything is timed.
Then, interleaved call by call with its floor (the order alternates, so both see the same load):

- ``remember`` (top_k=10) and ``get_context`` over the LoCoMo questions; the recall floor is one
  embedding of the question + an exact top-10 cosine in numpy over the user's turn vectors;
- ``store_turn`` of the last ``--store-turns`` turns, held back from the ingest, each session a new
  conversation, so the background learner consolidates the session before it while the calls run; the
  store floor is one embedding + one raw INSERT + one graph CREATE + one RPUSH (``store_turn.FloorRig``).

Also the data directory's growth per ingested turn (learning settled), per server. The data file is
CC BY-NC and is never copied into the repository.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from agentx_memory import AgentMemory, Settings, TurnSpec
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder, build_embedder
from benchmarks.locomo import session_turns, turn_text
from benchmarks.store_turn import FloorRig, Names, Stats, drop_everything, scratch_namespace

DATA = Path(__file__).resolve().parents[2] / "shared" / "bench-data" / "locomo-dev.json"
USER = "locomo"
TOP_K = 10
BUDGET_TOKENS = 1500
WARM_UP = 10
#: Rounds of ``consolidate_pending`` while the background learner holds a conversation's lock.
_SETTLE_ROUNDS = 600


@dataclass(frozen=True)
class Session:
    stamp_iso: str
    title: str
    turns: tuple[TurnSpec, ...]


@dataclass(frozen=True)
class Paired:
    """One operation's samples beside its floor's, and their ratio (p50 / p50, p95 / p95)."""

    operation: Stats
    floor: Stats
    ratio_p50: float
    ratio_p95: float

    @classmethod
    def of(cls, operation: Sequence[int], floor: Sequence[int]) -> Paired:
        op, fl = Stats.of(operation), Stats.of(floor)
        return cls(op, fl, op.p50 / fl.p50, op.p95 / fl.p95)


def load(path: Path, conversations: int | None) -> list[dict[str, Any]]:
    samples: list[dict[str, Any]] = json.loads(path.read_text())
    return samples[:conversations] if conversations else samples


def sessions_of(samples: Iterable[dict[str, Any]]) -> list[Session]:
    """Every session of every conversation, in file order, as one user's conversations."""
    sessions = []
    for number, sample in enumerate(samples):
        conversation = sample["conversation"]
        first = conversation["speaker_a"]
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
            sessions.append(Session(stamp.isoformat(), f"conversation {number} session {index}", specs))
    return sessions


def questions_of(samples: Sequence[dict[str, Any]], limit: int | None) -> list[str]:
    """The questions, taken round-robin over the conversations so a short run asks about all of them."""
    per_sample = [[str(qa["question"]) for qa in sample.get("qa", [])] for sample in samples]
    longest = max((len(questions) for questions in per_sample), default=0)
    mixed = [qs[n] for n in range(longest) for qs in per_sample if n < len(qs)]
    return mixed[:limit] if limit else mixed


def split_held_back(sessions: list[Session], count: int) -> tuple[list[Session], list[Session]]:
    """The sessions to ingest and the last ``count`` turns (as whole-or-partial sessions) held back."""
    ingest, left = list(sessions), count
    held: list[Session] = []
    while left > 0 and ingest:
        last = ingest.pop()
        if len(last.turns) > left:
            ingest.append(Session(last.stamp_iso, last.title, last.turns[:-left]))
            last = Session(last.stamp_iso, last.title + " (held back)", last.turns[-left:])
        held.insert(0, last)
        left -= len(last.turns)
    return ingest, held


# ------------------------------------------------------------------------------------ ingest, settle


def ingest(memory: AgentMemory, sessions: Sequence[Session]) -> int:
    for session in sessions:
        conversation = memory.new_conversation(title=session.title)
        memory.store_turns(conversation, list(session.turns))
    return sum(len(session.turns) for session in sessions)


def settle(memory: AgentMemory) -> int:
    """Consolidate every conversation with unlearned turns, waiting out the background learner's
    locks; returns the consolidations this call ran."""
    ran = 0
    for _ in range(_SETTLE_ROUNDS):
        reports = memory.consolidate_pending()
        ran += sum(report.status == "done" for report in reports)
        if not any(report.status in ("locked", "running") for report in reports):
            return ran
        time.sleep(0.5)
    raise RuntimeError("the learning did not settle")


def analyse(endpoints: ResolvedEndpoints, settings: Settings) -> None:
    """Refresh the planner's statistics of the namespace's tables, as autovacuum does within a minute of
    a bulk ingest. Measured without it, right after the ingest, recall ran on plans made for a table the
    planner believed empty: the vector turn search sorted every turn of the user's by exact cosine
    (~12,000 buffers, 6 ms) instead of walking the HNSW index (~1,000 buffers, 0.7 ms)."""
    schema = settings.postgres.schema_name
    with psycopg.connect(endpoints.postgres_url, autocommit=True) as conn:
        tables = conn.execute(
            "SELECT relname FROM pg_stat_user_tables WHERE schemaname = %s ORDER BY relname", (schema,)
        ).fetchall()
        for (table,) in tables:
            conn.execute(sql.SQL("ANALYZE {}").format(sql.Identifier(schema, str(table))))


def turn_vectors(endpoints: ResolvedEndpoints, settings: Settings, user_id: str) -> np.ndarray:
    """The user's turn vectors, unit length, as stored in the ledger."""
    table = sql.Identifier(settings.postgres.schema_name, "conversation_logs")
    with psycopg.connect(endpoints.postgres_url, autocommit=True) as conn:
        register_vector(conn)
        rows = conn.execute(
            sql.SQL("SELECT embedding FROM {} WHERE user_id = %s AND embedding IS NOT NULL").format(table),
            (user_id,),
        ).fetchall()
    matrix = np.asarray([row[0].to_numpy() for row in rows], dtype=np.float32)
    unit: np.ndarray = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return unit


def recall_floor(embedder: Embedder, matrix: np.ndarray) -> Callable[[str], object]:
    """Embed the question and take the exact top-10 by cosine: the least any recall must do."""

    def floor(question: str) -> object:
        query = np.asarray(embedder.embed_one(question), dtype=np.float32)
        scores = matrix @ (query / np.linalg.norm(query))
        top = np.argpartition(-scores, min(TOP_K, len(scores) - 1))[:TOP_K]
        return top[np.argsort(-scores[top])]

    return floor


def interleaved(
    operation: Callable[[str], object], floor: Callable[[str], object], inputs: Sequence[str]
) -> Paired:
    """Each input through both, the order alternating, after a warm-up of both."""
    for text in inputs[:WARM_UP]:
        operation(text)
        floor(text)
    op_ns: list[int] = []
    floor_ns: list[int] = []
    for position, text in enumerate(inputs):
        pair = (
            ((floor, floor_ns), (operation, op_ns))
            if position % 2
            else ((operation, op_ns), (floor, floor_ns))
        )
        for call, samples in pair:
            began = time.perf_counter_ns()
            call(text)
            samples.append(time.perf_counter_ns() - began)
    return Paired.of(op_ns, floor_ns)


def measure_store_turn(memory: AgentMemory, rig: FloorRig, sessions: Sequence[Session]) -> Paired:
    """``store_turn`` of the held-back turns, a new conversation per session (which sets the learner on
    the one before), each call beside the floor of the same turn."""
    op_ns: list[int] = []
    floor_ns: list[int] = []
    position = 0
    for session in sessions:
        conversation = memory.new_conversation(title=session.title)
        for spec in session.turns:
            if position % 2:
                floor_ns.append(sum(rig.step(spec.content)))
            began = time.perf_counter_ns()
            memory.store_turn(
                conversation, spec.role, spec.content, timestamp=spec.timestamp, metadata=spec.metadata
            )
            op_ns.append(time.perf_counter_ns() - began)
            if not position % 2:
                floor_ns.append(sum(rig.step(spec.content)))
            position += 1
    return Paired.of(op_ns, floor_ns)


def directory_bytes(path: Path) -> int:
    return sum(
        entry.stat().st_size for entry in path.rglob("*") if entry.is_file() and not entry.is_symlink()
    )


def data_dir_bytes(data_dir: Path) -> dict[str, int]:
    """Bytes on disk per part of the data directory (the embedded servers' files)."""
    parts = {
        "postgres (tables, indexes)": data_dir / "postgres" / "base",
        "postgres WAL": data_dir / "postgres" / "pg_wal",
        "falkordb (append-only log)": data_dir / "falkordb",
    }
    return {name: directory_bytes(path) if path.exists() else 0 for name, path in parts.items()}


# ------------------------------------------------------------------------------------------------- run


def measure(
    settings: Settings,
    endpoints: ResolvedEndpoints,
    embedder: Embedder,
    samples: Sequence[dict[str, Any]],
    *,
    questions: int | None,
    store_turns: int,
) -> dict[str, Any]:
    """The whole benchmark on the namespace ``settings`` names; returns the report as plain data."""
    ingested, held = split_held_back(sessions_of(samples), store_turns)
    asked = questions_of(samples, questions)
    data_dir = settings.data_dir.expanduser().resolve()
    bytes_before = data_dir_bytes(data_dir)
    floor_names = Names.fresh()
    with AgentMemory(USER, settings=settings, embedder=embedder) as memory:
        began = time.perf_counter()
        turns = ingest(memory, ingested)
        ingest_s = time.perf_counter() - began
        began = time.perf_counter()
        consolidations = settle(memory)
        settle_s = time.perf_counter() - began
        analyse(endpoints, settings)
        bytes_after = data_dir_bytes(data_dir)
        floor = recall_floor(embedder, turn_vectors(endpoints, settings, USER))
        techniques: dict[str, list[float]] = {}

        def remember_call(question: str) -> object:
            bundle = memory.remember(question, top_k=TOP_K)
            for name, metric in bundle.metrics.items():
                if metric.skipped is None:
                    techniques.setdefault(name, []).append(metric.latency_ms)
            return bundle

        remember = interleaved(remember_call, floor, asked)
        context = interleaved(lambda q: memory.get_context(q, budget_tokens=BUDGET_TOKENS), floor, asked)
        rig = FloorRig(endpoints, floor_names, embedder, hnsw=True)
        try:
            store = measure_store_turn(memory, rig, held)
        finally:
            rig.close()
            drop_everything(endpoints, floor_names)
    grown = {name: bytes_after[name] - bytes_before[name] for name in bytes_after}
    return {
        "turns_ingested": turns,
        "sessions": len(ingested),
        "ingest_s": round(ingest_s, 2),
        "settle_s": round(settle_s, 2),
        "consolidations": consolidations,
        "questions": len(asked),
        "store_turns": sum(len(session.turns) for session in held),
        "remember": asdict(remember),
        "get_context": asdict(context),
        "store_turn": asdict(store),
        "bytes_per_turn": {name: grown[name] / max(turns, 1) for name in grown},
        "bytes_per_turn_total": sum(grown.values()) / max(turns, 1),
        "techniques_p50_ms": {name: float(np.median(values)) for name, values in sorted(techniques.items())},
        "generic_plans": settings.postgres.generic_plans,
    }


def table(report: dict[str, Any]) -> str:
    lines = [
        f"{report['turns_ingested']:,} turns in {report['sessions']} sessions as one user, learning settled "
        f"({report['consolidations']} consolidations, {report['settle_s']} s); "
        f"{report['questions']} questions; {report['store_turns']} turns stored with learning running; "
        f"postgres.generic_plans={report['generic_plans']}",
        "",
        "| operation | p50 ms | p95 ms | p99 ms | floor p50 / p95 ms | ratio p50 / p95 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name in ("remember", "get_context", "store_turn"):
        paired = report[name]
        op, fl = paired["operation"], paired["floor"]
        lines.append(
            f"| `{name}` | {op['p50']:.1f} | {op['p95']:.1f} | {op['p99']:.1f} | {fl['p50']:.1f} / "
            f"{fl['p95']:.1f} | {paired['ratio_p50']:.2f}× / {paired['ratio_p95']:.2f}× |"
        )
    lines.append("")
    parts = ", ".join(f"{name} {size / 1024:.1f}" for name, size in report["bytes_per_turn"].items())
    steps = ", ".join(f"{name} {ms:.1f}" for name, ms in report["techniques_p50_ms"].items())
    lines.append(f"`remember` per technique, p50 ms (the bundle's own metrics): {steps}")
    lines.append("")
    lines.append(
        f"Data dir growth per ingested turn: {report['bytes_per_turn_total'] / 1024:.1f} KB ({parts} KB)"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", nargs="?", type=Path, default=DATA, help="a LoCoMo-format JSON file")
    parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--questions", type=int, default=None, help="only N questions (default: all)")
    parser.add_argument("--store-turns", type=int, default=200, help="turns held back for store_turn")
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    parser.add_argument("--json", type=Path, default=None, help="write the report here too")
    args = parser.parse_args(argv)
    samples = load(args.data, args.conversations)
    with scratch_namespace(args.data_dir) as (settings, endpoints, _):
        embedder = build_embedder(settings.embedding)
        report = measure(
            settings, endpoints, embedder, samples, questions=args.questions, store_turns=args.store_turns
        )
    report["run"] = {"argv": list(argv if argv is not None else sys.argv[1:]), "id": uuid.uuid4().hex[:8]}
    print(table(report))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
