"""Backfill throughput: LoCoMo turns stored, then made to look as a version before migrations 011/012
left them (no event date, no question context, derived_version 0), then ``maintenance.backfill``.

    python benchmarks/backfill.py [../shared/bench-data/locomo-dev.json] [--turns 2000] [--batch 256]

Real conversations, so the share of turns that tell of another day ("yesterday", "last week") and of
answers after a question is what a user's history has. The floor is the one cost a backfill cannot
avoid: the batched embedding of the texts it re-embeds. Prints turns/s, the turns re-embedded and the
floor; everything lives in a throw-away schema, graph and key prefix dropped at the end. Writes
``benchmarks/results/backfill.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AgentMemory, TurnSpec
from agentx_memory.embedding import build_embedder
from agentx_memory.maintenance.backfill import backfill
from agentx_memory.memory.episodic_pure import turn_event, turn_search_text
from benchmarks.locomo import session_turns, turn_text
from benchmarks.store_turn import scratch_namespace, write_result

RESULTS = Path(__file__).resolve().parent / "results" / "backfill.json"
DEV_SET = Path(__file__).resolve().parents[2] / "shared" / "bench-data" / "locomo-dev.json"
#: What an older version left: the fields migrations 011-013 added, empty.
AGE = (
    "UPDATE conversation_logs SET event_start = NULL, event_end = NULL, event_label = NULL,"
    " context_text = NULL, derived_version = 0"
)


def sessions(path: Path, limit: int) -> list[list[TurnSpec]]:
    """Up to ``limit`` turns of the dev set, one list per session, as the LoCoMo benchmark stores them."""
    found: list[list[TurnSpec]] = []
    total = 0
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conversation = sample["conversation"]
        for _, stamp, turns in session_turns(conversation):
            specs = [
                TurnSpec(
                    role="user" if turn["speaker"] == conversation["speaker_a"] else "assistant",
                    content=turn_text(turn),
                    speaker=turn["speaker"],
                    timestamp=stamp + timedelta(seconds=index),
                )
                for index, turn in enumerate(turns[: limit - total])
            ]
            found.append(specs)
            total += len(specs)
            if total >= limit:
                return found
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path, nargs="?", default=DEV_SET, help="a LoCoMo-format JSON file")
    parser.add_argument("--turns", type=int, default=2000, help="turns to backfill (default 2000)")
    parser.add_argument("--batch", type=int, default=256, help="turns per embedding call (default 256)")
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})")
    args = parser.parse_args(argv)

    stored = sessions(args.path, args.turns)
    load_before = os.getloadavg()[0]
    with scratch_namespace(args.data_dir, auto_consolidate=False) as (settings, endpoints, _):
        embedder = build_embedder(settings.embedding)
        with AgentMemory("bench-backfill", settings=settings, embedder=embedder) as mem:
            for specs in stored:
                mem.store_turns(mem.new_conversation(), specs)
            with psycopg.connect(endpoints.postgres_url, autocommit=True) as conn:
                conn.execute(
                    sql.SQL("SET search_path TO {}, public").format(
                        sql.Identifier(settings.postgres.schema_name)
                    )
                )
                conn.execute(AGE)
            report = backfill(mem, batch=args.batch)
        texts = [_embedded_text(spec) for specs in stored for spec in specs]
        labelled = [text for text in texts if text is not None]
        began = time.perf_counter()
        for start in range(0, len(labelled), args.batch):
            embedder.embed(labelled[start : start + args.batch])
        floor_s = time.perf_counter() - began
    result: dict[str, Any] = {
        "turns": report.turns,
        "re_embedded": report.embedded,
        "seconds": round(report.seconds, 2),
        "turns_per_s": round(report.rate, 1),
        "embedding_floor_s": round(floor_s, 2),
        "share_of_time_embedding": round(floor_s / report.seconds, 3) if report.seconds else None,
    }
    print("| turns | re-embedded | seconds | turns/s | of which embedding |")
    print("|---|---|---|---|---|")
    print(
        f"| {result['turns']} | {result['re_embedded']} | {result['seconds']} | "
        f"{result['turns_per_s']:.0f} | {result['share_of_time_embedding']:.0%} |"
    )
    write_result(args.out, args, result, (load_before, os.getloadavg()[0]))
    return 0


def _embedded_text(spec: TurnSpec) -> str | None:
    """The text the backfill re-embeds for a turn: only one that gets an event label has one."""
    event = turn_event(spec.content, spec.timestamp or datetime.now(UTC))
    if event is None:
        return None
    return turn_search_text(spec.content, {"speaker": spec.speaker}, event.label)


if __name__ == "__main__":
    raise SystemExit(main())
