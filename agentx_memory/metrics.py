"""Prometheus metrics (seed 002 "Monitoring") in a registry of the library's own, so that importing
agentx-memory never adds series to the host application's default registry. The worker exposes it on
an HTTP port; ``agentx-memory metrics`` prints it.

The memory-size series are not gauges set by whoever last counted: a collector reads the latest
:class:`MemorySize`, and in the worker re-counts it on a scrape once the last count is older than
``size_max_age_s`` (the census reads every node, so a tight scrape interval does not mean a tight
census)."""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .maintenance.base import MemorySize

__all__ = [
    "EMBED_CACHE",
    "JOB_DURATION",
    "JOB_ITEMS",
    "JOB_LAST_SUCCESS",
    "JOB_RUNS",
    "LLM_TOKENS",
    "RECALL_SECONDS",
    "REGISTRY",
    "exposition",
    "observe_size",
    "size_on_scrape",
]

log = logging.getLogger(__name__)

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
LLM_TOKENS = Counter(
    "agentx_llm_tokens", "LLM tokens maintenance jobs spent, by job and direction (input, output).",
    ["job", "direction"], registry=REGISTRY,
)  # fmt: skip
JOB_LAST_SUCCESS = Gauge(
    "agentx_job_last_success_timestamp_seconds", "When each job last finished without error.", ["job"],
    registry=REGISTRY,
)  # fmt: skip

CONSOLIDATION_LAG = Histogram(
    "agentx_consolidation_lag_seconds",
    "From a conversation's last turn to its consolidation by the consolidate job.", registry=REGISTRY,
    buckets=(60, 300, 900, 1800, 3600, 2 * 3600, 6 * 3600, 24 * 3600, 7 * 24 * 3600),
)  # fmt: skip
RECALL_SECONDS = Histogram(
    "agentx_recall_seconds", "remember()'s latency (p50/p95/p99 from the buckets).", registry=REGISTRY,
    buckets=(0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5),
)  # fmt: skip
EMBED_CACHE = Counter(
    "agentx_query_embedding_cache", "Query embeddings served from the Redis cache (hit) or computed (miss).",
    ["result"], registry=REGISTRY,
)  # fmt: skip


class _SizeCollector(Collector):
    """The memory-size series from the latest count; re-counted on a scrape when a reader is set and
    the count is older than its maximum age. A failed count keeps the previous one (and is logged):
    a scrape never fails because a store is restarting."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._size: MemorySize | None = None
        self._counted = 0.0
        self._read: Callable[[], MemorySize] | None = None
        self._max_age_s = 0.0

    def set(self, size: MemorySize) -> None:
        with self._lock:
            self._size, self._counted = size, time.monotonic()

    def read_on_scrape(self, read: Callable[[], MemorySize] | None, max_age_s: float) -> None:
        with self._lock:
            # The next scrape counts: the last count may be someone else's (an older reader, a test).
            self._read, self._max_age_s, self._counted = read, max_age_s, -math.inf

    def describe(self) -> Iterator[Metric]:
        return iter(self._families(None))

    def collect(self) -> Iterator[Metric]:
        with self._lock:
            if self._read is not None and (
                self._size is None or time.monotonic() - self._counted >= self._max_age_s
            ):
                try:
                    self._size, self._counted = self._read(), time.monotonic()
                except Exception:  # any store error: serve the last count, the scrape still answers
                    log.warning("counting the memory size failed; serving the last count", exc_info=True)
            size = self._size
        return iter(self._families(size))

    @staticmethod
    def _families(size: MemorySize | None) -> list[Metric]:
        nodes = GaugeMetricFamily("agentx_memory_nodes", "Graph nodes by label.", labels=["label"])
        relationships = GaugeMetricFamily(
            "agentx_memory_relationships", "Graph relationships by type.", labels=["type"]
        )
        rows = GaugeMetricFamily("agentx_memory_rows", "Ledger rows by table (estimate).", labels=["table"])
        keys = GaugeMetricFamily(
            "agentx_redis_keys",
            "Keys in the working-memory Redis database (on the embedded server: the graph and broker too).",
        )
        if size is not None:
            for label, count in sorted(size.nodes.items()):
                nodes.add_metric([label], count)
            for kind, count in sorted(size.relationships.items()):
                relationships.add_metric([kind], count)
            for table, count in sorted(size.rows.items()):
                rows.add_metric([table], count)
            if size.redis_keys is not None:
                keys.add_metric([], size.redis_keys)
        return [nodes, relationships, rows, keys]


_SIZES = _SizeCollector()
REGISTRY.register(_SIZES)


def observe_size(size: MemorySize) -> None:
    """Serve ``size`` as the memory size (until a newer count)."""
    _SIZES.set(size)


def size_on_scrape(read: Callable[[], MemorySize] | None, max_age_s: float = 60.0) -> None:
    """Re-count the memory size with ``read`` on a scrape once the last count is ``max_age_s`` old
    (the worker's HTTP endpoint); ``None`` stops it."""
    _SIZES.read_on_scrape(read, max_age_s)


def exposition() -> bytes:
    """The registry in Prometheus' text format."""
    return generate_latest(REGISTRY)
