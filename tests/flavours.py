"""Both flavours from one test source: the async source modules driven through a synchronous proxy.

The package's ``*_async.py`` modules are the source and the sync twins are generated from them, so a
suite written against the sync API tests the generated code only. :class:`AsyncFlavour` runs the
*async* objects behind that same API: every coroutine is run on one event loop in a dedicated thread
(background tasks, such as access reinforcement, keep running between calls as they would in an
application), and every object a call returns that comes from an ``*_async`` module (the facade of
``for_user``, ``AsyncWorkingMemory``, the backends and their subsystems and stores) is wrapped again.
Async iterators are drained into lists. Nothing is faked: the proxied calls are the real async code.
A facade keeps its connections on its own loop (``home``); the proxy runs every coroutine there, so
that a test reaching past the facade (the backends, a store) uses the connections where they live.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import AsyncIterator, Callable, Coroutine
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar, cast

from agentx_memory._compat.home import BorrowedHome, HomeLoop
from agentx_memory._compat.sync import HomeLoop as SyncHomeLoop

if TYPE_CHECKING:
    from agentx_memory import AsyncAgentMemory

__all__ = ["FLAVOURS", "AsyncFlavour", "EventLoopThread", "as_sync", "on_this_loop"]

M = TypeVar("M", bound="AsyncAgentMemory")

#: The pytest ids of the two flavours.
FLAVOURS = ("sync", "async")
T = TypeVar("T")


class EventLoopThread:
    """One event loop running in a daemon thread; ``run`` waits for a coroutine's result."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="async-flavour", daemon=True)
        self._thread.start()
        self.coroutines_run = 0

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        self.coroutines_run += 1
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()


def _from_async_source(value: object) -> bool:
    module = type(value).__module__
    return module.startswith("agentx_memory.") and module.endswith("_async")


async def _drain(iterator: AsyncIterator[Any]) -> list[Any]:
    return [item async for item in iterator]


class AsyncFlavour:
    """A synchronous view of an object from an async source module (see the module docstring)."""

    def __init__(self, target: object, loop: EventLoopThread, home: HomeLoop | None = None) -> None:
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_loop", loop)
        object.__setattr__(self, "_home", home)

    def _wrap(self, value: Any) -> Any:
        loop: EventLoopThread = object.__getattribute__(self, "_loop")
        home: HomeLoop | None = object.__getattribute__(self, "_home")
        if inspect.isasyncgen(value) or isinstance(value, AsyncIterator):
            value = _drain(value)
        if inspect.iscoroutine(value):
            value = loop.run(value if home is None else home.run(value))
        return AsyncFlavour(value, loop, home) if _from_async_source(value) else value

    def __getattr__(self, name: str) -> Any:
        value = getattr(object.__getattribute__(self, "_target"), name)
        if isinstance(value, HomeLoop):  # sync code given the proxy (maintenance) runs steps eagerly
            return SyncHomeLoop()
        if callable(value) and not isinstance(value, type):
            method = cast(Callable[..., Any], value)
            return lambda *args, **kwargs: self._wrap(method(*args, **kwargs))
        return self._wrap(value)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_target"), name, value)

    def __enter__(self) -> AsyncFlavour:
        self._wrap(object.__getattribute__(self, "_target").__aenter__())
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        # Closed from the test's loop, as an application closes it: ``close`` ends the home loop.
        loop: EventLoopThread = object.__getattribute__(self, "_loop")
        loop.run(object.__getattribute__(self, "_target").__aexit__(exc_type, exc, tb))

    def __repr__(self) -> str:
        return f"AsyncFlavour({object.__getattribute__(self, '_target')!r})"

    @property
    def target(self) -> Any:
        """The async object behind the proxy (tests that prove the flavour look at it)."""
        return object.__getattribute__(self, "_target")


def on_this_loop(memory: M) -> M:
    """``memory`` living on the running loop instead of a thread of its own: for tests that reach past
    the facade into its stores and pools (which belong to the loop they were opened on)."""
    memory.home = BorrowedHome(asyncio.get_running_loop())
    return memory


def as_sync(target: object, loop: EventLoopThread, expected: type[T]) -> T:
    """``target`` (an async-source object) as the sync type ``expected`` the tests are written for."""
    home = getattr(target, "home", None)
    return cast(T, AsyncFlavour(target, loop, home if isinstance(home, HomeLoop) else None))
