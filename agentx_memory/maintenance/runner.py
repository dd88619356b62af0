# Generated from agentx_memory/maintenance/runner_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Runs a maintenance job: under its lock, timed, reported, recorded and counted.

Generated from ``maintenance/runner_async.py``: edit that file. A job is an :class:`Job`: a name, the
settings field that says how often beat runs it, and a body that reads and writes through the facade and the
subsystems (as the seed says, "consolidation uses the AgentMemory interface rather than direct writes"). The
runner holds the job's Redis lock (two runs never overlap: the second reports ``locked``), records the run in
``maintenance_runs`` and in the audit log (with the error when it failed), and updates the metrics."""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass
from typing import Protocol

from psycopg.types.json import Jsonb

from .. import metrics
from ..backends import Backends
from ..errors import AgentMemoryError
from ..facade import AgentMemory
from ..llm.base import TokenMeter, metered
from ..models import Scope
from ..redact import redact_text
from ..settings import Settings
from ..stores import keys
from .base import Clock, JobReport, JobTally, utc_now

__all__ = ["Job", "JobBody", "JobContext", "last_runs", "run_job"]

log = logging.getLogger(__name__)

#: Who the audit rows of maintenance runs belong to (no user: a job works across users).
MAINTENANCE_SCOPE = Scope(user_id="_maintenance", channel="_global")


@dataclass
class JobContext:
    """What a job body gets: the root facade (``for_user`` reaches each user), the opened backends,
    the clock, and the tally it records what it did (or would do) in."""

    root: AgentMemory
    backends: Backends
    clock: Clock
    tally: JobTally

    @property
    def settings(self) -> Settings:
        return self.root.settings

    @property
    def dry_run(self) -> bool:
        return self.tally.dry_run

    def users(self) -> list[str]:
        """Every user the ledger knows, in id order."""
        rows = self.backends.ledger.fetch_all("list_users", {})
        return [str(row["user_id"]) for row in rows]

    def for_user(self, user_id: str, channel: str | None = None) -> AgentMemory:
        return self.root.for_user(user_id, channel)


class JobBody(Protocol):
    """What a job does, given its context; it records what it did in ``context.tally``."""

    def __call__(self, context: JobContext) -> None: ...


@dataclass(frozen=True)
class Job:
    """A maintenance job. ``every``: the ``MaintenanceSettings`` field holding its interval (minutes)."""

    name: str
    every: str
    description: str
    body: JobBody

    def interval_minutes(self, settings: Settings) -> float:
        return float(getattr(settings.maintenance, self.every))


def run_job(root: AgentMemory, job: Job, *, dry_run: bool = False, clock: Clock = utc_now) -> JobReport:
    """Run ``job`` once and return its report: ``locked`` when another run holds it, ``failed`` with
    the error when an :class:`AgentMemoryError` stopped it (anything else is a bug: recorded, then
    raised)."""
    # On the memory's own loop: the body uses its stores directly, and their pools live there.
    return root.home.run(_run_job(root, job, dry_run, clock))


def _run_job(root: AgentMemory, job: Job, dry_run: bool, clock: Clock) -> JobReport:
    backends = root._open_backends()
    report = JobReport(job=job.name, dry_run=dry_run, started_at=clock())
    started = time.perf_counter()
    lock, token = keys.job_lock(root.settings.redis.key_prefix, job.name), str(uuid.uuid4())
    if not backends.redis.acquire(lock, token, root.settings.maintenance.lock_seconds):
        report.status = "locked"
        metrics.JOB_RUNS.labels(job.name, "locked").inc()
        return report
    tally = JobTally(dry_run)
    unexpected: BaseException | None = None
    meter = TokenMeter()
    try:
        with metered() as meter:  # every LLM call of the run, whoever makes it
            job.body(JobContext(root, backends, clock, tally))
    except AgentMemoryError as exc:
        report.status, report.error = "failed", f"{type(exc).__name__}: {redact_text(str(exc))}"
    except Exception as exc:
        report.status, report.error, unexpected = (
            "failed",
            f"{type(exc).__name__}: {redact_text(str(exc))}",
            exc,
        )
    finally:
        backends.redis.release(lock, token)
    if meter.input_tokens or meter.output_tokens:
        tally.count("llm_input_tokens", meter.input_tokens)
        tally.count("llm_output_tokens", meter.output_tokens)
    report.duration_ms = round((time.perf_counter() - started) * 1000, 3)
    report.counts, report.planned, report.details = tally.counts, tally.planned, tally.details
    _record(backends, report)
    if unexpected is not None:
        raise unexpected
    return report


def last_runs(root: AgentMemory) -> dict[str, JobReport]:
    """Each job's latest recorded run (dry runs included), by job name."""
    backends = root._open_backends()
    rows = root.home.run(backends.ledger.fetch_all("last_maintenance_runs", {}))
    return {str(row["job"]): JobReport.model_validate(row) for row in rows}


def _record(backends: Backends, report: JobReport) -> None:
    """The run's row, its audit row and its metrics. A failure to record is logged, not raised: the
    job's own work is already done (or not) and its report says which."""
    metrics.JOB_RUNS.labels(report.job, report.status).inc()
    metrics.JOB_DURATION.labels(report.job).observe(report.duration_ms / 1000)
    if not report.dry_run:
        for name, value in report.counts.items():
            metrics.JOB_ITEMS.labels(report.job, name).inc(value)
    for direction in ("input", "output"):  # spent even by a dry run, if one ever asks an LLM
        if tokens := report.counts.get(f"llm_{direction}_tokens", 0):
            metrics.LLM_TOKENS.labels(report.job, direction).inc(tokens)
    if report.status == "done":
        metrics.JOB_LAST_SUCCESS.labels(report.job).set(time.time())
    try:
        backends.ledger.execute(
            "insert_maintenance_run",
            {
                **report.model_dump(
                    include={"job", "started_at", "duration_ms", "status", "dry_run", "error"}
                ),
                "counts": Jsonb(report.counts),
                "details": Jsonb({**report.details, "planned": report.planned}),
            },
        )
        backends.audit.log_write(
            MAINTENANCE_SCOPE,
            f"job:{report.job}",
            None,
            None,
            {"dry_run": report.dry_run, "counts": report.counts, "duration_ms": report.duration_ms},
            error=report.error,
        )
    except AgentMemoryError:
        log.exception("could not record the run of maintenance job %s", report.job)
