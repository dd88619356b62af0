"""``agentx-memory demo``: store a scripted three-session chat, then recall from it, end to end.

The chat (``demo_data.json``, written for this project) has Sam plan a trip to Japan over three sessions
days apart. The demo stores every turn through :class:`~agentx_memory.AgentMemory` on the configured
(by default embedded) servers, asks questions whose answers sit in the *earlier* sessions and are phrased
differently from the stored text, shows what it learned from the chat (facts and the user's profile, by
the parse reader and the rules, no LLM) and the memory block an agent would prepend for a new request,
then working memory and the ledger's recent turns. Each run writes under a fresh user id
(``demo-<random>``), so runs never see each other's data.
"""

from __future__ import annotations

import calendar
import json
import statistics
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from . import embedded
from .embedding import Embedder, build_embedder
from .facade import AgentMemory
from .models import MemoryBundle, Role, Turn
from .settings import Settings

__all__ = ["DemoQuestion", "DemoScript", "DemoSession", "load_script", "run_demo"]

_TOP_K = 3


class DemoSession(BaseModel):
    """One conversation of the script; it started ``ago`` before the demo runs."""

    model_config = ConfigDict(frozen=True)

    title: str
    ago: dict[Literal["days", "hours", "minutes"], float]
    turns: list[tuple[Role, str]] = Field(min_length=1)


class DemoQuestion(BaseModel):
    """A question asked after ingest, and a word its answer must contain."""

    model_config = ConfigDict(frozen=True)

    question: str
    expect: str


class DemoScript(BaseModel):
    model_config = ConfigDict(frozen=True)

    user_name: str
    turn_spacing_seconds: float = Field(gt=0)
    sessions: list[DemoSession] = Field(min_length=1)
    questions: list[DemoQuestion] = Field(min_length=1)


def load_script(today: date | None = None) -> DemoScript:
    """The bundled demo chat and questions, its months named from ``today`` (default: today, UTC)."""
    text = resources.files("agentx_memory").joinpath("demo_data.json").read_text(encoding="utf-8")
    for placeholder, month in story_months(today or datetime.now(UTC).date()).items():
        text = text.replace(placeholder, month)
    return DemoScript.model_validate(json.loads(text))


def story_months(today: date) -> dict[str, str]:
    """The script's month placeholders: the trip is the month after next and the new job starts the
    month after it, so the plans lie ahead whenever the demo runs. (Fixed months had the demo, run in
    November, learn that a job "starting on November 3rd" starts next year.)"""
    return {
        "{trip_month}": calendar.month_name[(today.month + 1) % 12 + 1],
        "{next_month}": calendar.month_name[(today.month + 2) % 12 + 1],
    }


def run_demo(settings: Settings, console: Console) -> int:
    """Run the demo against ``settings``' stores, printing to ``console``; returns the exit code (0)."""
    started = time.perf_counter()
    script = load_script()
    user_id = f"demo-{uuid.uuid4().hex[:8]}"
    _announce_servers(settings, console)
    embedder = build_embedder(settings.embedding)
    # Learning runs as a step of its own, shown, rather than in the background when a session starts.
    learning = settings.learning.model_copy(update={"auto_consolidate": False})
    demo_settings = settings.model_copy(update={"learning": learning})
    # Not a ``with`` block: entering it would open (start the servers) before the status line shows.
    mem = AgentMemory(user_id=user_id, settings=demo_settings, embedder=embedder)
    try:
        opened = time.perf_counter()
        with console.status("starting or attaching, applying migrations and the graph schema…"):
            mem.open()
            _warm_up(embedder)
        console.print(
            f"Ready in {time.perf_counter() - opened:.2f} s (embedding model {embedder.model_id} loaded). "
            f"Writing as user [bold]{user_id}[/bold]: a fresh id each run, so runs never collide."
        )
        titles, store_ns = _ingest(mem, script, console)
        remember_ns = _ask(mem, script, titles, console)
        _learn(mem, console)
        _show_context(mem, console)
        _show_recent(mem, next(reversed(titles)), console)
        _show_timings(store_ns, remember_ns, time.perf_counter() - started, console)
        removed = mem.forget_user()
    finally:
        mem.close()
    console.print(
        f"Finally forget_user() removed the demo user everywhere: {removed['turns']} turns and "
        f"{removed['conversations']} conversations from Postgres, {removed['graph_nodes']} graph nodes, "
        f"{removed['redis_keys']} Redis keys (the audit log keeps that it happened, not what was said). "
        "`agentx-memory status` shows the servers; `agentx-memory down` stops them.",
        soft_wrap=True,
        highlight=False,
    )
    return 0


def _announce_servers(settings: Settings, console: Console) -> None:
    if not settings.uses_embedded:
        console.print("Using the configured servers (AGENTX_*_URL).", highlight=False)
        return
    where = settings.data_dir.expanduser()
    if embedded.status(settings).all_running:
        console.print(f"Attaching to the embedded servers under {where}…", soft_wrap=True, highlight=False)
    else:
        console.print(
            f"Starting embedded servers under {where}… (FalkorDB + PostgreSQL; a first run takes a few "
            "seconds, later runs attach to them)",
            soft_wrap=True,
            highlight=False,
        )


def _warm_up(embedder: Embedder) -> None:
    # Loads the model now, so the first timed store_turn measures storing, not loading.
    embedder.embed_one("warm-up")


def _ingest(mem: AgentMemory, script: DemoScript, console: Console) -> tuple[dict[str, str], list[int]]:
    """Store every session; returns conversation id → session title, and store_turn latencies (ns)."""
    now = datetime.now(UTC)
    spacing = timedelta(seconds=script.turn_spacing_seconds)
    total = sum(len(session.turns) for session in script.sessions)
    titles: dict[str, str] = {}
    latencies: list[int] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("storing turns", total=total)
        for session in script.sessions:
            start = now - timedelta(**session.ago)
            conversation_id = mem.new_conversation(title=session.title, metadata={"demo": True})
            titles[conversation_id] = session.title
            progress.update(task, description=f"storing “{session.title}”")
            for index, (role, content) in enumerate(session.turns):
                began = time.perf_counter_ns()
                mem.store_turn(conversation_id, role=role, content=content, timestamp=start + index * spacing)
                latencies.append(time.perf_counter_ns() - began)
                progress.advance(task)
        progress.update(task, description="stored")
    console.print(
        f"Stored {total} turns of {script.user_name}'s chat in {len(script.sessions)} sessions "
        f"({', '.join(_ago(session) for session in script.sessions)}).",
        highlight=False,
    )
    return titles, latencies


def _ask(mem: AgentMemory, script: DemoScript, titles: dict[str, str], console: Console) -> list[int]:
    """Ask each question; print its top results, the expected answer highlighted. Returns latencies (ns)."""
    console.print()
    console.rule(f"What does the agent remember? (remember(question, top_k={_TOP_K}))")
    latencies: list[int] = []
    found = 0
    for item in script.questions:
        began = time.perf_counter_ns()
        bundle = mem.remember(item.question, top_k=_TOP_K)
        latencies.append(time.perf_counter_ns() - began)
        rank = _answer_rank(bundle, item.expect)
        found += rank is not None
        console.print(_results_table(item, bundle, titles, rank))
    console.print(
        f"The answer was among the top {_TOP_K} for {found} of {len(script.questions)} questions "
        "(hybrid recall: BM25 and vector search over turns, neighbouring turns, facts, entities, "
        "strategies and goals).",
        highlight=False,
    )
    return latencies


def _answer_rank(bundle: MemoryBundle, expect: str) -> int | None:
    for rank, item in enumerate(bundle.items, start=1):
        if expect.lower() in item.content.lower():
            return rank
    return None


def _results_table(
    question: DemoQuestion, bundle: MemoryBundle, titles: dict[str, str], rank: int | None
) -> Table:
    verdict = f"[green]answer at rank {rank}[/green]" if rank else "[red]answer not in the top results[/red]"
    table = Table(
        title=f"[bold]“{escape(question.question)}”[/bold]  {verdict}", title_justify="left", expand=True
    )
    table.add_column("#", justify="right", width=1)
    table.add_column("score", justify="right", width=5)
    table.add_column("session", width=17)
    table.add_column("content", ratio=1, overflow="fold")
    for position, item in enumerate(bundle.items, start=1):
        session = escape(titles.get(item.conversation_id or "", "?"))
        when = _local(item.timestamp) if item.timestamp else "?"
        table.add_row(
            str(position),
            f"{item.score:.3f}",
            f"{when}\n[dim]{session}[/dim]",
            f"[dim]{item.role or '?'}:[/dim] {escape(item.content)}",
            style="green" if position == rank else None,
        )
    return table


_PRIORITY_ORDER = {"critical": 0, "high": 1, "medium": 2, "low": 3}


def _learn(mem: AgentMemory, console: Console) -> None:
    """Consolidate the stored sessions and show the facts and the profile learned from them."""
    console.print()
    console.rule("What did it learn? consolidate_pending(): the parse reader and rules, no LLM")
    started = time.perf_counter()
    with console.status("learning from the three sessions…"):
        reports = mem.consolidate_pending()
    seconds = time.perf_counter() - started
    facts = sorted(mem.list_facts(), key=lambda fact: _PRIORITY_ORDER.get(fact.priority, 9))
    table = Table(
        title=f"{len(facts)} facts learned from {len(reports)} conversations in {seconds:.2f} s",
        title_justify="left",
        expand=True,
    )
    table.add_column("priority", width=8)
    table.add_column("fact", ratio=1, overflow="fold")
    for fact in facts:
        table.add_row(fact.priority, escape(fact.claim))
    console.print(table)
    profile = mem.get_profile()
    if profile.preferences:
        about = "; ".join(f"{key.replace('_', ' ')} {value}" for key, value in profile.preferences.items())
        console.print(
            f"Profile (shown in every memory block): {escape(about)}. What the user said about themself is "
            "critical and never decays; a correction replaces it.",
            highlight=False,
        )


def _show_context(mem: AgentMemory, console: Console) -> None:
    """What an agent starting a new session would prepend to its system prompt."""
    prompt = "Can you suggest somewhere to eat tonight?"
    console.print()
    console.rule(f"get_context({prompt!r}, budget_tokens=250): the block an agent prepends to its prompt")
    block = mem.get_context(prompt, budget_tokens=250)
    console.print(escape(block) if block else "[dim](nothing relevant)[/dim]", highlight=False)


def _show_recent(mem: AgentMemory, last_conversation: str, console: Console) -> None:
    console.print()
    console.rule("Short-term state")
    working = mem.working(last_conversation).get_recent_turns(4)
    console.print(_turn_table("Working memory (Redis) of the last session: its last 4 turns", working))
    recent = mem.get_recent_turns(hours=24, limit=5)
    console.print(
        _turn_table(
            "get_recent_turns(hours=24, limit=5) from the ledger: newest first, older sessions are "
            "outside the window",
            recent,
        )
    )


def _turn_table(title: str, turns: list[Turn]) -> Table:
    table = Table(title=title, title_justify="left", expand=True)
    table.add_column("time", width=16)
    table.add_column("#", justify="right", width=2)
    table.add_column("content", ratio=1, overflow="fold")
    for turn in turns:
        table.add_row(
            _local(turn.timestamp), str(turn.index), f"[dim]{turn.role}:[/dim] {escape(turn.content)}"
        )
    return table


def _show_timings(store_ns: list[int], remember_ns: list[int], total_s: float, console: Console) -> None:
    table = Table(title="Timings", title_justify="left")
    table.add_column("operation")
    table.add_column("calls", justify="right")
    table.add_column("p50", justify="right")
    table.add_column("max", justify="right")
    for name, samples in (("store_turn", store_ns), ("remember", remember_ns)):
        table.add_row(name, str(len(samples)), _ms(statistics.median(samples)), _ms(max(samples)))
    console.print()
    console.print(table)
    console.print(
        f"Total {total_s:.2f} s, server start-up and model loading included. "
        "`python benchmarks/store_turn.py` measures latency properly (thousands of calls, p95/p99).",
        highlight=False,
    )


def _ms(nanoseconds: float) -> str:
    return f"{nanoseconds / 1e6:.1f} ms"


def _local(moment: datetime) -> str:
    return moment.astimezone().strftime("%a %d %b %H:%M")


def _ago(session: DemoSession) -> str:
    days = session.ago.get("days", 0)
    return f"{days:g} days ago" if days else "today"
