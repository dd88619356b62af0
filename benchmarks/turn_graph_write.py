"""What a Turn node's graph indexes cost: the graph statement of one stored turn, three ways, interleaved.

    python benchmarks/turn_graph_write.py [--turns 1000] [--data-dir DIR]

1. *before*: ``create_turn`` as it was until turns stopped carrying a vector in the graph (kept below):
   MERGE … ON CREATE SET with ``vecf32`` embedding, under a Turn vector index and a Turn full-text index;
2. today's ``create_turn`` (MERGE … ON CREATE SET, no vector, no Turn vector or full-text index);
3. the same turn created by one inline CREATE behind OPTIONAL MATCH (the idempotent alternative FalkorDB
   indexes once instead of twice), to see whether it pays off without those indexes.

Each variant writes into its own scratch graph (the current schema, plus the old Turn indexes for 1),
round-robin turn by turn; the first 50 turns are warm-up. Prints a markdown table (ms).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import redis
from falkordb import FalkorDB, Graph

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory.embedded import resolve_endpoints
from agentx_memory.embedding import build_embedder
from agentx_memory.settings import Settings
from agentx_memory.stores.cypher import load_queries
from benchmarks.store_turn import make_turns

_NEIGHBOURS = """
WITH t
OPTIONAL MATCH (prev:Turn {conversation_id: $conversation_id, user_id: $user_id, turn_index: $turn_index - 1})
OPTIONAL MATCH (next:Turn {conversation_id: $conversation_id, user_id: $user_id, turn_index: $turn_index + 1})
FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | MERGE (p)-[:FOLLOWED_BY]->(t))
FOREACH (n IN CASE WHEN next IS NULL THEN [] ELSE [next] END | MERGE (t)-[:FOLLOWED_BY]->(n))
RETURN t.id AS id"""
BEFORE = (
    """MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})
MERGE (t:Turn {id: $id, user_id: $user_id})
ON CREATE SET t.channel = $channel, t.conversation_id = $conversation_id,
              t.turn_index = $turn_index, t.role = $role, t.content = $content, t.timestamp = $timestamp,
              t.content_hash = $content_hash, t.metadata = $metadata, t.embedding = vecf32($embedding)
MERGE (c)-[:HAS_TURN]->(t)"""
    + _NEIGHBOURS
)
INLINE_CREATE = (
    """MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})
OPTIONAL MATCH (old:Turn {id: $id, user_id: $user_id})
FOREACH (_ IN CASE WHEN old IS NULL THEN [1] ELSE [] END |
  CREATE (:Turn {id: $id, user_id: $user_id, channel: $channel, conversation_id: $conversation_id,
                 turn_index: $turn_index, role: $role, content: $content, timestamp: $timestamp,
                 content_hash: $content_hash, metadata: $metadata}))
WITH c
MATCH (t:Turn {id: $id, user_id: $user_id})
MERGE (c)-[:HAS_TURN]->(t)"""
    + _NEIGHBOURS
)
OLD_TURN_INDEXES = (
    "CREATE VECTOR INDEX FOR (n:Turn) ON (n.embedding)"
    " OPTIONS {dimension: 384, similarityFunction: 'cosine'}",
    "CALL db.idx.fulltext.createNodeIndex('Turn', 'content')",
)


def prepare(graph: Graph, queries: dict[str, str], old_indexes: bool) -> None:
    """Today's schema, plus the old Turn indexes for the *before* variant, and one conversation."""
    ddl = [text for key, text in queries.items() if key.startswith("schema_") and "drop" not in key]
    for statement in [*ddl, *(OLD_TURN_INDEXES if old_indexes else ())]:
        with contextlib.suppress(redis.exceptions.ResponseError):  # "already indexed" and the like
            graph.query(statement.replace("{dimension}", "384"))
    graph.query("MERGE (:Conversation {id: 'c', user_id: 'u'})")


def measure(
    graphs: dict[str, Graph],
    variants: dict[str, tuple[str, bool]],
    turns: list[tuple[str, str]],
    vectors: Any,
) -> dict[str, list[int]]:
    """Each turn written by every variant, the order rotating; durations in ns."""
    samples: dict[str, list[int]] = {name: [] for name in variants}
    names = list(variants)
    for index, ((role, content), vector) in enumerate(zip(turns, vectors, strict=True)):
        for name in names[index % 3 :] + names[: index % 3]:
            statement, old_indexes = variants[name]
            params: dict[str, Any] = {
                "id": str(uuid.uuid4()), "user_id": "u", "channel": "_global", "conversation_id": "c",
                "turn_index": index, "role": role, "content": content, "timestamp": 0,
                "content_hash": "h", "metadata": "{}",
            }  # fmt: skip
            if old_indexes:
                params["embedding"] = vector
            began = time.perf_counter_ns()
            graphs[name].query(statement, params)
            samples[name].append(time.perf_counter_ns() - began)
    return samples


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=1000, help="turns per variant (default 1000)")
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    args = parser.parse_args(argv)
    settings = Settings() if args.data_dir is None else Settings(data_dir=args.data_dir)
    pool = redis.BlockingConnectionPool.from_url(resolve_endpoints(settings).falkordb_url or "")
    queries = load_queries("falkordb")
    variants: dict[str, tuple[str, bool]] = {
        "before: MERGE + vecf32, Turn vector + full-text index": (BEFORE, True),
        "now: `create_turn` (MERGE, no Turn vector, no Turn indexes)": (queries["create_turn"], False),
        "inline CREATE behind OPTIONAL MATCH, no Turn indexes": (INLINE_CREATE, False),
    }
    turns = make_turns(args.turns, seed=5)
    vectors = build_embedder(settings.embedding).embed([content for _, content in turns])
    client = FalkorDB(connection_pool=pool)
    graphs = {name: client.select_graph(f"bench_tgw_{uuid.uuid4().hex[:8]}") for name in variants}
    try:
        for name, (_, old_indexes) in variants.items():
            prepare(graphs[name], queries, old_indexes)
        samples = measure(graphs, variants, turns, vectors)
    finally:
        for graph in graphs.values():
            graph.delete()
        pool.disconnect()
    print(
        f"| graph statement of one turn ({args.turns} turns each, interleaved) | p50 ms | p95 ms | mean ms |"
    )
    print("|---|---:|---:|---:|")
    for name, values in samples.items():
        ms = np.asarray(values[50:], dtype=np.float64) / 1e6
        p50, p95 = np.percentile(ms, [50, 95])
        print(f"| {name} | {p50:.3f} | {p95:.3f} | {ms.mean():.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
