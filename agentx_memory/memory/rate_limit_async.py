"""Per-user rate limiting of recall (seed 002). Async source of ``memory/rate_limit.py``.

One token bucket per user in Redis (``stores/keys.rate_limit``), refilled at ``limits.recall_per_minute``
and holding up to ``limits.recall_burst`` calls; the check is one Lua script, so every process sharing
the Redis server shares the budget and two concurrent calls never both take the last token. Redis
being unreachable admits the call (logged): a cache outage must not take recall down with it.
"""

from __future__ import annotations

import logging

from ..errors import RateLimitedError, StoreUnavailableError
from ..models import Scope
from ..settings import LimitSettings
from ..stores import keys
from ..stores.redis_async import AsyncRedisStore

__all__ = ["AsyncRateLimiter"]

log = logging.getLogger(__name__)


class AsyncRateLimiter:
    def __init__(self, redis: AsyncRedisStore, prefix: str, limits: LimitSettings) -> None:
        self._redis = redis
        self._prefix = prefix
        self._per_minute = limits.recall_per_minute
        self._burst = limits.recall_burst or max(1, int(limits.recall_per_minute))

    @property
    def enabled(self) -> bool:
        return self._per_minute > 0

    async def admit_recall(self, scope: Scope, operation: str) -> None:
        """Take one recall token of ``scope``'s user, or raise :class:`RateLimitedError`."""
        if not self.enabled:
            return
        key = keys.rate_limit(self._prefix, scope.user_id, "recall")
        try:
            wait_s = await self._redis.take_token(key, self._per_minute / 60, self._burst)
        except StoreUnavailableError as exc:
            log.warning("rate limit not checked for %s (admitted): %s", operation, exc)
            return
        if wait_s is not None:
            raise RateLimitedError(
                f"{operation} refused: user {scope.user_id!r} is over the recall rate limit "
                f"({self._per_minute:g} per minute, bursts of {self._burst}); retry in {wait_s:.2f} s",
                retry_after=wait_s,
            )
