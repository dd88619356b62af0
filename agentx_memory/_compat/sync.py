"""Sync side of the concurrency shim: the generated sync modules import these names from here."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, ParamSpec, TypeVar

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
C = TypeVar("C", bound=type)

Lock = threading.Lock
Semaphore = threading.Semaphore
sleep = time.sleep


class HomeLoop:
    """The sync twin has no event loop to keep connections on: calls run in the caller's thread, whose
    pools (psycopg's, redis-py's) are thread-safe already."""

    def run(self, step: R) -> R:
        """In sync code the step already ran when its call was evaluated as the argument: its result."""
        return step

    def stop(self, final: Callable[[], None]) -> None:
        final()


def homed(cls: C) -> C:
    """Nothing to move: see :class:`HomeLoop`."""
    return cls


def to_thread(func: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """In sync code blocking work simply runs in the caller's thread."""
    return func(*args, **kwargs)


def gather(*steps: None) -> None:
    """In sync code the steps already ran, one after the other, as the arguments were evaluated."""


def begin(step: R) -> R:
    """In sync code the step already ran when its call was evaluated as the argument: its result."""
    return step


#: Worker threads of :func:`alongside`, shared by every memory in the process. Its steps never wait for
#: one another, so a few suffice: a step queued behind others only runs later, it cannot deadlock.
_ALONGSIDE_THREADS = 4
_alongside_pool: ThreadPoolExecutor | None = None
_alongside_lock = threading.Lock()


def alongside(func: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
    """Start ``func(*args)`` on a pooled worker thread beside the caller's next steps; its result with
    :func:`finished`. For a step that mostly waits on a server (the socket read releases the GIL) while
    the caller embeds or queries another server."""
    global _alongside_pool
    with _alongside_lock:
        if _alongside_pool is None:
            _alongside_pool = ThreadPoolExecutor(
                _ALONGSIDE_THREADS, thread_name_prefix="agentx-memory-alongside"
            )
        pool = _alongside_pool
    return pool.submit(func, *args, **kwargs)


def _no_pool_in_a_child() -> None:
    # A forked child (a prefork worker) has none of the parent's pool threads: it starts its own.
    global _alongside_pool, _alongside_lock
    _alongside_pool = None
    _alongside_lock = threading.Lock()


os.register_at_fork(after_in_child=_no_pool_in_a_child)


def finished(started: Future[R]) -> R:
    """The result of a step started with :func:`alongside` (its error, if it failed)."""
    return started.result()


def aside(func: Callable[P, None], pending: set[Any], /, *args: P.args, **kwargs: P.kwargs) -> None:
    """Run ``func(*args)`` on a pooled worker thread (:func:`alongside`'s) off the caller's path;
    ``pending`` holds it until it ends so that :func:`drain` (``close()``) can wait for it."""
    started = alongside(func, *args, **kwargs)
    pending.add(started)
    started.add_done_callback(pending.discard)


def spawn(step: None, pending: set[Any]) -> None:
    """In sync code the step already ran when its call was evaluated as the argument."""


def background(func: Callable[P, None], pending: set[Any], /, *args: P.args, **kwargs: P.kwargs) -> None:
    """Run ``func(*args)`` on a daemon thread; ``pending`` holds the thread until it ends so that
    :func:`drain` (``close()``) can wait for it."""

    def run() -> None:
        try:
            func(*args, **kwargs)
        finally:
            pending.discard(thread)

    thread = threading.Thread(target=run, name="agentx-memory-background", daemon=True)
    pending.add(thread)
    thread.start()


def drain(pending: set[Any]) -> None:
    """Wait for the background threads and pooled steps still running (their errors were already
    logged by them)."""
    for step in list(pending):
        if isinstance(step, threading.Thread) and step is not threading.current_thread():
            step.join()
        elif isinstance(step, Future):
            wait([step])


def within(step: R, seconds: float) -> R:
    """In sync code the step already ran (bounded by its store's own socket timeouts): its result."""
    return step
