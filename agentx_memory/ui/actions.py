"""The inspector's writes (POST forms): each is one call of the user's public facade method, with its
validation and its audit row, then a redirect back to the page with a notice (post/redirect/get).

A form without this process's form token is refused before anything is read (cross-site forgery).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import urlencode

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from ..facade_async import AsyncAgentMemory
from ..maintenance.jobs_async import JOBS
from ..maintenance.runner_async import run_job
from .pages import memory_of, root_of
from .security import same_token

__all__ = ["check_doctor", "fact_action", "resolve"]


async def _form(request: Request) -> FormData | None:
    form = await request.form()
    token = form.get("form_token")
    return (
        form if same_token(token if isinstance(token, str) else None, request.app.state.form_token) else None
    )


def _forged() -> Response:
    return PlainTextResponse("This form is not from this inspector (missing or stale form token).", 403)


def _back(request: Request, page: str, notice: str) -> Response:
    """Back to ``page`` of the user (keeping the channel) with ``notice`` shown on it."""
    query = {"notice": notice}
    if (channel := request.query_params.get("channel")) and channel != "_global":
        query["channel"] = channel
    user = request.path_params["user"]
    return RedirectResponse(f"/u/{user}/{page}?{urlencode(query)}", status_code=303)


async def _correct(memory: AsyncAgentMemory, fact_id: str, form: FormData) -> str:
    claim = form.get("claim")
    new = await memory.correct_fact(fact_id, claim if isinstance(claim, str) else "")
    return f"Corrected: {new.claim}"


async def _forget(memory: AsyncAgentMemory, fact_id: str, form: FormData) -> str:
    report = await memory.forget_fact(fact_id)
    counts = ", ".join(f"{name} {value}" for name, value in sorted(report.items()) if value)
    return f"Forgotten everywhere ({counts or 'nothing left'})."


async def _undo(memory: AsyncAgentMemory, fact_id: str, form: FormData) -> str:
    return f"Correction undone: {(await memory.undo_correction(fact_id)).claim}"


async def _confirm(memory: AsyncAgentMemory, fact_id: str, form: FormData) -> str:
    return f"Confirmed: {(await memory.confirm_fact(fact_id)).claim}"


#: What the buttons of a fact do: each one facade call, answering the notice shown next.
_FACT_ACTIONS: dict[str, Callable[[AsyncAgentMemory, str, FormData], Awaitable[str]]] = {
    "correct": _correct,
    "forget": _forget,
    "undo": _undo,
    "confirm": _confirm,
}


async def fact_action(request: Request) -> Response:
    """``POST /u/{user}/facts/{fact_id}/{action}``: correct, forget, undo or confirm one fact."""
    act = _FACT_ACTIONS.get(request.path_params["action"])
    if act is None:
        return PlainTextResponse(f"No fact action {request.path_params['action']!r}.", 404)
    form = await _form(request)
    if form is None:
        return _forged()
    notice = await act(await memory_of(request), request.path_params["fact_id"], form)
    return _back(request, "facts", notice)


async def resolve(request: Request) -> Response:
    """A review decision: accept the new fact (``keep=new``), reject it (``old``), or keep both."""
    form = await _form(request)
    if form is None:
        return _forged()
    memory = await memory_of(request)
    new_id, old_id, keep = (str(form.get(name, "")) for name in ("new_id", "old_id", "keep"))
    await memory.resolve_contradiction(new_id, old_id, keep)
    words = {"new": "Accepted the new fact", "old": "Rejected the new fact", "both": "Kept both facts"}
    return _back(request, "review", words.get(keep, "Decided"))


async def check_doctor(request: Request) -> Response:
    """Run ``doctor`` as a check (a dry run: it repairs nothing), recorded like the CLI's."""
    if await _form(request) is None:
        return _forged()
    report = await run_job(root_of(request), JOBS["doctor"], dry_run=True)
    notice = {"locked": "Another doctor run holds the lock: try again later."}.get(report.status, "")
    if report.status == "failed":
        notice = f"Doctor failed: {report.error}"
    return RedirectResponse(f"/jobs?{urlencode({'notice': notice or 'Doctor checked.'})}", status_code=303)
