"""``agentx-memory jobs list | run NAME | status`` and ``agentx-memory metrics``: the maintenance jobs
from the command line (the same functions the Celery beat schedule runs) and the Prometheus metrics."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich.table import Table

from agentx_memory.errors import InvalidInputError

from .cli_support import CliState, errors, human_duration, state_of

__all__ = ["EXIT_FAILED", "EXIT_LOCKED", "jobs_app", "metrics", "worker"]

#: ``jobs run``'s exit codes besides 0: the job failed (its error is printed), or another run held it.
EXIT_FAILED = 1
EXIT_LOCKED = 3

#: The root facade's user: a handle only (jobs reach every user through ``for_user``).
_ROOT_USER = "maintenance"

jobs_app = typer.Typer(help="The maintenance jobs: list them, run one now, see their last runs.")


def _job_names() -> list[str]:
    from agentx_memory.maintenance.jobs import JOBS

    return sorted(JOBS)


@jobs_app.command("list")
def list_jobs(ctx: typer.Context) -> None:
    """Every job, how often beat runs it, and its last run."""
    state = state_of(ctx)
    from agentx_memory import AgentMemory
    from agentx_memory.maintenance.jobs import JOBS
    from agentx_memory.maintenance.runner import last_runs

    with errors(state.err), AgentMemory(_ROOT_USER, settings=state.settings) as root:
        runs = last_runs(root)
    table = Table("job", "every", "what it does", "last run")
    for name in sorted(JOBS):
        job, last = JOBS[name], runs.get(name)
        when = "never" if last is None else f"{last.started_at:%Y-%m-%d %H:%M} {last.status}"
        table.add_row(name, _minutes(job.interval_minutes(state.settings)), job.description, when)
    state.out.print(table)


@jobs_app.command("run")
def run(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The job's name (see `agentx-memory jobs list`).")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Report what it would change; change nothing.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Run one job now (under its lock, recorded like a scheduled run). Exit 1 if it failed, 3 if
    another run held it."""
    state = state_of(ctx)
    from agentx_memory import AgentMemory
    from agentx_memory.maintenance.jobs import JOBS
    from agentx_memory.maintenance.runner import run_job

    with errors(state.err):
        if name not in JOBS:
            raise InvalidInputError(f"unknown job {name!r}: the jobs are {', '.join(sorted(JOBS))}")
        running = state.out.status(f"Running {name}{' (dry run)' if dry_run else ''}…")
        with AgentMemory(_ROOT_USER, settings=state.settings) as root, running:
            report = run_job(root, JOBS[name], dry_run=dry_run)
    if as_json:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
    else:
        _print_report(state, report.model_dump(mode="json"))
    if report.status == "failed":
        raise typer.Exit(EXIT_FAILED)
    if report.status == "locked":
        raise typer.Exit(EXIT_LOCKED)


@jobs_app.command("status")
def status(
    ctx: typer.Context, as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False
) -> None:
    """Each job's last run: when, outcome, duration, counts, error; consolidation lag."""
    state = state_of(ctx)
    from agentx_memory import AgentMemory
    from agentx_memory.maintenance.runner import last_runs

    with errors(state.err), AgentMemory(_ROOT_USER, settings=state.settings) as root:
        runs = last_runs(root)
    if as_json:
        sys.stdout.write(json.dumps({k: v.model_dump(mode="json") for k, v in runs.items()}, indent=2) + "\n")
        return
    table = Table("job", "last run", "status", "ms", "counts", "error / lag")
    for name in _job_names():
        last = runs.get(name)
        if last is None:
            table.add_row(name, "never", "", "", "", "")
            continue
        lag = last.details.get("lag_s")
        note = last.error or (
            f"lag median {human_duration(lag['median'])}, max {human_duration(lag['max'])}" if lag else ""
        )
        counts = ", ".join(f"{key} {value}" for key, value in sorted(last.counts.items()))
        flag = " (dry run)" if last.dry_run else ""
        table.add_row(
            name,
            f"{last.started_at:%Y-%m-%d %H:%M:%S}",
            last.status + flag,
            f"{last.duration_ms:.0f}",
            counts,
            note,
        )
    state.out.print(table)


def metrics(ctx: typer.Context) -> None:
    """Print the Prometheus metrics: memory size now, and what this process's jobs did."""
    state = state_of(ctx)
    from agentx_memory import AgentMemory
    from agentx_memory.maintenance.sizes import memory_size
    from agentx_memory.metrics import exposition, observe_size

    with errors(state.err), AgentMemory(_ROOT_USER, settings=state.settings) as root:
        observe_size(memory_size(root._open_backends()))
    sys.stdout.write(exposition().decode())


def worker(
    ctx: typer.Context,
    concurrency: Annotated[int, typer.Option(help="Jobs run at once (threads of this process).")] = 1,
    beat: Annotated[bool, typer.Option(help="Also run the beat scheduler (RedBeat) here.")] = True,
    loglevel: Annotated[str, typer.Option(help="Celery's log level.")] = "INFO",
) -> None:
    """Run a Celery worker (and beat) for the maintenance jobs against the Redis in use — the embedded
    one by default. For development; production runs `celery -A workers worker` and `celery -A workers
    beat` as separate services (see deploy/)."""
    state = state_of(ctx)
    with errors(state.err):
        from workers import make_app

        app = make_app(state.settings)  # serves the metrics on maintenance.metrics_port once started
        host, port = state.settings.maintenance.metrics_host, state.settings.maintenance.metrics_port
        if port:
            state.err.print(f"metrics on http://{host}:{port}/metrics", highlight=False)
        app.Worker(beat=beat, concurrency=concurrency, loglevel=loglevel).start()


def _print_report(state: CliState, report: dict[str, object]) -> None:
    state.out.print(
        f"{report['job']}: {report['status']}{' (dry run)' if report['dry_run'] else ''} "
        f"in {report['duration_ms']} ms",
        highlight=False,
    )
    for key, value in sorted(dict(report["counts"]).items()):  # type: ignore[call-overload]
        state.out.print(f"  {key}: {value}", highlight=False)
    for line in list(report["planned"]):  # type: ignore[call-overload]
        state.out.print(f"  would {line}", highlight=False)
    if report["error"]:
        state.err.print(f"  error: {report['error']}", style="red", soft_wrap=True)


def _minutes(value: float) -> str:
    if value >= 1440 and value % 1440 == 0:
        return f"{value / 1440:g} d"
    if value >= 60 and value % 60 == 0:
        return f"{value / 60:g} h"
    return f"{value:g} min"
