"""The ``cleanup`` job: conversations past ``retention.turn_days`` are archived. Async source of
``cleanup.py``.

Archiving is a flag (``conversations.archived_at`` in the ledger, ``archived_at`` on the graph node):
no turn is deleted, so provenance and recall keep working. Deleting low-salience entities is not done
yet (``Entity`` has no salience field).
"""

from __future__ import annotations

from datetime import timedelta

from ..timecodec import epoch_ms
from .runner_async import AsyncJobContext

__all__ = ["cleanup"]


async def cleanup(context: AsyncJobContext) -> None:
    """Every user's conversations whose last turn is older than ``retention.turn_days`` → archived."""
    now = context.clock()
    cutoff = now - timedelta(days=context.settings.retention.turn_days)
    ledger, graph = context.backends.ledger, context.backends.graph
    for user_id in await context.users():
        rows = await ledger.fetch_all("conversations_to_archive", {"user_id": user_id, "cutoff": cutoff})
        for row in rows:
            conversation_id = str(row["id"])
            context.tally.count("archived")
            if context.dry_run:
                context.tally.plan(f"archive {user_id}/{conversation_id}")
                continue
            await ledger.execute(
                "archive_conversation", {"id": conversation_id, "user_id": user_id, "now": now}
            )
            params = {"conversation_id": conversation_id, "user_id": user_id, "now": epoch_ms(now)}
            await graph.run("archive_conversation", params)
