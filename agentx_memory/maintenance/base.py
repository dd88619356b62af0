"""What every maintenance job shares that does no I/O: its report, its clock and its tally.

A job is a plain async function over the memory subsystems (see :mod:`.runner_async`), run by the
Celery beat schedule (``workers/``), the CLI (``agentx-memory jobs run NAME``) or a test; the runner
wraps each run in a lock, a report, an audit row, a ``maintenance_runs`` row and metrics. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "MAX_PLANNED",
    "Clock",
    "JobReport",
    "JobStatus",
    "JobTally",
    "MemorySize",
    "UserSummary",
    "fold_partitions",
    "utc_now",
]

#: A clock: what a job calls "now" (tests pass a fake one to simulate weeks in a second).
Clock = Callable[[], datetime]

#: How many "would change" lines a dry run keeps (the counts stay exact past it).
MAX_PLANNED = 200

JobStatus = Literal["done", "locked", "failed"]


def utc_now() -> datetime:
    return datetime.now(UTC)


class JobReport(BaseModel):
    """One run of one job. ``counts``: what it did (or, in a dry run, would do), by name;
    ``planned``: in a dry run, what it would change, one line each."""

    job: str
    status: JobStatus = "done"
    dry_run: bool = False
    started_at: datetime
    duration_ms: float = 0.0
    counts: dict[str, int] = Field(default_factory=dict)
    planned: list[str] = Field(default_factory=list)
    details: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None


class JobTally:
    """What a job body records while it runs; the runner turns it into the :class:`JobReport`."""

    def __init__(self, dry_run: bool) -> None:
        self.dry_run = dry_run
        self.counts: dict[str, int] = {}
        self.planned: list[str] = []
        self.details: dict[str, Any] = {}

    def count(self, name: str, n: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + n

    def plan(self, line: str) -> None:
        """Note a change a dry run would make (kept up to :data:`MAX_PLANNED` lines)."""
        if len(self.planned) < MAX_PLANNED:
            self.planned.append(line)


class MemorySize(BaseModel):
    """Graph nodes by label, relationships by type, ledger rows by table, keys in the Redis database."""

    nodes: dict[str, int] = Field(default_factory=dict)
    relationships: dict[str, int] = Field(default_factory=dict)
    rows: dict[str, int] = Field(default_factory=dict)
    redis_keys: int | None = None


class UserSummary(BaseModel):
    """One user and what the ledger holds for it, every channel (``agentx-memory users``)."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    conversations: int = 0
    turns: int = 0
    #: Timeline rows by memory type (``fact``, ``entity``, ``goal``, ``strategy``); corrected facts
    #: are kept as history, so they count.
    memories: dict[str, int] = Field(default_factory=dict)
    #: Framework documents (LangGraph store items, agent session items).
    documents: int = 0
    latest_write: datetime | None = None


_PARTITION = re.compile(r"^(?P<table>.+)_\d{8}$")


def fold_partitions(rows: Mapping[str, int]) -> dict[str, int]:
    """Rows per table with day partitions (``memory_audit_log_20261125``) counted in their table."""
    folded: dict[str, int] = {}
    for table, count in rows.items():
        match = _PARTITION.match(table)
        name = match.group("table") if match else table
        folded[name] = folded.get(name, 0) + count
    return folded
