"""The event loop that owns an async memory's connections, on a thread of its own.

redis.asyncio, psycopg's async pool and the falkordb client bind their connections, locks and waiters
to the event loop that first used them: a second ``asyncio.run`` then meets "Event loop is closed",
``Runner.run_sync`` (a loop per turn) meets "Future attached to a different loop", and callers on
several threads, each with its own loop, waited on each other's loops for ever.

Two cures were weighed. *Connections per caller loop* (pools keyed weakly by the running loop) opens
a new set of pools, with its schema check, for every ``asyncio.run``; leaves the old set to the garbage
collector, since a closed loop can no longer close its sockets; and loses the background steps
(access reinforcement, auto-consolidation) that the closing loop cancels. *One home loop per memory*,
here, keeps one set of pools for the memory's whole life: every public coroutine hops onto the home
loop (``run_coroutine_threadsafe`` + ``wrap_future``, tens of microseconds beside a database round
trip) and its background steps outlive the caller's loop. Any loop on any thread is then a caller
like any other, and ``close()`` closes the pools on the loop they belong to.

Nothing waits without bound here: the thread starts within :data:`START_TIMEOUT_S`, stops within
:data:`STOP_TIMEOUT_S`, and a call still running when its memory closes fails with
:class:`~agentx_memory.errors.ClosedError` rather than waiting for a loop that is gone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import inspect
import threading
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

from ..errors import ClosedError, StoreError

__all__ = ["START_TIMEOUT_S", "STOP_TIMEOUT_S", "BorrowedHome", "HomeLoop", "homed"]

R = TypeVar("R")
C = TypeVar("C", bound=type)

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 30.0
#: What a closing home gives the calls it cancels to finish (they are cancelled, so this is short).
_CANCEL_GRACE_S = 5.0


class _Running:
    """One started home: its loop and its thread. Steps are handed to the loop only while it accepts
    them (under ``lock``); once it stops, whatever was handed over is cancelled before the loop
    closes, so that no caller waits on a step that will never run."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.lock = threading.Lock()
        self.accepting = True
        started = threading.Event()
        self.thread = threading.Thread(target=self._serve, args=(started,), name=name, daemon=True)
        self.thread.start()
        if not started.wait(START_TIMEOUT_S):
            raise StoreError(f"the event loop thread {name!r} did not start within {START_TIMEOUT_S:g} s")

    def _serve(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(started.set)
        try:
            self.loop.run_forever()
        finally:
            with self.lock:
                self.accepting = False
            # The steps handed over before that are queued ahead of this one: it sees and cancels them.
            self.loop.run_until_complete(_cancel_others(_CANCEL_GRACE_S))
            self.loop.run_until_complete(self.loop.shutdown_default_executor())
            self.loop.close()

    def submit(self, step: Coroutine[Any, Any, R]) -> concurrent.futures.Future[R] | None:
        """Hand ``step`` to the loop, or ``None`` when it no longer accepts steps."""
        with self.lock:
            if not self.accepting or not self.thread.is_alive():
                return None
            return asyncio.run_coroutine_threadsafe(step, self.loop)

    def stop_soon(self) -> None:
        with self.lock:
            if self.accepting:
                self.loop.call_soon_threadsafe(self.loop.stop)


async def _cancel_others(grace_s: float) -> None:
    current = asyncio.current_task()
    others = [task for task in asyncio.all_tasks() if task is not current]
    for task in others:
        task.cancel()
    if others:
        await asyncio.wait(others, timeout=grace_s)


class HomeLoop:
    """The home of one memory (shared by the facades ``for_user`` makes from it): started on first
    use, stopped by :meth:`stop` (``close()``), started again if the memory is used after that."""

    def __init__(self, name: str = "agentx-memory-loop") -> None:
        self._name = name
        self._guard = threading.Lock()
        self._running: _Running | None = None

    def _submit(self, step: Coroutine[Any, Any, R]) -> concurrent.futures.Future[R]:
        with self._guard:
            running = self._running
            future = None if running is None else running.submit(step)
            if future is None:  # never started, stopped by ``stop``, or ended at interpreter exit
                running = self._running = _Running(self._name)
                # A memory dropped without ``close()`` must not leave its thread idling for ever.
                weakref.finalize(self, running.stop_soon)
                future = running.submit(step)
            if future is None:
                raise ClosedError("the memory's event loop stopped as it started (interpreter exit?)")
            return future

    def _loop(self) -> asyncio.AbstractEventLoop | None:
        running = self._running
        return None if running is None else running.loop

    def is_current(self) -> bool:
        """Whether the caller runs on this home's loop."""
        return _runs_on(self._loop())

    async def run(self, step: Coroutine[Any, Any, R]) -> R:
        """``await step`` on the home loop, from whatever loop and thread the caller is on."""
        if self.is_current():
            return await step
        try:
            future = self._submit(step)
        except BaseException:
            step.close()  # never started: no "never awaited" warning on top of the error
            raise
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if future.cancelled() and (task is None or not task.cancelling()):
                raise ClosedError("the memory was closed while this call was running") from None
            raise

    async def stop(self, final: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run ``final`` (closing the pools) on the home loop, then end the loop (cancelling what still
        runs there) and its thread. A later :meth:`run` starts a new home."""
        with self._guard:
            running, self._running = self._running, None
        if running is None:  # never started: nothing was opened on it
            await final()
            return
        if _runs_on(running.loop):  # closed from a step on the home loop: it cannot wait for itself
            await final()
            running.stop_soon()
            return
        step = final()
        future = running.submit(step)
        if future is None:  # ended at interpreter exit: its connections went with its loop
            step.close()
            return
        try:
            await asyncio.wrap_future(future)
        finally:
            running.stop_soon()
            await asyncio.to_thread(running.thread.join, STOP_TIMEOUT_S)
            if running.thread.is_alive():
                raise StoreError(
                    f"the event loop thread {self._name!r} did not stop within {STOP_TIMEOUT_S:g} s"
                )


class BorrowedHome(HomeLoop):
    """A home on a loop that its caller runs, and keeps running while the memory is used (a server's
    one loop, a test's): no thread of its own, and no hop for a call made on that loop. ``stop`` closes
    the pools there and leaves the loop alone; a call once the loop has stopped raises
    :class:`~agentx_memory.errors.ClosedError`, since pools bound to it cannot move."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._borrowed = loop

    def _loop(self) -> asyncio.AbstractEventLoop:
        return self._borrowed

    def _submit(self, step: Coroutine[Any, Any, R]) -> concurrent.futures.Future[R]:
        if self._borrowed.is_closed() or not self._borrowed.is_running():
            raise ClosedError("the event loop this memory lives on is not running")
        return asyncio.run_coroutine_threadsafe(step, self._borrowed)

    async def stop(self, final: Callable[[], Coroutine[Any, Any, None]]) -> None:
        await self.run(final())


def _runs_on(loop: asyncio.AbstractEventLoop | None) -> bool:
    try:
        return loop is not None and asyncio.get_running_loop() is loop
    except RuntimeError:  # no loop runs in the caller's thread
        return False


class _HasHome(Protocol):
    home: HomeLoop | None


def _at_home(method: Callable[..., Coroutine[Any, Any, Any]]) -> Callable[..., Coroutine[Any, Any, Any]]:
    @functools.wraps(method)
    async def call(self: _HasHome, *args: Any, **kwargs: Any) -> Any:
        step = method(self, *args, **kwargs)
        home = self.home
        return await (step if home is None else home.run(step))

    return call


#: Not moved home: ``close`` stops the home itself (a step on the home loop cannot wait for its end).
_STAYS = frozenset({"close"})


def homed(cls: C) -> C:
    """Make every public coroutine method of ``cls`` (its mixins' included) run on ``self.home``.

    The methods keep their names, signatures and docstrings; a call made on the home loop already (one
    method calling another) runs directly.
    """
    for name in dir(cls):
        if name.startswith("_") or name in _STAYS:
            continue
        member = getattr(cls, name)
        if inspect.iscoroutinefunction(member):
            setattr(cls, name, _at_home(member))
    return cls
