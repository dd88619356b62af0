# Generated from agentx_memory/api/turns_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""``store_turns``: many turns of one conversation at once. Generated from ``api/turns_async.py``: edit that
file.

The same write as ``store_turn`` (ledger first, then the graph, then working memory; the same checks,
idempotency and audit and timeline rows), done per chunk of up to :data:`CHUNK` turns with one batched
embedding, one ledger statement and one graph statement.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from ..backends import Backends
from ..errors import AgentMemoryError, GraphSyncError
from ..memory.turn_batch import TurnBatch, TurnDraft, check_turns
from ..models import Turn, TurnSpec
from ..retrieval.tokens import default_token_counter
from ..validation import validate_uuid
from .core import FacadeCore

__all__ = ["CHUNK", "TurnsApi"]

log = logging.getLogger(__name__)

#: Turns per ledger statement, graph statement and embedding call (bounds a statement's size).
CHUNK = 256


class TurnsApi(FacadeCore):
    def store_turns(self, conversation_id: str, turns: Sequence[TurnSpec | Mapping[str, Any]]) -> list[str]:
        """Store many turns of one conversation; returns their ids, in the order given.

        Each turn is a :class:`TurnSpec` (or a dict of its fields: ``role``, ``content``, optional
        ``timestamp``, ``turn_index``, ``metadata``, ``speaker``). The whole batch is checked before
        anything is written: a bad turn raises :class:`InvalidInputError` naming its position. With
        ``turn_index`` on every turn the call is idempotent (a retry stores nothing twice, a different
        turn at a stored index raises :class:`ConflictError` and stores nothing of its chunk); without,
        the turns are appended. If only the graph write fails the turns are durable in the ledger and
        :class:`GraphSyncError` is raised once all are stored, its ``turn`` the list of stored turns;
        the reconcile job (or the same call again) completes the graph.
        """
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        drafts = check_turns(turns, self.settings.limits)
        backends = self._open_backends()
        stored: list[Turn] = []
        sync_error: GraphSyncError | None = None
        for start in range(0, len(drafts), CHUNK):
            chunk, sync_failed = self._store_chunk(
                backends, conversation_id, drafts[start : start + CHUNK], graph=sync_error is None
            )
            stored.extend(chunk)
            if sync_failed is not None and sync_error is None:
                sync_error = sync_failed
        if sync_error is not None:
            unsynced = [turn for turn in stored if not turn.synced]
            raise GraphSyncError(f"{len(unsynced)} of {len(stored)} turns: {sync_error}", stored)
        return [turn.id for turn in stored]

    def _store_chunk(
        self, backends: Backends, conversation_id: str, drafts: Sequence[TurnDraft], *, graph: bool
    ) -> tuple[list[Turn], GraphSyncError | None]:
        """One chunk: ledger, graph (unless an earlier chunk's graph write failed), working memory."""
        events = [draft.event for draft in drafts]
        embeddings = backends.embed(
            [draft.search_text(event) for draft, event in zip(drafts, events, strict=True)]
        )
        counter = default_token_counter()
        written = TurnBatch(
            ids=[str(uuid.uuid4()) for _ in drafts],
            drafts=list(drafts),
            events=events,
            embeddings=embeddings,
            with_context=self.settings.retrieval.turn_context,
            token_counts=[counter.count(draft.content) for draft in drafts],
        )
        audit = backends.audit.inline_write()
        audit.pop("audit_payload")  # per turn, from its content: see append_turns
        audit["audit_payloads"] = backends.audit.inline_payloads([{"content": d.content} for d in drafts])
        batch = backends.episodic.store_turns_log(self.scope, conversation_id, written, audit)
        turns = list(batch.turns)
        pending = [position for position, turn in enumerate(turns) if not turn.synced]
        sync_error: GraphSyncError | None = None
        if pending and graph:
            try:
                synced = backends.episodic.sync_turns([turns[p] for p in pending])
            except GraphSyncError as exc:
                sync_error = exc
            else:
                for position, turn in zip(pending, synced, strict=True):
                    turns[position] = turn
        elif pending:
            sync_error = GraphSyncError("the graph write of an earlier chunk failed", turns)
        fresh = [turn for turn, created in zip(turns, batch.created, strict=True) if created]
        self._cache_turns(backends, conversation_id, fresh)
        return turns, sync_error

    def _cache_turns(self, backends: Backends, conversation_id: str, turns: list[Turn]) -> None:
        # As store_turn: Redis is a cache of the ledger, failing to fill it never fails a durable write.
        session = backends.session(self.scope, conversation_id)
        try:
            session.add_turns(turns)
        except AgentMemoryError as exc:
            log.warning("%d turns stored, but working memory was not updated: %s", len(turns), exc)
