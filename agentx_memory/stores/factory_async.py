"""Build the store adapters from settings: the one place that picks a graph backend.

Async source of ``stores/factory.py``.
"""

from __future__ import annotations

from .._compat.aio import to_thread
from ..embedded import resolve_endpoints
from ..embedding import build_embedder
from ..errors import ConfigurationError
from ..settings import Settings
from .falkordb_async import AsyncFalkorDBStore
from .graph_async import AsyncGraphStore
from .migrations import latest_migration
from .neo4j_async import AsyncNeo4jStore
from .postgres_async import AsyncPostgresStore, drop_schema
from .redis_async import AsyncRedisStore

__all__ = ["attach_graph", "migrate_stores", "open_graph", "reset_stores"]


def _graph(settings: Settings, falkordb_url: str | None) -> AsyncGraphStore:
    """The configured graph's adapter, not yet connected: the one place that picks the backend."""
    oversample = settings.retrieval.oversample
    if settings.graph.backend == "neo4j":
        if not settings.graph.neo4j_uri:
            raise ConfigurationError(
                "graph.backend is 'neo4j' but no URI is set: export AGENTX_GRAPH__NEO4J_URI=bolt://host:7687"
            )
        return AsyncNeo4jStore(
            settings.graph.neo4j_uri,
            settings.graph.neo4j_user,
            settings.graph.neo4j_password.get_secret_value(),
            database=settings.graph.neo4j_database,
            oversample=oversample,
            max_connections=settings.graph.pool_max,
            timeout_s=settings.graph.pool_timeout_s,
        )
    if falkordb_url is None:
        raise ConfigurationError(
            "no FalkorDB URL resolved: set AGENTX_GRAPH__FALKORDB_URL, or leave it unset to use the "
            "embedded server"
        )
    return AsyncFalkorDBStore(
        falkordb_url,
        settings.graph.name,
        oversample=oversample,
        max_connections=settings.graph.pool_max,
        timeout_s=settings.graph.pool_timeout_s,
    )


async def open_graph(settings: Settings, falkordb_url: str | None, dimensions: int) -> AsyncGraphStore:
    """Connect to the configured graph, check it answers, and apply the schema (idempotent)."""
    graph = await attach_graph(settings, falkordb_url)
    try:
        await graph.apply_schema(dimensions)
    except BaseException:
        await graph.close()
        raise
    return graph


async def attach_graph(settings: Settings, falkordb_url: str | None) -> AsyncGraphStore:
    """Connect to the configured graph and check it answers, leaving its schema as it is (a reindex
    changes the vector indexes' dimension itself)."""
    graph = _graph(settings, falkordb_url)
    try:
        await graph.ping()
    except BaseException:
        await graph.close()
        raise
    return graph


async def migrate_stores(settings: Settings) -> list[str]:
    """Bring the ledger's schema and the graph's schema to this version (``agentx-memory migrate``);
    returns what was done, one line each. Idempotent."""
    endpoints = await to_thread(resolve_endpoints, settings)
    embedder = await to_thread(build_embedder, settings.embedding)
    applied = await AsyncPostgresStore.migrate(
        endpoints.postgres_url,
        settings.postgres,
        embedding_dim=embedder.dimensions,
        embedding_model=embedder.model_id,
    )
    schema = settings.postgres.schema_name
    done = [f"postgres schema {schema!r}: applied {name}" for name in applied]
    if not applied:
        done.append(f"postgres schema {schema!r}: already at version {latest_migration()}")
    graph = await open_graph(settings, endpoints.falkordb_url, embedder.dimensions)
    await graph.close()
    done.append(f"{settings.graph.backend} graph {settings.graph.name!r}: schema applied")
    return done


async def reset_stores(settings: Settings) -> list[str]:
    """Delete every memory (``agentx-memory reset``): the graph, the ledger's schema and the key
    prefix in Redis; returns what was deleted, one line each. The next use migrates afresh."""
    endpoints = await to_thread(resolve_endpoints, settings)
    graph = _graph(settings, endpoints.falkordb_url)
    try:
        await graph.drop()
    finally:
        await graph.close()
    await drop_schema(endpoints.postgres_url, settings.postgres)
    redis = AsyncRedisStore.of(endpoints.redis_url, settings.redis)
    try:
        removed = await redis.delete_matching(f"{settings.redis.key_prefix}:*")
    finally:
        await redis.close()
    return [
        f"{settings.graph.backend} graph {settings.graph.name!r}: dropped",
        f"postgres schema {settings.postgres.schema_name!r}: dropped",
        f"redis: {removed} keys under {settings.redis.key_prefix}:* deleted",
    ]
