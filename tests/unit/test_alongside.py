"""The concurrency shim's ``alongside``/``finished``: beside the caller in both flavours."""

from __future__ import annotations

import asyncio
import os
import threading

import pytest

from agentx_memory._compat import aio, sync


def test_sync_alongside_runs_on_another_thread_while_the_caller_goes_on() -> None:
    release = threading.Event()
    caller = threading.get_ident()

    def step(value: int) -> tuple[int, int]:
        # Waits for the caller: would never finish if the step ran in the caller's thread first.
        assert release.wait(5)
        return value * 2, threading.get_ident()

    started = sync.alongside(step, 21)
    release.set()
    value, thread = sync.finished(started)
    assert value == 42
    assert thread != caller


def test_sync_alongside_hands_back_the_steps_error() -> None:
    def fails() -> None:
        raise ValueError("broken step")

    with pytest.raises(ValueError, match="broken step"):
        sync.finished(sync.alongside(fails))


def test_async_alongside_runs_beside_the_caller() -> None:
    order: list[str] = []

    async def step() -> int:
        order.append("step")
        return 7

    async def caller() -> int:
        started = aio.alongside(step)
        order.append("caller")  # before the step: a task runs once the caller yields
        return await aio.finished(started)

    assert asyncio.run(caller()) == 7
    assert order == ["caller", "step"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_runs_alongside_steps_on_threads_of_its_own() -> None:
    sync.finished(sync.alongside(int, "1"))  # the parent's pool exists before the fork
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe and exits
        try:
            value = sync.alongside(int, "42").result(timeout=10)  # the parent's dead threads: a hang
            os.write(writer, str(value).encode())
        finally:
            os._exit(0)
    os.close(writer)
    _, status = os.waitpid(child, 0)
    assert os.read(reader, 16) == b"42"
    assert os.waitstatus_to_exitcode(status) == 0
