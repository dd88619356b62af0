"""Channel models: a project fact that qualifies for promotion to ``_global``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from .semantic import Fact

__all__ = ["PromotionCandidate"]


class PromotionCandidate(BaseModel):
    """A current project fact over every promotion threshold, with the values measured for it.

    ``conversations`` is the number of distinct conversations among the turns the fact is
    ``DERIVED_FROM`` (a fact without source turns counts 0).
    """

    model_config = ConfigDict(frozen=True)

    fact: Fact
    confidence: float
    access_count: int
    conversations: int
