"""What the retriever ranks: a candidate of any kind, a turn before its text is fetched, one kind's
candidates with their relevance, and the per-technique timer. Plain data and pure helpers, no I/O:
the retriever (``retriever_async.py`` and its generated twin) fills them from the stores.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import NamedTuple

from ..memory.episodic_pure import TurnHit
from ..memory.graph_hits import StaleTurn
from ..models import Entity, Fact, Goal, MemoryItem, MemoryKind, Strategy, TechniqueMetric, Turn
from .items import entity_item, entity_text, fact_item, goal_item, strategy_item, strategy_text, turn_item

__all__ = [
    "Candidate",
    "KindCandidates",
    "Retrieved",
    "TechniqueTimer",
    "TurnEntry",
    "technique_metric",
    "techniques_of",
]


@dataclass(frozen=True, slots=True)
class Candidate:
    """What ranking reads of one candidate; its :class:`MemoryItem` is built only if it is returned
    (a recall weighs ~250 candidates of every kind to return 10; building an item for each cost about
    10 µs apiece). ``text`` is the item's ``content``, which diversity compares."""

    id: str
    timestamp: datetime | None
    #: The conversation of a turn (the per-conversation diversity cap); None for the other kinds.
    group: str | None
    text: str
    build: Callable[[float], MemoryItem]
    #: The turns a learned fact was learned from (it stands for them in the ranking); () otherwise.
    sources: tuple[str, ...] = ()
    #: When what a turn tells happened (``[start, end)``), if it says; None otherwise.
    event: tuple[datetime, datetime] | None = None
    #: A changed turn (a fact learned from it superseded): ranked below what replaced it.
    stale: bool = False

    @classmethod
    def of_turn(
        cls,
        turn: Turn,
        found_by: list[str],
        event: tuple[datetime, datetime] | None = None,
        superseded_by: list[str] | None = None,
        whole: bool = True,
    ) -> Candidate:
        """``superseded_by`` (even empty) marks a changed turn: the facts that replaced what it said
        (of all of it when ``whole``: a stale turn)."""
        return cls(
            turn.id,
            turn.timestamp,
            turn.conversation_id,
            turn.content,
            partial(turn_item, turn, found_by=found_by, superseded_by=superseded_by, whole=whole),
            event=event,
            stale=superseded_by is not None,
        )

    @classmethod
    def of_fact(cls, fact: Fact, found_by: list[str]) -> Candidate:
        # A learned fact dates from when it was said (recency, time windows), not from consolidation.
        return cls(
            fact.id,
            fact.stated_at or fact.created_at,
            None,
            fact.claim,
            partial(fact_item, fact, found_by=found_by),
            tuple(fact.source_turn_ids),
        )

    @classmethod
    def of_entity(cls, entity: Entity, found_by: list[str]) -> Candidate:
        # An entity dates from when it was first said (time windows), not from consolidation.
        build = partial(entity_item, entity, found_by=found_by)
        return cls(entity.id, entity.first_seen or entity.updated_at, None, entity_text(entity), build)

    @classmethod
    def of_strategy(cls, strategy: Strategy, success_rate: float) -> Candidate:
        build = partial(strategy_item, strategy, success_rate=success_rate)
        return cls(strategy.id, strategy.updated_at, None, strategy_text(strategy, success_rate), build)

    @classmethod
    def of_goal(cls, goal: Goal) -> Candidate:
        return cls(goal.id, goal.created_at, None, goal.description, partial(goal_item, goal))


class TurnEntry(NamedTuple):
    """A turn candidate before its text is fetched (only the head of the ranking is)."""

    hit: TurnHit
    found_by: list[str]

    @property
    def timestamp(self) -> datetime:
        return self.hit.timestamp

    @property
    def event(self) -> tuple[datetime, datetime] | None:
        start, end = self.hit.event_start, self.hit.event_end
        return (start, end) if start is not None and end is not None else None


@dataclass
class KindCandidates:
    """One kind's candidates: candidate by id, relevance by id, and the best cosine seen (its anchor)."""

    weight: float
    #: Recency applies (``KindSpec.dated``); the hard time window applies to every kind.
    dated: bool = True
    items: dict[str, Candidate | TurnEntry] = field(default_factory=dict)
    relevance: dict[str, float] = field(default_factory=dict)
    anchor: float = 0.0


class TechniqueTimer:
    def __init__(self, metrics: dict[str, TechniqueMetric], name: str) -> None:
        self._metrics, self._name, self._start = metrics, name, time.perf_counter()

    def done(self, results: int) -> None:
        elapsed = (time.perf_counter() - self._start) * 1000
        previous = self._metrics.get(self._name)
        if previous is not None:  # a technique run once per vector adds up
            elapsed, results = elapsed + previous.latency_ms, results + previous.results
        self._metrics[self._name] = TechniqueMetric(latency_ms=round(elapsed, 3), results=results)


def techniques_of(key: str, dense: Mapping[str, float], lexical: Mapping[str, float]) -> list[str]:
    return [name for name, found in (("vector", dense), ("fulltext", lexical)) if key in found]


@dataclass
class Retrieved:
    """What one retrieval found: the ranked items and per-technique metrics."""

    items: list[MemoryItem] = field(default_factory=list)
    metrics: dict[str, TechniqueMetric] = field(default_factory=dict)
    #: Entities found by vector, with their cosine to the query (entity-centric recall resolves by it).
    entity_matches: dict[str, tuple[Entity, float]] = field(default_factory=dict)
    #: Each kind's candidates while they are gathered (``MemoryRetriever.begin``).
    kinds: dict[MemoryKind, KindCandidates] = field(default_factory=dict)
    #: The stale turns among the turns' head, by id (``GraphRecall.stale_turns``).
    stale: dict[str, StaleTurn] = field(default_factory=dict)
    #: Current facts the retrieval fetched whole, with their cosine to the query, best first, whether or
    #: not they ranked (``get_context`` gives the relevant ones a section of their own).
    nearby_facts: list[tuple[Fact, float]] = field(default_factory=list)
    #: The full-text turn hits' cosines to the question, by id, when that search had its vector.
    lexical_cosines: dict[str, float] = field(default_factory=dict)


def technique_metric(started: float, results: int) -> TechniqueMetric:
    """A technique's metric: latency since ``started`` (``time.perf_counter``) and its result count."""
    return TechniqueMetric(latency_ms=round((time.perf_counter() - started) * 1000, 3), results=results)
