"""The ``decay`` job: seed 002's forgetting curve on facts' confidence and entities' salience. Async
source of ``decay.py``.

Access counts and last access come from ``backends.access`` (the ledger) added to what a fact node may
still carry from before. An entity's salience lives in the ledger too (``memory_access.salience``, 1.0
until first decayed), so decaying it writes no vector-indexed node; it decays once not accessed for
24 h, and ``cleanup`` deletes entities left below ``0.1`` for ``retention.low_salience_days``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..memory.access_pure import later
from ..models import Scope
from ..models.access import AccessRecord
from ..timecodec import epoch_ms, maybe_from_epoch_ms
from .decay_rules import Decayable, decay_step
from .reflect_rules import REFLECTION_SOURCE
from .runner_async import AsyncJobContext

__all__ = ["decay"]


def _fact(row: dict[str, Any], access: AccessRecord | None) -> Decayable:
    stamps = [maybe_from_epoch_ms(row[key]) for key in ("last_accessed", "last_decayed", "created_at")]
    if access is not None:
        stamps[0] = later(stamps[0], access.last_accessed)
    return Decayable(
        value=float(row["confidence"]),
        access_count=int(row["access_count"]) + (access.access_count if access else 0),
        since=max(stamp for stamp in stamps if stamp is not None),
        kind="fact",
        decay_rate=row["decay_rate"],
        source=row["source"],
        priority=row["priority"],
        reflection=row["source"] == REFLECTION_SOURCE,
    )


async def decay(context: AsyncJobContext) -> None:
    """Every user's current, unprotected facts: confidence × the curve per whole week unused; below
    ``PRUNE_BELOW`` soft-deleted. The report counts ``decayed`` and ``pruned`` and lists pruned ids."""
    now = context.clock()
    factor = context.settings.decay.factor
    graph = context.backends.graph
    pruned_ids: list[str] = []
    for user_id in await context.users():
        rows = await graph.run("decay_facts", {"user_id": user_id})
        scope = Scope(user_id=user_id, channel="_global")
        access = await context.backends.access.get(scope, "fact", [row["id"] for row in rows])
        for row in rows:
            step = decay_step(_fact(row, access.get(row["id"])), now, factor)
            if step is None:
                context.tally.count("untouched")
                continue
            value, pruned = step
            context.tally.count("pruned" if pruned else "decayed")
            if pruned:
                pruned_ids.append(f"{user_id}/{row['id']}")
            if context.dry_run:
                context.tally.plan(f"{'prune' if pruned else 'decay'} {user_id}/{row['id']} -> {value:.4f}")
                continue
            params = {"user_id": user_id, "id": row["id"], "confidence": value, "pruned": pruned}
            await graph.run("set_fact_decayed", {**params, "now": epoch_ms(now)})
        await _decay_entities(context, scope, now, factor)
    context.tally.details["pruned"] = pruned_ids


def _entity(created_at: int, access: AccessRecord | None) -> Decayable:
    stamps = [maybe_from_epoch_ms(created_at)]
    if access is not None:
        stamps += [access.last_accessed, access.salience_at]
    return Decayable(
        value=1.0 if access is None or access.salience is None else access.salience,
        access_count=access.access_count if access else 0,
        since=max(stamp for stamp in stamps if stamp is not None),
        kind="entity",
    )


async def _decay_entities(context: AsyncJobContext, scope: Scope, now: datetime, factor: float) -> None:
    """The user's entities not accessed for a day: salience × the curve, written to the ledger in one
    statement (``entities_decayed``; none is deleted here)."""
    rows = await context.backends.graph.run("decay_entities", {"user_id": scope.user_id})
    access = await context.backends.access.get(scope, "entity", [row["id"] for row in rows])
    values: dict[str, float] = {}
    for row in rows:
        step = decay_step(_entity(row["created_at"], access.get(row["id"])), now, factor)
        if step is None:
            context.tally.count("entities_untouched")
            continue
        values[str(row["id"])] = step[0]
        context.tally.count("entities_decayed")
        if context.dry_run:
            context.tally.plan(f"decay entity {scope.user_id}/{row['id']} -> {step[0]:.4f}")
    if not context.dry_run:
        await context.backends.access.set_salience(scope, "entity", values, now)
