"""Episodic memory: conversations and their turns. Async source of ``memory/episodic.py``.

Write order is the ledger (Postgres, source of truth) first, then the graph. A turn is listed as
unsynced (``turn_sync_pending``, migration 016) in the commit that stores it, and leaves that list when
the graph confirms it; a turn whose graph write fails stays listed, and a retry of the same
``store_turn`` (or the reconcile job) replays it from the ledger. The embedding lives in the ledger
only (recall searches turns there); the graph's Turn nodes carry no vector.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb

from ..crypto import Encryptor
from ..errors import AgentMemoryError, ConflictError, GraphSyncError, NotFoundError
from ..models import Role, Scope, Turn
from ..stores.graph_async import AsyncGraphStore
from ..stores.ports_async import AsyncLedger
from ..stores.sql import array_literal
from ..timecodec import epoch_ms
from .episodic_pure import (
    PendingConversation,
    TurnEvent,
    TurnHit,
    content_hash,
    event_params,
    pending_from_row,
    turn_from_row,
    turn_hit,
)
from .lexical import MAX_POSTINGS, MAX_PROBE
from .turn_batch import (
    StoredBatch,
    TurnBatch,
    graph_batch_params,
    graph_turn_values,
    ledger_batch_params,
    read_batch,
)

__all__ = ["AsyncEpisodicMemory"]

log = logging.getLogger(__name__)


class AsyncEpisodicMemory:
    """Conversations and turns over the ledger and the graph."""

    def __init__(
        self, ledger: AsyncLedger, graph: AsyncGraphStore, encryptor: Encryptor | None = None
    ) -> None:
        self._ledger = ledger
        self._graph = graph
        #: Seals the graph's copy of turn metadata as the ledger seals its own.
        self._encryptor = encryptor

    async def create_conversation(
        self, scope: Scope, conversation_id: str, title: str | None, metadata: dict[str, Any]
    ) -> datetime:
        """Create the conversation (ledger, then graph); one of this user's with that id is kept as it
        is, one of another user's raises :class:`ConflictError`."""
        created_at = datetime.now(UTC)
        inserted = await self._ledger.execute(
            "insert_conversation",
            {
                "id": conversation_id,
                "user_id": scope.user_id,
                "channel": scope.channel,
                "title": title,
                "metadata": Jsonb(metadata),
                "created_at": created_at,
            },
        )
        if not inserted:
            if not await self.conversation_exists(scope, conversation_id):
                raise ConflictError(f"conversation id {conversation_id} is taken: choose another one")
            return created_at
        try:
            await self._ensure_graph_conversation(
                scope.user_id, conversation_id, scope.channel, title, created_at
            )
        except AgentMemoryError as exc:
            # The ledger row is enough: the first synced turn (or reconcile) creates the graph node.
            log.warning("conversation %s is in the ledger but not yet in the graph: %s", conversation_id, exc)
        return created_at

    async def _ensure_graph_conversation(
        self, user_id: str, conversation_id: str, channel: str, title: str | None, created_at: datetime
    ) -> None:
        await self._graph.run(
            "ensure_conversation",
            {
                "user_id": user_id,
                "conversation_id": conversation_id,
                "channel": channel,
                "title": title,
                "created_at": epoch_ms(created_at),
            },
        )
        await self._ledger.execute(
            "mark_conversation_synced", {"conversation_id": conversation_id, "user_id": user_id}
        )

    async def restore_graph_conversation(self, user_id: str, conversation_id: str) -> None:
        """Re-create a conversation's graph node from its ledger row (its own graph write failed
        earlier); writes that hang off the node call this when their statement found no node."""
        conversation = await self._ledger.fetch_one(
            "get_conversation", {"conversation_id": conversation_id, "user_id": user_id}
        )
        if conversation is None:
            raise NotFoundError(f"conversation {conversation_id} vanished from the ledger")
        await self._ensure_graph_conversation(
            user_id,
            conversation_id,
            conversation["channel"],
            conversation["title"],
            conversation["created_at"],
        )

    async def _restore_for_turns(self, user_id: str, conversation_id: str) -> None:
        """:meth:`restore_graph_conversation` for turns about to hang off the node. No ledger row: the
        conversation was forgotten while its turns were being stored, and they went with it."""
        try:
            await self.restore_graph_conversation(user_id, conversation_id)
        except NotFoundError as exc:
            raise NotFoundError(
                f"conversation {conversation_id} does not exist for user {user_id!r} (it was forgotten "
                "while its turns were being stored)"
            ) from exc

    async def store_turn_log(
        self,
        scope: Scope,
        *,
        turn_id: str,
        conversation_id: str,
        role: Role,
        content: str,
        timestamp: datetime,
        turn_index: int | None,
        metadata: dict[str, Any],
        embedding: Sequence[float],
        audit: Mapping[str, Any],
        token_count: int | None = None,
        event: TurnEvent | None = None,
        with_context: bool = True,
    ) -> tuple[Turn, bool]:
        """Write the ledger row; returns the stored turn and whether this call created it.

        One statement allocates the index under the conversation's row lock, so concurrent writers
        without an index get consecutive ones; a retry at an existing index returns the stored turn
        (same role and content) or raises :class:`ConflictError` (different ones). ``with_context``:
        the turn before it joins its full-text entry (``retrieval.turn_context``).
        """
        key = {"conversation_id": conversation_id, "user_id": scope.user_id}
        digest = content_hash(role, content)
        row = await self._ledger.fetch_one(
            "append_turn",
            {
                **key,
                "id": turn_id,
                "turn_index": turn_index,
                "role": role,
                "content": content,
                "content_hash": digest,
                "metadata": Jsonb(metadata),
                "embedding": np.asarray(embedding, dtype=np.float32),
                "timestamp": timestamp,
                "token_count": token_count,
                **event_params(event),
                "with_context": with_context,
                **audit,
            },
        )
        if row is not None:
            return turn_from_row(row), True
        if not await self.conversation_exists(scope, conversation_id):
            raise NotFoundError(f"conversation {conversation_id} does not exist for user {scope.user_id!r}")
        if turn_index is None:  # the allocated index was taken by a concurrent explicit write: retry
            raise ConflictError(f"turn index allocation raced in conversation {conversation_id}; retry")
        index = turn_index
        existing = await self._ledger.fetch_one("get_turn_at", {**key, "turn_index": index})
        if existing is None:  # the index was taken, so only a concurrent forget can get here
            raise ConflictError(f"turn {index} of conversation {conversation_id} could not be stored")
        if existing["content_hash"] != digest:
            raise ConflictError(
                f"conversation {conversation_id} already has a different turn at index {index}; "
                "omit turn_index to append, or use the stored content to retry"
            )
        return turn_from_row(existing), False

    async def sync_turn(self, turn: Turn) -> Turn:
        """Mirror a ledger turn into the graph and mark it synced; raises GraphSyncError on failure,
        and NotFoundError when the turn (or its conversation) was forgotten meanwhile: nothing is left
        in the ledger for reconcile to replay, and no node is left in the graph."""
        params = graph_turn_values(turn, self._encryptor)
        try:
            rows = await self._graph.run("create_turn", params)
            if not rows:  # the conversation node is missing (its own graph write failed earlier)
                await self._restore_for_turns(turn.user_id, turn.conversation_id)
                rows = await self._graph.run("create_turn", params)
            marked = await self._ledger.execute_relaxed(
                "mark_turn_synced", {"id": turn.id, "user_id": turn.user_id}
            )
            if not marked:  # forgotten after the ledger write: the node just written would be an orphan
                await self._graph.run("forget_turn_graph", {"turn_id": turn.id, "user_id": turn.user_id})
                raise NotFoundError(
                    f"turn {turn.id} does not exist for user {turn.user_id!r} (it was forgotten while "
                    "being stored)"
                )
        except NotFoundError:
            raise
        except AgentMemoryError as exc:
            raise GraphSyncError(
                f"turn {turn.index} of conversation {turn.conversation_id} is safe in the ledger but the "
                f"graph write failed ({exc}); it is marked unsynced and the reconcile job replays it "
                "(every 15 minutes under `agentx-memory worker`, or now: `agentx-memory jobs run reconcile`; "
                "retrying the same store_turn call works too)",
                turn,
            ) from exc
        return turn.model_copy(update={"synced": True})

    async def store_turns_log(
        self, scope: Scope, conversation_id: str, batch: TurnBatch, audit: Mapping[str, Any]
    ) -> StoredBatch:
        """:meth:`store_turn_log` for a batch of one conversation's turns, in one statement: all of
        them are stored (or found stored, same role and content) or, on a conflict, none."""
        params = ledger_batch_params(scope.user_id, conversation_id, batch, audit)
        rows = await self._ledger.fetch_all("append_turns", params)
        if not rows and not await self.conversation_exists(scope, conversation_id):
            raise NotFoundError(f"conversation {conversation_id} does not exist for user {scope.user_id!r}")
        return read_batch(conversation_id, batch, rows)

    async def sync_turns(self, turns: Sequence[Turn]) -> list[Turn]:
        """:meth:`sync_turn` for turns of one conversation, in one graph statement; raises
        :class:`GraphSyncError` (carrying the list of turns) on failure."""
        if not turns:
            return []
        params = graph_batch_params(turns, self._encryptor)
        first = turns[0]
        try:
            rows = await self._graph.run("create_turns", params)
            if not rows:  # the conversation node is missing (its own graph write failed earlier)
                await self._restore_for_turns(first.user_id, first.conversation_id)
                await self._graph.run("create_turns", params)
            await self._ledger.execute_relaxed(
                "mark_turns_synced", {"ids": [turn.id for turn in turns], "user_id": first.user_id}
            )
        except NotFoundError:
            raise
        except AgentMemoryError as exc:
            raise GraphSyncError(
                f"{len(turns)} turns of conversation {first.conversation_id} are safe in the ledger but the "
                f"graph write failed ({exc}); they are marked unsynced and the reconcile job replays them "
                "(every 15 minutes under `agentx-memory worker`, or now: `agentx-memory jobs run reconcile`; "
                "retrying the same store_turns call with turn_index set works too)",
                list(turns),
            ) from exc
        return [turn.model_copy(update={"synced": True}) for turn in turns]

    async def unsynced_turns(self, limit: int) -> list[Turn]:
        """Turns of every user not yet confirmed in the graph, oldest first (for reconcile only)."""
        return [
            turn_from_row(row) for row in await self._ledger.fetch_all("unsynced_turns", {"limit": limit})
        ]

    async def unsynced_conversations(self, limit: int) -> list[tuple[str, str]]:
        """``(user_id, conversation_id)`` of conversations whose graph node was never confirmed."""
        rows = await self._ledger.fetch_all("unsynced_conversations", {"limit": limit})
        return [(str(row["user_id"]), str(row["id"])) for row in rows]

    async def get_conversation(self, scope: Scope, conversation_id: str) -> list[Turn]:
        """Every turn of a conversation of this user, in index order (empty for another user's id)."""
        rows = await self._ledger.fetch_all(
            "list_turns", {"conversation_id": conversation_id, "user_id": scope.user_id}
        )
        return [turn_from_row(row) for row in rows]

    async def conversation_title(self, scope: Scope, conversation_id: str) -> str | None:
        """The title a conversation of this user was started with (None if it has none); raises
        :class:`NotFoundError` for a conversation that is not this user's."""
        row = await self._ledger.fetch_one(
            "get_conversation", {"conversation_id": conversation_id, "user_id": scope.user_id}
        )
        if row is None:
            raise NotFoundError(f"conversation {conversation_id} does not exist for user {scope.user_id!r}")
        title: str | None = row["title"]
        return title

    async def conversation_exists(self, scope: Scope, conversation_id: str) -> bool:
        row = await self._ledger.fetch_one(
            "get_conversation", {"conversation_id": conversation_id, "user_id": scope.user_id}
        )
        return row is not None

    async def get_recent_turns(self, scope: Scope, hours: float, limit: int) -> list[Turn]:
        """This user's turns of the last ``hours`` in the active channel and ``_global``, newest first."""
        rows = await self._ledger.fetch_all(
            "recent_turns",
            {
                "user_id": scope.user_id,
                "channels": scope.read_channels,
                "since": datetime.now(UTC) - timedelta(hours=hours),
                "limit": limit,
            },
        )
        return [turn_from_row(row) for row in rows]

    async def recall_by_vector(
        self,
        scope: Scope,
        vector: Sequence[float],
        *,
        channels: Sequence[str],
        limit: int,
        also: Sequence[str] = (),
        metadata: Mapping[str, Any] | None = None,
    ) -> tuple[list[tuple[TurnHit, float]], list[tuple[TurnHit, float]]]:
        """This user's turns in ``channels`` nearest ``vector`` (ledger HNSW index), with their cosine;
        and the cosine of the turns in ``also`` that are not among them. Lean hits (:meth:`get_turns`
        fetches the whole turns). One statement: (nearest, also)."""
        rows = await self._ledger.fetch_tuples(
            "recall_vector_turns",
            {
                "user_id": scope.user_id,
                "channels": list(channels),
                "vector": np.asarray(vector, dtype=np.float32),
                "limit": limit,
                "also": array_literal(also),
                "metadata": _containing(metadata),
            },
        )
        nearest: list[tuple[TurnHit, float]] = []
        scored: list[tuple[TurnHit, float]] = []
        for row in rows:  # a lean turn, then its similarity and whether it is among the nearest
            (nearest if row[8] else scored).append((turn_hit(row), float(row[7])))
        return nearest, scored

    async def get_turns(self, scope: Scope, ids: Sequence[str], channels: Sequence[str]) -> dict[str, Turn]:
        """This user's turns with these ids in ``channels``, by id."""
        if not ids:
            return {}
        rows = await self._ledger.fetch_all(
            "turns_by_id", {"user_id": scope.user_id, "channels": list(channels), "ids": array_literal(ids)}
        )
        return {row["id"]: turn_from_row(row) for row in rows}

    async def lexical_search(
        self,
        scope: Scope,
        text: str,
        *,
        channels: Sequence[str],
        limit: int,
        since: datetime | None = None,
        until: datetime | None = None,
        k1: float = 1.2,
        b: float = 0.75,
        max_df_ratio: float = 0.3,
        metadata: Mapping[str, Any] | None = None,
        vector: Sequence[float] | None = None,
        cosines: dict[str, float] | None = None,
    ) -> list[tuple[TurnHit, float]]:
        """BM25 over this user's turns in ``channels`` (ledger full-text index), best first; lean hits.

        Term statistics are the exact ones the ledger keeps per user and channel; ``max_df_ratio``
        is the share of turns above which a lexeme scores but does not pick candidates. With ``vector``,
        ``cosines`` receives each hit's cosine to it (as :meth:`recall_by_vector` reads them; a turn
        without an embedding has none). One statement.
        """
        rows = await self._ledger.fetch_tuples(
            "lexical_search_turns",
            {
                "user_id": scope.user_id,
                "channels": list(channels),
                "text": text,
                "max_df_ratio": max_df_ratio,
                "max_probe": MAX_PROBE,
                "max_postings": MAX_POSTINGS,
                "k1": k1,
                "b": b,
                "since": since,
                "until": until,
                "limit": limit,
                "metadata": _containing(metadata),
                "vector": None if vector is None else np.asarray(vector, dtype=np.float32),
            },
        )
        # a lean turn (its id first), then its score and its similarity (None without a vector)
        if cosines is not None:
            cosines.update((row[0], float(row[8])) for row in rows if row[8] is not None)
        return [(turn_hit(row), float(row[7])) for row in rows]

    async def neighbours(
        self,
        scope: Scope,
        positions: Sequence[tuple[str, int]],
        channels: Sequence[str],
        metadata: Mapping[str, Any] | None = None,
        vector: Sequence[float] | None = None,
    ) -> list[tuple[TurnHit, float | None]]:
        """The turns at ``(conversation_id, turn_index)`` positions, lean hits, each with its cosine to
        ``vector`` (None without a vector or an embedding)."""
        if not positions:
            return []
        rows = await self._ledger.fetch_tuples(
            "turn_neighbours",
            {
                "user_id": scope.user_id,
                "channels": list(channels),
                "conversation_ids": array_literal(conversation_id for conversation_id, _ in positions),
                "turn_indexes": array_literal(index for _, index in positions),
                "metadata": _containing(metadata),
                "vector": None if vector is None else np.asarray(vector, dtype=np.float32),
            },
        )
        # a lean turn, then its similarity
        return [(turn_hit(row), None if row[7] is None else float(row[7])) for row in rows]

    # -- consolidation's view --------------------------------------------------------------------------

    async def to_consolidate(self, scope: Scope, limit: int = 100) -> list[PendingConversation]:
        """The user's conversations with turns not yet learned from, oldest first."""
        rows = await self._ledger.fetch_all(
            "conversations_to_consolidate", {"user_id": scope.user_id, "limit": limit}
        )
        return [pending_from_row(row) for row in rows]

    async def consolidation_state(self, scope: Scope, conversation_id: str) -> PendingConversation | None:
        row = await self._ledger.fetch_one(
            "consolidation_state", {"conversation_id": conversation_id, "user_id": scope.user_id}
        )
        return None if row is None else pending_from_row({**row, "id": conversation_id, "last_turn_at": None})

    async def turns_from(self, scope: Scope, conversation_id: str, from_index: int, limit: int) -> list[Turn]:
        """Up to ``limit`` turns of the conversation from ``from_index`` on, in order (the ledger's)."""
        rows = await self._ledger.fetch_all(
            "turns_from",
            {
                "conversation_id": conversation_id,
                "user_id": scope.user_id,
                "from_index": from_index,
                "limit": limit,
            },
        )
        return [turn_from_row(row) for row in rows]

    async def turns_of_conversation(
        self, scope: Scope, conversation_id: str, turn_ids: Sequence[str]
    ) -> frozenset[str]:
        """Which of these turn ids belong to the conversation (and the user)."""
        rows = await self._ledger.fetch_all(
            "turns_of_conversation",
            {"user_id": scope.user_id, "conversation_id": conversation_id, "turn_ids": list(turn_ids)},
        )
        return frozenset(str(row["id"]) for row in rows)

    @asynccontextmanager
    async def learning_from(self, scope: Scope, turn_ids: Sequence[str]) -> AsyncIterator[bool]:
        """Hold the user shared while what was learned from these turns is written; yields whether
        every one of them is still in the ledger (False: one was forgotten meanwhile, perhaps by another
        process, and nothing learned from it may be written). Forgetting holds the user exclusively."""
        async with self._ledger.user_lock(scope.user_id, shared=True):
            row = await self._ledger.fetch_one(
                "turns_present", {"user_id": scope.user_id, "turn_ids": list(turn_ids)}
            )
            yield row is not None and int(row["present"]) == len(set(turn_ids))

    async def advance_consolidation(self, scope: Scope, conversation_id: str, upto: int) -> None:
        """Record that turns below index ``upto`` have been learned from (never moves back)."""
        await self._ledger.execute(
            "advance_consolidation",
            {"conversation_id": conversation_id, "user_id": scope.user_id, "upto": upto},
        )


def _containing(metadata: Mapping[str, Any] | None) -> Jsonb | None:
    """The recall filter on turn metadata (jsonb containment), or ``None`` for no filter."""
    return None if not metadata else Jsonb(dict(metadata))
