# Generated from agentx_memory/maintenance/jobs_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The maintenance jobs, by name. Generated from ``maintenance/jobs_async.py``: edit that file.

Each body is small and reads and writes through the facade (``context.for_user``) or one subsystem;
what a job decides without I/O lives in a pure module beside it. The Celery beat schedule and
``agentx-memory jobs`` both read :data:`JOBS`.
"""

from __future__ import annotations

import statistics
from datetime import timedelta

from .. import metrics
from ..models import Scope
from .backfill import backfill_turns, turns_awaiting
from .base import JobTally
from .cleanup import cleanup
from .decay import decay
from .doctor import doctor
from .ledger_retention import ledger_retention
from .patterns import patterns
from .promote import promote
from .reconcile import reconcile
from .reflect import reflect
from .resolve_entities import resolve_entities
from .runner import Job, JobContext
from .vector_compaction import vector_compaction

__all__ = ["JOBS"]


def consolidate(context: JobContext) -> None:
    """Every user's idle conversations with unlearned turns → ``consolidate_conversation``; the lag
    from a conversation's last turn to its consolidation is measured (seconds, in ``details``)."""
    now = context.clock()
    idle = timedelta(minutes=context.settings.learning.idle_minutes)
    lags: list[float] = []
    for user_id in context.users():
        scope = Scope(user_id=user_id, channel="_global")
        for pending in context.backends.episodic.to_consolidate(scope):
            last = pending.last_turn_at
            if last is None or now - last < idle:
                context.tally.count("active")
                continue
            if context.dry_run:
                context.tally.plan(f"consolidate {user_id}/{pending.id}")
                context.tally.count("conversations")
                continue
            memory = context.for_user(user_id, pending.channel)
            report = memory.consolidate_conversation(pending.id)
            context.tally.count(report.status)
            context.tally.count("facts_added", report.facts_added)
            if report.status == "done":
                lags.append((context.clock() - last).total_seconds())
                # each conversation's lag, not only the run's summary: the histogram gives p50/p95
                metrics.CONSOLIDATION_LAG.observe(lags[-1])
    _lag(context.tally, lags)


def _lag(tally: JobTally, lags: list[float]) -> None:
    if lags:
        tally.details["lag_s"] = {
            "median": round(statistics.median(lags), 3),
            "max": round(max(lags), 3),
            "count": len(lags),
        }


def audit_partitions(context: JobContext) -> None:
    """The next days' audit partitions are created; those wholly past ``audit.retention_days`` dropped."""
    settings = context.settings
    ledger = context.backends.ledger
    if not context.dry_run:
        created = ledger.ensure_partitions(settings.postgres.partitions_ahead_days)
        context.tally.count("ensured", len(created))
    cutoff = (context.clock() - timedelta(days=settings.audit.retention_days)).date()
    rows = ledger.fetch_all("drop_audit_partitions_before", {"cutoff": cutoff, "dry": context.dry_run})
    for row in rows:
        context.tally.plan(f"drop {row['partition']}")
    context.tally.count("dropped", len(rows))


def backfill(context: JobContext) -> None:
    """Up to ``maintenance.backfill_turns_per_run`` turns stored before migrations 011/012 given their
    event date and question context (``agentx-memory backfill`` does them all at once)."""
    backends, settings = context.backends, context.settings
    if context.dry_run:
        context.tally.count("remaining", turns_awaiting(backends.ledger))
        return
    report = backfill_turns(
        backends.ledger,
        backends.embedder,
        with_context=settings.retrieval.turn_context,
        limit=settings.maintenance.backfill_turns_per_run,
    )
    context.tally.count("turns", report.turns)
    context.tally.count("embedded", report.embedded)
    context.tally.count("remaining", report.remaining)


def doctor_repair(context: JobContext) -> None:
    """``agentx-memory doctor``: the invariants across the stores checked; unless a dry run,
    repaired (replays and index rebuilds by the ``reconcile`` and ``vector_compaction`` jobs)."""
    doctor(context, JOBS)


JOBS: dict[str, Job] = {
    job.name: job
    for job in (
        Job("consolidate", "consolidate_minutes", "learn from idle conversations", consolidate),
        Job(
            "audit_partitions",
            "audit_partitions_minutes",
            "create the next days' audit partitions, drop those past retention",
            audit_partitions,
        ),
        Job("cleanup", "cleanup_minutes", "archive conversations past retention", cleanup),
        Job("decay", "decay_minutes", "forgetting curve on unused, unprotected facts", decay),
        Job("ledger_retention", "ledger_retention_minutes", "trim old tool-call payloads", ledger_retention),
        Job("patterns", "patterns_minutes", "recurring successful tool paths → strategies", patterns),
        Job("promote", "promote_minutes", "copy prominent project facts to _global", promote),
        Job("reconcile", "reconcile_minutes", "replay ledger writes the graph never confirmed", reconcile),
        Job(
            "resolve_entities",
            "resolve_entities_minutes",
            "review SAME_AS candidates: merge, keep or dismiss",
            resolve_entities,
        ),
        Job("reflect", "reflect_minutes", "a weekly reflection on each user's new facts", reflect),
        Job(
            "vector_compaction",
            "vector_compaction_minutes",
            "rebuild vector indexes bloated with stale entries",
            vector_compaction,
        ),
        Job(
            "backfill",
            "backfill_minutes",
            "derive event dates and question context of turns stored before them",
            backfill,
        ),
        Job(
            "doctor",
            "doctor_minutes",
            "check the invariants across the stores and repair them",
            doctor_repair,
        ),
    )
}
