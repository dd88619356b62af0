"""``agentx-memory reindex``: re-embed every stored memory with the configured embedder after a change of
embedding model or dimension (the store refuses to open until then), with a progress bar per store and
label and a final throughput line. Asks first unless --yes; a rerun finishes an interrupted one."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

from agentx_memory.maintenance.reindex_rules import ReindexReport

from .cli_support import CliState, errors, state_of

__all__ = ["ProgressBars", "progress_columns", "reindex"]


class ProgressBars:
    """The reindex's progress as rich bars, one per store table or graph label."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self._tasks: dict[str, TaskID] = {}

    def start(self, task: str, total: int) -> None:
        self._tasks[task] = self._progress.add_task(task, total=total)

    def advance(self, task: str, done: int) -> None:
        self._progress.advance(self._tasks[task], done)


def progress_columns() -> tuple[TextColumn, BarColumn, MofNCompleteColumn, TimeRemainingColumn]:
    """A task's name, its bar, done/total and the time left."""
    return (TextColumn("{task.description:<24}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())


def reindex(
    ctx: typer.Context,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
    batch: Annotated[
        int, typer.Option("--batch", min=1, max=4096, help="Texts per embedding call and write.")
    ] = 256,
) -> None:
    """Re-embed every stored vector (ledger turns and documents, graph facts, entities, strategies and
    goals, for every user) with the configured embedder, then lock the store to it. Stop applications
    and workers first. Safe to interrupt: run it again to finish."""
    state = state_of(ctx)
    from agentx_memory.maintenance.reindex import plan_reindex
    from agentx_memory.maintenance.reindex import reindex as run_reindex

    with errors(state.err):
        plan = plan_reindex(state.settings)
        if plan.source is None or plan.nothing_to_do:
            state.out.print(
                f"Nothing to do: the store already holds vectors of {plan.target.describe()}."
                if plan.source is not None
                else "Nothing to do: the store holds no vectors yet (its first use locks the embedder)."
            )
            return
        _confirm(state, plan, yes)
        with Progress(*progress_columns(), console=state.err) as bar:
            report = run_reindex(state.settings, batch=batch, progress=ProgressBars(bar))
    state.out.print(
        f"Re-embedded {sum(report.rows.values()):,} ledger rows and {sum(report.nodes.values()):,} graph "
        f"nodes in {report.seconds:.1f} s ({report.rate:,.0f} vectors/s); the store now holds "
        f"{report.target.describe()}.",
        soft_wrap=True,
    )


def _confirm(state: CliState, plan: ReindexReport, yes: bool) -> None:
    settings = state.settings
    where = f"graph {settings.graph.name!r} and Postgres schema {settings.postgres.schema_name!r}"
    what = (
        f"Finish the reindex of {where} to {plan.target.describe()}?"
        if plan.resumed
        else f"Re-embed every memory in {where} from {plan.source.describe() if plan.source else '?'} to "
        f"{plan.target.describe()}? The store cannot be used until it is done; stop applications and "
        "workers first."
    )
    if not yes and not typer.confirm(what, default=False):
        state.err.print("Nothing changed.")
        raise typer.Exit(1)
