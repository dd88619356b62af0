"""``agentx-memory ui``: serve the memory inspector (:mod:`agentx_memory.ui`) on this machine. Needs the
``[ui]`` extra; imported only when the command runs."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

import typer

from agentx_memory.errors import ConfigurationError

from .cli_support import errors, state_of

__all__ = ["ui"]


def ui(
    ctx: typer.Context,
    host: Annotated[
        str | None, typer.Option(help="The address to bind (default ui.host, 127.0.0.1).")
    ] = None,
    port: Annotated[int | None, typer.Option(help="The port (default ui.port, 8766).")] = None,
    token: Annotated[
        str | None,
        typer.Option(
            help="Require this token on every request (default AGENTX_UI__TOKEN); needed for any address "
            "but loopback. Prefer the variable: options show in the process list."
        ),
    ] = None,
) -> None:
    """Serve the memory inspector: users, profiles, facts (correct, forget, undo), the entity graph,
    conversations, a recall debugger, the review queue, jobs and doctor."""
    state = state_of(ctx)
    settings = state.settings
    chosen_host = host or settings.ui.host
    chosen_port = port or settings.ui.port
    secret = token or (settings.ui.token.get_secret_value() if settings.ui.token else None)
    with errors(state.err):
        try:
            from agentx_memory.ui import check_bind, serve
        except ModuleNotFoundError as exc:
            raise ConfigurationError(
                f"the inspector needs the [ui] extra ({exc.name} is missing): pip install '.[ui]'"
            ) from exc
        check_bind(chosen_host, secret)
        where = f"[{chosen_host}]" if ":" in chosen_host else chosen_host
        link = f"http://{where}:{chosen_port}/" + (f"?token={secret}" if secret else "")
        state.err.print(f"Memory inspector on {link} (Ctrl-C stops it)", highlight=False, soft_wrap=True)
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(settings, host=chosen_host, port=chosen_port, token=secret))
