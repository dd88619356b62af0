"""Reindex of the ledger's vector columns (``agentx-memory reindex``): every row re-embedded in batches,
in primary-key order after a watermark kept in ``agentx_metadata`` (committed with each batch, so a
rerun after a crash starts at the first row not done). For a new dimension the column's type changes
first (its vectors become NULL) with its HNSW indexes dropped, which are built again once it is full.

Async source of ``reindex_ledger.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

from psycopg import sql

from .._compat.aio import to_thread
from ..embedding.base import Embedder
from ..stores.postgres_async import AsyncPostgresStore, AsyncSqlSession
from .reindex_rules import (
    ColumnProgress,
    LedgerVectors,
    ReindexProgress,
    VectorShape,
    embed_checked,
    idempotent_index_ddl,
    ledger_vectors,
    progress_key,
)

__all__ = ["reindex_ledger"]


async def reindex_ledger(
    ledger: AsyncPostgresStore,
    embedder: Embedder,
    target: VectorShape,
    *,
    metadata: Mapping[str, str],
    batch: int,
    progress: ReindexProgress,
) -> dict[str, int]:
    """Re-embed every vector column of the ledger for ``target``, resuming from the progress kept in
    ``metadata``; returns rows re-embedded per table (by this run). Every column is checked before
    the first is changed."""
    columns = await ledger.fetch_all("reindex_vector_columns", {"schema": ledger.schema})
    specs = ledger_vectors(columns)
    done: dict[str, int] = {}
    for spec, column in zip(specs, columns, strict=True):
        stored = metadata.get(progress_key(spec))
        state = (
            ColumnProgress.from_json(stored)
            if stored is not None
            else ColumnProgress(after=list(spec.start), not_null=bool(column["not_null"]))
        )
        if state.done:
            continue
        if int(column["dimensions"]) != target.dimensions:
            await _retype(ledger, spec, state, str(column["type_name"]), target.dimensions)
        done[spec.table] = await _fill(ledger, embedder, spec, state, batch=batch, progress=progress)
        await _restore(ledger, spec, state)
    return done


async def _retype(
    ledger: AsyncPostgresStore, spec: LedgerVectors, state: ColumnProgress, type_name: str, dimensions: int
) -> None:
    """Drop the column's indexes (kept in its progress to build again), allow NULL, and change its
    dimension to ``dimensions`` with every vector NULL, keeping its type (``vector`` or ``halfvec``: the
    indexes built again name its operator class): one transaction, so it happens once or not at all."""
    table, column = sql.Identifier(ledger.schema, spec.table), sql.Identifier(spec.column)
    async with ledger.transaction() as tx:
        indexes = await tx.fetch_all(
            "reindex_column_indexes",
            {"schema": ledger.schema, "table_name": spec.table, "column_name": spec.column},
        )
        state.indexes = [str(row["definition"]) for row in indexes]
        state.retyped = True
        for row in indexes:
            name = sql.Identifier(ledger.schema, str(row["name"]))
            await tx.execute_composed(
                sql.SQL("DROP INDEX IF EXISTS {}").format(name), "dropping a vector index"
            )
        if state.not_null:
            statement = sql.SQL("ALTER TABLE {} ALTER COLUMN {} DROP NOT NULL").format(table, column)
            await tx.execute_composed(statement, "allowing NULL vectors during the reindex")
        statement = sql.SQL("ALTER TABLE {} ALTER COLUMN {} TYPE {}({}) USING NULL").format(
            table, column, sql.Identifier(type_name), sql.Literal(int(dimensions))
        )
        await tx.execute_composed(statement, "changing the vector dimension")
        await _save(tx, spec, state)


async def _fill(
    ledger: AsyncPostgresStore,
    embedder: Embedder,
    spec: LedgerVectors,
    state: ColumnProgress,
    *,
    batch: int,
    progress: ReindexProgress,
) -> int:
    task = f"ledger {spec.table}"
    remaining = await ledger.fetch_one(spec.statement("count"), spec.after(state.after))
    progress.start(task, int(remaining["count"]) if remaining else 0)
    written = 0
    while rows := await ledger.fetch_all(spec.statement("rows"), {**spec.after(state.after), "limit": batch}):
        vectors = await to_thread(embed_checked, embedder, [spec.text(row) for row in rows])
        state.after = spec.watermark(rows[-1])
        # The batch and the watermark commit together: a crash loses neither or both.
        async with ledger.transaction() as tx:
            await tx.execute(spec.statement("write"), {"rows": spec.write_rows(rows, vectors)})
            await _save(tx, spec, state)
        written += len(rows)
        progress.advance(task, len(rows))
    return written


async def _restore(ledger: AsyncPostgresStore, spec: LedgerVectors, state: ColumnProgress) -> None:
    """Build the dropped indexes again, make the column NOT NULL again where it was, mark it done."""
    async with ledger.session() as session:
        for definition in state.indexes:
            await session.execute_composed(
                sql.SQL(idempotent_index_ddl(definition)), "building a vector index"
            )
    async with ledger.transaction() as tx:
        if state.retyped and state.not_null:
            statement = sql.SQL("ALTER TABLE {} ALTER COLUMN {} SET NOT NULL").format(
                sql.Identifier(ledger.schema, spec.table), sql.Identifier(spec.column)
            )
            await tx.execute_composed(statement, "making the vector column NOT NULL again")
        state.done = True
        await _save(tx, spec, state)


async def _save(session: AsyncSqlSession, spec: LedgerVectors, state: ColumnProgress) -> None:
    await session.execute("reindex_set_metadata", {"key": progress_key(spec), "value": state.to_json()})
