"""The patterns job's pure decisions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agentx_memory.maintenance.patterns_rules import (
    KnownStrategy,
    MinedConversation,
    matching_strategy,
    plan_patterns,
)

T0 = datetime(2026, 1, 5, tzinfo=UTC)
PATH = ("search", "book")


def _mined(n: int, steps: tuple[str, ...] | None = PATH) -> MinedConversation:
    return MinedConversation(f"c{n}", "travel", T0 + timedelta(hours=n), steps)


def test_a_pattern_waits_below_the_threshold_counting_earlier_conversations() -> None:
    plan = plan_patterns([_mined(1)], [], {PATH: 1}, 3)
    assert plan.propose == []
    assert plan.waiting == {PATH: 2}
    plan = plan_patterns([_mined(2), _mined(3)], [], {PATH: 1}, 3)
    (proposal,) = plan.propose
    assert proposal.source.id == "c3"
    assert proposal.occurrences == 3


def test_a_matching_strategy_is_reinforced_by_every_other_conversation() -> None:
    known = [KnownStrategy("s1", PATH, "proposed", source_conversation_id="c1")]
    plan = plan_patterns([_mined(1), _mined(2), _mined(3), _mined(4, None)], known, {}, 3)
    assert plan.already_counted == 1  # c1 taught the strategy: its success is already counted
    assert plan.unsuccessful == 1
    (item,) = plan.reinforce.values()
    assert (item.successes, item.last_used, item.conversations) == (2, T0 + timedelta(hours=3), ["c2", "c3"])


def test_published_wins_and_a_rejected_strategy_blocks_a_new_proposal() -> None:
    old = KnownStrategy("old", PATH, "proposed")
    published = KnownStrategy("pub", PATH, "published")
    assert matching_strategy(PATH, [old, published]) == published
    assert matching_strategy(("other",), [old]) is None
    plan = plan_patterns([_mined(1)] * 3, [KnownStrategy("r", PATH, "rejected")], {}, 1)
    assert plan.rejected == 3
    assert plan.propose == []
    assert plan.reinforce == {}
