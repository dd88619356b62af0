"""Semantic models: entities, facts, the relationships between entities, and memory statistics."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from .episodic import Turn

__all__ = [
    "ENTITY_RELATIONSHIPS",
    "ENTITY_TYPES",
    "FACT_PRIORITIES",
    "FACT_TEMPORALS",
    "Entity",
    "EntityEdge",
    "EntityGraph",
    "EntityInfo",
    "EntityRelationship",
    "EntityType",
    "Fact",
    "FactPriority",
    "FactTemporal",
    "MemoryStats",
    "Neighbour",
]

EntityType = Literal[
    "person", "organization", "project", "location", "tool", "concept", "event",
    "email", "url", "date", "other",
]  # fmt: skip
ENTITY_TYPES: Final = frozenset(get_args(EntityType))

#: The relationship types ``create_relationship`` accepts between two entities.
EntityRelationship = Literal[
    "RELATED_TO", "PART_OF", "LOCATED_IN", "WORKS_FOR", "KNOWS", "CREATED_BY", "REFERENCES"
]
ENTITY_RELATIONSHIPS: Final = frozenset(
    {"RELATED_TO", "PART_OF", "LOCATED_IN", "WORKS_FOR", "KNOWS", "CREATED_BY", "REFERENCES"}
)

FactTemporal = Literal["current", "past", "future", "timeless"]
FACT_TEMPORALS: Final = frozenset({"current", "past", "future", "timeless"})
FactPriority = Literal["low", "medium", "high", "critical"]
FACT_PRIORITIES: Final = frozenset({"low", "medium", "high", "critical"})


class Entity(BaseModel):
    """One real-world thing (person, project, tool …) of one user; resolution keeps it one node."""

    model_config = ConfigDict(frozen=True)

    id: str
    user_id: str
    channel: str
    name: str
    type: EntityType
    aliases: list[str] = Field(default_factory=list)
    description: str | None = None
    properties: dict[str, Any] = Field(default_factory=dict)
    mention_count: int = 1
    access_count: int = 0
    last_accessed: datetime | None = None
    #: How prominent the entity is (1.0 when new); the decay job lowers it for entities left unused.
    salience: float = 1.0
    created_at: datetime
    updated_at: datetime
    #: When it was first said: the time of the earliest turn it was learned from, not of learning (time
    #: windows compare it); None for an entity no turn named (written through ``upsert_entity``).
    first_seen: datetime | None = None


class Fact(BaseModel):
    """A claim the agent learned; ``valid_until`` set means it is no longer current (soft-deleted)."""

    model_config = ConfigDict(frozen=True)

    id: str
    user_id: str
    channel: str
    claim: str
    confidence: float
    source: str
    temporal: FactTemporal = "current"
    priority: FactPriority = "medium"
    salience: float = 0.5
    #: How fast the fact's strength fades; 0 means protected (confirmed facts never decay).
    decay_rate: float = 0.05
    access_count: int = 0
    last_accessed: datetime | None = None
    created_at: datetime
    valid_until: datetime | None = None
    superseded_by: str | None = None
    #: Ids of the entities the fact is about.
    about: list[str] = Field(default_factory=list)
    #: The first of ``source_turn_ids`` (kept for callers of the single-source API).
    source_turn_id: str | None = None
    #: Every turn the fact was learned from; a dedup UPDATE adds to it and a correction keeps it.
    source_turn_ids: list[str] = Field(default_factory=list)
    #: Set for learned facts: the atom's kind, subject, key and value (``None`` for ``learn_fact``).
    fact_kind: str | None = None
    subject: str | None = None
    key: str | None = None
    value: str | None = None
    negated: bool = False
    certainty: str | None = None
    event_time: datetime | None = None
    #: When it was said (the latest source turn's time) for a learned fact; recall dates it by this.
    stated_at: datetime | None = None
    #: For an ending ("I quit my job"): the slots it ended and the words that name what it ended.
    ends: list[str] = Field(default_factory=list)
    ends_words: list[str] = Field(default_factory=list)

    @property
    def mention_count(self) -> int:
        """How many turns stated the fact (at least 1)."""
        return max(1, len(self.source_turn_ids))

    @property
    def is_current(self) -> bool:
        return self.valid_until is None


class EntityEdge(BaseModel):
    """A typed, directed edge between two entities of an :class:`EntityGraph`."""

    model_config = ConfigDict(frozen=True)

    source_id: str
    target_id: str
    type: str
    properties: dict[str, Any] = Field(default_factory=dict)


class EntityGraph(BaseModel):
    """The neighbourhood ``get_entity_graph`` returns: the entities reached and the edges among them."""

    nodes: list[Entity] = Field(default_factory=list)
    edges: list[EntityEdge] = Field(default_factory=list)


class Neighbour(BaseModel):
    """An entity linked to another one, with the edge type and its direction seen from the first."""

    model_config = ConfigDict(frozen=True)

    entity: Entity
    type: str
    outgoing: bool


class EntityInfo(BaseModel):
    """Everything known about one entity: profile, current facts, neighbours and mentioning turns."""

    entity: Entity
    facts: list[Fact] = Field(default_factory=list)
    neighbours: list[Neighbour] = Field(default_factory=list)
    turns: list[Turn] = Field(default_factory=list)


class MemoryStats(BaseModel):
    """Node counts per kind (graph label) and channel, over the channels this memory reads."""

    counts: dict[str, dict[str, int]] = Field(default_factory=dict)
    current_facts: int = 0
    latest_write: datetime | None = None

    @property
    def total(self) -> int:
        return sum(sum(per_channel.values()) for per_channel in self.counts.values())
