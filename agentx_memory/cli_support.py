"""What every ``agentx-memory`` command shares: the settings and consoles the root callback builds,
and how a library error is shown (red, no traceback, exit code 2)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

import typer
from rich.console import Console
from rich.text import Text

from agentx_memory.errors import AgentMemoryError
from agentx_memory.redact import redact_text
from agentx_memory.settings import Settings

__all__ = ["CliState", "errors", "human_duration", "print_error", "state_of"]


@dataclass(frozen=True)
class CliState:
    settings: Settings
    out: Console
    err: Console


@contextlib.contextmanager
def errors(err: Console) -> Iterator[None]:
    """Turn a library error into a red message and exit code 2."""
    try:
        yield
    except AgentMemoryError as exc:
        print_error(err, exc)
        raise typer.Exit(2) from None


def print_error(err: Console, exc: AgentMemoryError) -> None:
    err.print(Text(f"Error: {redact_text(str(exc))}", style="red"), soft_wrap=True)


def state_of(ctx: typer.Context) -> CliState:
    state = ctx.obj
    assert isinstance(state, CliState)
    return state


def human_duration(seconds: float | None) -> str:
    """A duration as a person reads it, to two units at most: ``0.4s``, ``12s``, ``5m 02s``,
    ``3h 05m``, ``3d 19h`` (``-`` for None); a lag of 329220.775 s is ``3d 19h``."""
    if seconds is None:
        return "-"
    if seconds < 10:
        return f"{seconds:.1f}s"
    whole = round(seconds)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"
