"""What one recall finds in the graph, typed: parsed from the graph port's candidate rows. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..kinds import MemoryKind
from ..models import Entity, Goal, Strategy
from .entities_pure import entity_from_graph
from .goals_pure import goal_from_row
from .procedural_pure import strategy_from_graph

__all__ = ["GraphHits", "graph_hits"]


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
    entity_rows = [*found.get("Entity.vector", ()), *found.get("Entity.fulltext", ())]
    return GraphHits(
        fact_vector=_scores(found.get("Fact.vector", ())),
        fact_fulltext=_scores(found.get("Fact.fulltext", ())),
        entity_vector=_scores(found.get("Entity.vector", ())),
        entity_fulltext=_scores(found.get("Entity.fulltext", ())),
        entities={row["item"]["id"]: entity_from_graph(row["item"]) for row in entity_rows},
        strategies=[
            (strategy_from_graph(dict(row["item"])), float(row["score"]))
            for row in found.get("Strategy.vector", ())
        ],
        goals=[
            (goal_from_row({"item": row["item"]}), float(row["score"]))
            for row in found.get("Goal.vector", ())
        ],
    )
