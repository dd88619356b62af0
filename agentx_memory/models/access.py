"""Access statistics of a graph memory, kept in the ledger (``memory_access``) instead of on its node.

A recall that wrote its results' counters to their nodes left a stale vector-index entry per write on
FalkorDB 4.16 (FalkorDB#2197); these values change on every recall (and salience on every decay run), so
they live in Postgres and are overlaid on the models read from the graph (``memory/access_pure.py``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["ACCESS_KINDS", "AccessKind", "AccessRecord"]

AccessKind = Literal["fact", "entity", "strategy", "goal"]
ACCESS_KINDS: Final = frozenset({"fact", "entity", "strategy", "goal"})


class AccessRecord(BaseModel):
    """One memory's row. Counts are what was counted here; a node may still carry a count from before
    the table existed, and reads add the two (the node's is never rewritten)."""

    model_config = ConfigDict(frozen=True)

    memory_type: AccessKind
    memory_id: str
    access_count: int = 0
    last_accessed: datetime | None = None
    #: Mentions counted here (an entity merged again: one more turn named it).
    mention_count: int = 0
    #: Set by the decay job; ``None``: the memory's own salience.
    salience: float | None = None
    salience_at: datetime | None = None
