"""``agentx-memory export --user U > dump.jsonl`` and ``agentx-memory import dump.jsonl``: one user's
memory as JSON Lines (the format is documented in ``memory/portability_pure.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from agentx_memory.errors import InvalidInputError

from .cli_support import errors, state_of

__all__ = ["export", "import_dump"]


def export(
    ctx: typer.Context,
    user: Annotated[str, typer.Option("--user", help="The user whose memory is exported.")],
    no_embeddings: Annotated[
        bool, typer.Option("--no-embeddings", help="Leave the vectors out (import embeds them again).")
    ] = False,
) -> None:
    """Write every memory of a user (all channels, all stores) as JSON Lines to standard output."""
    state = state_of(ctx)
    from agentx_memory import AgentMemory

    with errors(state.err), AgentMemory(user, settings=state.settings) as memory:
        records = memory.export_user(embeddings=not no_embeddings)
    for record in records:
        sys.stdout.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    state.err.print(f"Exported {len(records) - 1} records of user {user!r}.")


def _read(path: Path) -> list[dict[str, Any]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise InvalidInputError(f"{path} is not UTF-8 text ({exc.reason}); nothing was imported") from exc
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{path}:{number} is not JSON ({exc.msg}); nothing was imported") from exc
    if not records or not isinstance(records[0], dict) or "user_id" not in records[0]:
        raise InvalidInputError(f"{path} does not start with an agentx-memory export header")
    return records


def import_dump(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A dump written by `agentx-memory export`.")],
    re_embed: Annotated[
        bool, typer.Option("--re-embed", help="Embed every text again with the configured model.")
    ] = False,
    user: Annotated[
        str | None,
        typer.Option(
            "--user",
            help="Import it as this user (default: the dump's). The memories take new ids derived from "
            "the old ones, so the original user may stay in the same store.",
        ),
    ] = None,
) -> None:
    """Restore a user's memory from a dump; what already exists is kept, so it can be run twice."""
    state = state_of(ctx)
    from agentx_memory import AgentMemory
    from agentx_memory.memory.portability_pure import move_dump
    from agentx_memory.validation import validate_user_id

    with errors(state.err):
        records = _read(path)
        if user is not None:
            records = move_dump(records, validate_user_id(user))
        user = str(records[0]["user_id"])
        with AgentMemory(user, settings=state.settings) as memory:
            counts = memory.import_user(records, re_embed=re_embed)
    written = ", ".join(f"{kind} {count}" for kind, count in counts.items())
    state.out.print(f"Imported user {user!r}: {written}.")
