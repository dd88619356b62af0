# Generated from agentx_memory/maintenance/cleanup_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The ``cleanup`` job: conversations past ``retention.turn_days`` are archived. Generated from
``maintenance/cleanup_async.py``: edit that file.

Archiving is a flag (``conversations.archived_at`` in the ledger, ``archived_at`` on the graph node):
no turn is deleted, so provenance and recall keep working. Entities whose salience (decayed by the
``decay`` job, in the ledger) is below :data:`LOW_SALIENCE` and that nobody accessed for
``retention.low_salience_days`` are deleted with what hangs off them in every store: the node and its
edges (relationships, ``MENTIONS``, ``ABOUT``, ``SAME_AS``), its timeline and access rows, and its audit
rows redacted. The facts and turns that named it stay.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from ..models import Scope
from ..timecodec import epoch_ms
from .runner import JobContext

__all__ = ["LOW_SALIENCE", "cleanup"]

#: Seed 002: "delete entities with salience < 0.1 not accessed for 30 days".
LOW_SALIENCE = 0.1


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
        _delete_forgotten_entities(context, Scope(user_id=user_id, channel="_global"), now)


def _delete_forgotten_entities(context: JobContext, scope: Scope, now: datetime) -> None:
    idle = now - timedelta(days=context.settings.retention.low_salience_days)
    records = context.backends.access.listing(scope, "entity")
    ids = [
        record.memory_id
        for record in records
        if record.salience is not None
        and record.salience < LOW_SALIENCE
        and (record.last_accessed is None or record.last_accessed < idle)
    ]
    for entity_id in ids:
        context.tally.plan(f"delete entity {scope.user_id}/{entity_id}")
    if not ids:
        return
    context.tally.count("entities_deleted", len(ids))
    if context.dry_run:
        return
    params = {"user_id": scope.user_id, "memory_ids": ids}
    context.backends.ledger.fetch_one("forget_memory_rows", params)
    context.backends.graph.run("delete_entities", {"user_id": scope.user_id, "ids": ids})
