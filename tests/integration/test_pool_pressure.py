"""Connection pools under pressure: many more concurrent calls than pool slots, on the real servers.

Every call either finishes or fails with :class:`StoreUnavailableError` (never a raw driver error such
as psycopg's ``PoolTimeout``), nothing deadlocks (each storm runs under an overall timeout), and no
connection leaks: afterwards no connection is checked out of the pool, a further call works, and
Postgres never saw more of the app's connections than ``pool_max``.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from agentx_memory import AgentMemory, AsyncAgentMemory, Settings
from agentx_memory._compat.aio import drain
from agentx_memory._compat.home import BorrowedHome
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.errors import StoreUnavailableError
from agentx_memory.stores.redis_async import AsyncRedisStore
from tests.conftest import cleanup, isolated_settings
from tests.flavours import on_this_loop

POOL_MAX = 2
POOL_TIMEOUT_S = 1.0
CALLS = 50
THREADS = 16
#: No storm may take longer than this: a deadlock shows up as this timeout, not as a hung suite.
STORM_DEADLINE_S = 120.0


@pytest.fixture
def small_pool(endpoints: ResolvedEndpoints, data_dir: Path) -> Iterator[tuple[Settings, str]]:
    """Settings with a two-connection Postgres pool and a one-second wait for a slot; the connections
    carry an ``application_name`` of their own so ``pg_stat_activity`` shows exactly this app's."""
    app = f"agx_pool_{uuid.uuid4().hex[:8]}"
    chosen = isolated_settings(
        endpoints,
        data_dir,
        postgres={
            "url": f"{endpoints.postgres_url}&application_name={app}",
            "pool_min": 0,
            "pool_max": POOL_MAX,
            "connect_timeout_s": POOL_TIMEOUT_S,
        },
    )
    yield chosen, app
    cleanup(chosen, endpoints)


class PeakConnections:
    """The most connections of ``app`` Postgres reports at once, sampled on a thread of its own."""

    def __init__(self, url: str, app: str) -> None:
        self._conn = psycopg.connect(url, autocommit=True)
        self._app = app
        self._stop = threading.Event()
        self.peak = 0
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.now())
            time.sleep(0.01)

    def now(self) -> int:
        row = self._conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (self._app,)
        ).fetchone()
        return int(row[0]) if row else 0

    def __enter__(self) -> PeakConnections:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.now())
        self._conn.close()


def outcome(result: object) -> str:
    """``ok``, ``StoreUnavailableError``, or the class of anything else that came back."""
    if isinstance(result, BaseException):
        return type(result).__name__
    return "ok"


def checked_out(pool: Any) -> int:
    stats = pool.get_stats()
    return int(stats["pool_size"]) - int(stats["pool_available"])


async def test_async_storm_finishes_or_fails_cleanly_and_leaks_nothing(
    small_pool: tuple[Settings, str], endpoints: ResolvedEndpoints, embedder: Embedder
) -> None:
    settings, app = small_pool
    async with on_this_loop(AsyncAgentMemory("pool-a", settings=settings, embedder=embedder)) as mem:
        conversation = await mem.new_conversation()
        await mem.store_turn(conversation, "user", "I keep my bike in the shed behind the house.")

        def call(index: int) -> Callable[[], Awaitable[object]]:
            match index % 5:
                case 0:
                    return lambda: mem.store_turn(conversation, "user", f"note {index}: the shed is green")
                case 1:
                    return lambda: mem.remember("where is my bike?", top_k=5)
                case 2:
                    return lambda: mem.get_context("bike", budget_tokens=300)
                case 3:
                    return lambda: mem.learn_fact(f"fact {index}", confidence=0.8, source="test")
                case _:
                    return lambda: mem.get_recent_turns(hours=1, limit=5)

        with PeakConnections(endpoints.postgres_url, app) as peak:
            results = await asyncio.wait_for(
                asyncio.gather(*(call(i)() for i in range(CALLS)), return_exceptions=True),
                STORM_DEADLINE_S,
            )
        outcomes = Counter(outcome(result) for result in results)
        assert set(outcomes) <= {"ok", "StoreUnavailableError"}, outcomes
        for result in results:
            if isinstance(result, StoreUnavailableError):
                assert "Postgres gave no pooled connection" in str(result), result
        assert outcomes["ok"] > 0, outcomes
        backends = await mem._open_backends()
        # Recall's access counts are written by background tasks: they hold connections too.
        await asyncio.wait_for(drain(backends.pending), STORM_DEADLINE_S)
        pool = backends.ledger._pool
        assert checked_out(pool) == 0, pool.get_stats()
        assert pool.get_stats().get("requests_waiting", 0) == 0
        assert peak.peak <= POOL_MAX, peak.peak
        assert len(await mem.get_conversation(conversation)) >= 1  # a further call works


async def test_calls_that_wait_past_the_pool_timeout_fail_with_store_unavailable(
    small_pool: tuple[Settings, str], embedder: Embedder
) -> None:
    """Every slot held elsewhere: each call gives up after about ``pool_timeout`` with a
    :class:`StoreUnavailableError` naming Postgres, and the pool serves again once the slots return."""
    settings, _ = small_pool
    async with on_this_loop(AsyncAgentMemory("pool-t", settings=settings, embedder=embedder)) as mem:
        conversation = await mem.new_conversation()
        backends = await mem._open_backends()
        pool = backends.ledger._pool
        async with pool.connection(), pool.connection():  # both slots taken
            began = time.monotonic()
            results = await asyncio.wait_for(
                asyncio.gather(
                    *(mem.store_turn(conversation, "user", f"waiting {i}") for i in range(CALLS // 2)),
                    *(mem.get_recent_turns(hours=1) for _ in range(CALLS // 2)),
                    return_exceptions=True,
                ),
                STORM_DEADLINE_S,
            )
            waited = time.monotonic() - began
        assert Counter(outcome(result) for result in results) == {"StoreUnavailableError": CALLS}
        assert all("Postgres gave no pooled connection in time" in str(result) for result in results)
        assert all("postgres.pool_max" in str(result) for result in results)
        assert POOL_TIMEOUT_S <= waited < POOL_TIMEOUT_S + 10, waited
        await asyncio.wait_for(drain(backends.pending), STORM_DEADLINE_S)
        assert checked_out(pool) == 0, pool.get_stats()
        assert await mem.get_conversation(conversation) == []  # nothing half-written, and it works again
        await mem.store_turn(conversation, "user", "after the storm")
        assert len(await mem.get_conversation(conversation)) == 1


def test_threaded_storm_on_the_sync_facade(
    small_pool: tuple[Settings, str], endpoints: ResolvedEndpoints, embedder: Embedder
) -> None:
    settings, app = small_pool
    with AgentMemory("pool-s", settings=settings, embedder=embedder) as mem:
        conversation = mem.new_conversation()
        results: list[tuple[str, object]] = []
        lock = threading.Lock()
        start = threading.Barrier(THREADS)

        def worker(index: int) -> None:
            start.wait()
            for step in range(CALLS // THREADS + 1):
                op = "store_turn" if (index + step) % 2 else "remember"
                try:
                    if op == "store_turn":
                        got: object = mem.store_turn(conversation, "user", f"thread {index} step {step}")
                    else:
                        got = mem.remember("what did thread 3 say?", top_k=5)
                except Exception as exc:  # every outcome is classified below
                    got = exc
                with lock:
                    results.append((op, got))

        pool = mem._open_backends().ledger._pool
        with PeakConnections(endpoints.postgres_url, app) as peak:
            threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(THREADS)]
            # Both slots held for longer than the pool timeout: the first calls must give up cleanly,
            # the later ones get through.
            with pool.connection(), pool.connection():
                for thread in threads:
                    thread.start()
                time.sleep(POOL_TIMEOUT_S * 1.5)
            deadline = time.monotonic() + STORM_DEADLINE_S
            for thread in threads:
                thread.join(max(0.0, deadline - time.monotonic()))
            assert not any(thread.is_alive() for thread in threads), "deadlock: a worker never returned"
        outcomes = Counter(outcome(result) for _, result in results)
        assert set(outcomes) == {"ok", "StoreUnavailableError"}, outcomes
        assert checked_out(pool) == 0, pool.get_stats()
        assert peak.peak <= POOL_MAX, peak.peak
        stored = sum(1 for op, result in results if op == "store_turn" and outcome(result) == "ok")
        assert len(mem.get_conversation(conversation)) >= stored  # a further call works; none lost


async def test_redis_pool_storm_queues_and_returns_every_connection(endpoints: ResolvedEndpoints) -> None:
    """Redis' pool is a blocking one of fixed size: 50 calls over 2 connections all finish, and every
    connection is back in the pool afterwards."""
    store = AsyncRedisStore(endpoints.redis_url, max_connections=POOL_MAX)
    prefix = f"pool{uuid.uuid4().hex[:8]}"
    try:

        async def one(index: int) -> None:
            key = f"{prefix}:k{index % 7}"
            await store.push_capped(key, [f"v{index}"], max_len=5, ttl_s=60)

        await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(CALLS))), STORM_DEADLINE_S)
        pool = store._pool
        assert len(pool._in_use_connections) == 0
        assert len(pool._available_connections) <= POOL_MAX
        await store.ping()
    finally:
        await store.delete_matching(f"{prefix}:*")
        await store.close()


async def test_user_lock_holders_leave_connections_for_their_writes(
    small_pool: tuple[Settings, str], embedder: Embedder
) -> None:
    """Each holder of a user lock keeps a pooled connection and writes on another (a consolidation's
    chunk): with more holders than pool slots, all finish, because holders take at most half the pool.
    Without that bound two holders took both connections and each waited for a third until the pool's
    timeout."""
    settings, _app = small_pool
    async with on_this_loop(AsyncAgentMemory("alice", settings=settings, embedder=embedder)) as memory:
        ledger = (await memory._open_backends()).ledger
        done: list[int] = []

        async def holder(number: int) -> None:
            async with ledger.user_lock(f"user-{number % 2}", shared=True):
                await asyncio.sleep(0.05)  # the holder is mid-chunk when the others arrive
                row = await ledger.fetch_one(
                    "get_conversation", {"conversation_id": str(uuid.uuid4()), "user_id": "x"}
                )
                assert row is None
                done.append(number)

        await asyncio.wait_for(asyncio.gather(*(holder(n) for n in range(6))), STORM_DEADLINE_S)
        assert sorted(done) == list(range(6))


@pytest.mark.parametrize("group", ["redis", "graph"])
@pytest.mark.parametrize("bad", [{"pool_max": 0}, {"pool_max": 5000}, {"pool_timeout_s": 0}])
def test_redis_and_graph_pool_settings_are_validated(group: str, bad: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="pool_"):
        Settings.model_validate({group: bad})


async def test_redis_and_graph_pools_take_their_size_and_wait_from_settings(
    endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> None:
    """``redis.pool_max`` / ``graph.pool_max`` bound the connections a process opens (a storm of 50
    calls over 2 of each), and a call that finds every slot taken fails after ``pool_timeout_s`` with
    a :class:`StoreUnavailableError` naming the setting to raise.

    The storm waits as long as it takes (``STORM_DEADLINE_S``): with a 1 s wait, 25 calls queued on two
    connections of a loaded 2-core host can legitimately run out of it, which is the setting working,
    not a bound broken. The wait itself is then measured where it must fail: every slot held."""
    storm = {"pool_max": POOL_MAX, "pool_timeout_s": STORM_DEADLINE_S}
    settings = isolated_settings(endpoints, data_dir, redis=storm, graph=storm)
    try:
        mem = AsyncAgentMemory("pool-r", settings=settings, embedder=embedder)
        mem.home = BorrowedHome(asyncio.get_running_loop())  # the test holds the pools' connections here
        async with mem:
            conversation = await mem.new_conversation()
            await asyncio.wait_for(
                asyncio.gather(
                    *(mem.store_turn(conversation, "user", f"note {i}: bees") for i in range(CALLS // 2)),
                    *(mem.search_facts("bees") for _ in range(CALLS // 2)),
                ),
                STORM_DEADLINE_S,
            )
            backends = await mem._open_backends()
            graph_pool = backends.graph._pool  # type: ignore[attr-defined]  # FalkorDB's, by design here
            for pool in (backends.redis._pool, graph_pool):
                assert pool.max_connections == POOL_MAX
                assert pool.timeout == STORM_DEADLINE_S
                assert len(pool._available_connections) + len(pool._in_use_connections) <= POOL_MAX
    finally:
        cleanup(settings, endpoints)
    pools = {"pool_max": POOL_MAX, "pool_timeout_s": POOL_TIMEOUT_S}
    settings = isolated_settings(endpoints, data_dir, redis=pools, graph=pools)
    try:
        mem = AsyncAgentMemory("pool-r", settings=settings, embedder=embedder)
        mem.home = BorrowedHome(asyncio.get_running_loop())
        async with mem:
            backends = await mem._open_backends()
            redis_pool = backends.redis._pool
            assert (redis_pool.timeout, backends.graph._pool.timeout) == (POOL_TIMEOUT_S, POOL_TIMEOUT_S)  # type: ignore[attr-defined]
            held = [await redis_pool.get_connection() for _ in range(POOL_MAX)]  # type: ignore[no-untyped-call]
            try:
                with pytest.raises(StoreUnavailableError, match=r"redis\.pool_max"):
                    await asyncio.wait_for(backends.redis.ping(), STORM_DEADLINE_S)
            finally:
                for connection in held:
                    await redis_pool.release(connection)
            await backends.redis.ping()
    finally:
        cleanup(settings, endpoints)
