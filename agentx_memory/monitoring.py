"""Process monitoring: per-technique recall latency and result counts over recent recalls.

Each recall's :class:`TechniqueMetric` s are on its bundle; a :class:`RecallMonitor` keeps the last
``window`` of them per technique so monitoring can read p50/p95/p99 without a metrics server.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Mapping, Sequence

from .models import TechniqueMetric

__all__ = ["RecallMonitor", "percentile"]


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of ``values``; 0.0 when there are none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q * len(ordered) / 100)))
    return ordered[rank - 1]


class RecallMonitor:
    """Thread-safe rolling window of technique metrics, shared by the facades of one process."""

    def __init__(self, window: int = 1000) -> None:
        self._window = window
        self._lock = threading.Lock()
        self._latency: dict[str, deque[float]] = {}
        self._results: dict[str, deque[int]] = {}
        self._skipped: dict[str, int] = {}

    def record(self, metrics: Mapping[str, TechniqueMetric]) -> None:
        with self._lock:
            for name, metric in metrics.items():
                if metric.skipped is not None:
                    self._skipped[name] = self._skipped.get(name, 0) + 1
                    continue
                self._latency.setdefault(name, deque(maxlen=self._window)).append(metric.latency_ms)
                self._results.setdefault(name, deque(maxlen=self._window)).append(metric.results)

    def summary(self) -> dict[str, dict[str, float]]:
        """Per technique: calls, p50/p95/p99 latency (ms), mean results, and times skipped."""
        with self._lock:
            names = sorted({*self._latency, *self._skipped})
            out: dict[str, dict[str, float]] = {}
            for name in names:
                latency = list(self._latency.get(name, ()))
                results = list(self._results.get(name, ()))
                out[name] = {
                    "calls": float(len(latency)),
                    "p50_ms": percentile(latency, 50),
                    "p95_ms": percentile(latency, 95),
                    "p99_ms": percentile(latency, 99),
                    "mean_results": sum(results) / len(results) if results else 0.0,
                    "skipped": float(self._skipped.get(name, 0)),
                }
            return out
