"""Entity merges' plain values, shared by the async source and its generated twin. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from ..models.semantic import Entity

__all__ = ["EntitySide", "SameAsCandidate"]


@dataclass(frozen=True)
class SameAsCandidate:
    id: str
    other_id: str
    score: float
    created_at: int | None
    evidence: str | None
    reviewed_at: int | None


@dataclass(frozen=True)
class EntitySide:
    """One end of a candidate link, with what a review weighs."""

    entity: Entity
    alias_keys: frozenset[str]
    fact_ids: frozenset[str]
    claims: frozenset[str]
    neighbours: frozenset[str]
