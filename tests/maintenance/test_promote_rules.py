"""The promote job's pure decisions: each threshold, and the recorded reason."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.maintenance.promote_rules import promotion_reason, shortfall
from agentx_memory.models.channels import PromotionCandidate
from agentx_memory.models.semantic import Fact
from agentx_memory.settings import PromotionSettings

FACT = Fact.model_validate(
    {
        "id": "00000000-0000-4000-8000-000000000001",
        "user_id": "alice",
        "channel": "proj-a",
        "claim": "Alice deploys with Nomad",
        "confidence": 0.9,
        "source": "user",
        "created_at": datetime(2026, 3, 2, tzinfo=UTC),
        "valid_from": datetime(2026, 3, 2, tzinfo=UTC),
    }
)


def _candidate(confidence: float = 0.9, access_count: int = 5, conversations: int = 2) -> PromotionCandidate:
    return PromotionCandidate(
        fact=FACT, confidence=confidence, access_count=access_count, conversations=conversations
    )


@pytest.mark.parametrize(
    ("candidate", "missing"),
    [
        (_candidate(), None),
        (_candidate(confidence=0.85), None),  # a threshold is inclusive
        (_candidate(confidence=0.849), "min_confidence"),
        (_candidate(access_count=4), "min_access_count"),
        (_candidate(conversations=1), "min_conversations"),
    ],
)
def test_shortfall_names_the_first_threshold_missed(
    candidate: PromotionCandidate, missing: str | None
) -> None:
    assert shortfall(candidate, PromotionSettings()) == missing


def test_the_reason_records_the_measured_values() -> None:
    reason = promotion_reason(_candidate(confidence=0.91, access_count=7, conversations=3))
    assert reason == "maintenance promote: confidence 0.91, accessed 7x, in 3 conversations"
