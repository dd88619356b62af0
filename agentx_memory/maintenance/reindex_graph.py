# Generated from agentx_memory/maintenance/reindex_graph_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Reindex of the graph's vectors (``agentx-memory reindex``): for every vector label and every user
with nodes still to do, batches of nodes re-embedded from the text their vector embeds and written back
with the target's tags in one statement each (``cypher/reindex.cypher``). A node once written is no
longer pending, so a rerun after a crash continues where it stopped.

For a new dimension the vector indexes are dropped first and created with it at the end; otherwise the
indexes are compacted at the end (FalkorDB 4.16 keeps a stale entry for every node written).

Generated from ``maintenance/reindex_graph_async.py``: edit that file."""

from __future__ import annotations

from .._compat.sync import to_thread
from ..embedding.base import Embedder
from ..errors import StoreError
from ..memory.portability_pure import embedding_text
from ..stores.graph import GraphStore
from ..stores.schema import VECTOR_LABELS, VectorLabel
from .reindex_rules import ReindexProgress, VectorShape, embed_checked

__all__ = ["reindex_graph"]

#: How long the end of a reindex waits for compacted vector indexes to serve again.
_COMPACTION_TIMEOUT_S = 300.0


def reindex_graph(
    graph: GraphStore,
    embedder: Embedder,
    target: VectorShape,
    *,
    new_dimension: bool,
    batch: int,
    progress: ReindexProgress,
) -> dict[str, int]:
    """Re-embed every vector-carrying node of every user for ``target`` and leave the vector indexes
    compact and of its dimension; returns nodes re-embedded per label (by this run)."""
    if new_dimension:  # an index of the old dimension would refuse (or skip) the new vectors
        graph.drop_vector_indexes()
    done: dict[str, int] = {
        label: _label(graph, embedder, target, label, batch, progress) for label in VECTOR_LABELS
    }
    if new_dimension:
        graph.apply_schema(target.dimensions)
    else:
        sizes = graph.vector_index_sizes()
        stale = [label for label, size in sizes.items() if size.entries != size.live]
        graph.compact_vector_indexes(stale, _COMPACTION_TIMEOUT_S)
    return done


def _label(
    graph: GraphStore,
    embedder: Embedder,
    target: VectorShape,
    label: VectorLabel,
    batch: int,
    progress: ReindexProgress,
) -> int:
    suffix = label.lower()
    tags = {"model": target.model, "dimensions": target.dimensions}
    pending = graph.run(f"census_reindex_{suffix}", tags)
    task = f"graph {label}"
    progress.start(task, sum(int(row["count"]) for row in pending))
    written = 0
    for user_id in sorted(str(row["user_id"]) for row in pending):
        params = {**tags, "user_id": user_id}
        while nodes := graph.run(f"reindex_pending_{suffix}", {**params, "limit": batch}):
            texts = [embedding_text(label, node["props"]) for node in nodes]
            vectors = to_thread(embed_checked, embedder, texts)
            rows = [{"id": node["id"], "vector": vector} for node, vector in zip(nodes, vectors, strict=True)]
            result = graph.run(f"reindex_write_{suffix}", {**params, "rows": rows})
            if not result or int(result[0]["written"]) == 0:  # never loop on nodes that cannot be written
                raise StoreError(f"reindex could not write the vectors of {label} nodes of user {user_id!r}")
            written += len(nodes)
            progress.advance(task, len(nodes))
    return written
