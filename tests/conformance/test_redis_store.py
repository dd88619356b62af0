"""RedisStore against the session's real server (the embedded FalkorDB is a Redis server)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest
import redis

from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.errors import StoreUnavailableError
from agentx_memory.stores.redis import RedisStore


@pytest.fixture
def prefix(endpoints: ResolvedEndpoints) -> Iterator[str]:
    chosen = f"rs{uuid.uuid4().hex[:10]}"
    yield chosen
    cleaner = RedisStore(endpoints.redis_url)
    cleaner.delete_matching(f"{chosen}:*")
    cleaner.close()


@pytest.fixture
def store(endpoints: ResolvedEndpoints) -> Iterator[RedisStore]:
    opened = RedisStore(endpoints.redis_url)
    yield opened
    opened.close()


@pytest.fixture
def raw(endpoints: ResolvedEndpoints) -> Iterator[redis.Redis]:
    """A plain client to look at the server independently of the store."""
    client = redis.Redis.from_url(endpoints.redis_url, decode_responses=True)
    yield client
    client.close()


def test_push_capped_keeps_the_last_items_and_sets_ttl(
    store: RedisStore, raw: redis.Redis, prefix: str
) -> None:
    key = f"{prefix}:list"
    store.push_capped(key, ["a", "b"], max_len=3, ttl_s=100)
    store.push_capped(key, ["c", "d", "e"], max_len=3, ttl_s=200)
    assert raw.lrange(key, 0, -1) == ["c", "d", "e"]
    assert 190 <= store.ttl(key) <= 200
    assert store.tail(key, 2) == ["d", "e"]
    assert store.tail(key, 10) == ["c", "d", "e"]
    assert store.tail(f"{prefix}:missing", 5) == []


def test_fold_head_drops_the_oldest_items_and_sets_the_value(
    store: RedisStore, raw: redis.Redis, prefix: str
) -> None:
    key, value = f"{prefix}:turns", f"{prefix}:summary"
    store.push_capped(key, ["a", "b", "c", "d"], max_len=10, ttl_s=100)
    store.fold_head(key, 2, value, "a and b", ttl_s=300)
    assert raw.lrange(key, 0, -1) == ["c", "d"]
    assert store.get_value(value) == "a and b"
    assert 290 <= store.ttl(value) <= 300
    assert 90 <= store.ttl(key) <= 100  # the list keeps its own TTL


def test_set_value_with_index_and_ttl(store: RedisStore, raw: redis.Redis, prefix: str) -> None:
    index = f"{prefix}:index"
    store.set_value(f"{index}:long", "1", ttl_s=300, index_key=index)
    store.set_value(f"{index}:short", "2", ttl_s=50, index_key=index)
    assert store.get_value(f"{index}:long") == "1"
    assert 290 <= store.ttl(f"{index}:long") <= 300
    assert 40 <= store.ttl(f"{index}:short") <= 50
    # The index lives at least as long as its longest-lived member.
    assert 290 <= store.ttl(index) <= 300
    assert raw.smembers(index) == {f"{index}:long", f"{index}:short"}
    assert store.indexed_values(index) == {f"{index}:long": "1", f"{index}:short": "2"}
    store.set_value(f"{index}:longer", "3", ttl_s=900, index_key=index)
    assert 890 <= store.ttl(index) <= 900


def test_set_value_without_index(store: RedisStore, prefix: str) -> None:
    store.set_value(f"{prefix}:plain", "v", ttl_s=60)
    assert store.get_value(f"{prefix}:plain") == "v"
    assert 50 <= store.ttl(f"{prefix}:plain") <= 60
    assert store.get_value(f"{prefix}:absent") is None
    assert store.ttl(f"{prefix}:absent") == -2


def test_indexed_values_prunes_expired_members(store: RedisStore, raw: redis.Redis, prefix: str) -> None:
    index = f"{prefix}:ctx"
    store.set_value(f"{index}:gone", "x", ttl_s=1, index_key=index)
    store.set_value(f"{index}:kept", "y", ttl_s=60, index_key=index)
    time.sleep(1.2)
    assert store.indexed_values(index) == {f"{index}:kept": "y"}
    assert raw.smembers(index) == {f"{index}:kept"}
    assert store.indexed_values(f"{prefix}:empty") == {}


def test_delete_with_index(store: RedisStore, raw: redis.Redis, prefix: str) -> None:
    index = f"{prefix}:ctx"
    store.set_value(f"{index}:a", "1", ttl_s=60, index_key=index)
    store.set_value(f"{index}:b", "2", ttl_s=60, index_key=index)
    assert store.delete(f"{index}:a", index_key=index) == 1
    assert store.delete(f"{index}:a", index_key=index) == 0
    assert raw.smembers(index) == {f"{index}:b"}
    assert store.indexed_values(index) == {f"{index}:b": "2"}


def test_delete_matching_only_touches_matching_keys(store: RedisStore, raw: redis.Redis, prefix: str) -> None:
    for n in range(620):  # more than one SCAN/delete batch of 500
        raw.set(f"{prefix}:a:{n}", "x", ex=60)
    raw.set(f"{prefix}:ab:1", "kept", ex=60)
    raw.set(f"{prefix}:b:1", "kept", ex=60)
    assert store.delete_matching(f"{prefix}:a:*") == 620
    assert sorted(store.scan(f"{prefix}:*")) == [f"{prefix}:ab:1", f"{prefix}:b:1"]
    assert store.delete_matching(f"{prefix}:nothing:*") == 0


def test_values_round_trip_verbatim(store: RedisStore, prefix: str) -> None:
    value = '{"q": "\\"; FLUSHALL\\r\\n", "u": "Ωmega 😀"}\n*1\r\n$8\r\nFLUSHALL\r\n'
    store.set_value(f"{prefix}:odd", value, ttl_s=60)
    assert store.get_value(f"{prefix}:odd") == value
    store.push_capped(f"{prefix}:odd-list", [value], max_len=5, ttl_s=60)
    assert store.tail(f"{prefix}:odd-list", 1) == [value]


def test_unreachable_redis_raises_store_unavailable() -> None:
    store = RedisStore("redis://127.0.0.1:1/0")
    started = time.monotonic()
    try:
        with pytest.raises(StoreUnavailableError, match="AGENTX_REDIS__URL"):
            store.ping()
        with pytest.raises(StoreUnavailableError):
            store.set_value("k", "v", ttl_s=1)
    finally:
        store.close()
    assert time.monotonic() - started < 5
