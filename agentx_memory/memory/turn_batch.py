"""``store_turns``' pure half: a batch checked before anything is written, the one ledger statement's
parameters, its rows read back into turns (or a conflict), and the one graph statement's parameters.

The batch rules are ``store_turn``'s, applied to every turn before the first write: the same checks
and messages (prefixed with the turn's position), the same idempotency (a turn at an index that holds
the same role and content is the stored one; another one there is a conflict).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
from psycopg.types.json import Jsonb
from pydantic import ValidationError

from ..crypto import Encryptor, seal_text
from ..errors import AgentMemoryError, ConflictError, InvalidInputError
from ..models import Role, Turn, TurnSpec
from ..settings import LimitSettings
from ..timecodec import epoch_ms
from ..validation import (
    validate_content,
    validate_index,
    validate_metadata,
    validate_role,
    validate_timestamp,
)
from .episodic_pure import TurnEvent, content_hash, turn_event, turn_from_row, turn_search_text

__all__ = [
    "StoredBatch",
    "TurnBatch",
    "TurnDraft",
    "check_turns",
    "graph_batch_params",
    "graph_turn_values",
    "ledger_batch_params",
    "read_batch",
]


@dataclass(frozen=True, slots=True)
class TurnDraft:
    """One checked turn of a batch, not yet stored."""

    role: Role
    content: str
    timestamp: datetime
    turn_index: int | None
    metadata: dict[str, Any]

    @property
    def event(self) -> TurnEvent | None:
        return turn_event(self.content, self.timestamp)

    def search_text(self, event: TurnEvent | None) -> str:
        """What the turn is embedded as, given its :attr:`event` (computed once by the caller)."""
        return turn_search_text(self.content, self.metadata, event.label if event is not None else None)

    @property
    def content_hash(self) -> str:
        return content_hash(self.role, self.content)


def check_turns(turns: Sequence[TurnSpec | Mapping[str, Any]], limits: LimitSettings) -> list[TurnDraft]:
    """Every turn of the batch checked as ``store_turn`` checks one; the first bad one raises
    :class:`InvalidInputError` naming its position, before anything is written."""
    if isinstance(turns, str | bytes | Mapping) or not isinstance(turns, Sequence):
        raise InvalidInputError("turns must be a list of turns (TurnSpec or dicts with role and content)")
    if not turns:
        raise InvalidInputError("turns is empty: there is nothing to store")
    now = datetime.now(UTC)
    drafts = [_check_turn(position, turn, limits, now) for position, turn in enumerate(turns)]
    given = [draft.turn_index for draft in drafts if draft.turn_index is not None]
    if given and len(given) != len(drafts):
        raise InvalidInputError(
            "give turn_index for every turn of a batch or for none (without it, turns are appended)"
        )
    if len(set(given)) != len(given):
        twice = next(index for index in given if given.count(index) > 1)
        raise InvalidInputError(f"turn_index {twice} appears twice in the batch")
    return drafts


def _check_turn(
    position: int, turn: TurnSpec | Mapping[str, Any], limits: LimitSettings, now: datetime
) -> TurnDraft:
    try:
        spec = turn if isinstance(turn, TurnSpec) else TurnSpec.model_validate(turn)
        metadata = validate_metadata(spec.metadata, limits)
        if spec.speaker is not None:
            if metadata.get("speaker", spec.speaker) != spec.speaker:
                raise InvalidInputError("speaker and metadata['speaker'] differ: give one of them")
            metadata = validate_metadata({**metadata, "speaker": spec.speaker}, limits)
        return TurnDraft(
            role=validate_role(spec.role),
            content=validate_content(spec.content, limits),
            timestamp=now if spec.timestamp is None else validate_timestamp(spec.timestamp),
            turn_index=None if spec.turn_index is None else validate_index(spec.turn_index),
            metadata=metadata,
        )
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'turn'}: {e['msg']}" for e in exc.errors())
        raise InvalidInputError(f"turn {position}: {problems}") from None
    except AgentMemoryError as exc:
        raise InvalidInputError(f"turn {position}: {exc}") from None


@dataclass(frozen=True)
class TurnBatch:
    """Checked turns of one conversation with what the write adds to each: a fresh id, its event date,
    the embedding of its search text and its token count (parallel lists)."""

    ids: list[str]
    drafts: list[TurnDraft]
    events: list[TurnEvent | None]
    embeddings: list[list[float]]
    token_counts: list[int]
    #: Each turn's full-text entry also holds the turn before it (``retrieval.turn_context``).
    with_context: bool = True


def ledger_batch_params(
    user_id: str, conversation_id: str, batch: TurnBatch, audit: Mapping[str, Any]
) -> dict[str, Any]:
    """The parameters of ``append_turns`` (parallel arrays, one element per turn)."""
    indexes = [draft.turn_index for draft in batch.drafts]
    explicit = [index for index in indexes if index is not None]
    return {
        "user_id": user_id,
        "conversation_id": conversation_id,
        "ids": batch.ids,
        "turn_indexes": indexes,
        "roles": [draft.role for draft in batch.drafts],
        "contents": [draft.content for draft in batch.drafts],
        "content_hashes": [draft.content_hash for draft in batch.drafts],
        "metadata": [Jsonb(draft.metadata) for draft in batch.drafts],
        "embeddings": [np.asarray(vector, dtype=np.float32) for vector in batch.embeddings],
        "timestamps": [draft.timestamp for draft in batch.drafts],
        "token_counts": batch.token_counts,
        "event_starts": [event.start if event is not None else None for event in batch.events],
        "event_ends": [event.end if event is not None else None for event in batch.events],
        "event_labels": [event.label if event is not None else None for event in batch.events],
        "with_context": batch.with_context,
        "appended": 0 if explicit else len(indexes),
        "max_index": max(explicit) if explicit else None,
        **audit,
    }


@dataclass(frozen=True)
class StoredBatch:
    """A batch as the ledger holds it after ``append_turns``, in the batch's order."""

    turns: list[Turn]
    #: Whether this call stored each turn (False: it was stored before, same role and content).
    created: list[bool]


def read_batch(conversation_id: str, batch: TurnBatch, rows: Sequence[Mapping[str, Any]]) -> StoredBatch:
    """The batch's turns from ``append_turns``' rows; raises :class:`ConflictError` when a stored turn
    at one of its indexes differs (nothing was written then) or a concurrent writer took an index."""
    fresh = {row["id"]: row for row in rows if row["created"]}
    stored = {row["turn_index"]: row for row in rows if not row["created"]}
    for draft in batch.drafts:
        clash = stored.get(draft.turn_index) if draft.turn_index is not None else None
        if clash is not None and clash["content_hash"] != draft.content_hash:
            raise ConflictError(
                f"conversation {conversation_id} already has a different turn at index "
                f"{draft.turn_index}; nothing of the batch was stored: omit turn_index to append, or "
                "use the stored content to retry"
            )
    turns: list[Turn] = []
    created: list[bool] = []
    for turn_id, draft in zip(batch.ids, batch.drafts, strict=True):
        row = fresh.get(turn_id)
        if row is None and draft.turn_index is not None:
            row = stored.get(draft.turn_index)
        if row is None:
            raise ConflictError(
                f"a concurrent write took a turn index of the batch in conversation {conversation_id}; "
                "the turns before it may be stored: retry the batch with turn_index set to store the "
                "rest without duplicates"
            )
        turns.append(turn_from_row(dict(row)))
        created.append(bool(row["created"]))
    return StoredBatch(turns, created)


def graph_turn_values(turn: Turn, encryptor: Encryptor | None = None) -> dict[str, Any]:
    """A turn's values in the graph (``create_turn``'s parameters, a row of ``create_turns``); no vector:
    turns are searched in the ledger. Its metadata is sealed as in the ledger when there is a key."""
    return {
        "id": turn.id,
        "user_id": turn.user_id,
        "conversation_id": turn.conversation_id,
        "channel": turn.channel,
        "turn_index": turn.index,
        "role": turn.role,
        "content": turn.content,
        "timestamp": epoch_ms(turn.timestamp),
        "content_hash": turn.content_hash,
        "metadata": seal_text(encryptor, turn.metadata, turn.user_id),
    }


def graph_batch_params(turns: Sequence[Turn], encryptor: Encryptor | None = None) -> dict[str, Any]:
    """The parameters of ``create_turns`` for turns of one conversation."""
    return {
        "user_id": turns[0].user_id,
        "conversation_id": turns[0].conversation_id,
        "indexes": [turn.index for turn in turns],
        "turns": [graph_turn_values(turn, encryptor) for turn in turns],
    }
