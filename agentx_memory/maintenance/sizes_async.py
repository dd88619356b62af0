"""How big the memory is, across users, for the metrics: graph nodes by label and relationships by
type, ledger rows by table (partitions folded into their table), keys in the Redis database. Async
source of ``sizes.py``."""

from __future__ import annotations

from ..backends_async import AsyncBackends
from .base import MemorySize, fold_partitions

__all__ = ["memory_size"]


async def memory_size(backends: AsyncBackends) -> MemorySize:
    nodes = await backends.graph.run("census_nodes_by_label", {})
    relationships = await backends.graph.run("census_relationships_by_type", {})
    rows = await backends.ledger.fetch_all("table_rows", {})
    return MemorySize(
        nodes={str(row["label"]): int(row["count"]) for row in nodes if row["label"] is not None},
        relationships={str(row["type"]): int(row["count"]) for row in relationships},
        rows=fold_partitions({str(row["table"]): int(row["rows"]) for row in rows}),
        redis_keys=await backends.redis.key_count(),
    )
