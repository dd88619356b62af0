"""The inspector's pages (GET): every one but the users list and the jobs is one user's, read through
that user's facade (``?channel=`` chooses the channel read with ``_global``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from ..facade_async import AsyncAgentMemory
from ..maintenance.doctor_rules import DoctorReport
from ..maintenance.jobs_async import JOBS
from ..maintenance.runner_async import last_runs
from ..retrieval.tokens import default_token_counter
from . import reads
from .views import entity_ids, fact_chains, graph_elements, human_duration, learned_from

__all__ = ["conversation", "conversations", "facts", "graph", "jobs", "profile", "recall", "review", "users"]

#: Facts the facts page lists (every version), entities the graph draws, at most.
MAX_FACTS = 1000
MAX_ENTITIES = 200
#: The recall debugger's defaults: as ``remember`` and ``get_context``.
RECALL_TOP_K = 10
CONTEXT_BUDGET = 1500


def root_of(request: Request) -> AsyncAgentMemory:
    root = request.app.state.root
    assert isinstance(root, AsyncAgentMemory)
    return root


async def memory_of(request: Request) -> AsyncAgentMemory:
    """The facade of the page's user (validated like any user id) in the chosen channel."""
    channel = request.query_params.get("channel") or "_global"
    return await root_of(request).for_user(request.path_params["user"], channel)


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
    """The template with what every page needs: the form token, the user and channel, a notice."""
    state = request.app.state
    memory = context.get("memory")
    channel = memory.scope.channel if isinstance(memory, AsyncAgentMemory) else "_global"
    base = {
        "form_token": state.form_token,
        "notice": request.query_params.get("notice"),
        "user": memory.scope.user_id if isinstance(memory, AsyncAgentMemory) else None,
        "channel": channel,
        # appended to a user's links, so that every page keeps reading the chosen channel
        "chq": "" if channel == "_global" else "?" + urlencode({"channel": channel}),
    }
    response: Response = state.templates.TemplateResponse(request, name, base | context, status_code)
    return response


async def users(request: Request) -> Response:
    return render(request, "users.html", users=await reads.users(root_of(request)))


async def profile(request: Request) -> Response:
    memory = await memory_of(request)
    return render(
        request,
        "profile.html",
        memory=memory,
        profile=await memory.get_profile(),
        stats=await memory.memory_stats(),
        channels=await reads.user_channels(memory),
    )


async def facts(request: Request) -> Response:
    memory = await memory_of(request)
    listed = await memory.list_facts(limit=MAX_FACTS, include_history=True)
    sources = await reads.source_turns(memory, sorted({t for fact in listed for t in fact.source_turn_ids}))
    chains = fact_chains(listed)
    return render(
        request,
        "facts.html",
        memory=memory,
        chains=chains,
        sources=sources,
        current=sum(chain.current for chain in chains),
        versions=len(listed),
    )


async def graph(request: Request) -> Response:
    memory = await memory_of(request)
    entries = await memory.timeline(kinds=["entity"], limit=memory.settings.limits.max_top_k)
    ids = entity_ids(entries)[:MAX_ENTITIES]
    elements = graph_elements(await memory.get_entity_graph(ids, depth=1)) if ids else []
    return render(request, "graph.html", memory=memory, elements=elements)


async def conversations(request: Request) -> Response:
    memory = await memory_of(request)
    return render(
        request, "conversations.html", memory=memory, conversations=await reads.conversations(memory)
    )


async def conversation(request: Request) -> Response:
    memory = await memory_of(request)
    turns = await memory.get_conversation(request.path_params["conversation_id"])
    taught = learned_from(await memory.list_facts(limit=MAX_FACTS, include_history=True))
    return render(
        request,
        "conversation.html",
        memory=memory,
        conversation_id=request.path_params["conversation_id"],
        turns=turns,
        taught=taught,
    )


async def recall(request: Request) -> Response:
    """The recall debugger: what ``remember`` returns for a query and why, and the exact block
    ``get_context`` builds from it, with its token count. (Both count an access, as for an agent.)"""
    memory = await memory_of(request)
    query = (request.query_params.get("q") or "").strip()
    top_k = _int(request.query_params.get("top_k"), RECALL_TOP_K)
    budget = _int(request.query_params.get("budget"), CONTEXT_BUDGET)
    found: dict[str, Any] = {}
    if query:
        bundle = await memory.remember(query, top_k=top_k)
        block = await memory.get_context(query, budget_tokens=budget)
        found = {"bundle": bundle, "block": block, "tokens": default_token_counter().count(block)}
    return render(request, "recall.html", memory=memory, query=query, top_k=top_k, budget=budget, **found)


async def review(request: Request) -> Response:
    memory = await memory_of(request)
    reviews = await memory.review_queue()
    turn_ids = {t for r in reviews for fact in (r.new, r.old) for t in fact.source_turn_ids}
    sources = await reads.source_turns(memory, sorted(turn_ids))
    return render(request, "review.html", memory=memory, reviews=reviews, sources=sources)


async def jobs(request: Request) -> Response:
    """The maintenance jobs' last runs and the doctor's latest report (every user: an operator's page)."""
    root = root_of(request)
    runs = await last_runs(root)
    rows = []
    for name in sorted(JOBS):
        job, last = JOBS[name], runs.get(name)
        lag = (last.details.get("lag_s") if last is not None else None) or {}
        rows.append(
            {
                "name": name,
                "description": job.description,
                "every_minutes": job.interval_minutes(root.settings),
                "last": last,
                "lag": f"median {human_duration(lag['median'])}, max {human_duration(lag['max'])}"
                if lag
                else "",
            }
        )
    shown = runs.get("doctor")  # a check from this page is a recorded run too
    doctor = DoctorReport.from_job(shown) if shown is not None else None
    return render(request, "jobs.html", jobs=rows, doctor=doctor, doctor_run=shown)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value else default
    except ValueError:
        return default
