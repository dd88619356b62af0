"""``agentx-memory doctor [--repair]``: the invariants across the graph, the ledger and Redis, checked
(and repaired) by the ``doctor`` maintenance job; and ``agentx-memory reset``: every store emptied."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from agentx_memory.errors import AgentMemoryError

from .cli_support import CliState, errors, print_error, state_of

if TYPE_CHECKING:
    from agentx_memory.maintenance.doctor_rules import DoctorReport

__all__ = ["EXIT_VIOLATIONS", "doctor", "reset"]

#: ``doctor``'s exit code when violations remain (2: an error, 3: another run held the job's lock).
EXIT_VIOLATIONS = 1
_EXIT_ERROR = 2
_EXIT_LOCKED = 3
_ROOT_USER = "maintenance"


def doctor(
    ctx: typer.Context,
    repair: Annotated[
        bool, typer.Option("--repair", help="Repair what can be repaired, then check again.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Check the invariants across the stores: every graph node has its ledger or timeline row, no
    orphan nodes or cross-user relationships, no unsynced turns, no Redis keys of forgotten users.
    Stale vector index entries (every delete leaves some) are reported as pending work of the
    vector_compaction job, not as violations. Exit 0 when none is violated (after --repair: none
    remains), 1 when some are, 2 on an error, 3 when another doctor run holds the lock."""
    state = state_of(ctx)
    from agentx_memory import AgentMemory
    from agentx_memory.maintenance.doctor_rules import DoctorReport
    from agentx_memory.maintenance.jobs import JOBS
    from agentx_memory.maintenance.runner import run_job

    with errors(state.err):
        running = state.out.status("Repairing…" if repair else "Checking…")
        with AgentMemory(_ROOT_USER, settings=state.settings) as root, running:
            run = run_job(root, JOBS["doctor"], dry_run=not repair)
    if run.status == "locked":
        state.err.print("Another doctor run holds the lock: wait for it, then run doctor again.")
        raise typer.Exit(_EXIT_LOCKED)
    report = DoctorReport.from_job(run)
    if run.status == "failed" or report is None:
        state.err.print(
            Text(f"Error: doctor failed: {run.error}. Check that the stores run (`agentx-memory status`).")
        )
        raise typer.Exit(_EXIT_ERROR)
    if as_json:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
    else:
        _print(state, report)
    if not report.ok:
        raise typer.Exit(EXIT_VIOLATIONS)


def _print(state: CliState, report: DoctorReport) -> None:
    table = Table("invariant", "found", "repaired", "left", "samples / note")
    for finding in report.findings:
        style = ("yellow" if finding.pending else "red") if finding.open else "green"
        table.add_row(
            Text(finding.name, style=style),
            str(finding.violations),
            str(finding.repaired) if report.repair else "-",
            str(finding.open),
            finding.skipped or ", ".join(finding.samples),
        )
    state.out.print(table)
    if report.awaiting_backfill:
        state.out.print(
            f"{report.awaiting_backfill:,} turns stored before event dates and question context were derived "
            "at ingest still lack them (recall on them is weaker): run `agentx-memory backfill`.",
            style="yellow",
            soft_wrap=True,
        )
    for finding in report.findings:
        if finding.pending and finding.open:
            state.out.print(
                f"Pending, not a violation: {finding.name} ({finding.open:,}): {finding.repair}; "
                "`agentx-memory doctor --repair` does it now.",
                style="yellow",
                soft_wrap=True,
            )
    if report.ok:
        state.out.print("No invariant is violated.", style="green")
    elif report.repair:
        state.out.print(f"{report.remaining} violations remain: see each invariant's note.", style="red")
    else:
        state.out.print(
            f"{report.remaining} violations. `agentx-memory doctor --repair` repairs what the ledger "
            "proves; `agentx-memory doctor --json` says how.",
            style="red",
        )


def reset(
    ctx: typer.Context,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete every memory: the graph, the ledger's tables (this schema) and this key prefix in Redis.
    The servers keep running and the next use migrates afresh. Asks first unless --yes."""
    state = state_of(ctx)
    settings = state.settings
    target = (
        f"graph {settings.graph.name!r}, Postgres schema {settings.postgres.schema_name!r} and Redis keys "
        f"{settings.redis.key_prefix}:* (data dir {settings.data_dir})"
    )
    if not yes and not typer.confirm(f"Delete every memory in {target}?", default=False):
        state.err.print("Nothing deleted.")
        raise typer.Exit(1)
    from agentx_memory.stores.factory import reset_stores

    try:
        done = reset_stores(settings)
    except AgentMemoryError as exc:
        print_error(state.err, exc)
        raise typer.Exit(_EXIT_ERROR) from None
    for line in done:
        state.out.print(line, soft_wrap=True, highlight=False)
