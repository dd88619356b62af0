"""Bulk ingest throughput: ``store_turns`` beside the per-turn path and the floor, measured in the same run.

    python benchmarks/ingest.py [--turns 2000] [--per-turn 500] [--runs 3] [--batch 256] [--data-dir DIR]

Each run: ``AgentMemory.store_turns`` of ``--turns`` turns into a fresh conversation in chunks of
``--batch``, interleaved chunk by chunk with the *floor* (the batched local embedding of the same
chunk, ``Embedder.embed``: the one cost a stored turn cannot avoid, ~3 ms a turn for MiniLM on two
idle cores); then ``AgentMemory.store_turn`` of ``--per-turn`` turns one by one. The table gives the
median turns/s of the runs and ``store_turns``' share of the floor. Everything lives in a throw-away
Postgres schema, graph and key prefix dropped at the end; embedded servers this run had to start are
stopped again. Writes ``benchmarks/results/ingest.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AgentMemory, TurnSpec
from agentx_memory.embedding import Embedder, build_embedder
from benchmarks.store_turn import machine_info, make_turns, scratch_namespace

RESULTS = Path(__file__).resolve().parent / "results" / "ingest.json"
TARGET_TPS = 250.0


def measure_bulk(
    mem: AgentMemory, embedder: Embedder, turns: Sequence[tuple[str, str]], batch: int
) -> tuple[float, float]:
    """(floor, store_turns) turns/s, interleaved chunk by chunk so both see the same machine load (the
    order alternates, so neither always runs with the other's data hot in the caches)."""
    conversation = mem.new_conversation(title="bulk")
    specs = [TurnSpec(role=role, content=content) for role, content in turns]
    floor_s = store_s = 0.0
    for number, start in enumerate(range(0, len(specs), batch)):
        chunk = specs[start : start + batch]
        for step in ("floor", "store") if number % 2 else ("store", "floor"):
            began = time.perf_counter()
            if step == "floor":
                embedder.embed([spec.content for spec in chunk])
                floor_s += time.perf_counter() - began
            else:
                mem.store_turns(conversation, chunk)
                store_s += time.perf_counter() - began
    return len(specs) / floor_s, len(specs) / store_s


def measure_store_turn(mem: AgentMemory, turns: Sequence[tuple[str, str]]) -> float:
    conversation = mem.new_conversation(title="per turn")
    began = time.perf_counter()
    for role, content in turns:
        mem.store_turn(conversation, role, content)
    return len(turns) / (time.perf_counter() - began)


def report(args: argparse.Namespace, runs: list[dict[str, float]], load: tuple[float, float]) -> str:
    median = {name: statistics.median(run[name] for run in runs) for name in runs[0]}
    lines = [
        f"### Bulk ingest — {args.turns} turns per run (`store_turn`: {args.per_turn}), batches of "
        f"{args.batch}, median of {len(runs)} runs",
        "",
        "| path | turns/s (median) | runs | share of the floor |",
        "|---|---:|---|---:|",
    ]
    names = {
        "floor": "floor: batched embedding alone (`Embedder.embed`)",
        "store_turns": "`AgentMemory.store_turns`",
        "store_turn": "`AgentMemory.store_turn`, one call per turn",
    }
    for key, label in names.items():
        shown = ", ".join(f"{run[key]:.0f}" for run in runs)
        lines.append(f"| {label} | {median[key]:.0f} | {shown} | {median[key] / median['floor']:.0%} |")
    ok = median["store_turns"] >= TARGET_TPS
    lines += [
        "",
        f"Target `store_turns` ≥ {TARGET_TPS:.0f} turns/s: {median['store_turns']:.0f} "
        f"({'pass' if ok else '**FAIL**'}); {median['store_turns'] / median['store_turn']:.1f}× the "
        f"per-turn path. {os.cpu_count()} CPUs; 1-min load average {load[0]:.1f} before, "
        f"{load[1]:.1f} after.",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=2000, help="turns per store_turns run (default 2000)")
    parser.add_argument("--per-turn", type=int, default=500, help="turns per store_turn run (default 500)")
    parser.add_argument("--runs", type=int, default=3, help="runs; the table gives the median (default 3)")
    parser.add_argument("--batch", type=int, default=256, help="turns per store_turns call (default 256)")
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})")
    args = parser.parse_args(argv)

    corpus = make_turns(args.turns + args.per_turn + 100, seed=17)
    warm_up, bulk, single = corpus[:100], corpus[100 : 100 + args.turns], corpus[100 + args.turns :]
    load_before = os.getloadavg()[0]
    runs: list[dict[str, float]] = []
    with scratch_namespace(args.data_dir, auto_consolidate=False) as (settings, _, _):
        embedder = build_embedder(settings.embedding)
        with AgentMemory(user_id="bench-ingest", settings=settings, embedder=embedder) as mem:
            measure_bulk(mem, embedder, warm_up, args.batch)
            for run in range(args.runs):
                print(f"run {run + 1}/{args.runs} …", file=sys.stderr)
                floor, bulk_tps = measure_bulk(mem, embedder, bulk, args.batch)
                per_turn = measure_store_turn(mem, single)
                runs.append({"floor": floor, "store_turns": bulk_tps, "store_turn": per_turn})
    load = (load_before, os.getloadavg()[0])
    print(report(args, runs, load))
    document: dict[str, Any] = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(*load),
        "config": {"turns": args.turns, "per_turn": args.per_turn, "runs": args.runs, "batch": args.batch},
        "runs_turns_per_s": runs,
        "median_turns_per_s": {name: statistics.median(run[name] for run in runs) for name in runs[0]},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
