# Generated from agentx_memory/facade_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""``AgentMemory``: the facade most users touch. Generated from ``facade_async.py``: edit that file.

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

from ._compat.sync import HomeLoop, Lock, homed
from .api.channels import ChannelsApi
from .api.compaction import CompactionApi
from .api.context import ContextApi
from .api.core import FacadeCore
from .api.documents import DocumentsApi
from .api.forget import ForgetApi
from .api.goals import GoalsApi
from .api.health import HealthApi
from .api.learning import LearningApi
from .api.portability import PortabilityApi
from .api.procedural import ProceduralApi
from .api.profile import ProfileApi
from .api.semantic import SemanticApi
from .api.timeline import TimelineApi
from .api.turns import TurnsApi
from .backends import Backends
from .embedding import Embedder
from .errors import AgentMemoryError, GraphSyncError, InvalidInputError
from .memory.episodic_pure import turn_event, turn_search_text
from .memory.working import WorkingMemory
from .models import MemoryBundle, Scope, Turn
from .retrieval.items import RecallRequest, matching_metadata
from .retrieval.recall import RecallLayer
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

__all__ = ["AgentMemory"]

log = logging.getLogger(__name__)


@homed
class AgentMemory(
    LearningApi,
    CompactionApi,
    ContextApi,
    ChannelsApi,
    ForgetApi,
    SemanticApi,
    ProceduralApi,
    GoalsApi,
    ProfileApi,
    TurnsApi,
    PortabilityApi,
    TimelineApi,
    DocumentsApi,
    HealthApi,
    FacadeCore,
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
        self._backends: Backends | None = None
        self._owns_backends = True
        self._lock = Lock()
        #: The event loop (and thread) that owns this memory's connections: see ``_compat/home.py``.
        self.home = HomeLoop()

    # -- lifecycle ---------------------------------------------------------------------------------

    def open(self) -> AgentMemory:
        """Start or attach to the servers, migrate, and connect. Idempotent."""
        self._open_backends()
        return self

    def _open_backends(self) -> Backends:
        # On the home loop even when reached past the public methods (maintenance, tests): the pools
        # bind to the loop that opens them.
        return self.home.run(self._open_at_home())

    def _open_at_home(self) -> Backends:
        if self._backends is not None:
            return self._backends
        with self._lock:
            if self._backends is None:
                self._backends = Backends.open(self.settings, self._embedder)
            return self._backends

    def close(self) -> None:
        """Release the connections (after the background steps still running) and end the home loop.

        Calls still running on other threads fail (on the async facade with :class:`ClosedError`); a
        later call opens the memory again. Closing a facade made by ``for_user`` releases nothing: its
        root owns the connections.
        """
        if self._owns_backends:
            self.home.stop(self._release)
        self._backends = None  # also when the home ended at exit: its pools ended with it

    def _release(self) -> None:
        backends, self._backends = self._backends, None
        if backends is not None:
            backends.close()

    def __enter__(self) -> AgentMemory:
        return self.open()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def for_user(self, user_id: str, channel: str | None = None) -> AgentMemory:
        """A facade for another user (or channel) sharing this one's connections; closing it is a no-op."""
        backends = self._open_backends()
        other = AgentMemory(
            user_id, self.scope.channel if channel is None else channel, settings=self.settings
        )
        other._backends = backends
        other._owns_backends = False
        other.home = self.home
        return other

    # -- episodic ----------------------------------------------------------------------------------

    def new_conversation(
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
        backends = self._open_backends()
        conversation_id = conversation_id or str(uuid.uuid4())
        backends.episodic.create_conversation(self.scope, conversation_id, title, meta)
        backends.audit.log_write(
            self.scope, "new_conversation", "conversation", conversation_id, {"title": title}
        )
        self._queue_consolidation(backends, conversation_id)  # seed 000: a session switch consolidates
        return conversation_id

    def store_turn(
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
        backends = self._open_backends()
        with backends.callers.call():  # background learning waits meanwhile
            event = turn_event(content, stamp)
            embedding = backends.embed_one(
                turn_search_text(content, meta, event.label if event is not None else None)
            )
            turn, created = backends.episodic.store_turn_log(
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
                    turn = backends.episodic.sync_turn(turn)
                except GraphSyncError as exc:
                    sync_error = exc
            if created:
                self._cache_turn(backends, turn)
            if sync_error is not None:
                raise sync_error
            return turn

    def _cache_turn(self, backends: Backends, turn: Turn) -> None:
        # Redis is a cache of the ledger: failing to fill it must not fail a durable write.
        # Keyed like ``working(cid)`` of this facade, so the session sees the turns it stored.
        session = backends.session(self.scope, turn.conversation_id)
        try:
            session.add_turn(turn)
        except AgentMemoryError as exc:
            log.warning("turn %s stored, but working memory was not updated: %s", turn.id, exc)

    def get_conversation(self, conversation_id: str) -> list[Turn]:
        """Every turn of the conversation, ordered by index (empty if it is not this user's)."""
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = self._open_backends()
        turns = backends.episodic.get_conversation(self.scope, conversation_id)
        backends.audit.log_read(
            self.scope, "get_conversation", {"conversation_id": conversation_id, "results": len(turns)}
        )
        return turns

    def get_recent_turns(self, hours: float = 24, limit: int = 20) -> list[Turn]:
        """This user's turns of the last ``hours``, newest first, in the active channel and ``_global``."""
        hours = validate_positive_hours(hours)
        limit = validate_top_k(limit, self.settings.limits, "limit")
        backends = self._open_backends()
        turns = backends.episodic.get_recent_turns(self.scope, float(hours), limit)
        backends.audit.log_read(
            self.scope, "get_recent_turns", {"hours": hours, "limit": limit, "results": len(turns)}
        )
        return turns

    def remember(
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
        backends = self._open_for_recall("remember")
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
            bundle = RecallLayer(backends, self.settings.retrieval).recall(self.scope, request)
            if wanted:  # every path that adds turns (neighbours, entity mentions) obeys the filter
                bundle = bundle.model_copy(update={"items": matching_metadata(bundle.items, wanted)})
            backends.recall_monitor.record(bundle.metrics)
            self._reinforce_later(backends, bundle.items)
            backends.audit.log_read(
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
            self._audit_cross_channel(backends, "recall", [(item.id, item.channel) for item in bundle.items])
            return bundle

    def _read_channels(self, channels: Sequence[str] | None) -> tuple[str, ...]:
        return validate_channels(channels) or tuple(self.scope.read_channels)

    def recall_stats(self) -> dict[str, dict[str, float]]:
        """Per recall technique in this process: calls, p50/p95/p99 latency (ms), mean results, skips."""
        backends = self._open_backends()
        return backends.recall_monitor.summary()

    # -- working memory ----------------------------------------------------------------------------

    def working(self, conversation_id: str) -> WorkingMemory:
        """The working memory (Redis, TTL-bound) of one conversation session."""
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = self._open_backends()
        return backends.session(self.scope, conversation_id, home=self.home)
