"""Pure decisions of the ``promote`` job: does a candidate meet every threshold, and why it is promoted.

``promote_to_global`` itself does not check thresholds (a user may promote by hand); the job does, so a
store query that drifts from ``PromotionSettings`` can never promote a fact below a threshold.
"""

from __future__ import annotations

from ..models.channels import PromotionCandidate
from ..settings import PromotionSettings

__all__ = ["promotion_reason", "shortfall"]


def shortfall(candidate: PromotionCandidate, settings: PromotionSettings) -> str | None:
    """The first threshold the candidate falls below (its name), or ``None`` when it meets them all."""
    if candidate.confidence < settings.min_confidence:
        return "min_confidence"
    if candidate.access_count < settings.min_access_count:
        return "min_access_count"
    if candidate.conversations < settings.min_conversations:
        return "min_conversations"
    return None


def promotion_reason(candidate: PromotionCandidate) -> str:
    """The audit reason the job records: the measured values that earned the promotion."""
    return (
        f"maintenance promote: confidence {candidate.confidence:.2f}, "
        f"accessed {candidate.access_count}x, in {candidate.conversations} conversations"
    )
