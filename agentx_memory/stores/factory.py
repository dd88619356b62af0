# Generated from agentx_memory/stores/factory_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Build the store adapters from settings: the one place that picks a graph backend.

Generated from ``stores/factory_async.py``: edit that file."""

from __future__ import annotations

from .._compat.sync import to_thread
from ..embedded import resolve_endpoints
from ..embedding import build_embedder
from ..errors import ConfigurationError
from ..settings import Settings
from .falkordb import FalkorDBStore
from .graph import GraphStore
from .migrations import latest_migration
from .neo4j import Neo4jStore
from .postgres import PostgresStore, drop_schema
from .redis import RedisStore

__all__ = ["attach_graph", "migrate_stores", "open_graph", "reset_stores"]


def _graph(settings: Settings, falkordb_url: str | None) -> GraphStore:
    """The configured graph's adapter, not yet connected: the one place that picks the backend."""
    oversample = settings.retrieval.oversample
    if settings.graph.backend == "neo4j":
        if not settings.graph.neo4j_uri:
            raise ConfigurationError(
                "graph.backend is 'neo4j' but no URI is set: export AGENTX_GRAPH__NEO4J_URI=bolt://host:7687"
            )
        return Neo4jStore(
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
    return FalkorDBStore(
        falkordb_url,
        settings.graph.name,
        oversample=oversample,
        max_connections=settings.graph.pool_max,
        timeout_s=settings.graph.pool_timeout_s,
    )


def open_graph(settings: Settings, falkordb_url: str | None, dimensions: int) -> GraphStore:
    """Connect to the configured graph, check it answers, and apply the schema (idempotent)."""
    graph = attach_graph(settings, falkordb_url)
    try:
        graph.apply_schema(dimensions)
    except BaseException:
        graph.close()
        raise
    return graph


def attach_graph(settings: Settings, falkordb_url: str | None) -> GraphStore:
    """Connect to the configured graph and check it answers, leaving its schema as it is (a reindex
    changes the vector indexes' dimension itself)."""
    graph = _graph(settings, falkordb_url)
    try:
        graph.ping()
    except BaseException:
        graph.close()
        raise
    return graph


def migrate_stores(settings: Settings) -> list[str]:
    """Bring the ledger's schema and the graph's schema to this version (``agentx-memory migrate``);
    returns what was done, one line each. Idempotent."""
    endpoints = to_thread(resolve_endpoints, settings)
    embedder = to_thread(build_embedder, settings.embedding)
    applied = PostgresStore.migrate(
        endpoints.postgres_url,
        settings.postgres,
        embedding_dim=embedder.dimensions,
        embedding_model=embedder.model_id,
    )
    schema = settings.postgres.schema_name
    done = [f"postgres schema {schema!r}: applied {name}" for name in applied]
    if not applied:
        done.append(f"postgres schema {schema!r}: already at version {latest_migration()}")
    graph = open_graph(settings, endpoints.falkordb_url, embedder.dimensions)
    graph.close()
    done.append(f"{settings.graph.backend} graph {settings.graph.name!r}: schema applied")
    return done


def reset_stores(settings: Settings) -> list[str]:
    """Delete every memory (``agentx-memory reset``): the graph, the ledger's schema and the key
    prefix in Redis; returns what was deleted, one line each. The next use migrates afresh."""
    endpoints = to_thread(resolve_endpoints, settings)
    graph = _graph(settings, endpoints.falkordb_url)
    try:
        graph.drop()
    finally:
        graph.close()
    drop_schema(endpoints.postgres_url, settings.postgres)
    redis = RedisStore.of(endpoints.redis_url, settings.redis)
    try:
        removed = redis.delete_matching(f"{settings.redis.key_prefix}:*")
    finally:
        redis.close()
    return [
        f"{settings.graph.backend} graph {settings.graph.name!r}: dropped",
        f"postgres schema {settings.postgres.schema_name!r}: dropped",
        f"redis: {removed} keys under {settings.redis.key_prefix}:* deleted",
    ]
