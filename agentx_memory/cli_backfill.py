"""``agentx-memory backfill``: give the turns stored before migrations 011/012 the event dates and
question context that ingest now derives (``maintenance/backfill_async.py``), with a progress bar and
a final throughput line. Safe while applications run and safe to interrupt: a rerun continues."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import Progress

from .cli_reindex import ProgressBars, progress_columns
from .cli_support import errors, state_of

__all__ = ["backfill"]

#: The root facade's user: a handle only (the backfill reaches every user's turns, or ``--user``'s).
_ROOT_USER = "maintenance"


def backfill(
    ctx: typer.Context,
    user: Annotated[
        str | None, typer.Option("--user", help="Only this user's turns (default: every user's).")
    ] = None,
    batch: Annotated[
        int, typer.Option("--batch", min=1, max=4096, help="Turns per embedding call and commit.")
    ] = 256,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Stop after this many turns (default: all).")
    ] = None,
) -> None:
    """Derive the event date and the question context of every turn stored before they existed, and
    re-embed the turns whose embedded text gains an event date. Only turns not yet done are read, so
    it runs beside applications and workers, and a rerun after an interruption continues."""
    state = state_of(ctx)
    from agentx_memory import AgentMemory
    from agentx_memory.maintenance.backfill import backfill as run_backfill

    with (
        errors(state.err),
        AgentMemory(_ROOT_USER, settings=state.settings) as root,
        Progress(*progress_columns(), console=state.err) as bar,
    ):
        report = run_backfill(root, user_id=user, batch=batch, limit=limit, progress=ProgressBars(bar))
    if report.turns == 0:
        state.out.print("Nothing to do: every turn has its event date and question context.")
        return
    left = f"; {report.remaining:,} turns still wait (run it again)" if report.remaining else ""
    state.out.print(
        f"Backfilled {report.turns:,} turns ({report.embedded:,} re-embedded) in {report.seconds:.1f} s "
        f"({report.rate:,.0f} turns/s){left}.",
        soft_wrap=True,
    )
