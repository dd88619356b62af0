"""``agentx-memory reindex``: re-embed every stored vector with the configured embedder after a change of
embedding model or dimension, then move the store's embedding lock to it.

It works on the raw stores, not the facade (which refuses to open while the lock mismatches), like
``reset_stores``. Steps, each resumable: record the target in ``agentx_metadata``; re-embed the ledger's
vector columns (``reindex_ledger_async``); re-embed the graph's vector nodes of every user
(``reindex_graph_async``); write the new lock and remove the reindex's keys; empty the Redis cache of
query embeddings. A crash or Ctrl-C part-way leaves the store refusing to open until a rerun finishes
the job; a rerun after success finds nothing to do. Applications and workers should be stopped first:
one that holds the stores open keeps writing vectors of the old model.

Async source of ``reindex.py``.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from .._compat.aio import to_thread
from ..crypto import build_encryptor
from ..embedded import resolve_endpoints
from ..embedding import Embedder, build_embedder
from ..errors import ConfigurationError
from ..settings import Settings
from ..stores import keys
from ..stores.factory_async import attach_graph
from ..stores.postgres_async import AsyncPostgresStore, read_metadata
from ..stores.redis_async import AsyncRedisStore
from .reindex_graph_async import reindex_graph
from .reindex_ledger_async import reindex_ledger
from .reindex_rules import (
    QuietProgress,
    ReindexProgress,
    ReindexReport,
    VectorShape,
    check_target,
    claimed_target,
    locked_shape,
)

__all__ = ["plan_reindex", "reindex"]


async def plan_reindex(settings: Settings, embedder: Embedder | None = None) -> ReindexReport:
    """What a reindex would do, without changing anything: the store's lock (``source``, ``None`` for
    a store that holds no vectors yet) and the configured embedder's shape (``target``); whether a
    reindex under way is resumed. Refuses an embedder other than the target of one under way."""
    endpoints = await to_thread(resolve_endpoints, settings)
    if embedder is None:
        embedder = await to_thread(build_embedder, settings.embedding)
    target = VectorShape(embedder.model_id, embedder.dimensions)
    metadata = await read_metadata(endpoints.postgres_url, settings.postgres) or {}
    claimed = claimed_target(metadata)
    if claimed is not None:
        check_target(claimed, target)
    return ReindexReport(locked_shape(metadata), target, resumed=claimed is not None)


async def reindex(
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    batch: int = 256,
    progress: ReindexProgress | None = None,
) -> ReindexReport:
    """Re-embed every vector of the store of ``settings`` with ``embedder`` (default: the configured
    one) in batches of ``batch``; returns what was done (``nothing_to_do`` when the lock already
    names this embedder). ``progress`` hears of every committed batch."""
    began = time.perf_counter()
    endpoints = await to_thread(resolve_endpoints, settings)
    if embedder is None:
        embedder = await to_thread(build_embedder, settings.embedding)
    report = await plan_reindex(settings, embedder)
    source, target = report.source, report.target
    if source is None or report.nothing_to_do:
        return report
    progress = progress if progress is not None else QuietProgress()
    # A store a version behind gets its new tables with the vectors it holds, then reindexed with them.
    await AsyncPostgresStore.migrate(
        endpoints.postgres_url,
        settings.postgres,
        embedding_dim=source.dimensions,
        embedding_model=source.model,
    )
    ledger = await AsyncPostgresStore.attach(
        endpoints.postgres_url, settings.postgres, build_encryptor(settings.security)
    )
    try:
        async with _exclusive(ledger):
            target_params = {"model": target.model, "dimensions": str(target.dimensions)}
            recorded = await ledger.fetch_all("reindex_claim_target", target_params)
            check_target(claimed_target({str(r["key"]): str(r["value"]) for r in recorded}) or target, target)
            metadata = await read_metadata(endpoints.postgres_url, settings.postgres) or {}
            report.rows = await reindex_ledger(
                ledger, embedder, target, metadata=metadata, batch=batch, progress=progress
            )
            graph = await attach_graph(settings, endpoints.falkordb_url)
            try:
                report.nodes = await reindex_graph(
                    graph,
                    embedder,
                    target,
                    new_dimension=source.dimensions != target.dimensions,
                    batch=batch,
                    progress=progress,
                )
            finally:
                await graph.close()
            await ledger.execute("reindex_finish", target_params)
    finally:
        await ledger.close()
    # Cached query vectors are keyed by model id, which a new dimension of the same model keeps.
    redis = AsyncRedisStore.of(endpoints.redis_url, settings.redis)
    try:
        await redis.delete_matching(keys.query_embedding(settings.redis.key_prefix, "*", "*"))
    finally:
        await redis.close()
    report.seconds = time.perf_counter() - began
    return report


@asynccontextmanager
async def _exclusive(ledger: AsyncPostgresStore) -> AsyncIterator[None]:
    """One reindex of a schema at a time (a session advisory lock, released if the process dies)."""
    async with ledger.session() as session:
        row = await session.fetch_one("reindex_lock", {"schema": ledger.schema})
        if not row or not row["locked"]:
            raise ConfigurationError(
                "another `agentx-memory reindex` of this store is running: wait for it to finish"
            )
        try:
            yield
        finally:
            await session.execute("reindex_unlock", {"schema": ledger.schema})
