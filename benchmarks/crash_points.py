"""Every crash point of one write path: the store's server SIGKILLed right after the 1st, 2nd, … k-th
statement one call of the operation sends to it, for every k the call reaches.

A random kill (``benchmarks/faults.py``) rarely lands between two statements a few milliseconds apart;
this sweep hits each boundary deterministically. The statements themselves run on the real server: a
spy on the store adapter's executor only counts them and, after the chosen one returned, kills the
server (and waits until it is gone), so the rest of the call meets a dead store as it would in a crash.
The server is started again before the next call; at the end ``reconcile`` / ``doctor --repair`` run and
the operation's invariants are checked, as in the random matrix.
"""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from agentx_memory import AgentMemory, embedded
from agentx_memory.embedded._common import pid_alive
from agentx_memory.embedding import Embedder
from agentx_memory.settings import Settings
from benchmarks.crash_ops import OPERATIONS, probing
from benchmarks.faults import Cell, attempt, cell_settings, finish, repair, server_pid

#: The adapter methods that send one statement, per store.
_EXECUTORS = {
    "falkordb": ("_execute",),
    "postgres": ("fetch_one", "fetch_all", "execute", "execute_relaxed", "insert_audit"),
}


@contextmanager
def _spy(target: object, names: tuple[str, ...], after: Callable[[], None]) -> Iterator[list[int]]:
    """Count the statements sent through ``target``'s ``names``; ``after()`` runs once each returned."""
    sent = [0]
    originals = {name: getattr(target, name) for name in names if hasattr(target, name)}

    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            sent[0] += 1
            after()
            return result

        return counted

    for name, method in originals.items():
        setattr(target, name, wrap(method))
    try:
        yield sent
    finally:
        for name in originals:
            delattr(target, name)  # the class's method again


def _kill(settings: Settings, store: str) -> None:
    pid = server_pid(settings, store)
    if pid is None:
        return
    os.kill(pid, signal.SIGKILL)
    name = "redis-server" if store == "falkordb" else "postgres"
    deadline = time.monotonic() + 10
    while pid_alive(pid, name) and time.monotonic() < deadline:
        time.sleep(0.01)


def sweep_cell(base: Settings, operation: str, store: str, embedder: Embedder, limit: int = 40) -> Cell:
    """One call of ``operation`` per crash point (at most ``limit``), a clean call between them, on the
    servers of ``base``."""
    settings = cell_settings(base)
    cell = Cell(operation, store, 0)
    refused: Counter[str] = Counter()
    leaked: Counter[str] = Counter()
    started = time.perf_counter()
    with AgentMemory("crash", settings=settings, embedder=embedder) as memory:
        op = OPERATIONS[operation]()
        op.prepare(memory)
        backends = memory._open_backends()
        target = backends.graph if store == "falkordb" else backends.ledger
        index = 0

        def call(kill_after: int | None) -> int:
            nonlocal index
            armed = [kill_after]

            def after() -> None:
                if armed[0] is not None and sent[0] == armed[0]:
                    armed[0] = None
                    _kill(settings, store)
                    cell.kills += 1

            with _spy(target, _EXECUTORS[store], after) as sent:
                attempt(op, memory, index, cell, refused, leaked)
            index += 1
            if kill_after is not None:
                embedded.start_or_attach(settings)
            return sent[0]

        statements = call(None)  # how many statements one clean call sends
        for point in range(1, min(statements, limit) + 1):
            call(point)
            call(None)  # the next call after the restart
        cell.iterations = cell.calls = index
        cell.repaired = repair(memory, cell)
        with probing(settings) as probe:
            tally = op.check(memory, probe)
    return finish(cell, settings, op, tally, (refused, leaked), started)
