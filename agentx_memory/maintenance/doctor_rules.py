"""What ``agentx-memory doctor`` decides without I/O: the invariants, its report, and the comparisons
of one user's graph ids with the ledger's. Pure; the I/O is in :mod:`.doctor_async`.

The ledger (Postgres) is the source of truth (DESIGN §3): turns and conversations are written there
first, and every fact, entity, goal and strategy node gets a ``memory_timeline`` row. So a graph node
whose ledger row is gone is a remnant (of a forget whose graph step failed): the doctor may delete it.
A ledger row the graph lacks is written again (reconcile replays it). Anything else is reported only.

Some findings are housekeeping, not damage: the stale vector index entries every delete leaves on
FalkorDB (a ``forget_user`` leaves one per forgotten vector node) are removed by the scheduled
``vector_compaction`` job. Such an invariant is ``pending``: its findings are reported as work the jobs
will do, never counted as violations, so ordinary use never fails ``doctor``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from ..memory.timeline_async import SUMMARY_CHARS
from .base import JobReport

__all__ = [
    "INVARIANTS",
    "SAMPLES",
    "TIMELINE_TYPES",
    "DoctorReport",
    "Finding",
    "Invariant",
    "TurnDiff",
    "diff_turns",
    "make_finding",
    "missing",
    "timeline_row",
]

#: Sample ids a finding keeps (its count stays exact).
SAMPLES: Final = 5

#: ``memory_timeline.memory_type`` of each graph label that must have a timeline row.
TIMELINE_TYPES: Final = {"Fact": "fact", "Entity": "entity", "Goal": "goal", "Strategy": "strategy"}


@dataclass(frozen=True)
class Invariant:
    """One invariant: what must hold, and what ``--repair`` does when it does not."""

    name: str
    rule: str
    repair: str
    #: Housekeeping a scheduled job does: what it finds is pending work, not a violation.
    pending: bool = False


INVARIANTS: Final[tuple[Invariant, ...]] = (
    Invariant(
        "graph_users_unknown",
        "every user with graph nodes is known to the ledger",
        "delete the user's graph nodes (remnants of a forget), once its newest node is older than "
        "maintenance.doctor_grace_minutes",
    ),
    Invariant(
        "turns_without_ledger_row",
        "every Turn node has its conversation_logs row",
        "delete the Turn node",
    ),
    Invariant(
        "conversations_without_ledger_row",
        "every Conversation node has its conversations row",
        "delete the Conversation node with its turns and tool invocations",
    ),
    Invariant(
        "tool_invocations_without_ledger_row",
        "every ToolInvocation node has its tool_invocations row",
        "delete the ToolInvocation node",
    ),
    Invariant(
        "memories_without_timeline_row",
        "every Fact, Entity, Goal and Strategy node has its memory_timeline row",
        "write the timeline row from the node",
    ),
    Invariant(
        "ledger_rows_missing_from_graph",
        "every turn and conversation the ledger marks synced is in the graph, the turn under its "
        "conversation",
        "mark them unsynced, then reconcile writes them again",
    ),
    Invariant(
        "unsynced_ledger_rows",
        "no ledger turn, conversation or tool invocation waits for its graph write",
        "run the reconcile job",
    ),
    Invariant(
        "cross_user_relationships",
        "no relationship joins two users' nodes",
        "delete the relationship (the nodes stay)",
    ),
    Invariant(
        "nodes_without_user",
        "every graph node carries a user_id",
        "none: no scoped statement reaches them; inspect them in the graph browser",
    ),
    Invariant(
        "redis_keys_of_forgotten_users",
        "no working-memory or consolidation key of a forgotten user",
        "delete the user's keys",
    ),
    Invariant(
        "vector_index_bloat",
        "no vector index holds stale entries past maintenance.vector_stale_ratio of its live nodes "
        "(or any after a forget)",
        "run the vector_compaction job (beat runs it daily)",
        pending=True,
    ),
)
_BY_NAME: Final = {invariant.name: invariant for invariant in INVARIANTS}


class Finding(BaseModel):
    """One invariant's outcome. ``violations``: what the check found; ``repaired``: what ``--repair``
    fixed; ``remaining``: what a check after the repair still found (None: no repair ran);
    ``skipped``: why the invariant was not checked, or why its repair did not run."""

    model_config = ConfigDict(frozen=True)

    name: str
    rule: str
    repair: str
    violations: int = 0
    samples: list[str] = Field(default_factory=list)
    repaired: int = 0
    remaining: int | None = None
    skipped: str | None = None
    #: Housekeeping (:attr:`Invariant.pending`): what is open is work pending, not a violation.
    pending: bool = False

    @property
    def open(self) -> int:
        """What is still there after this run."""
        return self.violations if self.remaining is None else self.remaining


class DoctorReport(BaseModel):
    """Every invariant's finding, in :data:`INVARIANTS` order."""

    model_config = ConfigDict(frozen=True)

    repair: bool = False
    findings: list[Finding] = Field(default_factory=list)
    #: Turns stored before migrations 011/012 still without their event date and question context: not
    #: a violation (recall works, only less well on them); ``agentx-memory backfill`` derives them.
    awaiting_backfill: int = 0

    @property
    def violations(self) -> int:
        return sum(finding.violations for finding in self.findings if not finding.pending)

    @property
    def remaining(self) -> int:
        """Violations still there after this run (all of them when nothing was repaired)."""
        return sum(finding.open for finding in self.findings if not finding.pending)

    @property
    def pending(self) -> int:
        """Housekeeping still to do (stale index entries): the scheduled jobs clean it; not a violation."""
        return sum(finding.open for finding in self.findings if finding.pending)

    @property
    def ok(self) -> bool:
        return self.remaining == 0

    def finding(self, name: str) -> Finding:
        return next(finding for finding in self.findings if finding.name == name)

    @classmethod
    def from_job(cls, report: JobReport) -> DoctorReport | None:
        """The doctor's report inside the ``doctor`` job's run (None when the run did not get that far)."""
        found = report.details.get("doctor")
        return None if found is None else cls.model_validate(found)


def make_finding(
    name: str,
    violations: int,
    samples: Iterable[str] = (),
    *,
    skipped: str | None = None,
) -> Finding:
    """A check's finding for the invariant ``name`` (first :data:`SAMPLES` samples kept)."""
    invariant = _BY_NAME[name]
    kept = sorted(samples)[:SAMPLES]
    return Finding(
        name=name,
        rule=invariant.rule,
        repair=invariant.repair,
        violations=violations,
        samples=kept,
        skipped=skipped,
        pending=invariant.pending,
    )


def missing(ids: Iterable[str], present: Iterable[str]) -> list[str]:
    """The ``ids`` not in ``present``, sorted."""
    have = set(present)
    return sorted(set(ids) - have)


@dataclass
class TurnDiff:
    """One user's turns compared across the stores."""

    #: Turn nodes without a ledger row (delete).
    orphans: list[str] = field(default_factory=list)
    #: Synced ledger turns without a node, or whose node no conversation node holds (replay).
    lost: list[str] = field(default_factory=list)


def diff_turns(
    graph_rows: Sequence[Mapping[str, Any]],
    ledger_rows: Sequence[Mapping[str, Any]],
    orphan_conversations: Iterable[str] = (),
) -> TurnDiff:
    """Compare ``doctor_turns`` rows (id, conversation_id, linked) with ``doctor_ledger_turns`` rows
    (id, graph_synced). The turns of an orphan conversation go with it, so they are not listed again;
    a turn the ledger still waits to sync is reconcile's business, not a loss."""
    ledger = {str(row["id"]): bool(row["graph_synced"]) for row in ledger_rows}
    skip = set(orphan_conversations)
    linked = {str(row["id"]): int(row["linked"]) > 0 for row in graph_rows}
    kept = [str(row["id"]) for row in graph_rows if str(row["conversation_id"]) not in skip]
    return TurnDiff(
        orphans=missing(kept, ledger),
        lost=sorted(turn for turn, synced in ledger.items() if synced and not linked.get(turn, False)),
    )


def timeline_row(user_id: str, row: Mapping[str, Any], created_at: datetime) -> dict[str, Any]:
    """The ``insert_timeline`` parameters that index a ``doctor_timeline_nodes`` row, written as its
    subsystem writes them (a fact by its claim, an entity as "type: name", a goal or strategy by its
    description)."""
    label = str(row["label"])
    if label == "Fact":
        summary = str(row["claim"] or "")
    elif label == "Entity":
        summary = f"{row['type']}: {row['name']}"
    else:
        summary = str(row["description"] or "")
    salience = row.get("salience")
    return {
        "user_id": user_id,
        "channel": row["channel"] or "_global",
        "memory_type": TIMELINE_TYPES[label],
        "memory_id": str(row["id"]),
        "conversation_id": None,
        "event_time": created_at,
        "summary": summary[:SUMMARY_CHARS],
        "importance": 0.5 if salience is None else float(salience),
    }
