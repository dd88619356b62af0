# Generated from agentx_memory/backends_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The stores and services one memory instance holds open. Generated from ``backends_async.py``: edit that
file."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from ._compat.sync import drain, to_thread
from .audit import MemoryAuditLogger, config_snapshot
from .embedded import resolve_endpoints
from .embedding import Embedder, build_embedder
from .llm import LLM, build_llm
from .memory.episodic import EpisodicMemory
from .monitoring import RecallMonitor
from .runtime import tune_process
from .settings import Settings
from .stores.factory import open_graph
from .stores.graph import GraphStore
from .stores.postgres import PostgresStore
from .stores.redis import RedisStore

__all__ = ["Backends"]


@dataclass
class Backends:
    """The open stores and services; shared by every facade made with ``for_user``.

    Subsystems are cheap, stateless views over these stores: facade mixins build the one they need
    per call (``GoalMemory(backends.ledger, backends.graph)``).
    """

    settings: Settings
    ledger: PostgresStore
    graph: GraphStore
    redis: RedisStore
    embedder: Embedder
    audit: MemoryAuditLogger
    episodic: EpisodicMemory
    #: The configured LLM (HyDE, LLM query expansion and self-query), None offline.
    llm: LLM | None = None
    #: Per-technique recall metrics of this process (``AgentMemory.recall_stats()``).
    recall_monitor: RecallMonitor = field(default_factory=RecallMonitor)
    #: Background steps (access reinforcement) that ``close()`` waits for.
    pending: set[asyncio.Task[None]] = field(default_factory=set)

    @classmethod
    def open(cls, settings: Settings, embedder: Embedder | None) -> Backends:
        endpoints = to_thread(resolve_endpoints, settings)
        if embedder is None:
            embedder = to_thread(build_embedder, settings.embedding)
        llm = build_llm(settings.llm)  # before any connection: a bad LLM setting leaks nothing
        ledger = PostgresStore.connect(
            endpoints.postgres_url,
            settings.postgres,
            embedding_dim=embedder.dimensions,
            embedding_model=embedder.model_id,
        )
        graph: GraphStore | None = None
        redis: RedisStore | None = None
        try:
            graph = open_graph(settings, endpoints.falkordb_url, embedder.dimensions)
            redis = RedisStore(endpoints.redis_url)
            redis.ping()
        except BaseException:
            if redis is not None:
                redis.close()
            if graph is not None:
                graph.close()
            ledger.close()
            raise
        audit = MemoryAuditLogger(ledger, settings.audit.level, config_snapshot(settings))
        tune_process(settings.runtime)
        return cls(settings, ledger, graph, redis, embedder, audit, EpisodicMemory(ledger, graph), llm)

    def close(self) -> None:
        drain(self.pending)
        self.redis.close()
        self.graph.close()
        self.ledger.close()
