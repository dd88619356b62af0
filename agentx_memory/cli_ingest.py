"""``agentx-memory ingest FILE``: a history of turns (JSONL, or the LoCoMo format) stored with
``store_turns``, with a progress bar and a final throughput line.

The whole file is read and checked first (an error names the line and what to change, and nothing is
stored); then each conversation is created with an id derived from the file's name for it and its
turns are stored at fixed indexes, so running the same import again stores nothing twice.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from agentx_memory.errors import GraphSyncError, InvalidInputError
from agentx_memory.ingest_formats import (
    FORMATS,
    IngestConversation,
    conversation_uuid,
    read_jsonl,
    read_locomo,
)
from agentx_memory.settings import Settings

from .cli_support import CliState, errors, state_of

__all__ = ["EXIT_UNSYNCED", "ingest"]

#: Exit code when every turn is stored but some are not in the graph yet (reconcile completes them).
EXIT_UNSYNCED = 1


def ingest(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(help="The turns: JSONL (one turn a line) or a LoCoMo JSON file.")],
    user: Annotated[str, typer.Option("--user", help="The user the turns belong to.")] = "default",
    channel: Annotated[str, typer.Option("--channel", help="The channel they are stored in.")] = "_global",
    fmt: Annotated[
        str | None,
        typer.Option("--format", help="jsonl or locomo (default: locomo for .json, jsonl otherwise)."),
    ] = None,
    batch: Annotated[int, typer.Option("--batch", min=1, max=5000, help="Turns per store_turns call.")] = 256,
) -> None:
    """Store a history of turns: JSONL lines {conversation_id, title, role, content, timestamp,
    metadata, speaker, turn_index} (role and content required), or LoCoMo samples (one conversation per
    session). Running the same file again stores nothing twice."""
    state = state_of(ctx)
    chosen = fmt or ("locomo" if file.suffix.lower() == ".json" else "jsonl")
    with errors(state.err):
        if chosen not in FORMATS:
            raise InvalidInputError(f"--format {chosen!r} is unknown: use {' or '.join(FORMATS)}")
        conversations = _read(file, chosen, state.settings)
        _store(state, conversations, user, channel, batch)


def _read(file: Path, fmt: str, settings: Settings) -> list[IngestConversation]:
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"{file}: cannot be read ({exc})") from None
    try:
        if fmt == "locomo":
            return read_locomo(text, settings.limits)
        return read_jsonl(text.splitlines(), settings.limits, default_key=file.stem)
    except InvalidInputError as exc:
        raise InvalidInputError(f"{file}: {exc}. Nothing was stored: fix it and run again.") from None


def _store(
    state: CliState, conversations: list[IngestConversation], user: str, channel: str, batch: int
) -> None:
    from agentx_memory import AgentMemory

    # Learning runs afterwards (the consolidate job), not against the import for the same two cores.
    settings = state.settings.model_copy(
        update={"learning": state.settings.learning.model_copy(update={"auto_consolidate": False})}
    )
    total = sum(len(conversation.turns) for conversation in conversations)
    unsynced = stored = 0
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:>6.0f} turns/s"),
        TimeRemainingColumn(),
    )
    began = time.perf_counter()
    memory = AgentMemory(user, channel, settings=settings)
    with memory, Progress(*columns, console=state.err) as bar:
        task = bar.add_task("ingest", total=total, rate=0.0)
        for conversation in conversations:
            cid = conversation_uuid(memory.scope.user_id, memory.scope.channel, conversation.key)
            memory.new_conversation(conversation.title, conversation_id=cid)
            # store_turns answers a stored turn's id for a turn already there: only new ids are new turns
            known = {turn.id for turn in memory.get_conversation(cid)}
            for start in range(0, len(conversation.turns), batch):
                chunk = conversation.turns[start : start + batch]
                try:
                    ids = memory.store_turns(cid, chunk)
                except GraphSyncError as exc:
                    unsynced += len(chunk)
                    ids = [turn.id for turn in exc.turn] if isinstance(exc.turn, list) else []
                stored += sum(1 for turn_id in ids if turn_id not in known)
                done = bar.tasks[0].completed + len(chunk)
                bar.update(task, completed=done, rate=done / (time.perf_counter() - began))
    elapsed = time.perf_counter() - began
    rate = f"in {elapsed:.1f} s ({total / elapsed:,.0f} turns/s)"
    where = f"{len(conversations):,} conversations for user {user!r}"
    if not stored:
        state.out.print(f"Nothing new: all {total:,} turns in {where} were already stored (read {rate}).")
        return
    already = f"; {total - stored:,} were already stored" if stored < total else ""
    state.out.print(f"Stored {stored:,} new turn{'s' if stored != 1 else ''} in {where} {rate}{already}.")
    state.out.print(
        "Facts are learned from them by the consolidate job: `agentx-memory jobs run consolidate` "
        "(or `agentx-memory worker`)."
    )
    if unsynced:
        state.err.print(
            Text(
                f"{unsynced:,} turns are in the ledger but not yet in the graph: run "
                "`agentx-memory jobs run reconcile` once the graph server is up.",
                style="yellow",
            )
        )
        raise typer.Exit(EXIT_UNSYNCED)
