"""The maintenance jobs, by name. Async source of ``jobs.py``.

Each body is small and reads and writes through the facade (``context.for_user``) or one subsystem;
what a job decides without I/O lives in a pure module beside it. The Celery beat schedule and
``agentx-memory jobs`` both read :data:`JOBS`.
"""

from __future__ import annotations

import statistics
from datetime import timedelta

from .. import metrics
from ..models import Scope
from .backfill_async import backfill_turns, turns_awaiting
from .base import JobTally
from .cleanup_async import cleanup
from .decay_async import decay
from .doctor_async import doctor
from .ledger_retention_async import ledger_retention
from .patterns_async import patterns
from .promote_async import promote
from .reconcile_async import reconcile
from .reflect_async import reflect
from .resolve_entities_async import resolve_entities
from .runner_async import AsyncJob, AsyncJobContext
from .vector_compaction_async import vector_compaction

__all__ = ["JOBS"]


async def consolidate(context: AsyncJobContext) -> None:
    """Every user's idle conversations with unlearned turns → ``consolidate_conversation``; the lag
    from a conversation's last turn to its consolidation is measured (seconds, in ``details``)."""
    now = context.clock()
    idle = timedelta(minutes=context.settings.learning.idle_minutes)
    lags: list[float] = []
    for user_id in await context.users():
        scope = Scope(user_id=user_id, channel="_global")
        for pending in await context.backends.episodic.to_consolidate(scope):
            last = pending.last_turn_at
            if last is None or now - last < idle:
                context.tally.count("active")
                continue
            if context.dry_run:
                context.tally.plan(f"consolidate {user_id}/{pending.id}")
                context.tally.count("conversations")
                continue
            memory = await context.for_user(user_id, pending.channel)
            report = await memory.consolidate_conversation(pending.id)
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


async def audit_partitions(context: AsyncJobContext) -> None:
    """The next days' audit partitions are created; those wholly past ``audit.retention_days`` dropped."""
    settings = context.settings
    ledger = context.backends.ledger
    if not context.dry_run:
        created = await ledger.ensure_partitions(settings.postgres.partitions_ahead_days)
        context.tally.count("ensured", len(created))
    cutoff = (context.clock() - timedelta(days=settings.audit.retention_days)).date()
    rows = await ledger.fetch_all("drop_audit_partitions_before", {"cutoff": cutoff, "dry": context.dry_run})
    for row in rows:
        context.tally.plan(f"drop {row['partition']}")
    context.tally.count("dropped", len(rows))


async def backfill(context: AsyncJobContext) -> None:
    """Up to ``maintenance.backfill_turns_per_run`` turns stored before migrations 011/012 given their
    event date and question context (``agentx-memory backfill`` does them all at once)."""
    backends, settings = context.backends, context.settings
    if context.dry_run:
        context.tally.count("remaining", await turns_awaiting(backends.ledger))
        return
    report = await backfill_turns(
        backends.ledger,
        backends.embedder,
        with_context=settings.retrieval.turn_context,
        limit=settings.maintenance.backfill_turns_per_run,
    )
    context.tally.count("turns", report.turns)
    context.tally.count("embedded", report.embedded)
    context.tally.count("remaining", report.remaining)


async def doctor_repair(context: AsyncJobContext) -> None:
    """``agentx-memory doctor``: the invariants across the stores checked; unless a dry run,
    repaired (replays and index rebuilds by the ``reconcile`` and ``vector_compaction`` jobs)."""
    await doctor(context, JOBS)


JOBS: dict[str, AsyncJob] = {
    job.name: job
    for job in (
        AsyncJob("consolidate", "consolidate_minutes", "learn from idle conversations", consolidate),
        AsyncJob(
            "audit_partitions",
            "audit_partitions_minutes",
            "create the next days' audit partitions, drop those past retention",
            audit_partitions,
        ),
        AsyncJob("cleanup", "cleanup_minutes", "archive conversations past retention", cleanup),
        AsyncJob("decay", "decay_minutes", "forgetting curve on unused, unprotected facts", decay),
        AsyncJob(
            "ledger_retention", "ledger_retention_minutes", "trim old tool-call payloads", ledger_retention
        ),
        AsyncJob("patterns", "patterns_minutes", "recurring successful tool paths → strategies", patterns),
        AsyncJob("promote", "promote_minutes", "copy prominent project facts to _global", promote),
        AsyncJob(
            "reconcile", "reconcile_minutes", "replay ledger writes the graph never confirmed", reconcile
        ),
        AsyncJob(
            "resolve_entities",
            "resolve_entities_minutes",
            "review SAME_AS candidates: merge, keep or dismiss",
            resolve_entities,
        ),
        AsyncJob("reflect", "reflect_minutes", "a weekly reflection on each user's new facts", reflect),
        AsyncJob(
            "vector_compaction",
            "vector_compaction_minutes",
            "rebuild vector indexes bloated with stale entries",
            vector_compaction,
        ),
        AsyncJob(
            "backfill",
            "backfill_minutes",
            "derive event dates and question context of turns stored before them",
            backfill,
        ),
        AsyncJob(
            "doctor",
            "doctor_minutes",
            "check the invariants across the stores and repair them",
            doctor_repair,
        ),
    )
}
