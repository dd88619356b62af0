"""The stores and services one memory instance holds open. Async source of ``backends.py``."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import metrics
from ._compat.aio import HomeLoop, aside, drain, to_thread
from .audit_async import AsyncMemoryAuditLogger
from .audit_policy import config_snapshot
from .callers import CallerActivity
from .crypto import build_encryptor
from .embedded import resolve_endpoints
from .embedding import Embedder, build_embedder, check_dimensions
from .embedding.base import embed_queries, text_digest, vector_from_text, vector_to_text
from .embedding.calibration import Calibration, load_profile
from .embedding.recent import RecentVectors
from .errors import AgentMemoryError
from .llm import LLM, build_llm
from .memory.access_async import AsyncAccessMemory
from .memory.documents_async import AsyncDocumentMemory
from .memory.entities_async import AsyncEntityMemory
from .memory.episodic_async import AsyncEpisodicMemory
from .memory.facts_async import AsyncFactMemory
from .memory.forgetting_async import AsyncForgetting
from .memory.goals_async import AsyncGoalMemory
from .memory.graph_recall_async import AsyncGraphRecall
from .memory.procedural_async import AsyncProceduralMemory
from .memory.profile_async import AsyncProfileMemory
from .memory.promotion_async import AsyncPromotion
from .memory.rate_limit_async import AsyncRateLimiter
from .memory.timeline_async import AsyncTimeline
from .memory.working_async import AsyncWorkingMemory
from .models import Scope
from .monitoring import RecallMonitor
from .runtime import tune_process
from .settings import Settings
from .stores import keys
from .stores.factory_async import open_graph
from .stores.graph_async import AsyncGraphStore
from .stores.postgres_async import AsyncPostgresStore
from .stores.redis_async import AsyncRedisStore

__all__ = ["AsyncBackends"]

#: Query vectors kept in process (~1.5 KB each at 384 dimensions).
_RECENT_QUERIES = 256


@dataclass
class AsyncBackends:
    """The open stores and services, and the memory subsystems over them; shared by every facade made
    with ``for_user``.

    The subsystems are stateless views built once here; facade mixins and retrieval call their typed
    operations (models in, models out) and never see a statement name or a row. The stores are held
    here only for their lifecycle (open, close) and for the subsystems' construction.
    """

    settings: Settings
    ledger: AsyncPostgresStore
    graph: AsyncGraphStore
    redis: AsyncRedisStore
    embedder: Embedder
    audit: AsyncMemoryAuditLogger
    #: Access counters, last access and salience of graph memories (kept off their vector nodes).
    access: AsyncAccessMemory
    episodic: AsyncEpisodicMemory
    timeline: AsyncTimeline
    facts: AsyncFactMemory
    entities: AsyncEntityMemory
    goals: AsyncGoalMemory
    procedural: AsyncProceduralMemory
    profile: AsyncProfileMemory
    promotion: AsyncPromotion
    forgetting: AsyncForgetting
    graph_recall: AsyncGraphRecall
    #: JSON documents for the framework adapters (ledger only).
    documents: AsyncDocumentMemory
    #: The per-user recall rate limit (``limits.recall_per_minute``; off at 0).
    rate_limiter: AsyncRateLimiter
    #: The embedder's cosine thresholds with ``settings.similarity``'s overrides (the retrieval floors
    #: are overridden where recall reads them: a facade's retrieval settings may differ).
    calibration: Calibration = field(default_factory=lambda: load_profile("all-MiniLM-L6-v2-int8-onnx"))
    #: The configured LLM (HyDE, LLM query expansion and self-query), None offline.
    llm: LLM | None = None
    #: Per-technique recall metrics of this process (``AgentMemory.recall_stats()``).
    recall_monitor: RecallMonitor = field(default_factory=RecallMonitor)
    #: Background steps (access reinforcement) that ``close()`` waits for.
    pending: set[asyncio.Task[None]] = field(default_factory=set)
    #: The caller's calls in flight, which background learning yields to.
    callers: CallerActivity = field(default_factory=CallerActivity)
    #: This process's latest query vectors, in front of the Redis cache (``embed_queries``).
    recent_queries: RecentVectors = field(default_factory=lambda: RecentVectors(_RECENT_QUERIES))

    @classmethod
    async def open(cls, settings: Settings, embedder: Embedder | None) -> AsyncBackends:
        endpoints = await to_thread(resolve_endpoints, settings)
        if embedder is None:
            embedder = await to_thread(build_embedder, settings.embedding)
        llm = build_llm(settings.llm)  # before any connection: a bad LLM setting leaks nothing
        encryptor = build_encryptor(settings.security)
        ledger = await AsyncPostgresStore.connect(
            endpoints.postgres_url,
            settings.postgres,
            embedding_dim=embedder.dimensions,
            embedding_model=embedder.model_id,
            encryptor=encryptor,
        )
        graph: AsyncGraphStore | None = None
        redis: AsyncRedisStore | None = None
        try:
            graph = await open_graph(settings, endpoints.falkordb_url, embedder.dimensions)
            redis = AsyncRedisStore.of(endpoints.redis_url, settings.redis)
            await redis.ping()
        except BaseException:
            if redis is not None:
                await redis.close()
            if graph is not None:
                await graph.close()
            await ledger.close()
            raise
        audit = AsyncMemoryAuditLogger(ledger, settings.audit.level, config_snapshot(settings))
        tune_process(settings.runtime)
        timeline = AsyncTimeline(ledger)
        access = AsyncAccessMemory(ledger)
        encryptor = ledger.codec.encryptor  # the graph's and Redis' copies are sealed as the ledger's
        episodic = AsyncEpisodicMemory(ledger, graph, encryptor)
        facts = AsyncFactMemory(graph, timeline, access)
        calibration = load_profile(embedder.model_id).overridden(similarity=settings.similarity)
        return cls(
            settings=settings,
            ledger=ledger,
            graph=graph,
            redis=redis,
            embedder=embedder,
            audit=audit,
            access=access,
            episodic=episodic,
            timeline=timeline,
            facts=facts,
            entities=AsyncEntityMemory(graph, timeline, access, encryptor, calibration),
            goals=AsyncGoalMemory(graph, timeline),
            procedural=AsyncProceduralMemory(ledger, graph, episodic, timeline, encryptor),
            profile=AsyncProfileMemory(ledger),
            promotion=AsyncPromotion(graph, facts, timeline),
            forgetting=AsyncForgetting(ledger, graph, redis, settings.redis.key_prefix),
            graph_recall=AsyncGraphRecall(graph),
            documents=AsyncDocumentMemory(ledger),
            rate_limiter=AsyncRateLimiter(redis, settings.redis.key_prefix, settings.limits),
            llm=llm,
            calibration=calibration,
        )

    def session(self, scope: Scope, conversation_id: str, home: HomeLoop | None = None) -> AsyncWorkingMemory:
        """The working memory of one conversation in ``scope`` (turn metadata sealed with the key), run
        on ``home``, the loop of the memory it belongs to."""
        return AsyncWorkingMemory(
            self.redis,
            scope,
            conversation_id,
            self.settings.working,
            self.settings.redis.key_prefix,
            self.ledger.codec.encryptor,
            home=home,
        )

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embeddings of ``texts`` off the event loop, checked against the locked dimension: the one
        embedding step of every write and recall."""
        vectors = await to_thread(self.embedder.embed, list(texts))
        check_dimensions(vectors, self.embedder.dimensions, self.embedder.model_id)
        return [list(vector) for vector in vectors]

    async def _embed_questions(self, texts: Sequence[str]) -> list[list[float]]:
        """Like :meth:`embed`, on the embedder's question side (e5's ``query: ``) where it has one."""
        vectors = await to_thread(embed_queries, self.embedder, list(texts))
        check_dimensions(vectors, self.embedder.dimensions, self.embedder.model_id)
        return [list(vector) for vector in vectors]

    async def cached_query_vectors(self, texts: Sequence[str]) -> list[list[float]] | None:
        """The vectors of ``texts`` if each was embedded lately: this process's latest ones, then the
        Redis cache of query embeddings (one round trip; what it holds joins the former, where
        :meth:`embed_queries` then finds it). None when any is missing."""
        if self.settings.embedding.query_cache_seconds == 0 or not texts:
            return None
        known = [vector for vector in await self._cached(self._query_keys(texts)) if vector is not None]
        return known if len(known) == len(texts) else None

    def _query_keys(self, texts: Sequence[str]) -> list[str]:
        """The query cache's keys of ``texts`` (the model and each text's digest)."""
        prefix, model = self.settings.redis.key_prefix, self.embedder.model_id
        return [keys.query_embedding(prefix, model, text_digest(text)) for text in texts]

    async def _cached(self, cache_keys: list[str], *, shared: bool = True) -> list[list[float] | None]:
        """Each key's vector from this process's latest ones, then (``shared``) from Redis, or None. A
        cache that cannot be read is skipped: it never fails a recall."""
        vectors = self.recent_queries.get(cache_keys)
        unknown = [index for index, vector in enumerate(vectors) if vector is None]
        if unknown and shared:  # not asked in this process lately: the shared cache
            try:
                cached = await self.redis.get_values([cache_keys[index] for index in unknown])
            except AgentMemoryError:
                cached = [None] * len(unknown)
            found = {cache_keys[i]: vector_from_text(v) for i, v in zip(unknown, cached, strict=True) if v}
            self.recent_queries.put(found)
            for index in unknown:
                vectors[index] = found.get(cache_keys[index])
        return vectors

    async def embed_queries(self, texts: Sequence[str], *, shared: bool = True) -> list[list[float]]:
        """Vectors of questions (the embedder's question side), through this process's latest ones and
        the Redis cache of query embeddings (seed 002: "cache embeddings for frequently accessed
        items"): a question asked again costs no model run, and in the same process no round trip
        either. ``shared=False``: the caller has just looked in Redis (:meth:`cached_query_vectors`).
        A cache that cannot be read or written is skipped: it never fails a recall."""
        ttl = self.settings.embedding.query_cache_seconds
        if ttl == 0 or not texts:
            return await self._embed_questions(texts)
        cache_keys = self._query_keys(texts)
        vectors = await self._cached(cache_keys, shared=shared)
        missing = [index for index, vector in enumerate(vectors) if vector is None]
        metrics.EMBED_CACHE.labels("hit").inc(len(texts) - len(missing))
        metrics.EMBED_CACHE.labels("miss").inc(len(missing))
        if missing:
            computed = await self._embed_questions([texts[index] for index in missing])
            for index, vector in zip(missing, computed, strict=True):
                vectors[index] = vector
            # Written off the caller's path (a task, or a pooled worker thread in the sync API).
            fresh = {cache_keys[i]: v for i, v in zip(missing, computed, strict=True)}
            self.recent_queries.put(fresh)
            aside(self._cache_queries, self.pending, fresh, ttl)
        return [vector for vector in vectors if vector is not None]

    async def _cache_queries(self, fresh: dict[str, list[float]], ttl: int) -> None:
        with contextlib.suppress(AgentMemoryError):
            await self.redis.set_values({key: vector_to_text(v) for key, v in fresh.items()}, ttl)

    async def embed_query(self, text: str) -> list[float]:
        """The vector of one question (a search's text), through the query cache."""
        return (await self.embed_queries([text]))[0]

    async def embed_one(self, text: str) -> list[float]:
        vector = await to_thread(self.embedder.embed_one, text)
        check_dimensions([vector], self.embedder.dimensions, self.embedder.model_id)
        return list(vector)

    async def close(self) -> None:
        await drain(self.pending)
        await self.redis.close()
        await self.graph.close()
        await self.ledger.close()
