"""The ``ledger_retention`` job: session-ledger detail is trimmed after ``retention.ledger_detail_days``.
Async source of ``ledger_retention.py``.

"Detail" here is the tool-call payloads (``tool_invocations.tool_input`` / ``tool_output``): they are
replaced by ``{"trimmed": true}`` / null. Turns, their content and metadata, and every durable memory
stay, so provenance pointing at a turn still reads as it did.
"""

from __future__ import annotations

from datetime import timedelta

from .runner_async import AsyncJobContext

__all__ = ["ledger_retention"]


async def ledger_retention(context: AsyncJobContext) -> None:
    """Every user's tool-call payloads older than the window → trimmed (counted as ``tool_payloads``)."""
    cutoff = context.clock() - timedelta(days=context.settings.retention.ledger_detail_days)
    for user_id in await context.users():
        params = {"user_id": user_id, "cutoff": cutoff, "dry": context.dry_run}
        (row,) = await context.backends.ledger.fetch_all("trim_tool_payloads", params)
        trimmed = int(row["n"])
        if trimmed and context.dry_run:
            context.tally.plan(f"trim {trimmed} tool payloads of {user_id}")
        context.tally.count("tool_payloads", trimmed)
