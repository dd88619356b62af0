"""The ``vector_compaction`` job: vector indexes bloated with stale entries are rebuilt. Async source of
``vector_compaction.py``.

Recall no longer writes vector-indexed nodes (access counts live in the ledger), but every other write
to such a node — a correction, a decay step, a merge that adds an alias — leaves a stale entry in
FalkorDB 4.16's HNSW graph (FalkorDB#2197), and stale entries take places in an ANN's top-k. A label
whose index holds more than ``maintenance.vector_stale_ratio`` × its live nodes in stale entries (and
at least ``vector_stale_min`` of them) is rebuilt from its live nodes; searches scan exactly meanwhile.
After any forgetting since the last run, every index with a stale entry is rebuilt whatever its size:
a forgotten memory's vector must not linger in the index files.
The report holds each label's entries and live nodes before and after. Neo4j keeps its indexes compact:
there the job finds nothing to do.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..stores.schema import VectorLabel
from ..stores.vector_index import VectorIndexSize
from .runner_async import AsyncJobContext

__all__ = ["bloated", "to_rebuild", "vector_compaction"]


def bloated(size: VectorIndexSize, ratio: float, minimum: int) -> bool:
    """Whether ``size`` holds enough stale entries to be worth a rebuild. Pure."""
    return not size.building and size.stale >= max(minimum, ratio * size.live)


def _sizes(sizes: Mapping[VectorLabel, VectorIndexSize]) -> dict[str, dict[str, int]]:
    return {label: {"entries": size.entries, "live": size.live} for label, size in sorted(sizes.items())}


async def to_rebuild(
    context: AsyncJobContext, sizes: Mapping[VectorLabel, VectorIndexSize]
) -> tuple[list[VectorLabel], int]:
    """The labels whose index should be rebuilt now, and the forgets since the last run (the doctor
    judges its vector invariant by this too)."""
    settings = context.settings.maintenance
    row = await context.backends.ledger.fetch_one("forgets_since_vector_compaction", {})
    forgets = int(row["forgets"]) if row else 0
    # after a forget, one stale entry is enough: it may be the forgotten memory's vector
    ratio, minimum = (0.0, 1) if forgets else (settings.vector_stale_ratio, settings.vector_stale_min)
    return [label for label, size in sizes.items() if bloated(size, ratio, minimum)], forgets


async def vector_compaction(context: AsyncJobContext) -> None:
    settings = context.settings.maintenance
    graph = context.backends.graph
    before = await graph.vector_index_sizes()
    context.tally.details["before"] = _sizes(before)
    labels, forgets = await to_rebuild(context, before)
    context.tally.details["forgets_since_last_run"] = forgets
    for label in labels:
        context.tally.plan(f"rebuild the {label} vector index ({before[label].stale} stale entries)")
        context.tally.count("stale_entries", before[label].stale)
    if context.dry_run or not labels:
        context.tally.count("rebuilt", 0)
        return
    rebuilt = await graph.compact_vector_indexes(labels, settings.vector_compaction_timeout_s)
    context.tally.count("rebuilt", len(rebuilt))
    context.tally.details["after"] = _sizes(await graph.vector_index_sizes())
