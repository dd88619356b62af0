# Generated from agentx_memory/backends_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The stores and services one memory instance holds open. Async source of ``backends.py``."""

from __future__ import annotations

from dataclasses import dataclass

from ._compat.sync import to_thread
from .audit import MemoryAuditLogger, config_snapshot
from .embedded import resolve_endpoints
from .embedding import Embedder, build_embedder
from .memory.episodic import EpisodicMemory
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

    @classmethod
    def open(cls, settings: Settings, embedder: Embedder | None) -> Backends:
        endpoints = to_thread(resolve_endpoints, settings)
        if embedder is None:
            embedder = to_thread(build_embedder, settings.embedding)
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
        return cls(settings, ledger, graph, redis, embedder, audit, EpisodicMemory(ledger, graph))

    def close(self) -> None:
        self.redis.close()
        self.graph.close()
        self.ledger.close()
