"""The ``decay`` job: seed 002's forgetting curve on facts' confidence. Async source of ``decay.py``.

Reads and writes the fact nodes' own ``access_count`` / ``last_accessed`` (the access API meant to move
them off the vector-indexed nodes did not exist when this was written); entity salience is not decayed
yet: ``Entity`` has no salience field.
"""

from __future__ import annotations

from typing import Any

from ..timecodec import epoch_ms, maybe_from_epoch_ms
from .decay_rules import Decayable, decay_step
from .runner_async import AsyncJobContext

__all__ = ["decay"]


def _fact(row: dict[str, Any]) -> Decayable:
    stamps = [maybe_from_epoch_ms(row[key]) for key in ("last_accessed", "last_decayed", "created_at")]
    return Decayable(
        value=float(row["confidence"]),
        access_count=int(row["access_count"]),
        since=max(stamp for stamp in stamps if stamp is not None),
        kind="fact",
        decay_rate=row["decay_rate"],
        source=row["source"],
        priority=row["priority"],
    )


async def decay(context: AsyncJobContext) -> None:
    """Every user's current, unprotected facts: confidence × the curve per whole week unused; below
    ``PRUNE_BELOW`` soft-deleted. The report counts ``decayed`` and ``pruned`` and lists pruned ids."""
    now = context.clock()
    factor = context.settings.decay.factor
    graph = context.backends.graph
    pruned_ids: list[str] = []
    for user_id in await context.users():
        for row in await graph.run("decay_facts", {"user_id": user_id}):
            step = decay_step(_fact(row), now, factor)
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
    context.tally.details["pruned"] = pruned_ids
