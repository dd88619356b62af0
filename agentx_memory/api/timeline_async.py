"""Facade method that reads the timeline of every stored memory. Async source of ``api/timeline.py``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..errors import InvalidInputError
from ..models import TIMELINE_KINDS, TimelineEntry
from ..validation import is_one_of, validate_channels, validate_timestamp, validate_top_k
from .core_async import AsyncFacadeCore

__all__ = ["AsyncTimelineApi"]


class AsyncTimelineApi(AsyncFacadeCore):
    async def timeline(
        self,
        since: datetime | None = None,
        until: datetime | None = None,
        kinds: Sequence[str] | None = None,
        limit: int = 50,
        *,
        channels: Sequence[str] | None = None,
    ) -> list[TimelineEntry]:
        """What was stored, newest first: turns, facts, entities, goals and strategies of this user.

        ``since`` (inclusive) and ``until`` (exclusive) bound the memories' event time (a turn's
        timestamp, the others' creation); ``kinds`` keeps only those memory types; ``channels``
        defaults to the active channel and ``_global``. Each entry carries the memory's id, so
        ``get_conversation``, ``list_facts`` or ``get_entity_info`` can fetch the whole of it.
        """
        start = None if since is None else validate_timestamp(since, "since")
        end = None if until is None else validate_timestamp(until, "until")
        if start is not None and end is not None and start >= end:
            raise InvalidInputError("since must be before until")
        if isinstance(kinds, str):
            raise InvalidInputError("kinds must be a list of memory types, not one string")
        if kinds is not None and (
            not isinstance(kinds, Sequence)
            or not kinds
            or not all(is_one_of(k, TIMELINE_KINDS) for k in kinds)
        ):
            raise InvalidInputError(f"kinds must be a non-empty list of: {', '.join(TIMELINE_KINDS)}")
        limit = validate_top_k(limit, self.settings.limits, "limit")
        read = validate_channels(channels) or tuple(self.scope.read_channels)
        backends = await self._open_backends()
        entries = await backends.timeline.entries(
            self.scope, list(read), since=start, until=end, kinds=kinds, limit=limit
        )
        await backends.audit.log_read(self.scope, "timeline", {"limit": limit, "results": len(entries)})
        return entries
