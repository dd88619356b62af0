# Generated from agentx_memory/memory/access_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Access statistics: counters, last access and salience of graph memories, kept in the ledger. Generated from
``memory/access_async.py``: edit that file.

Recall reinforcement (``access_count += 1``, ``last_accessed = now`` on every returned fact and entity),
entity mentions and the decay job's salience change far more often than the memories themselves; on
FalkorDB 4.16 each write to a node that carries an indexed vector leaves a stale HNSW entry behind
(FalkorDB#2197), so these values never touch the graph. The subsystems overlay them on what they read
(``access_pure``); jobs read and write them here (``backends.access``). Rows are keyed by
``(user_id, memory_type, memory_id)``; forgetting a memory or a user deletes them with the ledger rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from ..errors import InvalidInputError
from ..models import Scope
from ..models.access import ACCESS_KINDS, AccessKind, AccessRecord
from ..stores.ports import Ledger

__all__ = ["AccessMemory"]


def _kind(kind: str) -> AccessKind:
    if kind not in ACCESS_KINDS:
        raise InvalidInputError(f"no access statistics for {kind!r}: one of {sorted(ACCESS_KINDS)}")
    return kind  # type: ignore[return-value]  # checked against the Literal's values just above


def _record(kind: AccessKind, row: Mapping[str, object]) -> AccessRecord:
    return AccessRecord.model_validate({**row, "memory_type": kind})


class AccessMemory:
    """Access statistics of one user's memories over the ledger (a stateless view)."""

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger

    def get(self, scope: Scope, kind: AccessKind, ids: Sequence[str]) -> dict[str, AccessRecord]:
        """The rows of these memories, by id; a memory never accessed (or salience-set) has none."""
        if not ids:
            return {}
        params = {"user_id": scope.user_id, "memory_type": _kind(kind), "ids": list(dict.fromkeys(ids))}
        rows = self._ledger.fetch_all("access_get", params)
        return {str(row["memory_id"]): _record(kind, row) for row in rows}

    def last_seen(self, scope: Scope, ids: Sequence[str]) -> dict[str, datetime]:
        """When each of these memories (any kind) was last accessed, by id; never-accessed ones are
        left out. One statement: what ``remember`` adds to its results."""
        if not ids:
            return {}
        rows = self._ledger.fetch_all("access_last_seen", {"user_id": scope.user_id, "ids": list(ids)})
        return {str(row["memory_id"]): row["last_accessed"] for row in rows}

    def listing(self, scope: Scope, kind: AccessKind) -> list[AccessRecord]:
        """Every row of this user's memories of ``kind``, by id (for jobs)."""
        params = {"user_id": scope.user_id, "memory_type": _kind(kind)}
        return [_record(kind, row) for row in self._ledger.fetch_all("access_list", params)]

    def touch(self, scope: Scope, kind: AccessKind, ids: Sequence[str], now: datetime | None = None) -> None:
        """One more access of each memory (recall reinforcement), last accessed ``now``."""
        self._count(scope, kind, ids, now, mentions=0)

    def touch_recalled(
        self, scope: Scope, recalled: Mapping[AccessKind, Sequence[str]], now: datetime | None = None
    ) -> None:
        """One more access of each recalled memory, every kind in one statement (what :meth:`touch`
        does per kind), last accessed ``now``."""
        pairs = list(dict.fromkeys((_kind(kind), i) for kind, ids in recalled.items() for i in ids))
        if not pairs:
            return
        params = {
            "user_id": scope.user_id,
            "kinds": [kind for kind, _ in pairs],
            "ids": [memory_id for _, memory_id in pairs],
            "now": datetime.now(UTC) if now is None else now,
        }
        self._ledger.execute("access_recalled", params)

    def mention(
        self, scope: Scope, kind: AccessKind, ids: Sequence[str], now: datetime | None = None
    ) -> None:
        """One more mention and access of each memory (an entity named again and merged)."""
        self._count(scope, kind, ids, now, mentions=1)

    def set_salience(
        self, scope: Scope, kind: AccessKind, values: Mapping[str, float], now: datetime | None = None
    ) -> int:
        """Set the salience of each memory in ``values`` (id → salience); returns the rows written."""
        if not values:
            return 0
        params = {
            "user_id": scope.user_id,
            "memory_type": _kind(kind),
            "ids": list(values),
            "values": [float(value) for value in values.values()],
            "now": datetime.now(UTC) if now is None else now,
        }
        return self._ledger.execute("access_set_salience", params)

    def delete(self, scope: Scope, ids: Sequence[str]) -> int:
        """Drop the rows of these memories (whatever their kind); returns how many went."""
        if not ids:
            return 0
        return self._ledger.execute("access_delete", {"user_id": scope.user_id, "ids": list(ids)})

    def _count(
        self, scope: Scope, kind: AccessKind, ids: Sequence[str], now: datetime | None, mentions: int
    ) -> None:
        if not ids:
            return
        params = {
            "user_id": scope.user_id,
            "memory_type": _kind(kind),
            # One row once per statement: ON CONFLICT cannot update a row twice.
            "ids": list(dict.fromkeys(ids)),
            "now": datetime.now(UTC) if now is None else now,
            "mentions": mentions,
        }
        self._ledger.execute("access_touch", params)
