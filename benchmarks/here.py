"""A memory that lives on the benchmark's own event loop.

The facade runs its connections on a loop of its own (``AsyncAgentMemory.home``). Benchmarks that reach
past the public methods (a store's ``drop``, the embedder for a floor, the pools) use those connections
from their own loop, so their memory lives there instead: no thread, no hop between loops.
"""

from __future__ import annotations

import asyncio

from agentx_memory import AsyncAgentMemory
from agentx_memory._compat.home import BorrowedHome

__all__ = ["here"]


def here(memory: AsyncAgentMemory) -> AsyncAgentMemory:
    """``memory``, living on the running loop (call before its first use, inside that loop)."""
    memory.home = BorrowedHome(asyncio.get_running_loop())
    return memory
