"""The A/B benchmark's settings overrides (``benchmarks/recall_ab.py``)."""

from __future__ import annotations

import pytest

from agentx_memory import Settings
from benchmarks.recall_ab import override


def test_override_sets_nested_fields_from_json_or_text() -> None:
    base = Settings()
    changed = override(base, ["retrieval.speaker_boost=1.2", "retrieval.fusion=rrf", "retrieval.hyde=false"])
    assert changed.retrieval.speaker_boost == 1.2
    assert changed.retrieval.fusion == "rrf"
    assert changed.retrieval.hyde is False
    assert changed.postgres == base.postgres
    assert base.retrieval.fusion != "rrf"  # the base is left alone


@pytest.mark.parametrize(
    "assignment", ["retrieval.nope=1", "nowhere.fusion=rrf", "retrieval.speaker_boost", "=1"]
)
def test_override_refuses_what_is_not_a_setting(assignment: str) -> None:
    with pytest.raises(SystemExit):
        override(Settings(), [assignment])


def test_override_validates_values() -> None:
    with pytest.raises(ValueError, match="speaker_boost"):
        override(Settings(), ["retrieval.speaker_boost=0.5"])
