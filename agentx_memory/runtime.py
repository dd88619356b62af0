"""Process-wide tuning, once per process (see :class:`~agentx_memory.settings.RuntimeSettings`).

Python's cyclic collector scans every container object of the oldest generation on a full collection.
A process that has loaded the embedding model, the drivers and their connections holds tens of
thousands of long-lived objects, and a recall allocates enough to trigger a full collection every dozen
calls or so: each paused the event loop ~70 ms, which was the whole tail of ``remember`` and
``get_context``. Freezing the objects alive at start-up keeps them out of those scans (they are still
freed by reference counting; only cycles among them would wait for the process to end), and a larger
first-generation threshold makes the frequent young collections rarer.
"""

from __future__ import annotations

import gc
import threading

from .settings import RuntimeSettings

__all__ = ["tune_process"]

_lock = threading.Lock()
_tuned = False


def tune_process(settings: RuntimeSettings) -> bool:
    """Apply ``settings`` to this process unless already done (or switched off); True if applied now."""
    global _tuned
    with _lock:
        if _tuned or not settings.tune_gc:
            return False
        gc.collect()  # what is garbage now is freed, not frozen
        gc.freeze()
        gen0, gen1, gen2 = gc.get_threshold()
        gc.set_threshold(max(gen0, settings.gc_gen0_threshold), max(gen1, 20), max(gen2, 20))
        _tuned = True
        return True
