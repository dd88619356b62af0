"""What the pages show, shaped from the facade's models: pure functions, no I/O (unit-tested alone)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..models import Fact, Turn
from ..models.semantic import EntityGraph
from ..models.timeline import TimelineEntry

__all__ = [
    "FactChain",
    "entity_ids",
    "fact_chains",
    "graph_elements",
    "human_duration",
    "learned_from",
    "turn_line",
    "when",
]


@dataclass(frozen=True)
class FactChain:
    """A fact as it stands (``head``) and the versions it replaced, newest first (``history``)."""

    head: Fact
    history: list[Fact] = field(default_factory=list)

    @property
    def current(self) -> bool:
        return self.head.is_current


def fact_chains(facts: Sequence[Fact]) -> list[FactChain]:
    """Group facts into correction chains: each fact superseded by another fact of the list goes under
    it (followed back through every correction); current chains first, then the newest."""
    present = {fact.id for fact in facts}
    replaced: dict[str, list[Fact]] = {}
    for fact in facts:
        if fact.superseded_by is not None and fact.superseded_by in present:
            replaced.setdefault(fact.superseded_by, []).append(fact)

    def history(fact: Fact, seen: set[str]) -> list[Fact]:
        older: list[Fact] = []
        for earlier in sorted(replaced.get(fact.id, []), key=lambda f: f.created_at, reverse=True):
            if earlier.id not in seen:  # a cycle would be a bug elsewhere: show it once, never loop
                seen.add(earlier.id)
                older += [earlier, *history(earlier, seen)]
        return older

    heads = [fact for fact in facts if fact.superseded_by is None or fact.superseded_by not in present]
    chains = [FactChain(head, history(head, {head.id})) for head in heads]
    return sorted(chains, key=lambda chain: (not chain.current, -chain.head.created_at.timestamp()))


def learned_from(facts: Iterable[Fact]) -> dict[str, list[Fact]]:
    """The facts each turn taught (by turn id), for the conversation timeline."""
    by_turn: dict[str, list[Fact]] = {}
    for fact in facts:
        for turn_id in fact.source_turn_ids:
            by_turn.setdefault(turn_id, []).append(fact)
    return by_turn


def graph_elements(graph: EntityGraph, mentions: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """The entity graph as cytoscape.js elements: a node per entity, an edge per relationship."""
    ids = {node.id for node in graph.nodes}
    elements: list[dict[str, Any]] = [
        {
            "group": "nodes",
            "data": {
                "id": node.id,
                "label": node.name,
                "type": node.type,
                "aliases": ", ".join(node.aliases),
                "description": node.description or "",
                "mentions": (mentions or {}).get(node.id, node.mention_count),
                "channel": node.channel,
            },
        }
        for node in graph.nodes
    ]
    for n, edge in enumerate(graph.edges):
        if edge.source_id in ids and edge.target_id in ids:
            elements.append(
                {
                    "group": "edges",
                    "data": {
                        "id": f"e{n}",
                        "source": edge.source_id,
                        "target": edge.target_id,
                        "label": edge.type,
                    },
                }
            )
    return elements


def entity_ids(entries: Iterable[TimelineEntry]) -> list[str]:
    """The entity ids of timeline entries, once each, in order."""
    return list(dict.fromkeys(entry.memory_id for entry in entries if entry.memory_type == "entity"))


def human_duration(seconds: float | None) -> str:
    """``42 s``, ``7 min``, ``3.2 h``, ``4 d``: a lag a person can read."""
    if seconds is None:
        return "-"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} d"


def when(value: datetime | None) -> str:
    return "-" if value is None else value.strftime("%Y-%m-%d %H:%M")


def turn_line(turn: Turn, limit: int = 160) -> str:
    """A turn in one line: who said what (cut at ``limit`` characters)."""
    text = " ".join(turn.content.split())
    return f"{turn.role}: {text if len(text) <= limit else text[: limit - 1] + '…'}"
