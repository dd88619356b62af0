"""The most recent query vectors of this process, in front of the shared Redis cache of query embeddings.

A question asked again in the same process (an agent's ``remember`` and then ``get_context`` for the
same prompt, a retried call) then costs neither a model run nor a round trip. Keyed by the Redis cache
key (model and text digest), so both caches agree on what is the same question.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

__all__ = ["RecentVectors"]


class RecentVectors:
    """A bounded least-recently-used map of cache key → vector; safe to use from several threads."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._vectors: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, keys: Sequence[str]) -> list[list[float] | None]:
        """The vector of each key, or None; a hit becomes the most recent."""
        with self._lock:
            found: list[list[float] | None] = []
            for key in keys:
                vector = self._vectors.get(key)
                if vector is not None:
                    self._vectors.move_to_end(key)
                found.append(None if vector is None else list(vector))  # a copy: callers may keep it
            return found

    def put(self, vectors: dict[str, list[float]]) -> None:
        with self._lock:
            for key, vector in vectors.items():
                self._vectors[key] = vector
                self._vectors.move_to_end(key)
            while len(self._vectors) > self._size:
                self._vectors.popitem(last=False)
