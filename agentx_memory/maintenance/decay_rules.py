"""Pure decisions of the ``decay`` job: seed 002's forgetting curve and who is protected from it.

The curve, exactly::

    boost   = min(BOOST_CAP, 1 + ln(1 + access_count))
    decayed = value × factor ** (days / boost)

``days`` is the time elapsed since the later of the last access and the last decay (so a daily run
compounds to the same value as one run over the same span: ``f**(a/b) × f**(c/b) = f**((a+c)/b)``);
``factor`` is ``DecaySettings.factor`` (0.95). The boost stretches time for often-used memories instead
of multiplying the value, so decay never raises a value; it is capped so no memory becomes immortal by
use alone (a memory read ~6+ times decays at a third of the base rate). Entity salience decays only when
not accessed for :data:`ENTITY_IDLE`; inferred facts' confidence in whole weeks. A value that falls
below :data:`PRUNE_BELOW` is soft-deleted (``valid_until``) by the job.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = [
    "BOOST_CAP",
    "ENTITY_IDLE",
    "PRUNE_BELOW",
    "Decayable",
    "access_boost",
    "decay_step",
    "decayed",
    "is_protected",
]

BOOST_CAP = 3.0
PRUNE_BELOW = 0.05
ENTITY_IDLE = timedelta(hours=24)
WEEK_DAYS = 7


@dataclass(frozen=True)
class Decayable:
    """What the curve needs of a fact or entity (read from the store by the job)."""

    value: float
    access_count: int
    since: datetime  # the later of the last access and the last decay
    kind: str  # "entity" or "fact"
    decay_rate: float | None = None  # a fact's own rate: 0 = confirmed
    source: str | None = None  # a fact's source: "user" = user-stated
    priority: str | None = None
    reflection: bool = False


def access_boost(access_count: int) -> float:
    """``min(BOOST_CAP, 1 + ln(1 + access_count))``; a negative count counts as 0."""
    return min(BOOST_CAP, 1.0 + math.log1p(max(0, access_count)))


def decayed(value: float, days: float, access_count: int, factor: float) -> float:
    """``value × factor ** (days / boost)``; no time (or time running backwards) changes nothing."""
    if days <= 0:
        return value
    return value * float(factor ** (days / access_boost(access_count)))


def is_protected(item: Decayable) -> bool:
    """Confirmed facts (``decay_rate == 0``), user-stated or highest-priority facts, and reflections never
    decay: the user told us, or we concluded it on purpose."""
    if item.reflection:
        return True
    if item.kind != "fact":
        return False
    return item.decay_rate == 0 or item.source == "user" or item.priority == "highest"


def decay_step(item: Decayable, now: datetime, factor: float) -> tuple[float, bool] | None:
    """The new value and whether it is pruned (below :data:`PRUNE_BELOW`), or ``None`` when the item is
    left alone (protected, an entity used in the last :data:`ENTITY_IDLE`, a fact within its first week)."""
    if is_protected(item):
        return None
    elapsed = now - item.since
    if item.kind == "entity":
        if elapsed < ENTITY_IDLE:
            return None
        days = elapsed / timedelta(days=1)
    else:
        weeks = elapsed // timedelta(days=WEEK_DAYS)
        if weeks < 1:
            return None
        days = float(weeks * WEEK_DAYS)
    value = decayed(item.value, days, item.access_count, factor)
    return value, value < PRUNE_BELOW
