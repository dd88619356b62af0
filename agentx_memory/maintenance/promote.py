# Generated from agentx_memory/maintenance/promote_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The ``promote`` job: prominent project facts are copied to ``_global``. Generated from
``maintenance/promote_async.py``: edit that file."""

from __future__ import annotations

from ..models import Scope
from .promote_rules import promotion_reason, shortfall
from .runner import JobContext

__all__ = ["promote"]


def promote(context: JobContext) -> None:
    """For every user and every project channel they have conversations in: each promotion
    candidate that meets every ``settings.promotion`` threshold → ``promote_to_global``
    (idempotent, so a fact promoted on an earlier run is counted again, not copied twice)."""
    thresholds = context.settings.promotion
    for user_id in context.users():
        rows = context.backends.ledger.fetch_all("list_user_project_channels", {"user_id": user_id})
        for row in rows:
            channel = str(row["channel"])
            # the store's query, not the facade's: a dry run must not even write audit read rows
            scope = Scope(user_id=user_id, channel=channel)
            for candidate in context.backends.promotion.candidates(scope, thresholds):
                missing = shortfall(candidate, thresholds)
                if missing is not None:
                    context.tally.count(f"below_{missing}")
                    continue
                if context.dry_run:
                    context.tally.plan(f"promote {user_id}/{channel}/{candidate.fact.id}")
                else:
                    memory = context.for_user(user_id, channel)
                    memory.promote_to_global(candidate.fact.id, promotion_reason(candidate))
                context.tally.count("promoted")
