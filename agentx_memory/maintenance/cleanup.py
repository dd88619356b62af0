# Generated from agentx_memory/maintenance/cleanup_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The ``cleanup`` job: conversations past ``retention.turn_days`` are archived. Generated from
``maintenance/cleanup_async.py``: edit that file.

Archiving is a flag (``conversations.archived_at`` in the ledger, ``archived_at`` on the graph node):
no turn is deleted, so provenance and recall keep working. Deleting low-salience entities is not done
yet (``Entity`` has no salience field).
"""

from __future__ import annotations

from datetime import timedelta

from ..timecodec import epoch_ms
from .runner import JobContext

__all__ = ["cleanup"]


def cleanup(context: JobContext) -> None:
    """Every user's conversations whose last turn is older than ``retention.turn_days`` → archived."""
    now = context.clock()
    cutoff = now - timedelta(days=context.settings.retention.turn_days)
    ledger, graph = context.backends.ledger, context.backends.graph
    for user_id in context.users():
        rows = ledger.fetch_all("conversations_to_archive", {"user_id": user_id, "cutoff": cutoff})
        for row in rows:
            conversation_id = str(row["id"])
            context.tally.count("archived")
            if context.dry_run:
                context.tally.plan(f"archive {user_id}/{conversation_id}")
                continue
            ledger.execute("archive_conversation", {"id": conversation_id, "user_id": user_id, "now": now})
            params = {"conversation_id": conversation_id, "user_id": user_id, "now": epoch_ms(now)}
            graph.run("archive_conversation", params)
