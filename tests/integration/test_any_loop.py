"""The async facade from any event loop and any thread: ``asyncio.run`` after ``asyncio.run``, threads
each with their own loop, a working memory awaited on another loop than the one that made it; its home
loop ends with ``close()``; and a call the close cuts short fails at once instead of waiting. Plain
functions: each test drives the facade from loops of its own, as applications do."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time

import pytest

from agentx_memory import AsyncAgentMemory, ClosedError
from agentx_memory._compat.home import BorrowedHome, HomeLoop

TIMEOUT_S = 120


def _home_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "agentx-memory-loop"]


def test_several_asyncio_runs_and_a_working_memory_from_another_loop(loose_amemory: AsyncAgentMemory) -> None:
    cid = asyncio.run(loose_amemory.new_conversation("loops"))
    asyncio.run(loose_amemory.store_turn(cid, "user", "I keep my bike in the shed"))
    working = asyncio.run(loose_amemory.working(cid))
    asyncio.run(working.set("mood", "curious"))  # another loop than the one that made it
    assert asyncio.run(working.get("mood")) == "curious"
    assert [t.content for t in asyncio.run(working.all_turns())] == ["I keep my bike in the shed"]
    assert [t.content for t in asyncio.run(loose_amemory.get_conversation(cid))] == [
        "I keep my bike in the shed"
    ]
    bob = asyncio.run(loose_amemory.for_user("bob"))
    assert bob.home is loose_amemory.home  # one home for the connections they share
    assert asyncio.run(bob.get_conversation(cid)) == []


def test_threads_each_with_its_own_loop(loose_amemory: AsyncAgentMemory) -> None:
    cid = asyncio.run(loose_amemory.new_conversation("threads"))

    def write(thread: int) -> None:
        async def both() -> None:
            await loose_amemory.store_turn(cid, "user", f"thread {thread} first")
            await loose_amemory.remember(f"thread {thread}", top_k=2)

        asyncio.run(both())

    with concurrent.futures.ThreadPoolExecutor(max_workers=5) as pool:
        for done in [pool.submit(write, n) for n in range(5)]:
            done.result(timeout=TIMEOUT_S)
    turns = asyncio.run(loose_amemory.get_conversation(cid))
    assert sorted(t.content for t in turns) == [f"thread {n} first" for n in range(5)]
    assert [t.index for t in turns] == list(range(5))


def test_close_ends_the_home_thread_and_a_later_call_reopens(loose_amemory: AsyncAgentMemory) -> None:
    before = len(_home_threads())
    cid = asyncio.run(loose_amemory.new_conversation("reopen"))
    assert len(_home_threads()) == before + 1
    asyncio.run(loose_amemory.close())
    assert len(_home_threads()) == before
    assert asyncio.run(loose_amemory.get_conversation(cid)) == []  # opened again, on a new home


def test_a_call_cut_short_by_close_fails_at_once(loose_amemory: AsyncAgentMemory) -> None:
    asyncio.run(loose_amemory.open())
    started = threading.Event()

    async def slow() -> None:
        started.set()
        await asyncio.sleep(60)

    outcome: concurrent.futures.Future[None] = concurrent.futures.Future()

    def caller() -> None:
        try:
            asyncio.run(loose_amemory.home.run(slow()))
        except BaseException as exc:
            outcome.set_exception(exc)
        else:
            outcome.set_result(None)

    thread = threading.Thread(target=caller)
    thread.start()
    assert started.wait(TIMEOUT_S)
    began = time.monotonic()
    asyncio.run(loose_amemory.close())
    with pytest.raises(ClosedError, match="closed while this call was running"):
        outcome.result(timeout=TIMEOUT_S)
    assert time.monotonic() - began < 10
    thread.join(TIMEOUT_S)


def test_a_borrowed_loop_that_stopped_is_a_clear_error() -> None:
    loop = asyncio.new_event_loop()
    home = BorrowedHome(loop)

    async def nothing() -> int:
        return 1

    with pytest.raises(ClosedError, match="not running"):
        asyncio.run(home.run(nothing()))
    loop.close()
    assert isinstance(home, HomeLoop)
