"""``agentx-memory mcp-token issue | list | revoke``: the bearer tokens of the MCP server's HTTP
transport, one user each, kept hashed in ``mcp.token_file`` (``integrations/mcp_tokens.py``). A
running server sees an issued or revoked token at its next request: no restart."""

from __future__ import annotations

import secrets
from typing import Annotated

import typer
from rich.table import Table

from .cli_support import errors, state_of
from .integrations.mcp_tokens import TOKEN_FILE_NAME, TokenFile, hash_token
from .validation import validate_user_id

__all__ = ["mcp_token_app"]

mcp_token_app = typer.Typer(
    help="Bearer tokens for `agentx-memory mcp --transport http` (one user each, stored hashed).",
    no_args_is_help=True,
)


def _token_file(ctx: typer.Context) -> TokenFile:
    settings = state_of(ctx).settings
    return TokenFile(settings.mcp.token_file or settings.data_dir / TOKEN_FILE_NAME)


@mcp_token_app.command("issue")
def issue(
    ctx: typer.Context,
    user: Annotated[str, typer.Option("--user", help="The user every call with this token acts for.")],
    label: Annotated[str, typer.Option(help="A note for listings (a client, a machine).")] = "",
    no_file: Annotated[
        bool,
        typer.Option(
            "--no-file", help="Write nothing: print the token and the digest for AGENTX_MCP__TOKENS."
        ),
    ] = False,
) -> None:
    """Issue a token for USER and print it once (only its SHA-256 is kept)."""
    state = state_of(ctx)
    with errors(state.err):
        if no_file:
            user = validate_user_id(user)
            token = f"agxm_cfg_{secrets.token_urlsafe(32)}"
            state.out.print(token, highlight=False, soft_wrap=True)
            state.err.print(
                f'AGENTX_MCP__TOKENS=\'{{"{user}": ["{hash_token(token)}"]}}\'',
                highlight=False,
                soft_wrap=True,
            )
            return
        token_file = _token_file(ctx)
        issued = token_file.issue(user, label)
        state.out.print(issued.token, highlight=False, soft_wrap=True)
        state.err.print(
            f"token {issued.entry.id} for user {user!r} written (hashed) to {token_file.path}; it is shown "
            "only now. Clients send it as `Authorization: Bearer <token>`.",
            highlight=False,
            soft_wrap=True,
        )


@mcp_token_app.command("list")
def list_tokens(ctx: typer.Context) -> None:
    """The issued tokens: id, user, label, when (never the tokens themselves)."""
    state = state_of(ctx)
    with errors(state.err):
        entries = _token_file(ctx).entries()
        table = Table("id", "user", "label", "created")
        for entry in entries:
            table.add_row(entry.id, entry.user, entry.label, entry.created_at)
        state.out.print(table)


@mcp_token_app.command("revoke")
def revoke(
    ctx: typer.Context,
    token_id: Annotated[str | None, typer.Argument(help="The id `list` shows.")] = None,
    user: Annotated[str | None, typer.Option("--user", help="Revoke every token of this user.")] = None,
) -> None:
    """Revoke one token, or every token of a user; a running server refuses it from its next request."""
    state = state_of(ctx)
    with errors(state.err):
        gone = _token_file(ctx).revoke(token_id, user=user)
        for entry in gone:
            state.out.print(f"revoked {entry.id} ({entry.user})", highlight=False)
