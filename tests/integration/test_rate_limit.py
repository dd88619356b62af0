"""The per-user recall rate limit (``limits.recall_per_minute`` / ``recall_burst``): off by default, a
token bucket in Redis shared by every caller, ``RateLimitedError`` saying when to retry, one user's
budget independent of another's, atomic under concurrency, gone with ``forget_user``."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from agentx_memory import AgentMemory, InvalidInputError, RateLimitedError, Settings
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.memory.rate_limit import RateLimiter
from agentx_memory.memory.rate_limit_async import AsyncRateLimiter
from agentx_memory.models import Scope
from agentx_memory.settings import LimitSettings
from agentx_memory.stores import keys
from agentx_memory.stores.redis import RedisStore
from agentx_memory.stores.redis_async import AsyncRedisStore
from tests.conftest import cleanup, isolated_settings


@pytest.fixture
def limited(
    request: pytest.FixtureRequest, endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> Iterator[AgentMemory]:
    """A facade for alice with the limits given as ``(per_minute, burst)`` by indirect parametrisation."""
    per_minute, burst = request.param
    chosen = isolated_settings(
        endpoints, data_dir, limits={"recall_per_minute": per_minute, "recall_burst": burst}
    )
    try:
        with AgentMemory("alice", settings=chosen, embedder=embedder) as mem:
            yield mem
    finally:
        cleanup(chosen, endpoints)


def bucket_keys(settings: Settings, endpoints: ResolvedEndpoints) -> list[str]:
    store = RedisStore(endpoints.redis_url)
    try:
        return list(store.scan(f"{settings.redis.key_prefix}:ratelimit:*"))
    finally:
        store.close()


def test_off_by_default(memory: AgentMemory, settings: Settings, endpoints: ResolvedEndpoints) -> None:
    assert settings.limits.recall_per_minute == 0
    for index in range(40):
        memory.remember(f"question {index}")
    assert bucket_keys(settings, endpoints) == []


@pytest.mark.parametrize("limited", [(3, 3)], indirect=True)
def test_over_the_limit_raises_with_when_to_retry(limited: AgentMemory, endpoints: ResolvedEndpoints) -> None:
    with pytest.raises(InvalidInputError):
        limited.remember("")  # refused input takes no token
    limited.remember("where do I live?")
    limited.get_context("where do I live?")
    limited.search_facts("home")
    with pytest.raises(RateLimitedError) as raised:
        limited.search_entities("home")
    assert 15 <= raised.value.retry_after <= 20.5  # one token per 20 s
    assert "retry in" in str(raised.value)
    assert "3 per minute" in str(raised.value)
    with pytest.raises(RateLimitedError):
        limited.find_strategies("find a home")
    bob = limited.for_user("bob")
    bob.remember("where do I live?")  # another user's budget is his own
    limited.learn_fact("alice lives in Lisbon", confidence=0.9, source="user")  # writes are not limited
    assert len(bucket_keys(limited.settings, endpoints)) == 2
    limited.forget_user()
    assert bucket_keys(limited.settings, endpoints) == [
        keys.rate_limit(limited.settings.redis.key_prefix, "bob", "recall")
    ]


@pytest.mark.parametrize("limited", [(30, 1)], indirect=True)
def test_the_bucket_refills_at_the_rate(limited: AgentMemory) -> None:
    # One token every 2 s: a refill cannot land between two calls however loaded the machine (at 10 a
    # second a slow first call had refilled the bucket before the second: a fresh-clone run failed so)
    limited.remember("first")
    with pytest.raises(RateLimitedError) as raised:
        limited.remember("second")
    assert 0 < raised.value.retry_after <= 2.0
    time.sleep(raised.value.retry_after + 0.05)
    limited.remember("third")


async def test_concurrent_calls_never_share_the_last_token(endpoints: ResolvedEndpoints) -> None:
    redis = AsyncRedisStore(endpoints.redis_url)
    prefix = f"t{uuid.uuid4().hex[:12]}"
    limiter = AsyncRateLimiter(redis, prefix, LimitSettings(recall_per_minute=1, recall_burst=5))
    scope = Scope(user_id="alice", channel="_global")

    async def call() -> bool:
        try:
            await limiter.admit_recall(scope, "remember")
        except RateLimitedError:
            return False
        return True

    try:
        admitted = await asyncio.gather(*(call() for _ in range(40)))
        assert sum(admitted) == 5
    finally:
        await redis.delete_matching(f"{prefix}:*")
        await redis.close()


def test_threads_never_overdraw_and_users_do_not_share_a_bucket(endpoints: ResolvedEndpoints) -> None:
    """8 threads x 2 users x 30 calls against buckets of 5 that refill once a minute: each user gets
    exactly 5, however the calls interleave (a read-then-write check lets several threads take the same
    last token)."""
    redis = RedisStore(endpoints.redis_url, max_connections=16)
    prefix = f"t{uuid.uuid4().hex[:12]}"
    limiter = RateLimiter(redis, prefix, LimitSettings(recall_per_minute=1, recall_burst=5))
    scopes = [Scope(user_id="alice", channel="_global"), Scope(user_id="bob", channel="_global")]

    def call(index: int) -> str | None:
        scope = scopes[index % 2]
        try:
            limiter.admit_recall(scope, "remember")
        except RateLimitedError:
            return None
        return scope.user_id

    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            admitted = Counter(user for user in pool.map(call, range(60)) if user is not None)
        assert admitted == {"alice": 5, "bob": 5}
    finally:
        redis.delete_matching(f"{prefix}:*")
        redis.close()


async def test_an_unreachable_redis_admits_the_call() -> None:
    redis = AsyncRedisStore("redis://127.0.0.1:1/0")
    limiter = AsyncRateLimiter(redis, "t", LimitSettings(recall_per_minute=1, recall_burst=1))
    try:
        for _ in range(3):
            await limiter.admit_recall(Scope(user_id="alice", channel="_global"), "remember")
    finally:
        await redis.close()
