# Generated from agentx_memory/maintenance/doctor_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""``agentx-memory doctor [--repair]``: the invariants across the graph, the ledger and Redis, checked and,
with repair, restored. Generated from ``maintenance/doctor_async.py``: edit that file.

Run as the ``doctor`` maintenance job (its lock, its run row, its audit row): a dry run checks, a real
run repairs and checks again. What each invariant means and what its repair does is in
:data:`.doctor_rules.INVARIANTS`; the comparisons are pure (:mod:`.doctor_rules`). Every repair is
idempotent and deletes only what the ledger — the source of truth — proves orphaned: a graph node
whose ledger row is gone, a relationship between two users, the Redis keys of a forgotten user.
Replaying what the graph lacks is the ``reconcile`` job's work and rebuilding bloated vector indexes
the ``vector_compaction`` job's: the doctor runs them (under their own locks), it does not redo them.
Cross-user reads are ``census_*`` statements (ids and counts only); everything else is per user.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from ..backends import Backends
from ..stores import keys
from ..timecodec import epoch_ms, from_epoch_ms
from .backfill import turns_awaiting
from .doctor_rules import (
    SAMPLES,
    TIMELINE_TYPES,
    DoctorReport,
    Finding,
    diff_turns,
    make_finding,
    missing,
    timeline_row,
)
from .runner import Job, JobContext, run_job
from .vector_compaction import to_rebuild

__all__ = ["diagnose", "doctor"]


@dataclass
class _Plan:
    """What a repair would change, found by :func:`diagnose` (ids by user)."""

    unknown_users: list[str] = field(default_factory=list)
    turns: dict[str, list[str]] = field(default_factory=dict)
    conversations: dict[str, list[str]] = field(default_factory=dict)
    invocations: dict[str, list[str]] = field(default_factory=dict)
    timeline: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    lost_turns: dict[str, list[str]] = field(default_factory=dict)
    lost_conversations: dict[str, list[str]] = field(default_factory=dict)
    cross_users: list[str] = field(default_factory=list)
    redis_users: list[str] = field(default_factory=list)
    unsynced: bool = False
    bloated: bool = False


def diagnose(context: JobContext) -> tuple[list[Finding], _Plan]:
    """Check every invariant; the findings (in :data:`INVARIANTS` order) and the repair plan."""
    backends, plan = context.backends, _Plan()
    graph_users = {str(row["user_id"]): int(row["count"]) for row in backends.graph.run("census_users", {})}
    redis_keys = _user_keys(context)
    known = _ids(backends, "doctor_known_users", {"user_ids": sorted({*graph_users, *redis_keys})})
    found: dict[str, Finding] = {}
    found["graph_users_unknown"] = _unknown_users(context, graph_users, known, plan)
    users = sorted((set(graph_users) & known) | set(context.users()))
    found.update(_per_user(backends, users, plan))
    found["unsynced_ledger_rows"] = _unsynced(backends, plan)
    found["cross_user_relationships"] = _cross_user(backends, plan)
    unowned = backends.graph.run("census_unowned_nodes", {})
    found["nodes_without_user"] = make_finding(
        "nodes_without_user",
        sum(int(row["count"]) for row in unowned),
        (str(row["label"]) for row in unowned),
    )
    found["redis_keys_of_forgotten_users"] = _redis_keys(backends, redis_keys, known, plan)
    found["vector_index_bloat"] = _vector_bloat(context, plan)
    return [found[name] for name in _ORDER], plan


def doctor(context: JobContext, jobs: Mapping[str, Job]) -> None:
    """The ``doctor`` job's body: check; unless a dry run, repair (``jobs`` holds ``reconcile`` and
    ``vector_compaction``, run under their own locks) and check again. The report is the tally's
    ``details["doctor"]``; the counts are violations, repairs and what remains."""
    findings, plan = diagnose(context)
    for item in findings:
        context.tally.count(item.name, item.violations)
        for sample in item.samples:
            context.tally.plan(f"{item.name}: {sample}")
    if not context.dry_run and any(item.violations for item in findings):
        repaired, notes = _repair(context, plan, jobs)
        after, _ = diagnose(context)
        remaining = {item.name: item.violations for item in after}
        findings = [
            item.model_copy(
                update={
                    "repaired": repaired.get(item.name, 0),
                    "remaining": remaining[item.name],
                    "skipped": notes.get(item.name, item.skipped),
                }
            )
            for item in findings
        ]
        for item in findings:
            context.tally.count(f"{item.name}_repaired", item.repaired)
    awaiting = turns_awaiting(context.backends.ledger)
    report = DoctorReport(repair=not context.dry_run, findings=findings, awaiting_backfill=awaiting)
    context.tally.count("remaining", report.remaining)
    context.tally.count("pending", report.pending)
    context.tally.count("awaiting_backfill", awaiting)
    context.tally.details["doctor"] = report.model_dump(mode="json")


_ORDER = (
    "graph_users_unknown",
    "turns_without_ledger_row",
    "conversations_without_ledger_row",
    "tool_invocations_without_ledger_row",
    "memories_without_timeline_row",
    "ledger_rows_missing_from_graph",
    "unsynced_ledger_rows",
    "cross_user_relationships",
    "nodes_without_user",
    "redis_keys_of_forgotten_users",
    "vector_index_bloat",
)


# -- checks ---------------------------------------------------------------------------------------


def _ids(backends: Backends, name: str, params: Mapping[str, Any]) -> set[str]:
    """The first column of a ledger statement's rows, as strings."""
    return {str(next(iter(row.values()))) for row in backends.ledger.fetch_all(name, params)}


def _user_keys(context: JobContext) -> dict[str, int]:
    """Keys per user in the namespaces that belong to users (``SCAN``, never ``KEYS``)."""
    prefix = context.settings.redis.key_prefix
    counts: dict[str, int] = {}
    for pattern in keys.user_namespace_patterns(prefix):
        for key in context.backends.redis.scan(pattern):
            if (user_id := keys.key_user(prefix, key)) is not None:
                counts[user_id] = counts.get(user_id, 0) + 1
    return counts


def _unknown_users(
    context: JobContext, graph_users: Mapping[str, int], known: set[str], plan: _Plan
) -> Finding:
    """Users with graph nodes and no ledger row. A fact, entity, goal or strategy reaches the graph a
    moment before its timeline row, so a user written within the grace window may be new: left alone,
    unless a turn, conversation or tool invocation node proves otherwise (those are written after their
    ledger rows, so their rows are gone: a ``forget_user`` cut short by a graph failure)."""
    grace = timedelta(minutes=context.settings.maintenance.doctor_grace_minutes)
    cutoff = epoch_ms(context.clock() - grace)
    unknown = sorted(set(graph_users) - known)
    recent = 0
    for user_id in unknown:
        rows = context.backends.graph.run("doctor_newest_node", {"user_id": user_id})
        newest = int(rows[0]["newest"] or 0) if rows else 0
        if newest < cutoff or (rows and int(rows[0]["ledger_first"] or 0)):
            plan.unknown_users.append(user_id)
        else:
            recent += 1
    note = f"{recent} of these users wrote within the grace window: left for a later run" if recent else None
    return make_finding(
        "graph_users_unknown", sum(graph_users[user] for user in unknown), unknown, skipped=note
    )


def _per_user(backends: Backends, users: list[str], plan: _Plan) -> dict[str, Finding]:
    """Each known user's graph nodes against their ledger rows, and the other way round."""
    samples: dict[str, list[str]] = {name: [] for name in _PER_USER}
    counts = dict.fromkeys(_PER_USER, 0)

    def note(name: str, user_id: str, ids: list[str], into: dict[str, list[str]]) -> None:
        if ids:
            into[user_id] = ids
            counts[name] += len(ids)
            samples[name].extend(f"{user_id}/{item}" for item in ids[:SAMPLES])

    graph, ledger = backends.graph, backends.ledger
    for user_id in users:
        key = {"user_id": user_id}
        conversation_rows = ledger.fetch_all("doctor_ledger_conversations", key)
        nodes = {str(row["id"]) for row in graph.run("doctor_conversations", key)}
        orphans = missing(nodes, (str(row["id"]) for row in conversation_rows))
        note("conversations_without_ledger_row", user_id, orphans, plan.conversations)
        turns = diff_turns(
            graph.run("doctor_turns", key),
            ledger.fetch_all("doctor_ledger_turns", key),
            orphans,
        )
        note("turns_without_ledger_row", user_id, turns.orphans, plan.turns)
        synced = {str(row["id"]) for row in conversation_rows if row["graph_synced"]}
        lost_conversations = missing(synced, nodes)
        note("ledger_rows_missing_from_graph", user_id, turns.lost, plan.lost_turns)
        note("ledger_rows_missing_from_graph", user_id, lost_conversations, plan.lost_conversations)
        invocations = {  # an orphan conversation's invocations go with it
            str(row["id"])
            for row in graph.run("doctor_tool_invocations", key)
            if str(row["conversation_id"]) not in orphans
        }
        logged = _ids(backends, "doctor_ledger_tool_invocations", key)
        note("tool_invocations_without_ledger_row", user_id, missing(invocations, logged), plan.invocations)
        rows_needed = _missing_timeline(backends, user_id)
        if rows_needed:
            plan.timeline[user_id] = rows_needed
            counts["memories_without_timeline_row"] += len(rows_needed)
            samples["memories_without_timeline_row"].extend(
                f"{user_id}/{row['memory_type']}/{row['memory_id']}" for row in rows_needed[:SAMPLES]
            )
    return {name: make_finding(name, counts[name], samples[name]) for name in _PER_USER}


_PER_USER = (
    "turns_without_ledger_row",
    "conversations_without_ledger_row",
    "tool_invocations_without_ledger_row",
    "memories_without_timeline_row",
    "ledger_rows_missing_from_graph",
)


def _missing_timeline(backends: Backends, user_id: str) -> list[dict[str, Any]]:
    """The timeline rows one user's memory nodes lack, as ``insert_timeline`` parameters."""
    key = {"user_id": user_id}
    nodes = backends.graph.run("doctor_timeline_nodes", key)
    if not nodes:
        return []
    indexed = {
        (str(row["memory_type"]), str(row["memory_id"]))
        for row in backends.ledger.fetch_all(
            "doctor_timeline_ids", {**key, "memory_types": sorted(TIMELINE_TYPES.values())}
        )
    }
    return [
        timeline_row(user_id, row, from_epoch_ms(row["created_at"] or 0))
        for row in nodes
        if (TIMELINE_TYPES[str(row["label"])], str(row["id"])) not in indexed
    ]


def _unsynced(backends: Backends, plan: _Plan) -> Finding:
    row = backends.ledger.fetch_one("doctor_unsynced", {"samples": SAMPLES}) or {}
    count = sum(int(row.get(kind, 0)) for kind in ("conversations", "turns", "invocations"))
    plan.unsynced = count > 0
    samples = [
        *row.get("conversation_samples", []),
        *row.get("turn_samples", []),
        *row.get("invocation_samples", []),
    ]
    return make_finding("unsynced_ledger_rows", count, samples)


def _cross_user(backends: Backends, plan: _Plan) -> Finding:
    rows = backends.graph.run("census_cross_user_relationships", {})
    plan.cross_users = sorted({str(row["user_id"]) for row in rows})
    return make_finding(
        "cross_user_relationships",
        sum(int(row["count"]) for row in rows),
        (f"{row['user_id']}:{row['type']}" for row in rows),
    )


def _redis_keys(backends: Backends, user_keys: Mapping[str, int], known: set[str], plan: _Plan) -> Finding:
    """Keys of users the ledger does not know that are provably forgotten: ``forget_user`` completed
    for them (its audit row), or their graph remnants are being removed. A user the ledger does not
    know yet may be in a first session (working memory before any stored turn): left alone."""
    unknown = sorted(set(user_keys) - known)
    forgotten = _ids(backends, "doctor_forgotten_users", {"user_ids": unknown}) if unknown else set()
    gone = sorted(user for user in unknown if user in forgotten or user in plan.unknown_users)
    plan.redis_users = gone
    return make_finding("redis_keys_of_forgotten_users", sum(user_keys[user] for user in gone), gone)


def _vector_bloat(context: JobContext, plan: _Plan) -> Finding:
    """THE hook for the vector indexes: the graph port's ``vector_index_sizes()`` (FalkorDB counts its
    stale HNSW entries; Neo4j keeps its indexes compact and reports none), judged by the same rule as
    the ``vector_compaction`` job, which is the repair. Skipped, with the reason, on a graph store
    without the method."""
    sizes_of = getattr(context.backends.graph, "vector_index_sizes", None)
    if sizes_of is None:
        return make_finding("vector_index_bloat", 0, skipped="this graph store does not report index sizes")
    sizes = sizes_of()
    labels, _ = to_rebuild(context, sizes)
    heavy = {label: sizes[label].stale for label in labels}
    plan.bloated = bool(heavy)
    return make_finding(
        "vector_index_bloat",
        sum(heavy.values()),
        (f"{label}: {stale} stale entries" for label, stale in heavy.items()),
    )


# -- repairs --------------------------------------------------------------------------------------


def _repair(
    context: JobContext, plan: _Plan, jobs: Mapping[str, Job]
) -> tuple[dict[str, int], dict[str, str]]:
    """Apply ``plan``: deletions first, then what the ledger restores (timeline rows, replays by
    reconcile), Redis, and the vector indexes last (deleting vector nodes leaves stale entries)."""
    graph, repaired = context.backends.graph, dict.fromkeys(_ORDER, 0)
    for user_id in plan.unknown_users:
        rows = graph.run("delete_user_graph", {"user_id": user_id})
        repaired["graph_users_unknown"] += _deleted(rows)
    for user_id, ids in plan.conversations.items():
        for conversation_id in ids:
            graph.run("forget_conversation_graph", {"user_id": user_id, "conversation_id": conversation_id})
            repaired["conversations_without_ledger_row"] += 1
    for user_id, ids in plan.turns.items():
        rows = graph.run("doctor_delete_turns", {"user_id": user_id, "ids": ids})
        repaired["turns_without_ledger_row"] += _deleted(rows)
    for user_id, ids in plan.invocations.items():
        rows = graph.run("doctor_delete_tool_invocations", {"user_id": user_id, "ids": ids})
        repaired["tool_invocations_without_ledger_row"] += _deleted(rows)
    for user_id in plan.cross_users:
        rows = graph.run("doctor_delete_cross_user_relationships", {"user_id": user_id})
        repaired["cross_user_relationships"] += _deleted(rows)
    for rows_needed in plan.timeline.values():
        for params in rows_needed:
            repaired["memories_without_timeline_row"] += context.backends.ledger.execute(
                "insert_timeline", params
            )
    repaired["ledger_rows_missing_from_graph"] = _mark_lost(context.backends, plan)
    notes: dict[str, str] = {}
    if plan.unsynced or repaired["ledger_rows_missing_from_graph"]:
        report = run_job(context.root, jobs["reconcile"], clock=context.clock)
        repaired["unsynced_ledger_rows"] = sum(
            report.counts.get(kind, 0) for kind in ("turns", "conversations", "invocations")
        )
        if report.status != "done":
            notes["unsynced_ledger_rows"] = (
                f"reconcile {report.status}: {report.error or 'another run holds it'}"
            )
    prefix = context.settings.redis.key_prefix
    for user_id in plan.redis_users:
        for pattern in keys.user_patterns(prefix, user_id):
            repaired["redis_keys_of_forgotten_users"] += context.backends.redis.delete_matching(pattern)
    _vector_bloat(context, plan)  # again: the deletions above leave stale entries of their own
    if plan.bloated:
        report = run_job(context.root, jobs["vector_compaction"], clock=context.clock)
        repaired["vector_index_bloat"] = (
            report.counts.get("stale_entries", 0) if report.counts.get("rebuilt") else 0
        )
        if report.status != "done":
            notes["vector_index_bloat"] = (
                f"vector_compaction {report.status}: {report.error or 'another run holds it'}"
            )
    return repaired, notes


def _mark_lost(backends: Backends, plan: _Plan) -> int:
    marked = 0
    for user_id in sorted({*plan.lost_turns, *plan.lost_conversations}):
        params = {
            "user_id": user_id,
            "turn_ids": plan.lost_turns.get(user_id, []),
            "conversation_ids": plan.lost_conversations.get(user_id, []),
        }
        row = backends.ledger.fetch_one("doctor_mark_unsynced", params) or {}
        marked += len(params["turn_ids"]) + len(params["conversation_ids"]) if row else 0
    return marked


def _deleted(rows: list[dict[str, Any]]) -> int:
    return int(rows[0]["deleted"]) if rows else 0
