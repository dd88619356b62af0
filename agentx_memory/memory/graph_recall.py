# Generated from agentx_memory/memory/graph_recall_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Recall's one graph round trip, as a typed operation. Generated from ``memory/graph_recall_async.py``: edit
that file.

The graph port answers with rows by ``"<Label>.<technique>"``; this subsystem turns them into
:class:`~agentx_memory.memory.graph_hits.GraphHits` so that retrieval never reads a row.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..models import Fact, Scope
from ..stores.graph import GraphStore
from .entities_pure import fulltext_terms
from .facts_pure import fact_from_graph
from .graph_hits import GraphHits, StaleTurn, graph_hits, stale_turns

__all__ = ["GraphRecall"]


class GraphRecall:
    """Facts, entities, strategies and open goals nearest a query, in one statement where possible."""

    def __init__(self, graph: GraphStore) -> None:
        self._graph = graph

    def candidates(
        self, scope: Scope, vector: Sequence[float], text: str, *, channels: Sequence[str], limit: int
    ) -> GraphHits:
        """Up to ``limit`` candidates of each graph kind in ``channels``: by vector (all kinds) and by
        full-text match of ``text``'s words (facts and entities); current facts and open goals only."""
        found = self._graph.recall_candidates(
            vector, fulltext_terms(text).split(), user_id=scope.user_id, channels=channels, limit=limit
        )
        return graph_hits(found)

    def stale_turns(
        self, scope: Scope, turn_ids: Sequence[str], *, channels: Sequence[str]
    ) -> dict[str, StaleTurn]:
        """The stale turns among ``turn_ids`` (every fact learned from them superseded), by id, each
        with the current facts in ``channels`` that replaced its facts. One statement for all."""
        if not turn_ids:
            return {}
        params = {"user_id": scope.user_id, "ids": list(turn_ids), "channels": list(channels)}
        return stale_turns(self._graph.run("stale_turns", params))

    def slot_facts(
        self,
        scope: Scope,
        keys: Sequence[str],
        things: Sequence[str],
        *,
        channels: Sequence[str],
        limit: int,
        names: Sequence[str] = (),
        mine: bool = True,
    ) -> list[Fact]:
        """The current facts under ``keys`` (or appointments for ``things``) of the user (``mine``) and
        of the people ``names`` names (subjects, lower-cased), newest said first, at most ``limit``. One
        statement."""
        params = {
            "user_id": scope.user_id,
            "keys": list(keys),
            "things": list(things),
            "names": list(names),
            "mine": mine,
            "channels": list(channels),
            "limit": limit,
        }
        rows = self._graph.run("slot_facts", params)
        return [fact_from_graph(row["item"], row["about"] or (), row["turns"] or ()) for row in rows]
