"""Redis adapter for working memory, locks and job records. Async source of ``stores/redis.py``.

Thin on purpose: each method is one atomic round trip (a MULTI pipeline where several commands must
land together) and every key it touches carries a TTL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence

import redis.asyncio
import redis.exceptions

from ..settings import RedisSettings
from .driver_errors import redis_errors, text
from .redis_scripts import EXTEND, TOKEN_BUCKET

__all__ = ["AsyncRedisStore"]

#: Compare-and-delete, atomic on the server: only the holder's token releases the lock.
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class AsyncRedisStore:
    @classmethod
    def of(cls, url: str, settings: RedisSettings) -> AsyncRedisStore:
        """The store of ``url`` with the pool ``settings`` ask (``redis.pool_max``, ``pool_timeout_s``)."""
        return cls(url, max_connections=settings.pool_max, timeout_s=settings.pool_timeout_s)

    def __init__(self, url: str, *, max_connections: int = 32, timeout_s: float = 30.0) -> None:
        self._pool = redis.asyncio.BlockingConnectionPool.from_url(
            url, max_connections=max_connections, timeout=timeout_s, decode_responses=True
        )
        self._client: redis.asyncio.Redis = redis.asyncio.Redis(connection_pool=self._pool)
        self._bucket = self._client.register_script(TOKEN_BUCKET)

    async def ping(self) -> None:
        with redis_errors("pinging"):
            await self._client.ping()

    async def push_capped(self, key: str, values: Sequence[str], max_len: int, ttl_s: int) -> None:
        """Append to a list, keep its last ``max_len`` items, refresh its TTL — atomically."""
        with redis_errors("appending to working memory"):
            async with self._client.pipeline(transaction=True) as pipe:
                pipe.rpush(key, *values)
                pipe.ltrim(key, -max_len, -1)
                pipe.expire(key, ttl_s)
                await pipe.execute()

    async def tail(self, key: str, count: int) -> list[str]:
        """The last ``count`` items of a list, oldest first."""
        with redis_errors("reading working memory"):
            items = await self._client.lrange(key, -count, -1)
        return [text(item) for item in items]

    async def fold_head(self, list_key: str, count: int, value_key: str, value: str, ttl_s: int) -> None:
        """Drop a list's first ``count`` items and set ``value_key`` to ``value`` (with a TTL), atomically:
        items appended meanwhile stay, which rewriting the list would lose (compaction of a session)."""
        with redis_errors("compacting working memory"):
            async with self._client.pipeline(transaction=True) as pipe:
                pipe.set(value_key, value, ex=ttl_s)
                pipe.ltrim(list_key, count, -1)
                await pipe.execute()

    async def set_value(self, key: str, value: str, ttl_s: int, index_key: str | None = None) -> None:
        """Set a string with a TTL; optionally record it in an index set that lives at least as long."""
        with redis_errors("writing working memory"):
            async with self._client.pipeline(transaction=True) as pipe:
                pipe.set(key, value, ex=ttl_s)
                if index_key is not None:
                    pipe.sadd(index_key, key)
                    # GT keeps the longest TTL of any member, so the index never expires before one.
                    pipe.expire(index_key, ttl_s, gt=True)
                    pipe.expire(index_key, ttl_s, nx=True)
                await pipe.execute()

    async def get_values(self, keys: Sequence[str]) -> list[str | None]:
        """The values of ``keys`` in one round trip (None where a key is missing)."""
        if not keys:
            return []
        with redis_errors("reading the cache"):
            found = await self._client.mget(list(keys))
        return [None if value is None else text(value) for value in found]

    async def set_values(self, values: Mapping[str, str], ttl_s: int) -> None:
        """Set several strings, each with the TTL, in one round trip."""
        if not values:
            return
        with redis_errors("writing the cache"):
            async with self._client.pipeline(transaction=False) as pipe:
                for key, value in values.items():
                    pipe.set(key, value, ex=ttl_s)
                await pipe.execute()

    async def acquire(self, key: str, token: str, ttl_s: int) -> bool:
        """Take a lock: set ``key`` to ``token`` unless it exists (it expires after ``ttl_s``)."""
        with redis_errors("taking a lock"):
            return bool(await self._client.set(key, token, nx=True, ex=ttl_s))

    async def extend(self, key: str, token: str, ttl_s: int) -> bool:
        """Renew a lock's lease for ``ttl_s`` only if ``token`` still holds it."""
        with redis_errors("renewing a lock"):
            return bool(await self._client.eval(EXTEND, 1, key, token, ttl_s))

    async def release(self, key: str, token: str) -> bool:
        """Release a lock only if ``token`` still holds it (an expired lock may have a new owner)."""
        with redis_errors("releasing a lock"):
            return bool(await self._client.eval(_RELEASE, 1, key, token))

    async def take_token(self, key: str, per_second: float, capacity: int) -> float | None:
        """Take one token from the bucket at ``key`` (one round trip, ``EVALSHA`` once cached): None
        when taken, else the seconds until one is available."""
        with redis_errors("checking the rate limit"):
            admitted, wait_ms = await self._bucket(keys=[key], args=[repr(per_second), capacity])
        return None if int(admitted) else int(wait_ms) / 1000

    async def get_value(self, key: str) -> str | None:
        with redis_errors("reading working memory"):
            value = await self._client.get(key)
        return None if value is None else text(value)

    async def delete(self, *keys: str, index_key: str | None = None) -> int:
        with redis_errors("deleting from working memory"):
            async with self._client.pipeline(transaction=True) as pipe:
                pipe.delete(*keys)
                if index_key is not None:
                    pipe.srem(index_key, *keys)
                results = await pipe.execute()
        return int(results[0])

    async def indexed_values(self, index_key: str) -> dict[str, str]:
        """Values of every live key in an index set; expired members are pruned on the way."""
        with redis_errors("reading working memory"):
            members = sorted(text(member) for member in await self._client.smembers(index_key))
            if not members:
                return {}
            values = await self._client.mget(members)
            dead = [member for member, value in zip(members, values, strict=True) if value is None]
            if dead:
                await self._client.srem(index_key, *dead)
        return {
            member: text(value) for member, value in zip(members, values, strict=True) if value is not None
        }

    async def ttl(self, key: str) -> int:
        with redis_errors("reading a TTL"):
            return int(await self._client.ttl(key))

    async def key_count(self) -> int:
        with redis_errors("counting keys"):
            return int(await self._client.dbsize())

    async def scan(self, pattern: str) -> AsyncIterator[str]:
        with redis_errors("scanning keys"):
            async for key in self._client.scan_iter(match=pattern, count=500):
                yield text(key)

    async def rewrite_items(self, key: str, rewrite: Callable[[str], str | None]) -> int:
        """Replace each item of a list by ``rewrite(item)`` (``None``: leave it), in place, keeping the
        list's TTL; atomic against writers meanwhile (``WATCH``: a list changed under it is read again).
        Returns how many items changed."""
        with redis_errors("rewriting a list"):
            async with self._client.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        await pipe.watch(key)  # type: ignore[no-untyped-call, unused-ignore]
                        items = [text(item) for item in await pipe.lrange(key, 0, -1)]
                        changed = {
                            i: new for i, item in enumerate(items) if (new := rewrite(item)) is not None
                        }
                        pipe.multi()  # type: ignore[no-untyped-call, unused-ignore]
                        for index, value in changed.items():
                            pipe.lset(key, index, value)
                        await pipe.execute()
                        return len(changed)
                    except redis.exceptions.WatchError:
                        continue

    async def delete_matching(self, pattern: str) -> int:
        """Delete every key matching ``pattern`` (used to forget sessions and users)."""
        deleted = 0
        batch: list[str] = []
        async for key in self.scan(pattern):
            batch.append(key)
            if len(batch) >= 500:
                deleted += await self.delete(*batch)
                batch = []
        if batch:
            deleted += await self.delete(*batch)
        return deleted

    async def close(self) -> None:
        await self._client.aclose()
        await self._pool.disconnect()
