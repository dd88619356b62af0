"""Reindex throughput: a store written with a cheap 16-dimensional embedder, re-embedded with the
configured one (the local MiniLM by default: a new model *and* a new dimension).

    python benchmarks/reindex.py [--turns 2000] [--facts 200] [--batch 256] [--data-dir DIR]

The store gets ``--turns`` ledger turns (``store_turns``) and ``--facts`` graph facts (``learn_fact``);
then ``maintenance.reindex.reindex`` runs once and the floor is measured after it: the batched
embedding of the same texts (``Embedder.embed``), the one cost a reindex cannot avoid. Prints vectors/s
of both and the reindex's share of the floor. Everything lives in a throw-away schema, graph and key
prefix dropped at the end. Writes ``benchmarks/results/reindex.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AgentMemory, TurnSpec
from agentx_memory.embedding import build_embedder
from agentx_memory.maintenance.reindex import reindex
from benchmarks.store_turn import make_turns, scratch_namespace, write_result

RESULTS = Path(__file__).resolve().parent / "results" / "reindex.json"


class HashEmbedder:
    """A cheap stand-in for the old model: 16 dimensions from a text's hash (the writes stay fast)."""

    model_id = "bench-hash-16"
    dimensions = 16

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_one(text) for text in texts]

    def embed_one(self, text: str) -> list[float]:
        digest = hashlib.sha256(text.encode()).digest()
        raw = [byte - 127.5 for byte in digest[:16]]
        norm = sum(x * x for x in raw) ** 0.5
        return [x / norm for x in raw]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=2000, help="ledger turns (default 2000)")
    parser.add_argument("--facts", type=int, default=200, help="graph facts (default 200)")
    parser.add_argument("--batch", type=int, default=256, help="texts per embedding call (default 256)")
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})")
    args = parser.parse_args(argv)

    turns = make_turns(args.turns, seed=23)
    claims = [
        f"fact {index}: {content}" for index, (_, content) in enumerate(make_turns(args.facts, seed=29))
    ]
    load_before = os.getloadavg()[0]
    with scratch_namespace(args.data_dir, auto_consolidate=False) as (settings, _, _):
        embedder = build_embedder(settings.embedding)
        with AgentMemory("bench-reindex", settings=settings, embedder=HashEmbedder()) as mem:
            cid = mem.new_conversation()
            for start in range(0, len(turns), 256):
                mem.store_turns(cid, [TurnSpec(role=r, content=c) for r, c in turns[start : start + 256]])
            for claim in claims:
                mem.learn_fact(claim, confidence=0.8, source="user")
        embedder.embed(["warm up"])
        report = reindex(settings, embedder=embedder, batch=args.batch)
        texts = [content for _, content in turns] + claims
        began = time.perf_counter()
        for start in range(0, len(texts), args.batch):
            embedder.embed(texts[start : start + args.batch])
        floor = len(texts) / (time.perf_counter() - began)
    load = (load_before, os.getloadavg()[0])
    result = {
        "rows": sum(report.rows.values()),
        "nodes": sum(report.nodes.values()),
        "seconds": round(report.seconds, 2),
        "vectors_per_s": round(report.rate, 1),
        "floor_vectors_per_s": round(floor, 1),
        "share_of_floor": round(report.rate / floor, 3),
        "target": report.target.describe(),
    }
    print("| vectors | reindex vectors/s | embedding floor vectors/s | share of floor |")
    print("|---|---|---|---|")
    print(
        f"| {result['rows']} rows + {result['nodes']} nodes | {result['vectors_per_s']:.0f} | "
        f"{result['floor_vectors_per_s']:.0f} | {result['share_of_floor']:.0%} |"
    )
    write_result(args.out, args, result, load)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
