"""Promotion of project facts to ``_global``. Source of ``memory/promotion.py``.

A promoted fact is a new ``_global`` node ``(:Fact global)-[:PROMOTED_FROM]->(:Fact project)`` keyed by
``promoted_from`` (the project fact's id), so a repeated promotion returns the first copy.
"""

from __future__ import annotations

import uuid
from typing import Final

from ..models import Scope
from ..models.channels import PromotionCandidate
from ..settings import PromotionSettings
from ..stores.graph_async import AsyncGraphStore
from ..timecodec import now_ms
from ..validation import GLOBAL_CHANNEL
from .facts_async import AsyncFactMemory
from .scoping import scope_params
from .timeline_async import AsyncTimeline

__all__ = ["CANDIDATE_LIMIT", "AsyncPromotion"]

#: Candidates one call returns at most (best confidence, then access count, first).
CANDIDATE_LIMIT: Final = 500


class AsyncPromotion:
    """Promotion over the graph for one user; a stateless view the facade builds per call."""

    def __init__(self, graph: AsyncGraphStore, facts: AsyncFactMemory, timeline: AsyncTimeline) -> None:
        self._graph = graph
        self._facts = facts
        self._timeline = timeline

    async def candidates(self, scope: Scope, thresholds: PromotionSettings) -> list[PromotionCandidate]:
        """Current, not yet promoted facts of the active channel that meet every threshold, best
        confidence, then most accessed, first (access counts are read from the ledger)."""
        rows = await self._graph.run(
            "promotion_candidates",
            scope_params(
                scope,
                min_confidence=float(thresholds.min_confidence),
                min_conversations=int(thresholds.min_conversations),
            ),
        )
        conversations = {row["id"]: int(row["conversations"]) for row in rows}
        facts = await self._facts.get_many(scope, list(conversations))
        chosen = sorted(
            (fact for fact in facts if fact.access_count >= thresholds.min_access_count),
            key=lambda fact: (-fact.confidence, -fact.access_count, fact.id),
        )
        return [
            PromotionCandidate(
                fact=fact,
                confidence=fact.confidence,
                access_count=fact.access_count,
                conversations=conversations[fact.id],
            )
            for fact in chosen[:CANDIDATE_LIMIT]
        ]

    async def conversations(self, scope: Scope, fact_id: str) -> int:
        """Distinct conversations of the turns ``fact_id`` is derived from (for the audit row)."""
        rows = await self._graph.run("fact_conversations", scope_params(scope, fact_id=fact_id))
        return int(rows[0]["conversations"]) if rows else 0

    async def promote(self, scope: Scope, fact_id: str, reason: str) -> tuple[str, bool] | None:
        """Copy the current project fact to ``_global`` (or find its copy): ``(global id, created)``,
        or ``None`` when the fact is not a current project fact of this user. A new copy gets its
        ``_global`` timeline row; finding an existing one writes nothing."""
        rows = await self._graph.run(
            "promote_fact",
            scope_params(
                scope,
                fact_id=fact_id,
                new_id=str(uuid.uuid4()),
                reason=reason,
                now=now_ms(),
            ),
        )
        if not rows:
            return None
        global_id, created = str(rows[0]["id"]), bool(rows[0]["created"])
        source = await self._facts.get_many(scope, [fact_id])
        if source and source[0].about:
            await self._graph.run(
                "link_fact_about", scope_params(scope, fact_id=global_id, entity_ids=source[0].about)
            )
        if created and source:
            await self._timeline.record(
                scope,
                memory_type="fact",
                memory_id=global_id,
                summary=source[0].claim,
                importance=source[0].salience,
                channel=GLOBAL_CHANNEL,
            )
        return global_id, created
