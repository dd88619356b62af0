# Generated from agentx_memory/api/channels_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for channels and promotion to ``_global``. Generated from ``api/channels_async.py``: edit
that file."""

from __future__ import annotations

from ..errors import ConflictError, InvalidInputError
from ..models.channels import PromotionCandidate
from ..models.semantic import Fact
from ..validation import GLOBAL_CHANNEL, validate_content, validate_uuid
from .core import FacadeCore

__all__ = ["ChannelsApi"]


class ChannelsApi(FacadeCore):
    """Promotion of prominent project facts to ``_global``, where every channel of the user reads them."""

    def promotion_candidates(self) -> list[PromotionCandidate]:
        """This user's current facts in the active project channel that meet ``settings.promotion``.

        A candidate has confidence ≥ ``min_confidence``, ``access_count`` ≥ ``min_access_count`` and is
        linked to ≥ ``min_conversations`` distinct conversations — counted over the turns the fact is
        ``DERIVED_FROM`` (their ``conversation_id``); facts already promoted are left out. Empty when the
        active channel is ``_global``. Best confidence first, then access count.
        """
        if self.scope.channel == GLOBAL_CHANNEL:
            return []
        backends = self._open_backends()
        found = backends.promotion.candidates(self.scope, self.settings.promotion)
        backends.audit.log_read(self.scope, "promotion_candidates", {"results": len(found)})
        return found

    def promote_to_global(self, fact_id: str, reason: str) -> Fact:
        """Copy a current fact of the active project channel to ``_global`` and return the global fact.

        The copy keeps claim, confidence, source, temporal, priority, embedding and ABOUT links (to the
        same entities) and is linked ``(:Fact global)-[:PROMOTED_FROM]->(:Fact project)``. Idempotent: a
        repeated call returns the same global fact (one guarded MERGE keyed on the project fact's id) and
        writes no second timeline row. The audit row ``promote_to_global`` records the reason, the
        thresholds in force and the fact's measured values; thresholds are not enforced here (see
        :meth:`promotion_candidates`).

        Raises ``NotFoundError`` for an unknown fact, another user's, or one outside the channels this
        memory reads; ``InvalidInputError`` for a fact already in ``_global`` or an empty reason;
        ``ConflictError`` for a superseded (no longer current) fact.
        """
        fact_id = validate_uuid(fact_id, "fact_id")
        reason = validate_content(reason, self.settings.limits, "reason")
        backends = self._open_backends()
        facts, promotion = backends.facts, backends.promotion
        source = facts.get(self.scope, fact_id)
        if source.channel == GLOBAL_CHANNEL:
            raise InvalidInputError(f"fact {fact_id} is already in {GLOBAL_CHANNEL}")
        if not source.is_current:
            raise ConflictError(
                f"fact {fact_id} is no longer current (superseded by {source.superseded_by}); "
                "promote its current version"
            )
        result = promotion.promote(self.scope, fact_id, reason)
        if result is None:
            raise ConflictError(f"fact {fact_id} was superseded concurrently")
        global_id, created = result
        promoted = facts.get(self.scope, global_id)
        backends.audit.log_write(
            self.scope,
            "promote_to_global",
            "fact",
            promoted.id,
            {
                "promoted_from": fact_id,
                "source_channel": source.channel,
                "created": created,
                "reason": reason,
                "thresholds": self.settings.promotion.model_dump(mode="json"),
                "measured": {
                    "confidence": source.confidence,
                    "access_count": source.access_count,
                    "conversations": promotion.conversations(self.scope, fact_id),
                },
            },
            {"claim": source.claim},
        )
        return promoted
