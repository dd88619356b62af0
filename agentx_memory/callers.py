"""The caller's calls in flight, for background learning to yield to (issue 36).

Background learning (a session switch consolidates the conversations before it) runs in the caller's
process: a daemon thread in the sync API, a task on the home loop in the async one. Left alone it
competes with the caller's own calls for the GIL, the two cores and the servers: a 20-turn chunk's
parse alone is ~200 ms of CPU in one piece. So the learner waits between its steps while a call is in
flight and for a moment after it (the turns of a burst come close together), but never longer than
``max_s`` a step, so that a caller who never pauses still lets learning advance. No I/O.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["CallerActivity"]


class CallerActivity:
    """Counts the caller's calls in flight (thread-safe) and when the last one ended."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._active = 0
        self._ended = 0.0  # time.monotonic() when the last call ended

    @contextmanager
    def call(self) -> Iterator[None]:
        """Around one of the caller's calls (``store_turn``, ``remember``, ``get_context``)."""
        with self._lock:
            self._active += 1
        try:
            yield
        finally:
            with self._lock:
                self._active -= 1
                self._ended = time.monotonic()

    def busy(self, quiet_s: float) -> bool:
        """A call is in flight, or the last one ended less than ``quiet_s`` ago."""
        with self._lock:
            return self._active > 0 or time.monotonic() - self._ended < quiet_s
