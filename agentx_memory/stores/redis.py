# Generated from agentx_memory/stores/redis_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Redis adapter for working memory, locks and job records. Generated from ``stores/redis_async.py``: edit
that file.

Thin on purpose: each method is one atomic round trip (a MULTI pipeline where several commands must
land together) and every key it touches carries a TTL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

import redis
import redis.exceptions

from ..settings import RedisSettings
from .driver_errors import redis_errors, text
from .redis_scripts import EXTEND, TOKEN_BUCKET

__all__ = ["RedisStore"]

#: Compare-and-delete, atomic on the server: only the holder's token releases the lock.
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class RedisStore:
    @classmethod
    def of(cls, url: str, settings: RedisSettings) -> RedisStore:
        """The store of ``url`` with the pool ``settings`` ask (``redis.pool_max``, ``pool_timeout_s``)."""
        return cls(url, max_connections=settings.pool_max, timeout_s=settings.pool_timeout_s)

    def __init__(self, url: str, *, max_connections: int = 32, timeout_s: float = 30.0) -> None:
        self._pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=max_connections, timeout=timeout_s, decode_responses=True
        )
        self._client: redis.Redis = redis.Redis(connection_pool=self._pool)
        self._bucket = self._client.register_script(TOKEN_BUCKET)

    def ping(self) -> None:
        with redis_errors("pinging"):
            self._client.ping()

    def push_capped(self, key: str, values: Sequence[str], max_len: int, ttl_s: int) -> None:
        """Append to a list, keep its last ``max_len`` items, refresh its TTL — atomically."""
        with redis_errors("appending to working memory"):
            with self._client.pipeline(transaction=True) as pipe:
                pipe.rpush(key, *values)
                pipe.ltrim(key, -max_len, -1)
                pipe.expire(key, ttl_s)
                pipe.execute()

    def tail(self, key: str, count: int) -> list[str]:
        """The last ``count`` items of a list, oldest first."""
        with redis_errors("reading working memory"):
            items = self._client.lrange(key, -count, -1)
        return [text(item) for item in items]

    def fold_head(self, list_key: str, count: int, value_key: str, value: str, ttl_s: int) -> None:
        """Drop a list's first ``count`` items and set ``value_key`` to ``value`` (with a TTL), atomically:
        items appended meanwhile stay, which rewriting the list would lose (compaction of a session)."""
        with redis_errors("compacting working memory"):
            with self._client.pipeline(transaction=True) as pipe:
                pipe.set(value_key, value, ex=ttl_s)
                pipe.ltrim(list_key, count, -1)
                pipe.execute()

    def set_value(self, key: str, value: str, ttl_s: int, index_key: str | None = None) -> None:
        """Set a string with a TTL; optionally record it in an index set that lives at least as long."""
        with redis_errors("writing working memory"):
            with self._client.pipeline(transaction=True) as pipe:
                pipe.set(key, value, ex=ttl_s)
                if index_key is not None:
                    pipe.sadd(index_key, key)
                    # GT keeps the longest TTL of any member, so the index never expires before one.
                    pipe.expire(index_key, ttl_s, gt=True)
                    pipe.expire(index_key, ttl_s, nx=True)
                pipe.execute()

    def get_values(self, keys: Sequence[str]) -> list[str | None]:
        """The values of ``keys`` in one round trip (None where a key is missing)."""
        if not keys:
            return []
        with redis_errors("reading the cache"):
            found = self._client.mget(list(keys))
        return [None if value is None else text(value) for value in found]

    def set_values(self, values: Mapping[str, str], ttl_s: int) -> None:
        """Set several strings, each with the TTL, in one round trip."""
        if not values:
            return
        with redis_errors("writing the cache"):
            with self._client.pipeline(transaction=False) as pipe:
                for key, value in values.items():
                    pipe.set(key, value, ex=ttl_s)
                pipe.execute()

    def acquire(self, key: str, token: str, ttl_s: int) -> bool:
        """Take a lock: set ``key`` to ``token`` unless it exists (it expires after ``ttl_s``)."""
        with redis_errors("taking a lock"):
            return bool(self._client.set(key, token, nx=True, ex=ttl_s))

    def extend(self, key: str, token: str, ttl_s: int) -> bool:
        """Renew a lock's lease for ``ttl_s`` only if ``token`` still holds it."""
        with redis_errors("renewing a lock"):
            return bool(self._client.eval(EXTEND, 1, key, token, ttl_s))

    def release(self, key: str, token: str) -> bool:
        """Release a lock only if ``token`` still holds it (an expired lock may have a new owner)."""
        with redis_errors("releasing a lock"):
            return bool(self._client.eval(_RELEASE, 1, key, token))

    def take_token(self, key: str, per_second: float, capacity: int) -> float | None:
        """Take one token from the bucket at ``key`` (one round trip, ``EVALSHA`` once cached): None
        when taken, else the seconds until one is available."""
        with redis_errors("checking the rate limit"):
            admitted, wait_ms = self._bucket(keys=[key], args=[repr(per_second), capacity])
        return None if int(admitted) else int(wait_ms) / 1000

    def get_value(self, key: str) -> str | None:
        with redis_errors("reading working memory"):
            value = self._client.get(key)
        return None if value is None else text(value)

    def delete(self, *keys: str, index_key: str | None = None) -> int:
        with redis_errors("deleting from working memory"):
            with self._client.pipeline(transaction=True) as pipe:
                pipe.delete(*keys)
                if index_key is not None:
                    pipe.srem(index_key, *keys)
                results = pipe.execute()
        return int(results[0])

    def indexed_values(self, index_key: str) -> dict[str, str]:
        """Values of every live key in an index set; expired members are pruned on the way."""
        with redis_errors("reading working memory"):
            members = sorted(text(member) for member in self._client.smembers(index_key))
            if not members:
                return {}
            values = self._client.mget(members)
            dead = [member for member, value in zip(members, values, strict=True) if value is None]
            if dead:
                self._client.srem(index_key, *dead)
        return {
            member: text(value) for member, value in zip(members, values, strict=True) if value is not None
        }

    def ttl(self, key: str) -> int:
        with redis_errors("reading a TTL"):
            return int(self._client.ttl(key))

    def key_count(self) -> int:
        with redis_errors("counting keys"):
            return int(self._client.dbsize())

    def scan(self, pattern: str) -> Iterator[str]:
        with redis_errors("scanning keys"):
            for key in self._client.scan_iter(match=pattern, count=500):
                yield text(key)

    def rewrite_items(self, key: str, rewrite: Callable[[str], str | None]) -> int:
        """Replace each item of a list by ``rewrite(item)`` (``None``: leave it), in place, keeping the
        list's TTL; atomic against writers meanwhile (``WATCH``: a list changed under it is read again).
        Returns how many items changed."""
        with redis_errors("rewriting a list"):
            with self._client.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        pipe.watch(key)  # type: ignore[no-untyped-call, unused-ignore]
                        items = [text(item) for item in pipe.lrange(key, 0, -1)]
                        changed = {
                            i: new for i, item in enumerate(items) if (new := rewrite(item)) is not None
                        }
                        pipe.multi()  # type: ignore[no-untyped-call, unused-ignore]
                        for index, value in changed.items():
                            pipe.lset(key, index, value)
                        pipe.execute()
                        return len(changed)
                    except redis.exceptions.WatchError:
                        continue

    def delete_matching(self, pattern: str) -> int:
        """Delete every key matching ``pattern`` (used to forget sessions and users)."""
        deleted = 0
        batch: list[str] = []
        for key in self.scan(pattern):
            batch.append(key)
            if len(batch) >= 500:
                deleted += self.delete(*batch)
                batch = []
        if batch:
            deleted += self.delete(*batch)
        return deleted

    def close(self) -> None:
        self._client.close()
        self._pool.disconnect()
