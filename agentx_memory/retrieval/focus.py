"""Entity-centric recall's pure half: which entity a question is about, and what recall puts first
for it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..models import Entity, Fact, Turn

__all__ = ["EntityProfile", "closest_entity"]


@dataclass(frozen=True)
class EntityProfile:
    """What entity-centric recall puts first for the entity a question is about."""

    entity: Entity
    facts: list[Fact]
    neighbours: list[Entity]
    turns: list[Turn]
    latency_ms: float


def closest_entity(matches: Mapping[str, tuple[Entity, float]], floor: float) -> Entity | None:
    """The entity nearest the query by vector, if near enough (cosine ``floor``, the embedder's
    ``focus`` calibration) to be the one it names."""
    best = max(matches.values(), key=lambda match: match[1], default=None)
    return best[0] if best is not None and best[1] >= floor else None
