# Generated from agentx_memory/maintenance/backfill_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Backfill of the fields ingest derives from a turn's words (``agentx-memory backfill``, and a bounded
batch per run of the ``backfill`` job): the event date (migration 011) and the question context
(migration 012) of every turn stored before them, which migration 013 marks ``derived_version = 0``.

Turns come in batches in id order (bounded memory) and each batch commits with its rows set to version
1, so a rerun continues where a crash stopped and a run after success finds nothing to do. Only the
turns that get a new event label are embedded again (their embedded text gained the label), in one
embedder call per batch. Rows are read through the Postgres adapter, so sealed metadata is opened as
for every other read; the embedder is the facade's, so it is the one the store is locked to.

Generated from ``maintenance/backfill_async.py``: edit that file."""

from __future__ import annotations

import time
from typing import Final

from .._compat.sync import to_thread
from ..embedding.base import Embedder
from ..facade import AgentMemory
from ..stores.postgres import PostgresStore
from .backfill_rules import FIRST_ID, BackfillReport, derive_turn, write_rows
from .reindex_rules import QuietProgress, ReindexProgress, embed_checked

__all__ = ["TASK", "backfill", "backfill_turns", "turns_awaiting"]

#: The progress task of a backfill.
TASK: Final = "turns"


def backfill(
    root: AgentMemory,
    *,
    user_id: str | None = None,
    batch: int = 256,
    limit: int | None = None,
    progress: ReindexProgress | None = None,
) -> BackfillReport:
    """Backfill the turns of ``user_id`` (every user when ``None``) through the stores of ``root``, up
    to ``limit`` turns (all when ``None``), ``batch`` turns per embedder call and commit."""
    backends = root._open_backends()
    step = backfill_turns(
        backends.ledger,
        backends.embedder,
        with_context=root.settings.retrieval.turn_context,
        user_id=user_id,
        batch=batch,
        limit=limit,
        progress=progress,
    )
    return root.home.run(step)  # on the memory's own loop, where its pools live


def turns_awaiting(ledger: PostgresStore, user_id: str | None = None) -> int:
    """How many turns (of ``user_id``, or of every user) still await the backfill."""
    row = ledger.fetch_one("backfill_count_turns", {"user_id": user_id})
    return int(row["count"]) if row else 0


def backfill_turns(
    ledger: PostgresStore,
    embedder: Embedder,
    *,
    with_context: bool,
    user_id: str | None = None,
    batch: int = 256,
    limit: int | None = None,
    progress: ReindexProgress | None = None,
) -> BackfillReport:
    """Give turns at ``derived_version = 0`` the fields ingest would have written: event columns from
    ``turn_event``, the question context (when ``with_context``, as ``retrieval.turn_context`` makes
    ingest do), a new vector where the embedded text changed; and version 1."""
    began = time.perf_counter()
    progress = progress if progress is not None else QuietProgress()
    awaiting = turns_awaiting(ledger, user_id)
    report = BackfillReport()
    progress.start(TASK, awaiting if limit is None else min(awaiting, limit))
    after = FIRST_ID
    while limit is None or report.turns < limit:
        size = batch if limit is None else min(batch, limit - report.turns)
        params = {"user_id": user_id, "after_id": after, "limit": size}
        rows = ledger.fetch_all("backfill_turn_rows", params)
        if not rows:
            break
        turns = [derive_turn(row) for row in rows]
        stale = [turn for turn in turns if turn.embed_text is not None]
        texts = [turn.embed_text for turn in stale if turn.embed_text is not None]
        vectors = to_thread(embed_checked, embedder, texts) if texts else []
        by_id = {turn.id: vector for turn, vector in zip(stale, vectors, strict=True)}
        # One statement: a batch's rows reach version 1 together with their fields, or not at all.
        ledger.execute(
            "backfill_write_turns", {"rows": write_rows(turns, by_id), "with_context": with_context}
        )
        after = turns[-1].id
        report.turns += len(turns)
        report.embedded += len(stale)
        progress.advance(TASK, len(turns))
    report.remaining = max(awaiting - report.turns, 0)
    report.seconds = time.perf_counter() - began
    return report
