"""Async side of the concurrency shim; ``tools/async_to_sync.py`` maps imports of it to ``sync``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from .home import HomeLoop, homed

__all__ = [
    "HomeLoop",
    "Lock",
    "Semaphore",
    "alongside",
    "aside",
    "background",
    "begin",
    "drain",
    "finished",
    "gather",
    "homed",
    "sleep",
    "spawn",
    "to_thread",
    "within",
]

P = ParamSpec("P")
R = TypeVar("R")

Lock = asyncio.Lock
Semaphore = asyncio.Semaphore
sleep = asyncio.sleep


async def to_thread(func: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """Run CPU-bound or blocking work (embedding, server start-up) off the event loop."""
    return await asyncio.to_thread(func, *args, **kwargs)


async def gather(*steps: Awaitable[None]) -> None:
    """Run independent steps concurrently (each stores its own result); the first error propagates."""
    await asyncio.gather(*steps)


def begin(step: Coroutine[Any, Any, R]) -> asyncio.Task[R]:
    """Start ``step`` now and hand back what to await for its result, where it is needed (by several
    concurrent steps if need be): a step that waits only for part of another's inputs starts sooner."""
    return asyncio.ensure_future(step)


def alongside(
    func: Callable[P, Coroutine[Any, Any, R]], /, *args: P.args, **kwargs: P.kwargs
) -> asyncio.Task[R]:
    """Start ``func(*args)`` beside the caller's next steps, in both flavours: a task here, a pooled
    worker thread in the sync twin (where ``begin`` and ``gather`` run their steps one after the
    other). For a step that mostly waits on a server while the caller works. Await its result with
    :func:`finished`. The step must not wait for another ``alongside`` step (the sync pool is small)."""
    return asyncio.ensure_future(func(*args, **kwargs))


async def finished(started: asyncio.Task[R]) -> R:
    """The result of a step started with :func:`alongside` (its error, if it failed)."""
    return await started


def aside(
    func: Callable[P, Coroutine[Any, Any, None]], pending: set[Any], /, *args: P.args, **kwargs: P.kwargs
) -> None:
    """Run ``func(*args)`` off the caller's path in both flavours: a task here, a pooled worker thread
    in the sync twin (where :func:`spawn` runs its step at once); ``pending`` holds it for
    :func:`drain`. For a short write nobody waits for (recall reinforcement)."""
    spawn(func(*args, **kwargs), pending)


def spawn(step: Coroutine[Any, Any, None], pending: set[asyncio.Task[None]]) -> None:
    """Run ``step`` in the background (off the caller's critical path); ``pending`` keeps it alive
    until it finishes so that ``close()`` can wait for it."""
    task = asyncio.get_running_loop().create_task(step)
    pending.add(task)
    task.add_done_callback(pending.discard)


def background(
    func: Callable[P, Coroutine[Any, Any, None]], pending: set[Any], /, *args: P.args, **kwargs: P.kwargs
) -> None:
    """Run ``func(*args)`` in the background in both flavours: a task here, a daemon thread in the sync
    twin (where :func:`spawn` runs its step at once). For work too slow for the caller's path."""
    spawn(func(*args, **kwargs), pending)


async def drain(pending: set[asyncio.Task[None]]) -> None:
    """Wait for the background steps still running (their errors were already logged by them)."""
    if pending:
        await asyncio.gather(*list(pending), return_exceptions=True)


async def within(step: Awaitable[R], seconds: float) -> R:
    """``step``'s result, or :class:`TimeoutError` once ``seconds`` have passed (it is cancelled)."""
    return await asyncio.wait_for(step, seconds)
