"""The maintenance runner on the real servers: lock, report, run record, audit row (failures too)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory import AgentMemory, InvalidInputError, metrics
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import Job, JobContext, last_runs, run_job
from agentx_memory.stores import keys
from agentx_memory.stores.postgres import PostgresStore

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _slow(context: JobContext) -> None:
    time.sleep(0.5)
    context.tally.count("slept")


def _refused(context: JobContext) -> None:
    context.tally.count("before")
    raise InvalidInputError("nothing to do here")


def _audit_rows(ledger: PostgresStore, operation: str) -> list[dict[str, object]]:
    return [
        row
        for row in ledger.fetch_all("list_audit", {"user_id": "_maintenance"})
        if row["operation"] == operation
    ]


def test_two_concurrent_runs_one_works_the_other_reports_the_lock(memory: AgentMemory) -> None:
    job = Job("slow", "decay_minutes", "sleeps", _slow)
    reports = []
    threads = [threading.Thread(target=lambda: reports.append(run_job(memory, job))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(report.status for report in reports) == ["done", "locked"]
    done = next(report for report in reports if report.status == "done")
    assert done.counts == {"slept": 1}
    assert done.duration_ms >= 500
    # The lock is released: the next run works.
    assert run_job(memory, job).status == "done"


def test_a_held_lock_is_reported_and_nothing_runs(memory: AgentMemory) -> None:
    backends = memory._open_backends()
    lock = keys.job_lock(memory.settings.redis.key_prefix, "slow")
    assert backends.redis.acquire(lock, "someone-else", 60)
    report = run_job(memory, Job("slow", "decay_minutes", "sleeps", _slow))
    assert (report.status, report.counts) == ("locked", {})
    assert backends.redis.get_value(lock) == "someone-else"  # not released by the refused run


def test_runs_are_recorded_and_audited_failures_with_their_error(
    memory: AgentMemory, ledger: PostgresStore
) -> None:
    failed = run_job(memory, Job("refused", "decay_minutes", "fails", _refused), clock=lambda: T0)
    assert failed.status == "failed"
    assert failed.error == "InvalidInputError: nothing to do here"
    assert failed.counts == {"before": 1}
    ok = run_job(memory, Job("slow", "decay_minutes", "sleeps", _slow), dry_run=True)
    runs = last_runs(memory)
    assert runs["refused"].status == "failed"
    assert runs["refused"].started_at == T0
    assert runs["slow"].dry_run
    assert runs["slow"].counts == ok.counts
    (row,) = _audit_rows(ledger, "job:refused")
    assert row["success"] is False
    assert row["error_message"] == "InvalidInputError: nothing to do here"
    (row,) = _audit_rows(ledger, "job:slow")
    assert row["success"] is True
    assert row["error_message"] is None


def test_a_bug_in_a_job_is_recorded_then_raised(memory: AgentMemory) -> None:
    def broken(context: JobContext) -> None:
        raise KeyError("bug")

    with pytest.raises(KeyError):
        run_job(memory, Job("broken", "decay_minutes", "a bug", broken))
    assert last_runs(memory)["broken"].error == "KeyError: 'bug'"
    assert run_job(memory, Job("broken", "decay_minutes", "a bug", _slow)).status == "done"  # unlocked


def test_audit_partitions_creates_ahead_and_drops_past_retention(memory: AgentMemory) -> None:
    job = JOBS["audit_partitions"]
    first = run_job(memory, job)
    assert first.counts["ensured"] == memory.settings.postgres.partitions_ahead_days + 2
    assert first.counts["dropped"] == 0
    # A year on, every partition so far is past the 90-day retention: a dry run names them …
    later = datetime.now(UTC) + timedelta(days=365)
    dry = run_job(memory, job, dry_run=True, clock=lambda: later)
    assert dry.counts["dropped"] == first.counts["ensured"]
    assert all(line.startswith("drop memory_audit_log_") for line in dry.planned)
    assert run_job(memory, job, dry_run=True, clock=lambda: later).counts == dry.counts  # nothing dropped
    # … and the real run drops them; the audit log still takes rows (today's partition comes back).
    real = run_job(memory, job, clock=lambda: later)
    assert real.counts["dropped"] == dry.counts["dropped"]
    memory.learn_fact("Audit still works after the drop.", confidence=0.9, source="test")
    assert run_job(memory, job).status == "done"


def test_consolidate_learns_from_idle_conversations_only(memory: AgentMemory) -> None:
    c = memory.new_conversation()
    memory.store_turn(c, "user", "I'm allergic to peanuts.", timestamp=T0)
    job = JOBS["consolidate"]
    soon = run_job(memory, job, clock=lambda: T0 + timedelta(minutes=5))
    assert soon.counts == {"active": 1}
    dry = run_job(memory, job, dry_run=True, clock=lambda: T0 + timedelta(hours=1))
    assert dry.planned == [f"consolidate alice/{c}"]
    assert memory.list_facts() == []
    lagged = metrics.REGISTRY.get_sample_value("agentx_consolidation_lag_seconds_count") or 0.0
    done = run_job(memory, job, clock=lambda: T0 + timedelta(hours=1))
    assert done.counts["done"] == 1
    assert metrics.REGISTRY.get_sample_value("agentx_consolidation_lag_seconds_count") == lagged + 1
    assert done.counts["facts_added"] >= 1
    assert done.details["lag_s"]["max"] >= 3600
    assert any("peanuts" in fact.claim for fact in memory.list_facts())
    assert run_job(memory, job, clock=lambda: T0 + timedelta(hours=2)).counts == {}
