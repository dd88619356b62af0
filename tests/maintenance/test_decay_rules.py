"""The decay job's pure curve: exact values, the boost cap, protection, idle windows, pruning."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory.maintenance.decay_rules import (
    BOOST_CAP,
    Decayable,
    access_boost,
    decay_step,
    decayed,
    is_protected,
)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _expect(step: tuple[float, bool] | None, value: float, *, pruned: bool) -> None:
    assert step is not None
    assert step[0] == pytest.approx(value, abs=1e-12)
    assert step[1] is pruned


def test_the_curve_matches_the_formula_exactly() -> None:
    assert decayed(0.8, 10, 0, 0.95) == pytest.approx(0.8 * 0.95**10, abs=1e-12)
    boost = 1 + math.log(1 + 3)
    assert decayed(0.8, 10, 3, 0.95) == pytest.approx(0.8 * 0.95 ** (10 / boost), abs=1e-12)
    assert decayed(0.8, 0, 0, 0.95) == 0.8
    assert decayed(0.8, -2, 0, 0.95) == 0.8


def test_daily_runs_compound_to_one_run_over_the_span() -> None:
    value = 0.9
    for _ in range(21):
        value = decayed(value, 1, 4, 0.95)
    assert value == pytest.approx(decayed(0.9, 21, 4, 0.95), rel=1e-12)


def test_the_boost_is_capped() -> None:
    assert access_boost(0) == 1.0
    assert access_boost(10**9) == BOOST_CAP
    assert access_boost(-5) == 1.0


@pytest.mark.parametrize(
    "item",
    [
        Decayable(0.5, 0, T0, "fact", decay_rate=0.0),
        Decayable(0.5, 0, T0, "fact", source="user"),
        Decayable(0.5, 0, T0, "fact", priority="highest"),
        Decayable(0.5, 0, T0, "entity", reflection=True),
    ],
)
def test_protected_memories_never_decay(item: Decayable) -> None:
    assert is_protected(item)
    assert decay_step(item, T0 + timedelta(days=365), 0.95) is None


def test_entities_decay_after_a_day_idle_facts_by_whole_weeks() -> None:
    entity = Decayable(0.6, 0, T0, "entity")
    assert decay_step(entity, T0 + timedelta(hours=23), 0.95) is None
    _expect(decay_step(entity, T0 + timedelta(hours=36), 0.95), 0.6 * 0.95**1.5, pruned=False)
    fact = Decayable(0.7, 0, T0, "fact", source="inferred", decay_rate=0.1)
    assert decay_step(fact, T0 + timedelta(days=6), 0.95) is None
    _expect(decay_step(fact, T0 + timedelta(days=13), 0.95), 0.7 * 0.95**7, pruned=False)


def test_a_value_below_the_floor_is_pruned() -> None:
    step = decay_step(Decayable(0.06, 0, T0, "entity"), T0 + timedelta(days=4), 0.95)
    _expect(step, 0.06 * 0.95**4, pruned=True)
