"""What one recall finds in the graph, typed: parsed from the graph port's candidate rows. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..kinds import MemoryKind
from ..models import Entity, Fact, Goal, Strategy
from .entities_pure import entity_from_graph
from .facts_pure import fact_from_graph
from .goals_pure import goal_from_row
from .procedural_pure import strategy_from_graph

__all__ = ["GraphHits", "StaleTurn", "graph_hits", "stale_turns"]


@dataclass
class GraphHits:
    """Candidates of every graph kind, each best first, scored by the technique that found them
    (vector: cosine; full-text: the index's score). Facts come as ids: recall fetches the best whole."""

    fact_vector: dict[str, float] = field(default_factory=dict)
    fact_fulltext: dict[str, float] = field(default_factory=dict)
    entity_vector: dict[str, float] = field(default_factory=dict)
    entity_fulltext: dict[str, float] = field(default_factory=dict)
    #: Every entity either technique found, by id.
    entities: dict[str, Entity] = field(default_factory=dict)
    strategies: list[tuple[Strategy, float]] = field(default_factory=list)
    goals: list[tuple[Goal, float]] = field(default_factory=list)

    def count(self, kind: MemoryKind) -> int:
        """Distinct candidates found of ``kind`` (a recall metric's result count)."""
        if kind == "fact":
            return len(self.fact_vector.keys() | self.fact_fulltext.keys())
        if kind == "entity":
            return len(self.entity_vector.keys() | self.entity_fulltext.keys())
        if kind == "strategy":
            return len({strategy.id for strategy, _ in self.strategies})
        if kind == "goal":
            return len({goal.id for goal, _ in self.goals})
        return 0


def _scores(rows: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    return {row["item"]["id"]: float(row["score"]) for row in rows}


def graph_hits(found: Mapping[str, Sequence[Mapping[str, Any]]]) -> GraphHits:
    """Parse ``AsyncGraphStore.recall_candidates`` rows (``"<Label>.<technique>"`` → ``{item, score}``)."""
    # An entity both techniques found comes back twice: built once (a model and its JSON each time).
    entities: dict[str, Entity] = {}
    for row in [*found.get("Entity.vector", ()), *found.get("Entity.fulltext", ())]:
        if row["item"]["id"] not in entities:
            entities[row["item"]["id"]] = entity_from_graph(row["item"])
    return GraphHits(
        fact_vector=_scores(found.get("Fact.vector", ())),
        fact_fulltext=_scores(found.get("Fact.fulltext", ())),
        entity_vector=_scores(found.get("Entity.vector", ())),
        entity_fulltext=_scores(found.get("Entity.fulltext", ())),
        entities=entities,
        strategies=[
            (strategy_from_graph(dict(row["item"])), float(row["score"]))
            for row in found.get("Strategy.vector", ())
        ],
        goals=[
            (goal_from_row({"item": row["item"]}), float(row["score"]))
            for row in found.get("Goal.vector", ())
        ],
    )


@dataclass
class StaleTurn:
    """A turn a fact learned from which was superseded: what it said has since changed (``whole``:
    all of it; else a part still holds)."""

    id: str
    whole: bool = True
    #: The facts that directly replaced the turn's facts (their ``superseded_by``), sorted.
    superseded_by: list[str] = field(default_factory=list)
    #: The current facts at the end of those replacements, in the channels asked about.
    current: list[Fact] = field(default_factory=list)


def stale_turns(rows: Sequence[Mapping[str, Any]]) -> dict[str, StaleTurn]:
    """Parse ``stale_turns`` rows (one per stale turn and superseded fact of it) by turn id."""
    found: dict[str, StaleTurn] = {}
    for row in rows:
        stale = found.setdefault(row["id"], StaleTurn(row["id"], bool(row.get("whole", True))))
        if row["superseded_by"] is not None and row["superseded_by"] not in stale.superseded_by:
            stale.superseded_by.append(row["superseded_by"])
        item = row["item"]
        if item is not None and all(fact.id != item["id"] for fact in stale.current):
            stale.current.append(fact_from_graph(item, row["about"] or (), row["turns"] or ()))
    for stale in found.values():
        stale.superseded_by.sort()
    return found
