"""What the per-user recall rate limit costs per recall.

    python benchmarks/rate_limit.py [--calls 300] [--data-dir DIR]

One user with 50 stored turns; ``remember`` (top_k 5) called ``--calls`` times through a facade with
the limit off and through one with it on (a limit high enough never to refuse, so every call pays the
check: one ``EVALSHA`` round trip of the token-bucket script), interleaved in blocks of 10 so machine
load hits both alike; then the check alone. The 40 distinct questions repeat, so after its first use a
query's embedding comes from the Redis cache (the default): recall is at its cheapest, which makes the
ratio an upper bound. Prints a markdown table: median, p95 and p99 per recall,
the added time and the on/off ratio of the medians. A fresh schema, graph and key prefix, dropped at
the end; the embedded servers are started (and stopped again) if they were not running.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AgentMemory, Settings
from agentx_memory.embedding import build_embedder
from benchmarks.store_turn import Stats, scratch_namespace

BLOCK = 10


def _limited(settings: Settings, per_minute: float) -> Settings:
    limits = settings.limits.model_copy(update={"recall_per_minute": per_minute, "recall_burst": 1_000_000})
    return settings.model_copy(update={"limits": limits})


def measure(settings: Settings, calls: int) -> dict[str, Stats]:
    embedder = build_embedder(settings.embedding)
    questions = [f"what did I say about topic {i % 40} and the garden?" for i in range(calls)]
    samples: dict[str, list[int]] = {"off": [], "on": [], "check": []}
    with (
        AgentMemory("rate-limit", settings=_limited(settings, 0), embedder=embedder) as off,
        AgentMemory("rate-limit", settings=_limited(settings, 10**9), embedder=embedder) as on,
    ):
        conversation = off.new_conversation()
        for index in range(50):
            off.store_turn(conversation, "user", f"note {index} about the garden and topic {index}")
        for question in questions[:20]:  # warm both: caches, prepared statements, the script
            off.remember(question, top_k=5)
            on.remember(question, top_k=5)
        for start in range(0, calls, BLOCK):
            # Alternate which side goes first, so neither always runs with the other's data hot.
            order = (("off", off), ("on", on)) if start // BLOCK % 2 == 0 else (("on", on), ("off", off))
            for name, memory in order:
                for question in questions[start : start + BLOCK]:
                    began = time.perf_counter_ns()
                    memory.remember(question, top_k=5)
                    samples[name].append(time.perf_counter_ns() - began)
        backends = on._backends
        assert backends is not None
        assert backends.rate_limiter.enabled
        for _ in range(calls):
            began = time.perf_counter_ns()
            backends.rate_limiter.admit_recall(on.scope, "remember")
            samples["check"].append(time.perf_counter_ns() - began)
    return {name: Stats.of(values) for name, values in samples.items()}


def report(calls: int, stats: dict[str, Stats]) -> str:
    rows = [("off", stats["off"]), ("on", stats["on"]), ("the check alone", stats["check"])]
    lines = [
        f"{calls} recalls each (`remember`, top_k 5, 50 turns), limit off and on interleaved\n",
        "| recall rate limit | median ms | p95 ms | p99 ms |",
        "|---|---|---|---|",
        *(f"| {name} | {s.p50:.2f} | {s.p95:.2f} | {s.p99:.2f} |" for name, s in rows),
    ]
    off, on = stats["off"].p50, stats["on"].p50
    lines.append(
        f"\nadded per recall (median): {on - off:+.2f} ms; on/off ratio of the medians {on / off:.3f}"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=300, help="recalls per side (default 300)")
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    args = parser.parse_args()
    with scratch_namespace(args.data_dir, auto_consolidate=False) as (settings, _, _):
        stats = measure(settings, args.calls)
    print(report(args.calls, stats))


if __name__ == "__main__":
    main()
