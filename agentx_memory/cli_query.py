"""The everyday questions from the command line: ``recall``, ``context``, ``facts``, ``entity``,
``timeline`` and ``stats`` for one ``--user`` (and ``--channel``), as rich tables or ``--json``; and
``users``, the operator's list of whose memory is stored.

Each per-user command opens the facade for that user only; nothing another user stored can appear.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import BaseModel
from rich.table import Table

from .cli_support import CliState, errors, state_of

if TYPE_CHECKING:
    from agentx_memory import AgentMemory

__all__ = ["context", "entity", "facts", "recall", "stats", "timeline", "users"]

User = Annotated[str, typer.Option("--user", "-u", help="Whose memory to read.")]
Channel = Annotated[str, typer.Option("--channel", "-c", help="Channel to read (with _global).")]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of a table.")]
Limit = Annotated[int, typer.Option("--limit", "-n", help="How many to show.")]
Since = Annotated[datetime | None, typer.Option("--since", help="From this time (ISO 8601, UTC).")]
Until = Annotated[datetime | None, typer.Option("--until", help="Before this time (ISO 8601, UTC).")]
FullIds = Annotated[
    bool, typer.Option("--full-ids", help="Whole ids (to pass to other commands), never shortened.")
]
Kinds = Annotated[
    list[str] | None, typer.Option("--kind", help="turn, fact, entity, goal or strategy; repeatable.")
]


@contextmanager
def _memory(ctx: typer.Context, user: str, channel: str) -> Iterator[tuple[CliState, AgentMemory]]:
    state = state_of(ctx)
    from agentx_memory import AgentMemory

    with errors(state.err), AgentMemory(user, channel, settings=state.settings) as memory:
        yield state, memory


def _dump(state: CliState, value: Any) -> None:
    def plain(item: Any) -> Any:
        return item.model_dump(mode="json") if isinstance(item, BaseModel) else item

    data = [plain(item) for item in value] if isinstance(value, list) else plain(value)
    state.out.print_json(json.dumps(data, ensure_ascii=False, default=str))


def _when(value: datetime | None) -> str:
    return "-" if value is None else value.strftime("%Y-%m-%d %H:%M")


#: Characters of an id a table shows without --full-ids: enough to tell a user's memories apart.
_SHORT_ID = 8


def _id_column(table: Table, full: bool) -> None:
    # Full ids must come out whole whatever the terminal's width: the other columns wrap instead.
    table.add_column("id", no_wrap=True, min_width=36 if full else _SHORT_ID, overflow="ignore")


def _shown_id(memory_id: str, full: bool) -> str:
    return memory_id if full else memory_id[:_SHORT_ID]


def _nothing(state: CliState, what: str, user: str) -> None:
    state.err.print(f"No {what} for user {user!r} (check --user and --channel).")


def recall(
    ctx: typer.Context,
    query: str,
    user: User = "default",
    channel: Channel = "_global",
    limit: Limit = 10,
    as_json: Json = False,
) -> None:
    """The memories most relevant to QUERY, best first."""
    with _memory(ctx, user, channel) as (state, memory):
        bundle = memory.remember(query, top_k=limit)
    if as_json:
        _dump(state, bundle.items)
        return
    if not bundle.items:
        _nothing(state, "memory matches", user)
        return
    table = Table("score", "kind", "when", "channel", "content", title=f"recall: {query}")
    for item in bundle.items:
        table.add_row(f"{item.score:.3f}", item.kind, _when(item.timestamp), item.channel, item.content)
    state.out.print(table)


def context(
    ctx: typer.Context,
    query: str,
    user: User = "default",
    channel: Channel = "_global",
    budget: Annotated[int, typer.Option("--budget", help="Token budget.")] = 1500,
    as_json: Json = False,
) -> None:
    """The markdown memory block an agent would prepend to its prompt for QUERY."""
    with _memory(ctx, user, channel) as (state, memory):
        block = memory.get_context(query, budget_tokens=budget)
    if as_json:
        _dump(state, {"query": query, "context": block})
    elif block:
        state.out.print(block, markup=False, highlight=False)
    else:
        _nothing(state, "memory relevant to this query", user)


def facts(
    ctx: typer.Context,
    user: User = "default",
    channel: Channel = "_global",
    limit: Limit = 50,
    history: Annotated[bool, typer.Option("--history", help="Superseded facts too.")] = False,
    full_ids: FullIds = False,
    as_json: Json = False,
) -> None:
    """The user's facts, newest first (current ones; with --history the corrected ones too). Ids are
    shortened to their first 8 characters unless --full-ids (--json always has them whole)."""
    with _memory(ctx, user, channel) as (state, memory):
        found = memory.list_facts(limit=limit, include_history=history)
    if as_json:
        _dump(state, found)
        return
    if not found:
        _nothing(state, "facts", user)
        return
    table = Table("claim", "confidence", "source", "channel", "current", title=f"facts of {user}")
    _id_column(table, full_ids)
    for fact in found:
        current = "yes" if fact.valid_until is None else f"until {_when(fact.valid_until)}"
        shown = _shown_id(fact.id, full_ids)
        table.add_row(fact.claim, f"{fact.confidence:.2f}", fact.source, fact.channel, current, shown)
    state.out.print(table)


def entity(
    ctx: typer.Context, name: str, user: User = "default", channel: Channel = "_global", as_json: Json = False
) -> None:
    """Everything known about the entity NAME (or id): profile, facts, neighbours, mentions."""
    with _memory(ctx, user, channel) as (state, memory):
        info = memory.get_entity_info(name)
    if as_json:
        _dump(state, info)
        return
    found = info.entity
    state.out.print(f"[bold]{found.name}[/bold] ({found.type}) {found.description or ''}")
    if found.aliases:
        state.out.print(f"aliases: {', '.join(found.aliases)}", markup=False)
    if found.properties:
        state.out.print(f"properties: {json.dumps(found.properties, ensure_ascii=False)}", markup=False)
    if info.facts:
        table = Table("fact", "confidence", title="facts")
        for fact in info.facts:
            table.add_row(fact.claim, f"{fact.confidence:.2f}")
        state.out.print(table)
    if info.neighbours:
        table = Table("relationship", "entity", "type", title="neighbours")
        for neighbour in info.neighbours:
            arrow = f"-[{neighbour.type}]->" if neighbour.outgoing else f"<-[{neighbour.type}]-"
            table.add_row(arrow, neighbour.entity.name, neighbour.entity.type)
        state.out.print(table)


def timeline(
    ctx: typer.Context,
    user: User = "default",
    channel: Channel = "_global",
    limit: Limit = 50,
    since: Since = None,
    until: Until = None,
    kind: Kinds = None,
    full_ids: FullIds = False,
    as_json: Json = False,
) -> None:
    """What was stored, newest first (ids shortened unless --full-ids)."""
    with _memory(ctx, user, channel) as (state, memory):
        entries = memory.timeline(since=since, until=until, kinds=kind or None, limit=limit)
    if as_json:
        _dump(state, entries)
        return
    if not entries:
        _nothing(state, "timeline entries", user)
        return
    table = Table("when", "kind", "channel", "summary", title=f"timeline of {user}")
    _id_column(table, full_ids)
    for entry in entries:
        shown = _shown_id(entry.memory_id, full_ids)
        table.add_row(_when(entry.event_time), entry.memory_type, entry.channel, entry.summary, shown)
    state.out.print(table)


def stats(
    ctx: typer.Context, user: User = "default", channel: Channel = "_global", as_json: Json = False
) -> None:
    """How much the user has stored, by kind and channel."""
    with _memory(ctx, user, channel) as (state, memory):
        found = memory.memory_stats()
    if as_json:
        _dump(state, found.model_dump(mode="json") | {"total": found.total})
        return
    table = Table("kind", "channel", "count", title=f"memory of {user}")
    for label, per_channel in sorted(found.counts.items()):
        for name, count in sorted(per_channel.items()):
            table.add_row(label, name, str(count))
    state.out.print(table)
    state.out.print(f"current facts: {found.current_facts}; latest write: {_when(found.latest_write)}")


def users(ctx: typer.Context, as_json: Json = False) -> None:
    """Every user with stored memory: conversations, turns, facts, entities, documents, latest write."""
    state = state_of(ctx)
    from agentx_memory import AgentMemory
    from agentx_memory.maintenance.users import user_summaries

    # The root facade is a handle on the stores only: the list is read across users, as jobs read it.
    with errors(state.err), AgentMemory("maintenance", settings=state.settings) as root:
        found = user_summaries(root._open_backends())
    if as_json:
        _dump(state, found)
        return
    if not found:
        state.err.print("No user has stored memory yet.")
        return
    table = Table("user", "conversations", "turns", "facts", "entities", "documents", "latest write")
    for summary in found:
        counts = summary.memories
        table.add_row(
            summary.user_id,
            str(summary.conversations),
            str(summary.turns),
            str(counts.get("fact", 0)),
            str(counts.get("entity", 0)),
            str(summary.documents),
            _when(summary.latest_write),
        )
    state.out.print(table)
