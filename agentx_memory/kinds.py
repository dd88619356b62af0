"""The registry of memory kinds: the one definition every other table of "kind" reads.

A kind is what a recalled :class:`~agentx_memory.models.MemoryItem` is (its ``kind``). Per kind: the
``remember(include_<group>=…)`` flag that covers it, the graph label recall searches it under (none for
turns, which recall reads from the ledger), the :class:`~agentx_memory.settings.RetrievalSettings` field
that weights it, the ``get_context`` section it renders in, the recall metric that times it and the
``memory_timeline.memory_type`` of its rows. Adding a kind: its subsystem and statements, an entry here,
and the code that builds its items (``retrieval/items.py``, ``retrieval/retriever_async.py``). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "ALL_KINDS",
    "GRAPH_KINDS",
    "KINDS",
    "KindGroup",
    "KindSpec",
    "MemoryKind",
    "kind_spec",
    "kinds_in_groups",
]

MemoryKind = Literal["episodic", "fact", "entity", "strategy", "goal", "document"]
#: The groups ``remember``'s ``include_*`` flags name: semantic memory is facts and entities,
#: procedural memory is strategies and the goals they serve.
KindGroup = Literal["episodic", "semantic", "procedural"]
GraphLabel = Literal["Fact", "Entity", "Strategy", "Goal"]


@dataclass(frozen=True)
class KindSpec:
    """One memory kind, as everything outside its own subsystem sees it."""

    name: MemoryKind
    group: KindGroup
    #: Graph label recall searches (None: turns and documents live in the ledger).
    label: GraphLabel | None
    #: ``RetrievalSettings`` field holding the kind's ranking weight.
    weight: str
    #: ``get_context`` section (``ContextSections`` field) the kind renders in.
    section: str
    #: Recall metric name (``MemoryBundle.metrics``) of the kind's graph search.
    metric: str
    #: ``memory_timeline.memory_type`` of the kind's rows.
    timeline: str
    #: Whether recall's recency applies: an entity is not an event, and being first said long ago makes
    #: it no less relevant. The caller's hard time window applies to every kind: an entity's time is
    #: when it was first said (its earliest source turn, ``Entity.first_seen``), not when it was written.
    dated: bool = True


KINDS: Final[tuple[KindSpec, ...]] = (
    KindSpec("episodic", "episodic", None, "episodic_weight", "turns", "turns", "turn"),
    KindSpec("fact", "semantic", "Fact", "fact_weight", "facts", "facts", "fact"),
    KindSpec("entity", "semantic", "Entity", "entity_weight", "entities", "entities", "entity", dated=False),
    KindSpec(
        "strategy", "procedural", "Strategy", "procedural_weight", "strategies", "strategies", "strategy"
    ),
    KindSpec("goal", "procedural", "Goal", "goal_weight", "goals", "goals", "goal"),
    # What a framework stored as the agent's memory (a LangGraph store's items), as LangMem has it:
    # recalled by its embedded texts like the rest; never in the timeline (documents are not events).
    KindSpec(
        "document", "semantic", None, "document_weight", "documents", "documents", "document", dated=False
    ),
)
ALL_KINDS: Final[frozenset[MemoryKind]] = frozenset(spec.name for spec in KINDS)
#: The kinds recall finds in the graph, in the order their candidates are searched.
GRAPH_KINDS: Final[tuple[KindSpec, ...]] = tuple(spec for spec in KINDS if spec.label is not None)
_BY_NAME: Final = {spec.name: spec for spec in KINDS}


def kind_spec(name: MemoryKind) -> KindSpec:
    return _BY_NAME[name]


def kinds_in_groups(groups: set[KindGroup] | frozenset[KindGroup]) -> frozenset[MemoryKind]:
    """Every kind of the given ``remember(include_*)`` groups."""
    return frozenset(spec.name for spec in KINDS if spec.group in groups)
