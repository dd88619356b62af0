"""Async side of the concurrency shim; ``tools/async_to_sync.py`` maps imports of it to ``sync``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import ParamSpec, TypeVar

__all__ = ["Lock", "sleep", "to_thread"]

P = ParamSpec("P")
R = TypeVar("R")

Lock = asyncio.Lock
sleep = asyncio.sleep


async def to_thread(func: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """Run CPU-bound or blocking work (embedding, server start-up) off the event loop."""
    return await asyncio.to_thread(func, *args, **kwargs)
