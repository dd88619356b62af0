"""Semantic memory, entity resolution after the fact: reviewing ``SAME_AS`` candidates and merging two
entities into one. Async source of ``memory/entity_merge.py``.

Entity resolution leaves ``(:Entity)-[:SAME_AS {status: 'candidate'}]->(:Entity)`` between look-alikes it
was not sure about; the ``resolve_entities`` job reads them here with the evidence on each side, records
its review, and merges. A merge is a set of scoped statements from ``cypher/entities.cypher``: the loser's
facts, mentions and relationships are MERGEd onto the winner (so a replay after a crash adds nothing),
the winner's node is written only when the loser brings aliases, a description or properties it lacks —
never its vector — and the loser is deleted last.
"""

from __future__ import annotations

import json

from ..models import Scope
from ..models.semantic import Entity
from ..stores.graph_async import AsyncGraphStore
from ..timecodec import epoch_ms, now_ms
from .access_async import AsyncAccessMemory
from .entities_pure import alias_keys, entity_from_graph, merged_entity
from .entity_merge_pure import EntitySide, SameAsCandidate
from .scoping import scope_params

__all__ = ["MERGE_MOVES", "AsyncEntityMerge"]

#: The statements that move what hangs off a loser onto the winner, in order (fixed names: no input
#: ever picks a relationship type).
_MOVED_RELATIONSHIPS = (
    "related_to", "part_of", "located_in", "works_for", "knows", "created_by", "references", "same_as",
)  # fmt: skip
MERGE_MOVES: tuple[str, ...] = (
    "merge_move_about",
    "merge_move_mentions",
    *(f"merge_move_{rel}_{direction}" for rel in _MOVED_RELATIONSHIPS for direction in ("out", "in")),
)


class AsyncEntityMerge:
    """``SAME_AS`` review and entity merges for one user at a time (scoped by ``scope.user_id``)."""

    def __init__(self, graph: AsyncGraphStore, access: AsyncAccessMemory) -> None:
        self._graph = graph
        self._access = access

    async def candidates(self, scope: Scope, limit: int) -> list[SameAsCandidate]:
        rows = await self._graph.run("same_as_to_review", {"user_id": scope.user_id, "limit": limit})
        return [
            SameAsCandidate(
                id=str(row["id"]),
                other_id=str(row["other_id"]),
                score=float(row["score"] or 0.0),
                created_at=row["created_at"],
                evidence=row["evidence"],
                reviewed_at=row["reviewed_at"],
            )
            for row in rows
        ]

    async def side(self, scope: Scope, entity_id: str) -> EntitySide | None:
        rows = await self._graph.run("resolution_evidence", {"user_id": scope.user_id, "id": entity_id})
        if not rows:
            return None
        row = rows[0]
        return EntitySide(
            entity=entity_from_graph(row["item"]),
            alias_keys=frozenset(row["alias_keys"] or ()),
            fact_ids=frozenset(row["fact_ids"] or ()),
            claims=frozenset(" ".join(str(claim).casefold().split()) for claim in row["claims"] or ()),
            neighbours=frozenset(row["neighbours"] or ()),
        )

    async def review(
        self, scope: Scope, candidate: SameAsCandidate, status: str, evidence: str, score: float, now: int
    ) -> None:
        """Record a review: ``status`` 'candidate' (kept) or 'dismissed', with what it saw."""
        await self._graph.run(
            "review_same_as",
            {
                "user_id": scope.user_id,
                "id": candidate.id,
                "other_id": candidate.other_id,
                "status": status,
                "now": now,
                "evidence": evidence,
                "review_score": score,
            },
        )

    async def merge(self, scope: Scope, winner: Entity, loser: Entity) -> dict[str, int]:
        """Move everything of ``loser`` onto ``winner`` and delete ``loser``; returns the edges moved by
        statement and whether the winner's node was written (``winner_written``)."""
        ids = {"user_id": scope.user_id, "winner_id": winner.id, "loser_id": loser.id}
        moved: dict[str, int] = {}
        for name in MERGE_MOVES:
            rows = await self._graph.run(name, ids)
            if count := sum(int(row["moved"]) for row in rows):
                moved[name.removeprefix("merge_move_")] = count
        merged = merged_entity(
            winner,
            loser.name,
            loser.aliases,
            loser.description if winner.description is None else None,
            {key: value for key, value in loser.properties.items() if key not in winner.properties},
        )
        if merged is not None:  # aliases, description, properties: never the embedding
            await self._graph.run(
                "merge_entity",
                scope_params(
                    scope,
                    id=winner.id,
                    aliases=merged.aliases,
                    alias_keys=alias_keys(winner.name, merged.aliases),
                    aliases_text=" ".join(merged.aliases),
                    description=merged.description,
                    properties=json.dumps(merged.properties, ensure_ascii=False),
                    now=now_ms(),
                ),
            )
        moved["winner_written"] = int(merged is not None)
        if loser.first_seen is not None:  # the winner was first said when either of them was
            seen = [{"id": winner.id, "at": epoch_ms(loser.first_seen)}]
            await self._graph.run("entities_first_seen", scope_params(scope, seen=seen))
        await self._graph.run("delete_merged_entity", ids)
        await self._access.delete(scope, [loser.id])
        return moved
