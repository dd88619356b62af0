"""Pure conversions from stored memories to recalled :class:`MemoryItem` s, and the recall plan."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..kinds import ALL_KINDS, MemoryKind
from ..models import Entity, Fact, Goal, MemoryItem, Strategy, Turn
from ..models.documents import RecalledDocument

__all__ = [
    "RecallPlan",
    "RecallRequest",
    "document_id",
    "document_item",
    "entity_item",
    "entity_text",
    "fact_item",
    "goal_item",
    "matching_metadata",
    "reinforcement_targets",
    "strategy_item",
    "strategy_text",
    "turn_item",
]


@dataclass(frozen=True)
class RecallRequest:
    """A validated ``remember`` call."""

    query: str
    top_k: int
    channels: tuple[str, ...]
    kinds: frozenset[MemoryKind] = ALL_KINDS
    time_window_hours: float | None = None
    #: Turn metadata every returned turn must contain (``remember(metadata=…)``); empty: no filter.
    metadata: Mapping[str, Any] = field(default_factory=dict)
    #: Returned facts and entities carry their last access (kept in the ledger, off the nodes).
    last_seen: bool = False


@dataclass(frozen=True)
class RecallPlan:
    """What one recall searches for, decided before any store is asked (by the RecallLayer)."""

    #: Text for full-text search: the query without filter phrases, plus its rewrite when expanded.
    text: str
    #: Query vectors by the technique that produced them: ``vector`` (the query), ``expansion``, ``hyde``.
    vectors: Mapping[str, Sequence[float]]
    channels: tuple[str, ...]
    top_k: int
    now: datetime
    kinds: frozenset[MemoryKind] = ALL_KINDS
    #: Kinds the query asks for ("which strategies…"): weighted up, never the only ones searched,
    #: because a word like "fact" in a question is weak evidence that only facts can answer it.
    preferred: frozenset[MemoryKind] = frozenset()
    #: Hard time window (the caller's ``time_window_hours``, up to now): nothing older is returned.
    since: datetime | None = None
    #: Soft window read from the query ("last week"): memories inside it rank higher. Soft because
    #: a phrase names when something happened, which need not be when it was said or stored.
    prefer_since: datetime | None = None
    prefer_until: datetime | None = None
    #: Entity names the query is about (self-query, entity-centric).
    entities: tuple[str, ...] = field(default_factory=tuple)
    #: The caller's turn metadata filter (see :class:`RecallRequest`).
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def in_preferred(self, moment: datetime | None) -> bool:
        if moment is None or (self.prefer_since is None and self.prefer_until is None):
            return False
        after = self.prefer_since is None or moment >= self.prefer_since
        return after and (self.prefer_until is None or moment < self.prefer_until)

    def overlaps_preferred(self, event: tuple[datetime, datetime] | None) -> bool:
        """Whether an event's ``[start, end)`` meets the soft window (a turn that tells of that time)."""
        if event is None or (self.prefer_since is None and self.prefer_until is None):
            return False
        start, end = event
        return (self.prefer_since is None or end > self.prefer_since) and (
            self.prefer_until is None or start < self.prefer_until
        )

    def in_window(self, moment: datetime | None) -> bool:
        if moment is None:
            return self.since is None
        return self.since is None or moment >= self.since


def turn_item(
    turn: Turn,
    score: float,
    found_by: Sequence[str],
    superseded_by: Sequence[str] | None = None,
    whole: bool = True,
) -> MemoryItem:
    """A recalled turn; ``superseded_by`` (even empty) says what replaced what it said, and marks it
    stale when that was ``whole`` of it."""
    return MemoryItem(
        kind="episodic",
        id=turn.id,
        content=turn.content,
        score=score,
        channel=turn.channel,
        timestamp=turn.timestamp,
        conversation_id=turn.conversation_id,
        turn_index=turn.index,
        role=turn.role,
        metadata=turn.metadata,
        found_by=list(found_by),
        source_turn_ids=[turn.id],
        stale=superseded_by is not None and whole,
        superseded_by=list(superseded_by or ()),
    )


#: The namespace of a recalled document's item id (documents are keyed by place, not by id).
_DOCUMENT_IDS = uuid.UUID("9a7f3c1e-6b2d-4e8a-b5c4-2f1d0e9a8b7c")


def document_id(space: str, namespace: Sequence[str], key: str) -> str:
    """A document's item id: a uuid5 of where it is, so a context tag can carry it and it is stable."""
    return str(uuid.uuid5(_DOCUMENT_IDS, json.dumps([space, list(namespace), key])))


def document_item(document: RecalledDocument, score: float, found_by: Sequence[str]) -> MemoryItem:
    """A recalled document: its one text field when it has just one (LangMem's ``{"content": …}``),
    else the embedded text that matched."""
    texts = [value for value in document.value.values() if isinstance(value, str)]
    return MemoryItem(
        kind="document",
        id=document_id(document.space, document.namespace, document.key),
        content=texts[0] if len(document.value) == 1 and texts else document.text,
        score=score,
        channel=document.channel,
        timestamp=document.updated_at,
        metadata={"space": document.space, "namespace": list(document.namespace), "key": document.key},
        found_by=list(found_by),
    )


def fact_item(fact: Fact, score: float, found_by: Sequence[str]) -> MemoryItem:
    return MemoryItem(
        kind="fact",
        id=fact.id,
        content=fact.claim,
        score=score,
        channel=fact.channel,
        # A learned fact dates from when it was said, not from when consolidation wrote it.
        timestamp=fact.stated_at or fact.created_at,
        last_accessed=fact.last_accessed,
        metadata={
            "confidence": fact.confidence,
            "temporal": fact.temporal,
            "priority": fact.priority,
            "about": fact.about,
        },
        found_by=list(found_by),
        source_turn_ids=list(fact.source_turn_ids),
    )


def entity_text(entity: Entity) -> str:
    """What a recalled entity reads as (its item's ``content``)."""
    text = f"{entity.name} ({entity.type})"
    if entity.description:
        text += f": {entity.description}"
    if entity.properties:
        text += f" {json.dumps(entity.properties, ensure_ascii=False, sort_keys=True)}"
    return text


def entity_item(entity: Entity, score: float, found_by: Sequence[str]) -> MemoryItem:
    return MemoryItem(
        kind="entity",
        id=entity.id,
        content=entity_text(entity),
        score=score,
        channel=entity.channel,
        timestamp=entity.first_seen or entity.updated_at,
        metadata={"name": entity.name, "type": entity.type, "aliases": entity.aliases},
        found_by=list(found_by),
    )


def strategy_text(strategy: Strategy, success_rate: float) -> str:
    """What a recalled strategy reads as (its item's ``content``)."""
    tools = " → ".join(strategy.tool_sequence)
    return f"{strategy.description} (tools: {tools}; success rate {success_rate:.0%})"


def strategy_item(strategy: Strategy, score: float, success_rate: float) -> MemoryItem:
    return MemoryItem(
        kind="strategy",
        id=strategy.id,
        content=strategy_text(strategy, success_rate),
        score=score,
        channel=strategy.channel,
        timestamp=strategy.updated_at,
        conversation_id=strategy.source_conversation_id,
        metadata={"tool_sequence": strategy.tool_sequence, "success_rate": success_rate},
        found_by=["vector"],
    )


def goal_item(goal: Goal, score: float) -> MemoryItem:
    return MemoryItem(
        kind="goal",
        id=goal.id,
        content=goal.description,
        score=score,
        channel=goal.channel,
        timestamp=goal.created_at,
        metadata={"status": goal.status, "priority": goal.priority},
        found_by=["vector"],
    )


def reinforcement_targets(items: Sequence[MemoryItem]) -> tuple[list[str], list[str]]:
    """The fact ids and entity ids among returned items (they get access_count += 1)."""
    facts = [item.id for item in items if item.kind == "fact"]
    entities = [item.id for item in items if item.kind == "entity"]
    return facts, entities


def matching_metadata(items: Sequence[MemoryItem], wanted: Mapping[str, Any]) -> list[MemoryItem]:
    """The turns among ``items`` whose metadata contains ``wanted`` (as Postgres ``@>`` decides)."""
    return [item for item in items if item.kind == "episodic" and _contains(item.metadata, wanted)]


def _contains(stored: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        return isinstance(stored, Mapping) and all(
            key in stored and _contains(stored[key], value) for key, value in wanted.items()
        )
    if isinstance(wanted, list):
        return isinstance(stored, list) and all(any(_contains(s, w) for s in stored) for w in wanted)
    # JSON has no bool/int overlap: true does not contain 1
    return bool(stored == wanted) and isinstance(stored, bool) == isinstance(wanted, bool)
