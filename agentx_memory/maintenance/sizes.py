# Generated from agentx_memory/maintenance/sizes_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""How big the memory is, across users, for the metrics: graph nodes by label and relationships by type,
ledger rows by table (partitions folded into their table), keys in the Redis database. Generated from
``maintenance/sizes_async.py``: edit that file."""

from __future__ import annotations

from ..backends import Backends
from .base import MemorySize, fold_partitions

__all__ = ["memory_size"]


def memory_size(backends: Backends) -> MemorySize:
    nodes = backends.graph.run("census_nodes_by_label", {})
    relationships = backends.graph.run("census_relationships_by_type", {})
    rows = backends.ledger.fetch_all("table_rows", {})
    return MemorySize(
        nodes={str(row["label"]): int(row["count"]) for row in nodes if row["label"] is not None},
        relationships={str(row["type"]): int(row["count"]) for row in relationships},
        rows=fold_partitions({str(row["table"]): int(row["rows"]) for row in rows}),
        redis_keys=backends.redis.key_count(),
    )
