"""What the Redis cache of query embeddings saves on repeated questions.

    python benchmarks/query_cache.py [--queries 100]

One store of 50 turns; the same questions asked twice (the first round fills the cache when it is on);
the second round's ``remember`` latency and embed step, with the cache off and on.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AgentMemory
from agentx_memory.settings import Settings, owning_process


def second_round(ttl: int, questions: list[str]) -> tuple[float, float, float]:
    settings = owning_process(
        Settings(
            graph={"name": "bench_query_cache"},
            postgres={"schema": "bench_query_cache"},
            redis={"key_prefix": f"bench-qc-{ttl}-{time.time_ns()}"},
            embedding={"query_cache_seconds": ttl},
            learning={"auto_consolidate": False},
        )
    )
    with AgentMemory("query-cache", settings=settings) as memory:
        conversation = memory.new_conversation()
        for index in range(50):
            memory.store_turn(conversation, "user", f"note {index} about the garden and topic {index}")
        for question in questions:
            memory.remember(question, top_k=5)
        total: list[float] = []
        embed: list[float] = []
        for question in questions:
            started = time.perf_counter()
            bundle = memory.remember(question, top_k=5)
            total.append((time.perf_counter() - started) * 1000)
            embed.append(bundle.timings_ms["embed"])
        total.sort()
        return statistics.median(total), total[int(0.95 * (len(total) - 1))], statistics.median(embed)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    questions = [f"what did I say about topic number {i} and the garden?" for i in range(args.queries)]
    off, on = second_round(0, questions), second_round(86400, questions)
    print("| query cache | remember p50 ms | p95 ms | embed step p50 ms |\n|---|---|---|---|")
    print(f"| off | {off[0]:.2f} | {off[1]:.2f} | {off[2]:.2f} |")
    print(f"| on, repeated questions | {on[0]:.2f} | {on[1]:.2f} | {on[2]:.2f} |")
    print(f"\nratio on/off at p50: {on[0] / off[0]:.2f}")


if __name__ == "__main__":
    main()
