"""The inspector's writes (POST forms): each is one call of the user's public facade method, with its
validation and its audit row, then a redirect back to the page with a notice (post/redirect/get).

A form without this process's form token is refused before anything is read (cross-site forgery).
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from ..maintenance.jobs_async import JOBS
from ..maintenance.runner_async import run_job
from .pages import memory_of, root_of
from .security import same_token

__all__ = ["check_doctor", "confirm_fact", "correct_fact", "forget_fact", "resolve", "undo_correction"]


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


async def correct_fact(request: Request) -> Response:
    form = await _form(request)
    if form is None:
        return _forged()
    claim = form.get("claim")
    memory = await memory_of(request)
    new = await memory.correct_fact(request.path_params["fact_id"], claim if isinstance(claim, str) else "")
    return _back(request, "facts", f"Corrected: {new.claim}")


async def forget_fact(request: Request) -> Response:
    if await _form(request) is None:
        return _forged()
    memory = await memory_of(request)
    report = await memory.forget_fact(request.path_params["fact_id"])
    counts = ", ".join(f"{name} {value}" for name, value in sorted(report.items()) if value)
    return _back(request, "facts", f"Forgotten everywhere ({counts or 'nothing left'}).")


async def undo_correction(request: Request) -> Response:
    if await _form(request) is None:
        return _forged()
    memory = await memory_of(request)
    restored = await memory.undo_correction(request.path_params["fact_id"])
    return _back(request, "facts", f"Correction undone: {restored.claim}")


async def confirm_fact(request: Request) -> Response:
    if await _form(request) is None:
        return _forged()
    memory = await memory_of(request)
    fact = await memory.confirm_fact(request.path_params["fact_id"])
    return _back(request, "facts", f"Confirmed: {fact.claim}")


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
