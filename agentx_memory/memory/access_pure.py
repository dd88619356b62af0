"""Access statistics overlaid on the models read from the graph. Pure.

A node may still carry counters written before ``memory_access`` existed (FalkorDB nodes are never
rewritten just to clear them): the counts add up, the later access wins, and a salience set by the
decay job replaces the node's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TypeVar

from ..models.access import AccessRecord
from ..models.episodic import MemoryItem
from ..models.semantic import Entity, Fact

__all__ = [
    "later",
    "overlay_entities",
    "overlay_entity",
    "overlay_fact",
    "overlay_facts",
    "with_last_seen",
]

_M = TypeVar("_M", Fact, Entity)


def later(first: datetime | None, second: datetime | None) -> datetime | None:
    """The later of two optional times."""
    if first is None or second is None:
        return first or second
    return max(first, second)


def _overlay(model: _M, record: AccessRecord | None, counts: tuple[str, ...]) -> _M:
    if record is None:
        return model
    update: dict[str, object] = {name: getattr(model, name) + getattr(record, name) for name in counts}
    update["last_accessed"] = later(model.last_accessed, record.last_accessed)
    if record.salience is not None:
        update["salience"] = record.salience
    return model.model_copy(update=update)


def overlay_fact(fact: Fact, record: AccessRecord | None) -> Fact:
    return _overlay(fact, record, ("access_count",))


def overlay_entity(entity: Entity, record: AccessRecord | None) -> Entity:
    return _overlay(entity, record, ("access_count", "mention_count"))


def overlay_facts(facts: Sequence[Fact], records: Mapping[str, AccessRecord]) -> list[Fact]:
    return [overlay_fact(fact, records.get(fact.id)) for fact in facts]


def overlay_entities(entities: Sequence[Entity], records: Mapping[str, AccessRecord]) -> list[Entity]:
    return [overlay_entity(entity, records.get(entity.id)) for entity in entities]


def with_last_seen(items: Sequence[MemoryItem], seen: Mapping[str, datetime]) -> list[MemoryItem]:
    """Recalled items with when each was last accessed (``seen``: by id, from the ledger)."""
    return [
        item.model_copy(update={"last_accessed": later(item.last_accessed, seen[item.id])})
        if item.id in seen
        else item
        for item in items
    ]
