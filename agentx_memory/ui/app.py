"""The inspector's Starlette application and its server.

Server-rendered Jinja2 pages; the only script is the graph page's, drawn by cytoscape.js, vendored in
``static/vendor`` (with its licence) and shipped in the wheel: nothing is fetched at run time.
"""

from __future__ import annotations

import logging
from importlib import resources
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from ..errors import AgentMemoryError, ConflictError, InvalidInputError, NotFoundError
from ..facade_async import AsyncAgentMemory
from ..redact import redact_text
from ..settings import Settings
from . import actions, pages
from .security import TokenGate, check_bind, new_form_token
from .views import human_duration, turn_line, when

__all__ = ["create_app", "serve"]

log = logging.getLogger(__name__)

#: The root facade's user: a handle only (each page opens its user's facade through ``for_user``).
ROOT_USER = "maintenance"

_USER = "/u/{user}"


def create_app(root: AsyncAgentMemory, *, token: str | None = None) -> Starlette:
    """The inspector over ``root``'s stores (``root`` stays the caller's to open and close). With
    ``token``, every request must carry it (:class:`~agentx_memory.ui.security.TokenGate`)."""
    folder = resources.files("agentx_memory.ui")
    routes = [
        Route("/", pages.users),
        Route("/jobs", pages.jobs),
        Route("/jobs/doctor", actions.check_doctor, methods=["POST"]),
        Route(_USER, pages.profile),
        Route(_USER + "/facts", pages.facts),
        Route(_USER + "/facts/{fact_id}/{action}", actions.fact_action, methods=["POST"]),
        Route(_USER + "/graph", pages.graph),
        Route(_USER + "/conversations", pages.conversations),
        Route(_USER + "/conversations/{conversation_id}", pages.conversation),
        Route(_USER + "/recall", pages.recall),
        Route(_USER + "/review", pages.review),
        Route(_USER + "/review", actions.resolve, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(folder / "static")), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(TokenGate, token=token)],
        exception_handlers={AgentMemoryError: _error},
    )
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder / "templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,  # a misspelt name fails the page tests, not silently blank
    )
    env.filters.update(when=when, duration=human_duration, turn_line=turn_line)
    app.state.templates = Jinja2Templates(env=env)
    app.state.root = root
    app.state.form_token = new_form_token()
    return app


async def _error(request: Request, exc: Exception) -> Response:
    """A library error as a page: what the facade said, with the status it means."""
    status = 500
    for kind, code in ((NotFoundError, 404), (InvalidInputError, 400), (ConflictError, 409)):
        if isinstance(exc, kind):
            status = code
            break
    if status == 500:
        log.warning("inspector page %s failed: %s", request.url.path, exc)
    context: dict[str, Any] = {"message": redact_text(str(exc)), "kind": type(exc).__name__}
    return pages.render(request, "error.html", status_code=status, **context)


async def serve(settings: Settings, *, host: str, port: int, token: str | None) -> None:
    """Serve the inspector until interrupted; refuses a non-loopback ``host`` without ``token``."""
    import uvicorn

    check_bind(host, token)
    async with AsyncAgentMemory(ROOT_USER, settings=settings) as root:
        config = uvicorn.Config(create_app(root, token=token), host=host, port=port, log_level="warning")
        await uvicorn.Server(config).serve()
