"""``agentx-memory mcp``: serve the memory tools to MCP clients (Claude Desktop, IDEs, agent frameworks)
over stdio or streamable HTTP. Needs the ``[mcp]`` extra; imported only when the command runs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Annotated

import typer

from agentx_memory.errors import InvalidInputError

from .cli_support import errors, state_of

__all__ = ["mcp"]

_TRANSPORTS = ("stdio", "http")


def mcp(
    ctx: typer.Context,
    transport: Annotated[
        str, typer.Option(help="stdio (for a client that starts the server) or http (streamable HTTP).")
    ] = "stdio",
    host: Annotated[str | None, typer.Option(help="HTTP: the address to bind (default mcp.host).")] = None,
    port: Annotated[int | None, typer.Option(help="HTTP: the port (default mcp.port, 8765).")] = None,
    user: Annotated[
        str | None,
        typer.Option(help="The user every call acts for (HTTP: when a request names none)."),
    ] = None,
    channel: Annotated[str | None, typer.Option(help="The channel writes land in (default _global).")] = None,
    allow_user: Annotated[
        list[str] | None,
        typer.Option("--allow-user", help="HTTP: a user a request may name in X-AgentX-User (repeatable)."),
    ] = None,
) -> None:
    """Serve the memory tools over MCP: stdio by default, or streamable HTTP at /mcp (with /health).

    Over stdio stdout carries the protocol, so everything else goes to stderr."""
    state = state_of(ctx)
    with errors(state.err):
        if transport not in _TRANSPORTS:
            raise InvalidInputError(f"--transport must be one of {', '.join(_TRANSPORTS)}, not {transport!r}")
        from agentx_memory.integrations.mcp import serve

        # Logs go to stderr (the handler's default stream): on stdio, stdout is the protocol.
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        if transport == "http":
            where = f"{host or state.settings.mcp.host}:{port or state.settings.mcp.port}"
            state.err.print(f"MCP over streamable HTTP on http://{where}/mcp", highlight=False)
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(
                serve(
                    state.settings,
                    transport="http" if transport == "http" else "stdio",
                    host=host,
                    port=port,
                    user=user,
                    channel=channel,
                    allowed_users=allow_user or (),
                )
            )
