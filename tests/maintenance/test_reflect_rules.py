"""The reflect job's pure decisions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agentx_memory.maintenance.reflect_rules import (
    MAX_DIGEST_CHARS,
    ReflectionFact,
    digest,
    fit_reflection,
    not_due_reason,
    reflection_prompt,
)

NOW = datetime(2026, 3, 9, tzinfo=UTC)


def test_due_only_after_six_days_and_three_new_facts() -> None:
    assert not_due_reason(None, 3, NOW, 6, 3) is None
    assert not_due_reason(None, 2, NOW, 6, 3) == "too_few_facts"
    assert not_due_reason(NOW - timedelta(days=5, hours=23), 9, NOW, 6, 3) == "too_soon"
    assert not_due_reason(NOW - timedelta(days=6), 3, NOW, 6, 3) is None


def test_digest_groups_the_most_prominent_facts_by_kind() -> None:
    facts = [
        ReflectionFact("Alice may like jazz", "low", 0.4, None),
        ReflectionFact("Alice prefers aisle seats.", "high", 0.9, "preference"),
        ReflectionFact("Alice flies to Lisbon on May 3rd", "critical", 1.0, "plan"),
        ReflectionFact("Alice prefers tea", "medium", 0.8, "preference"),
    ]
    text = digest(facts, 4, NOW)
    assert text == (
        "Reflection of 2026-03-09 on 4 new memories. Preference: Alice prefers aisle seats; Alice prefers "
        "tea. Plan: Alice flies to Lisbon on May 3rd. Other notes: Alice may like jazz."
    )
    assert reflection_prompt(facts, NOW).splitlines()[1] == "- Alice flies to Lisbon on May 3rd"


def test_a_long_reflection_is_cut_at_a_word() -> None:
    text = fit_reflection("word " * 400)
    assert len(text) <= MAX_DIGEST_CHARS
    assert text.endswith("word…")
