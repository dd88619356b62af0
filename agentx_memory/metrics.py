"""Prometheus metrics (seed 002 "Monitoring") in a registry of the library's own, so that importing
agentx-memory never adds series to the host application's default registry. The worker exposes it on
an HTTP port; ``agentx-memory metrics`` prints it."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from .maintenance.base import MemorySize

__all__ = [
    "EMBED_CACHE",
    "JOB_DURATION",
    "JOB_ITEMS",
    "JOB_LAST_SUCCESS",
    "JOB_RUNS",
    "MEMORY_NODES",
    "MEMORY_RELATIONSHIPS",
    "MEMORY_ROWS",
    "RECALL_SECONDS",
    "REGISTRY",
    "exposition",
    "observe_size",
]

REGISTRY = CollectorRegistry(auto_describe=True)

JOB_RUNS = Counter(
    "agentx_job_runs", "Maintenance job runs, by job and outcome (done, locked, failed).",
    ["job", "status"], registry=REGISTRY,
)  # fmt: skip
JOB_DURATION = Histogram(
    "agentx_job_duration_seconds", "How long a maintenance job's run took.", ["job"], registry=REGISTRY,
    buckets=(0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600),
)  # fmt: skip
JOB_ITEMS = Counter(
    "agentx_job_items", "What maintenance jobs did, by job and count name (decayed, pruned, replayed…).",
    ["job", "count"], registry=REGISTRY,
)  # fmt: skip
JOB_LAST_SUCCESS = Gauge(
    "agentx_job_last_success_timestamp_seconds", "When each job last finished without error.", ["job"],
    registry=REGISTRY,
)  # fmt: skip

RECALL_SECONDS = Histogram(
    "agentx_recall_seconds", "remember()'s latency (p50/p95/p99 from the buckets).", registry=REGISTRY,
    buckets=(0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5),
)  # fmt: skip
EMBED_CACHE = Counter(
    "agentx_query_embedding_cache", "Query embeddings served from the Redis cache (hit) or computed (miss).",
    ["result"], registry=REGISTRY,
)  # fmt: skip
MEMORY_NODES = Gauge("agentx_memory_nodes", "Graph nodes by label.", ["label"], registry=REGISTRY)
MEMORY_RELATIONSHIPS = Gauge(
    "agentx_memory_relationships", "Graph relationships by type.", ["type"], registry=REGISTRY
)
MEMORY_ROWS = Gauge("agentx_memory_rows", "Ledger rows by table (estimate).", ["table"], registry=REGISTRY)


def observe_size(size: MemorySize) -> None:
    for label, count in size.nodes.items():
        MEMORY_NODES.labels(label).set(count)
    for kind, count in size.relationships.items():
        MEMORY_RELATIONSHIPS.labels(kind).set(count)
    for table, count in size.rows.items():
        MEMORY_ROWS.labels(table).set(count)


def exposition() -> bytes:
    """The registry in Prometheus' text format."""
    return generate_latest(REGISTRY)
