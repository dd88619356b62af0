"""The ``agentx-memory`` command line: manage the embedded servers and run the demo.

Settings are read once, in the root callback, and handed to every command. Library errors
(:class:`~agentx_memory.errors.AgentMemoryError`) are printed in red without a traceback, exit code 2.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table
from rich.text import Text

from agentx_memory import embedded
from agentx_memory.errors import AgentMemoryError, ConfigurationError
from agentx_memory.redact import redact_text
from agentx_memory.settings import Settings, owning_process

from .cli_support import CliState, errors, human_duration, print_error, state_of

__all__ = ["app", "main"]

app = typer.Typer(
    name="agentx-memory",
    help="Long-term memory for LLM agents: manage the embedded servers, run the demo, serve MCP and the "
    "memory inspector.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_NAMES = {"falkordb": "FalkorDB", "postgres": "PostgreSQL"}
_HOW_TO_START = "Start them with `agentx-memory up` (AgentMemory() also starts them on first use)."


@app.callback()
def _root(
    ctx: typer.Context,
    data_dir: Annotated[
        Path | None,
        typer.Option("--data-dir", help="Data directory of the embedded servers (default: AGENTX_DATA_DIR)."),
    ] = None,
) -> None:
    err = Console(stderr=True)
    with errors(err):
        try:
            # The CLI owns its interpreter: the GC tuning measured for latency applies here.
            settings = owning_process(Settings())
        except ValidationError as exc:
            raise ConfigurationError(f"Invalid AGENTX_* settings:\n{redact_text(str(exc))}") from exc
    if data_dir is not None:
        settings = settings.model_copy(update={"data_dir": data_dir})
    ctx.obj = CliState(settings=settings, out=Console(), err=err)


@app.command()
def up(
    ctx: typer.Context,
    salvage_graph_log: Annotated[
        bool,
        typer.Option(
            "--salvage-graph-log",
            help="First drop the records that crash FalkorDB on start from its append-only file "
            "(a copy of the files is kept); then run `agentx-memory doctor --repair`.",
        ),
    ] = False,
) -> None:
    """Start the embedded FalkorDB and PostgreSQL servers, or attach to them if they run."""
    state = state_of(ctx)
    started_at = time.monotonic()
    out = state.out
    with errors(state.err):
        if salvage_graph_log:
            salvaged = embedded.salvage_graph_log(state.settings)
            out.print(
                "No append-only file to salvage."
                if salvaged is None
                else f"Salvaged the graph log: dropped {salvaged.dropped} effect records, kept "
                f"{salvaged.kept} commands in {salvaged.files} files; the original files are in "
                f"{salvaged.original}. Next: `agentx-memory doctor --repair` writes the turns and "
                "conversations they held back from the ledger.",
                soft_wrap=True,
                highlight=False,
            )
        report = embedded.start_or_attach(state.settings)
    for action in report.actions:
        out.print(
            f"{_NAMES[action.server]:<11} {action.action:<8} pid {action.pid:<8} {action.seconds:6.2f} s",
            highlight=False,
        )
    endpoints = report.endpoints
    port = state.settings.embedded.falkordb_tcp_port
    lines = [
        ("data dir", str(endpoints.data_dir)),
        ("postgres", endpoints.postgres_url),
        ("falkordb", endpoints.falkordb_url + "  (also the Redis server)"),
        *([("tcp", f"redis://127.0.0.1:{port}  (FalkorDB Browser, redis-cli)")] if port else []),
    ]
    for label, value in lines:
        out.print(f"{label + ':':<10} {value}", soft_wrap=True, highlight=False)
    out.print(
        f"Ready in {time.monotonic() - started_at:.2f} s. Stop with `agentx-memory down`.", highlight=False
    )


@app.command()
def down(ctx: typer.Context) -> None:
    """Stop the embedded servers; the data stays in the data directory."""
    state = state_of(ctx)
    with errors(state.err):
        stopped = embedded.stop(state.settings)
    for line in stopped:
        state.out.print(line, soft_wrap=True, highlight=False)
    if not stopped:
        state.out.print(
            f"Nothing was running under {state.settings.data_dir}.", soft_wrap=True, highlight=False
        )


@app.command()
def status(ctx: typer.Context) -> None:
    """Show whether the embedded servers run; exit code 0 if both do, 1 otherwise."""
    state = state_of(ctx)
    with errors(state.err):
        report = embedded.status(state.settings)
    table = Table(title=f"Embedded servers in {report.data_dir}", title_justify="left")
    for column in ("server", "state", "pid", "uptime", "endpoint / note"):
        table.add_column(column, overflow="fold")
    for server in (report.falkordb, report.postgres):
        table.add_row(
            _NAMES[server.server],
            Text("running", style="green") if server.running else Text("stopped", style="red"),
            str(server.pid) if server.pid is not None else "-",
            human_duration(server.uptime_s),
            server.endpoint if server.running and server.endpoint else server.note,
        )
    state.out.print(table)
    if report.all_running:
        state.out.print("Both embedded servers are running.")
        return
    stopped = [_NAMES[s.server] for s in (report.falkordb, report.postgres) if not s.running]
    state.out.print(f"Not running: {', '.join(stopped)}. {_HOW_TO_START}", soft_wrap=True)
    raise typer.Exit(1)


@app.command()
def migrate(ctx: typer.Context) -> None:
    """Bring the Postgres and graph schemas to this version of agentx-memory (idempotent)."""
    state = state_of(ctx)
    with errors(state.err):
        from agentx_memory.stores.factory import migrate_stores

        with state.out.status("Migrating the stores…"):
            done = migrate_stores(state.settings)
    for line in done:
        state.out.print(line, soft_wrap=True, highlight=False)


@app.command()
def demo(ctx: typer.Context) -> None:
    """Store a short conversation and recall from it, end to end, on the embedded servers."""
    state = state_of(ctx)
    with errors(state.err):
        try:
            # Imported here so the rest of the CLI works (and starts fast) without the demo's imports.
            from agentx_memory.demo import run_demo  # type: ignore[import-not-found, unused-ignore]
        except ModuleNotFoundError as exc:
            if exc.name != "agentx_memory.demo":
                raise
            raise ConfigurationError("The demo is not part of this installation of agentx-memory.") from exc
        code = run_demo(state.settings, state.out)
    raise typer.Exit(int(code))


def _register() -> None:
    # Commands of their own modules (they import this module's helpers from cli_support).
    from .cli_backfill import backfill
    from .cli_doctor import doctor, reset
    from .cli_ingest import ingest
    from .cli_jobs import jobs_app, metrics, worker
    from .cli_mcp import mcp
    from .cli_mcp_token import mcp_token_app
    from .cli_portability import export, import_dump
    from .cli_query import context, entity, facts, recall, stats, timeline, users
    from .cli_reindex import reindex
    from .cli_rekey import rotate_key
    from .cli_ui import ui

    app.add_typer(jobs_app, name="jobs")
    app.command()(metrics)
    app.command()(worker)
    app.command()(mcp)
    app.command()(ui)
    app.add_typer(mcp_token_app, name="mcp-token")
    app.command()(doctor)
    app.command()(reset)
    app.command()(reindex)
    app.command()(backfill)
    app.command(name="rotate-key")(rotate_key)
    app.command()(ingest)
    app.command(name="export")(export)
    app.command(name="import")(import_dump)
    for query in (recall, context, facts, entity, timeline, stats, users):
        app.command()(query)


_register()


def main() -> None:
    """Console-script entry point ``agentx-memory``."""
    try:
        app()
    except AgentMemoryError as exc:  # a command without its own ``_errors`` guard
        print_error(Console(stderr=True), exc)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
