"""``AsyncAgentMemory``: the facade most users touch. Async source of ``facade.py`` (``AgentMemory``).

It only orchestrates: validates input, embeds, then calls the subsystems in the write order
ledger → graph → Redis, and records the audit trail. It holds typed ports and never knows which
database is behind them.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from ._compat.aio import HomeLoop, Lock, homed
from .api.channels_async import AsyncChannelsApi
from .api.compaction_async import AsyncCompactionApi
from .api.context_async import AsyncContextApi
from .api.core_async import AsyncFacadeCore
from .api.documents_async import AsyncDocumentsApi
from .api.forget_async import AsyncForgetApi
from .api.goals_async import AsyncGoalsApi
from .api.health_async import AsyncHealthApi
from .api.learning_async import AsyncLearningApi
from .api.portability_async import AsyncPortabilityApi
from .api.procedural_async import AsyncProceduralApi
from .api.profile_async import AsyncProfileApi
from .api.semantic_async import AsyncSemanticApi
from .api.timeline_async import AsyncTimelineApi
from .api.turns_async import AsyncTurnsApi
from .backends_async import AsyncBackends
from .embedding import Embedder
from .errors import AgentMemoryError, GraphSyncError, InvalidInputError
from .memory.episodic_pure import turn_event, turn_search_text
from .memory.working_async import AsyncWorkingMemory
from .models import MemoryBundle, Scope, Turn
from .retrieval.items import RecallRequest, matching_metadata
from .retrieval.recall_async import AsyncRecallLayer
from .retrieval.tokens import default_token_counter
from .settings import Settings
from .validation import (
    validate_channel,
    validate_channels,
    validate_content,
    validate_index,
    validate_kind_flags,
    validate_metadata,
    validate_name,
    validate_positive_hours,
    validate_role,
    validate_timestamp,
    validate_top_k,
    validate_user_id,
    validate_uuid,
    validate_window_hours,
)

__all__ = ["AsyncAgentMemory"]

log = logging.getLogger(__name__)


@homed
class AsyncAgentMemory(
    AsyncLearningApi,
    AsyncCompactionApi,
    AsyncContextApi,
    AsyncChannelsApi,
    AsyncForgetApi,
    AsyncSemanticApi,
    AsyncProceduralApi,
    AsyncGoalsApi,
    AsyncProfileApi,
    AsyncTurnsApi,
    AsyncPortabilityApi,
    AsyncTimelineApi,
    AsyncDocumentsApi,
    AsyncHealthApi,
    AsyncFacadeCore,
):
    """Long-term memory for one user (``user_id``) working in one channel.

    Writes land in ``channel``; reads cover ``channel`` and ``_global``. Servers are started or attached
    on first use (or on ``open()`` / entering the context manager); ``close()`` releases connections
    but leaves the embedded servers running for other processes (``agentx-memory down`` stops them).

    Any thread may call it, and on the async facade any event loop, one after another or at once
    (``asyncio.run`` twice, ``Runner.run_sync``, a loop per thread): the async facade keeps its
    connections on an event loop of its own (``home``, started on first use, ended by ``close()``) and
    runs every public coroutine there; the sync facade's pools are thread-safe.
    """

    def __init__(
        self,
        user_id: str = "default",
        channel: str = "_global",
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self.scope = Scope(user_id=validate_user_id(user_id), channel=validate_channel(channel))
        self.settings = settings if settings is not None else Settings()
        self._embedder = embedder
        self._backends: AsyncBackends | None = None
        self._owns_backends = True
        self._lock = Lock()
        #: The event loop (and thread) that owns this memory's connections: see ``_compat/home.py``.
        self.home = HomeLoop()

    # -- lifecycle ---------------------------------------------------------------------------------

    async def open(self) -> AsyncAgentMemory:
        """Start or attach to the servers, migrate, and connect. Idempotent."""
        await self._open_backends()
        return self

    async def _open_backends(self) -> AsyncBackends:
        # On the home loop even when reached past the public methods (maintenance, tests): the pools
        # bind to the loop that opens them.
        return await self.home.run(self._open_at_home())

    async def _open_at_home(self) -> AsyncBackends:
        if self._backends is not None:
            return self._backends
        async with self._lock:
            if self._backends is None:
                self._backends = await AsyncBackends.open(self.settings, self._embedder)
            return self._backends

    async def close(self) -> None:
        """Release the connections (after the background steps still running) and end the home loop.

        Calls still running on other threads fail (on the async facade with :class:`ClosedError`); a
        later call opens the memory again. Closing a facade made by ``for_user`` releases nothing: its
        root owns the connections.
        """
        if self._owns_backends:
            await self.home.stop(self._release)
        self._backends = None  # also when the home ended at exit: its pools ended with it

    async def _release(self) -> None:
        backends, self._backends = self._backends, None
        if backends is not None:
            await backends.close()

    async def __aenter__(self) -> AsyncAgentMemory:
        return await self.open()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def for_user(self, user_id: str, channel: str | None = None) -> AsyncAgentMemory:
        """A facade for another user (or channel) sharing this one's connections; closing it is a no-op."""
        backends = await self._open_backends()
        other = AsyncAgentMemory(
            user_id, self.scope.channel if channel is None else channel, settings=self.settings
        )
        other._backends = backends
        other._owns_backends = False
        other.home = self.home
        return other

    # -- episodic ----------------------------------------------------------------------------------

    async def new_conversation(
        self,
        title: str | None = None,
        metadata: dict[str, Any] | None = None,
        *,
        conversation_id: str | None = None,
    ) -> str:
        """Start a conversation in the active channel; returns its id (a UUID string).

        ``conversation_id`` chooses the id (an import that may run again): a conversation of this user
        that has it already is kept as it is. With ``learning.auto_consolidate`` (the default) the
        user's earlier conversations that have unlearned turns are consolidated in the background (a
        task, or a thread in the sync API).
        """
        limits = self.settings.limits
        if title is not None:
            title = validate_name(title, limits, "title")
        meta = validate_metadata(metadata, limits)
        if conversation_id is not None:
            conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = await self._open_backends()
        conversation_id = conversation_id or str(uuid.uuid4())
        await backends.episodic.create_conversation(self.scope, conversation_id, title, meta)
        await backends.audit.log_write(
            self.scope, "new_conversation", "conversation", conversation_id, {"title": title}
        )
        self._queue_consolidation(backends, conversation_id)  # seed 000: a session switch consolidates
        return conversation_id

    async def store_turn(
        self,
        conversation_id: str,
        role: str,
        content: str,
        timestamp: datetime | None = None,
        turn_index: int | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Turn:
        """Store one turn durably; idempotent for a given ``(conversation_id, turn_index)``.

        Without ``turn_index`` the next index is allocated atomically. Raises :class:`GraphSyncError`
        (carrying the stored turn) if only the graph write failed: the turn is safe in the ledger; and
        :class:`NotFoundError` if the conversation (or the turn) was forgotten while it was being stored.
        """
        limits = self.settings.limits
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        checked_role = validate_role(role)
        content = validate_content(content, limits)
        meta = validate_metadata(metadata, limits)
        stamp = datetime.now(UTC) if timestamp is None else validate_timestamp(timestamp)
        if turn_index is not None:
            turn_index = validate_index(turn_index)
        backends = await self._open_backends()
        with backends.callers.call():  # background learning waits meanwhile
            event = turn_event(content, stamp)
            embedding = await backends.embed_one(
                turn_search_text(content, meta, event.label if event is not None else None)
            )
            turn, created = await backends.episodic.store_turn_log(
                self.scope,
                turn_id=str(uuid.uuid4()),
                conversation_id=conversation_id,
                role=checked_role,
                content=content,
                timestamp=stamp,
                turn_index=turn_index,
                metadata=meta,
                embedding=embedding,
                event=event,
                with_context=self.settings.retrieval.turn_context,
                audit=backends.audit.inline_write({"content": content}),
                token_count=default_token_counter().count(content),
            )
            sync_error: GraphSyncError | None = None
            if not turn.synced:  # new, or a retry of a turn whose graph write failed: (re)play it
                try:
                    turn = await backends.episodic.sync_turn(turn)
                except GraphSyncError as exc:
                    sync_error = exc
            if created:
                await self._cache_turn(backends, turn)
            if sync_error is not None:
                raise sync_error
            return turn

    async def _cache_turn(self, backends: AsyncBackends, turn: Turn) -> None:
        # Redis is a cache of the ledger: failing to fill it must not fail a durable write.
        # Keyed like ``working(cid)`` of this facade, so the session sees the turns it stored.
        session = backends.session(self.scope, turn.conversation_id)
        try:
            await session.add_turn(turn)
        except AgentMemoryError as exc:
            log.warning("turn %s stored, but working memory was not updated: %s", turn.id, exc)

    async def get_conversation(self, conversation_id: str) -> list[Turn]:
        """Every turn of the conversation, ordered by index (empty if it is not this user's)."""
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = await self._open_backends()
        turns = await backends.episodic.get_conversation(self.scope, conversation_id)
        await backends.audit.log_read(
            self.scope, "get_conversation", {"conversation_id": conversation_id, "results": len(turns)}
        )
        return turns

    async def get_recent_turns(self, hours: float = 24, limit: int = 20) -> list[Turn]:
        """This user's turns of the last ``hours``, newest first, in the active channel and ``_global``."""
        hours = validate_positive_hours(hours)
        limit = validate_top_k(limit, self.settings.limits, "limit")
        backends = await self._open_backends()
        turns = await backends.episodic.get_recent_turns(self.scope, float(hours), limit)
        await backends.audit.log_read(
            self.scope, "get_recent_turns", {"hours": hours, "limit": limit, "results": len(turns)}
        )
        return turns

    async def remember(
        self,
        query: str,
        top_k: int = 10,
        *,
        channels: Sequence[str] | None = None,
        include_episodic: bool = True,
        include_semantic: bool = True,
        include_procedural: bool = True,
        time_window_hours: float | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> MemoryBundle:
        """Recall the memories most relevant to ``query``, best first.

        Searches turns (BM25 + vector, with neighbouring turns), facts and entities (vector +
        full-text, expanded through the graph), strategies and open goals, documents (vector), in
        ``channels`` (default:
        the active channel and ``_global``). Each item says its kind, id, score, channel, timestamps
        and which techniques found it (``found_by``); the bundle carries per-technique metrics.
        ``include_semantic`` covers facts, entities and documents (what a framework stored as memory: a
        LangGraph store's indexed items); ``include_procedural`` strategies and goals.
        ``time_window_hours`` keeps only memories from that many hours back. Returned facts and
        entities count one more access. Audited at level ``reads``.

        ``metadata`` keeps only turns whose metadata contains every given key with that value (JSON
        containment: a list value matches a stored list holding its items). Facts, entities,
        strategies and goals carry no turn metadata, so a recall with ``metadata`` returns turns only.
        """
        query = validate_content(query, self.settings.limits, "query")
        top_k = validate_top_k(top_k, self.settings.limits)
        read_channels = self._read_channels(channels)
        kinds = validate_kind_flags(include_episodic, include_semantic, include_procedural)
        window = None if time_window_hours is None else validate_window_hours(time_window_hours)
        wanted = validate_metadata(metadata, self.settings.limits)
        if wanted:
            kinds = kinds & frozenset({"episodic"})
            if not kinds:
                raise InvalidInputError("a metadata filter applies to turns: keep include_episodic=True")
        backends = await self._open_for_recall("remember")
        with backends.callers.call():  # background learning waits meanwhile
            request = RecallRequest(
                query=query,
                top_k=top_k,
                channels=read_channels,
                kinds=kinds,
                time_window_hours=window,
                metadata=wanted,
                last_seen=True,
            )
            bundle = await AsyncRecallLayer(backends, self.settings.retrieval).recall(self.scope, request)
            if wanted:  # every path that adds turns (neighbours, entity mentions) obeys the filter
                bundle = bundle.model_copy(update={"items": matching_metadata(bundle.items, wanted)})
            backends.recall_monitor.record(bundle.metrics)
            self._reinforce_later(backends, bundle.items)
            await backends.audit.log_read(
                self.scope,
                "remember",
                {
                    "top_k": top_k,
                    "channels": list(read_channels),
                    "results": len(bundle.items),
                    "latency_ms": bundle.timings_ms.get("total"),
                },
                {"query": query},
            )
            await self._audit_cross_channel(
                backends, "recall", [(item.id, item.channel) for item in bundle.items]
            )
            return bundle

    def _read_channels(self, channels: Sequence[str] | None) -> tuple[str, ...]:
        return validate_channels(channels) or tuple(self.scope.read_channels)

    async def recall_stats(self) -> dict[str, dict[str, float]]:
        """Per recall technique in this process: calls, p50/p95/p99 latency (ms), mean results, skips."""
        backends = await self._open_backends()
        return backends.recall_monitor.summary()

    # -- working memory ----------------------------------------------------------------------------

    async def working(self, conversation_id: str) -> AsyncWorkingMemory:
        """The working memory (Redis, TTL-bound) of one conversation session."""
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = await self._open_backends()
        return backends.session(self.scope, conversation_id, home=self.home)
