"""The stores and services one memory instance holds open. Async source of ``backends.py``."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from ._compat.aio import drain, to_thread
from .audit_async import AsyncMemoryAuditLogger, config_snapshot
from .embedded import resolve_endpoints
from .embedding import Embedder, build_embedder
from .llm import LLM, build_llm
from .memory.episodic_async import AsyncEpisodicMemory
from .monitoring import RecallMonitor
from .runtime import tune_process
from .settings import Settings
from .stores.factory_async import open_graph
from .stores.graph_async import AsyncGraphStore
from .stores.postgres_async import AsyncPostgresStore
from .stores.redis_async import AsyncRedisStore

__all__ = ["AsyncBackends"]


@dataclass
class AsyncBackends:
    """The open stores and services; shared by every facade made with ``for_user``.

    Subsystems are cheap, stateless views over these stores: facade mixins build the one they need
    per call (``AsyncGoalMemory(backends.ledger, backends.graph)``).
    """

    settings: Settings
    ledger: AsyncPostgresStore
    graph: AsyncGraphStore
    redis: AsyncRedisStore
    embedder: Embedder
    audit: AsyncMemoryAuditLogger
    episodic: AsyncEpisodicMemory
    #: The configured LLM (HyDE, LLM query expansion and self-query), None offline.
    llm: LLM | None = None
    #: Per-technique recall metrics of this process (``AgentMemory.recall_stats()``).
    recall_monitor: RecallMonitor = field(default_factory=RecallMonitor)
    #: Background steps (access reinforcement) that ``close()`` waits for.
    pending: set[asyncio.Task[None]] = field(default_factory=set)

    @classmethod
    async def open(cls, settings: Settings, embedder: Embedder | None) -> AsyncBackends:
        endpoints = await to_thread(resolve_endpoints, settings)
        if embedder is None:
            embedder = await to_thread(build_embedder, settings.embedding)
        llm = build_llm(settings.llm)  # before any connection: a bad LLM setting leaks nothing
        ledger = await AsyncPostgresStore.connect(
            endpoints.postgres_url,
            settings.postgres,
            embedding_dim=embedder.dimensions,
            embedding_model=embedder.model_id,
        )
        graph: AsyncGraphStore | None = None
        redis: AsyncRedisStore | None = None
        try:
            graph = await open_graph(settings, endpoints.falkordb_url, embedder.dimensions)
            redis = AsyncRedisStore(endpoints.redis_url)
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
        return cls(settings, ledger, graph, redis, embedder, audit, AsyncEpisodicMemory(ledger, graph), llm)

    async def close(self) -> None:
        await drain(self.pending)
        await self.redis.close()
        await self.graph.close()
        await self.ledger.close()
