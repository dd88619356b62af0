"""An MCP server over the memory facade (official ``mcp`` SDK 2.x): stdio and streamable HTTP.

    agentx-memory mcp                                  # stdio, user from AGENTX_MCP__USER or --user
    agentx-memory mcp --transport http --port 8765     # http://127.0.0.1:8765/mcp and /health

The tools are :data:`~agentx_memory.integrations.specs.TOOLS`, each with its typed input schema and
read-only / destructive / idempotent hints; the resources (profile, current facts) and the prompt (the
memory block) are :mod:`.mcp_resources`'. The user is never a tool argument: it is fixed per server
(stdio), or over HTTP the user of the request's verified bearer token (``mcp_auth.py``: tokens issued
per user, or a deployment's OAuth verifier; no token is a 401 before MCP sees the request, and no
header can choose the user). Only on loopback may a server run without tokens, reading the user from
a header (``X-AgentX-User``) that must name the default user or one on the allow-list (403 otherwise).
A refused call comes back as a tool error carrying the :class:`~agentx_memory.errors.AgentMemoryError`
message; anything unexpected as a short generic error (the traceback stays in the server log).
Consolidation answers at once with a job id and runs as a task; ``consolidation_status`` reports it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import AgentMemoryError, ConfigurationError, InvalidInputError
from ..facade_async import AsyncAgentMemory
from ..settings import McpSettings, Settings
from ..validation import validate_channel, validate_user_id
from . import MissingExtraError
from .handlers_async import AsyncConsolidationJobs, run_tool
from .specs import TOOLS, ToolSpec

try:
    import uvicorn
    from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
    from mcp.server.auth.provider import AccessToken
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.tools.base import Tool
    from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
    from mcp.types import CallToolResult, TextContent, ToolAnnotations
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.types import ASGIApp, Receive, Scope, Send

    from .mcp_auth import AuthConfig, MemoryAccessToken, auth_from_settings, is_loopback
    from .mcp_resources import MemoryResourceServer
except ImportError as exc:  # pragma: no cover - exercised in a subprocess without the extra
    raise MissingExtraError("mcp", "agentx_memory.integrations.mcp") from exc

__all__ = ["AccessDeniedError", "MemoryMcpServer", "UserAccess", "serve"]

log = logging.getLogger(__name__)

_INSTRUCTIONS = (
    "Long-term memory of the user across sessions. Call get_context (or remember) before answering "
    "anything that may depend on earlier sessions; add_memory for what the user tells you; learn_fact "
    "for durable facts and preferences they state; correct_fact when they correct one."
)


class AccessDeniedError(AgentMemoryError):
    """The request names a user this server does not serve (or names none and there is no default)."""


@dataclass(frozen=True)
class UserAccess:
    """Whose memory a call reaches: ``default_user`` on stdio and in process; over HTTP, with ``auth``,
    the user of the request's verified token (headers are never read), else (header mode, loopback
    only) the user ``header`` names, if it is the default one or in ``allowed_users``."""

    default_user: str | None
    channel: str = "_global"
    allowed_users: frozenset[str] = field(default_factory=frozenset)
    header: str = "X-AgentX-User"
    auth: AuthConfig | None = None

    def __post_init__(self) -> None:
        if self.default_user is not None:
            validate_user_id(self.default_user)
        validate_channel(self.channel)
        for user in self.allowed_users:
            validate_user_id(user)
        if not self.header.strip():
            raise ConfigurationError("mcp.user_header must not be empty")

    @classmethod
    def from_settings(
        cls,
        mcp: McpSettings,
        *,
        user: str | None = None,
        channel: str | None = None,
        allowed_users: Iterable[str] = (),
        auth: AuthConfig | None = None,
    ) -> UserAccess:
        """From ``settings.mcp``, with the command line's options (when given) taking precedence."""
        return cls(
            default_user=user if user is not None else mcp.user,
            channel=channel if channel is not None else mcp.channel,
            allowed_users=frozenset([*mcp.allowed_users, *allowed_users]),
            header=mcp.user_header,
            auth=auth,
        )

    def user_for(self, headers: Mapping[str, str] | None, token: AccessToken | None = None) -> str:
        """The user of a call: ``headers`` are the HTTP request's (``None`` on stdio / in process),
        ``token`` the bearer token the SDK verified for it.

        Raises :class:`AccessDeniedError` for a user not allowed, or no user at all.
        """
        if self.auth is not None and headers is not None:
            if isinstance(token, MemoryAccessToken):
                return token.user_id
            raise AccessDeniedError("this server requires a bearer token (Authorization: Bearer …)")
        named = _header(headers, self.header) if headers is not None and self.auth is None else None
        if named is None:
            if self.default_user is None:
                raise AccessDeniedError(
                    f"this server has no default user: send the {self.header} header naming your user"
                )
            return self.default_user
        if named != self.default_user and named not in self.allowed_users:
            raise AccessDeniedError(
                f"user {named!r} is not allowed on this server (the {self.header} header must name an "
                "allowed user: AGENTX_MCP__ALLOWED_USERS or --allow-user)"
            )
        return named


def _header(headers: Mapping[str, str], name: str) -> str | None:
    wanted = name.lower()
    for key, value in headers.items():
        if key.lower() == wanted and value.strip():
            return value.strip()
    return None


class MemoryMcpServer:
    """The MCP server of one memory deployment. ``memory`` holds the connections (and, without an
    ``access``, fixes the user and channel); every user reached shares them through ``for_user``."""

    def __init__(
        self, memory: AsyncAgentMemory, access: UserAccess | None = None, *, name: str = "agentx-memory"
    ) -> None:
        from .. import __version__

        self.memory = memory
        self.access = access or UserAccess(memory.scope.user_id, memory.scope.channel)
        self.jobs = AsyncConsolidationJobs()
        self._memories: dict[str, AsyncAgentMemory] = {}
        auth = self.access.auth
        self.server: MCPServer[Any] = MemoryResourceServer(
            name,
            self._memory_of,
            instructions=_INSTRUCTIONS,
            version=__version__,
            token_verifier=None if auth is None else auth.verifier,
            auth=None if auth is None else auth.sdk_settings(),
            tools=[self._tool(spec) for spec in TOOLS],
            log_level="WARNING",
        )
        self.server.custom_route("/health", methods=["GET"])(self._health)

    # -- tools -------------------------------------------------------------------------------------

    def _tool(self, spec: ToolSpec) -> Tool:
        async def call(ctx: Context[Any, Any], arguments: dict[str, Any]) -> CallToolResult:
            return await self._call(spec.name, ctx.headers, arguments, _verified_token(ctx))

        return _MemoryTool(
            fn=call,
            name=spec.name,
            title=spec.title,
            description=spec.description,
            parameters=spec.input_schema(),
            fn_metadata=FuncMetadata(arg_model=ArgModelBase),
            is_async=True,
            context_kwarg="ctx",
            annotations=ToolAnnotations(
                title=spec.title,
                read_only_hint=spec.read_only,
                destructive_hint=spec.destructive,
                idempotent_hint=spec.idempotent or spec.read_only,
                open_world_hint=False,
            ),
        )

    async def _call(
        self,
        name: str,
        headers: Mapping[str, str] | None,
        arguments: dict[str, Any],
        token: AccessToken | None = None,
    ) -> CallToolResult:
        try:
            memory = await self.memory_for(headers, token)
            result = await run_tool(memory, name, arguments, self.jobs)
        except AgentMemoryError as exc:
            log.info("tool %s refused: %s", name, exc)
            return _error(str(exc))
        except Exception:
            log.exception("tool %s failed unexpectedly", name)
            return _error(f"{name} failed unexpectedly; the server log has the details")
        text = json.dumps(result, ensure_ascii=False)
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result)

    async def memory_for(
        self, headers: Mapping[str, str] | None, token: AccessToken | None = None
    ) -> AsyncAgentMemory:
        """The facade of the call's user (see :meth:`UserAccess.user_for`), sharing the connections."""
        user = self.access.user_for(headers, token)
        scope = self.memory.scope
        if user == scope.user_id and self.access.channel == scope.channel:
            return self.memory
        if user not in self._memories:
            self._memories[user] = await self.memory.for_user(user, self.access.channel)
        return self._memories[user]

    async def _memory_of(self, ctx: Context[Any, Any] | None) -> AsyncAgentMemory:
        """The facade of the user a resource read or a prompt is for: as for a tool call."""
        if ctx is None:
            return await self.memory_for(None)
        return await self.memory_for(ctx.headers, _verified_token(ctx))

    # -- transports --------------------------------------------------------------------------------

    async def _health(self, request: Request) -> Response:
        """200 when every store answers; 503 naming each one that does not (a load balancer or an
        orchestrator must not route to a server whose databases are down)."""
        found = await self.memory.health()
        down = {store: error for store, error in found.items() if error is not None}
        body: dict[str, Any] = {
            "status": "unavailable" if down else "ok",
            "server": self.server.name,
            "tools": len(TOOLS),
            "stores": {store: "ok" if error is None else "down" for store, error in found.items()},
        }
        if down:
            body["errors"] = down
            log.warning("health: %s not answering", ", ".join(down))
        return JSONResponse(body, status_code=503 if down else 200)

    def http_app(self, host: str = "127.0.0.1") -> ASGIApp:
        """The streamable HTTP app for a server bound to ``host``: MCP at ``/mcp`` (a bearer token
        required when ``access.auth`` is set), ``GET /health`` (never authenticated, names no user).
        Without ``auth`` (header mode) ``host`` must be loopback: :class:`ConfigurationError` else."""
        if self.access.auth is None and not is_loopback(host):
            raise ConfigurationError(
                f"refusing to serve MCP on {host} in header mode: anyone who reaches the port could act "
                "as any allowed user. Give the server bearer tokens (UserAccess.auth), or bind 127.0.0.1"
            )
        app = self.server.streamable_http_app(streamable_http_path="/mcp", host=host)
        return app if self.access.auth is not None else _AccessCheck(app, self.access)

    async def serve_stdio(self) -> None:
        await self.server.run_stdio_async()

    async def serve_http(self, host: str, port: int) -> None:
        config = uvicorn.Config(self.http_app(host), host=host, port=port, log_level="warning")
        await uvicorn.Server(config).serve()

    async def aclose(self) -> None:
        """Wait for the consolidation jobs still running."""
        await self.jobs.drain()


class _MemoryTool(Tool):
    """A tool whose arguments go to :func:`run_tool` as they came: validated there, once, by the spec's
    own model, so a bad argument is refused with our message (as the dispatcher of ``tools`` does)."""

    async def run(
        self, arguments: dict[str, Any], context: Context[Any, Any], convert_result: bool = False
    ) -> Any:
        return await self.fn(context, arguments)


def _verified_token(ctx: Context[Any, Any]) -> AccessToken | None:
    """The bearer token the SDK's auth middleware verified for the request carrying this call."""
    request = getattr(ctx.request_context, "request", None)
    scope = getattr(request, "scope", None)
    user = scope.get("user") if isinstance(scope, dict) else None
    return user.access_token if isinstance(user, AuthenticatedUser) else None


class _AccessCheck:
    """Header mode: refuse an MCP request for a user the server does not serve (403) before the SDK
    sees it."""

    def __init__(self, app: ASGIApp, access: UserAccess) -> None:
        self.app = app
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].rstrip("/") == "/mcp":
            headers = {key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]}
            try:
                self.access.user_for(headers)
            except AccessDeniedError as exc:
                await JSONResponse({"error": str(exc)}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


async def serve(
    settings: Settings,
    *,
    transport: Literal["stdio", "http"] = "stdio",
    host: str | None = None,
    port: int | None = None,
    user: str | None = None,
    channel: str | None = None,
    allowed_users: Iterable[str] = (),
) -> None:
    """Run the server until stopped (what ``agentx-memory mcp`` does). The stores are opened first, so
    a configuration error is reported before the transport starts; over HTTP the authentication mode
    is decided (``auth_from_settings``) and said in the log before anything is bound."""
    if transport not in ("stdio", "http"):
        raise InvalidInputError(f"transport must be 'stdio' or 'http', not {transport!r}")
    host = host or settings.mcp.host
    auth = auth_from_settings(settings, host) if transport == "http" else None
    access = UserAccess.from_settings(
        settings.mcp, user=user, channel=channel, allowed_users=allowed_users, auth=auth
    )
    if transport == "stdio" and access.default_user is None:  # as AgentMemory() does
        access = UserAccess("default", access.channel, access.allowed_users, access.header)
    if transport == "http":
        _announce(access, host)
    # Without a default user the root facade is a handle only: every request names its user.
    async with AsyncAgentMemory(access.default_user or "mcp", access.channel, settings=settings) as memory:
        server = MemoryMcpServer(memory, access)
        try:
            if transport == "stdio":
                await server.serve_stdio()
            else:
                await server.serve_http(host, port or settings.mcp.port)
        finally:
            await server.aclose()


def _announce(access: UserAccess, host: str) -> None:
    """Say at start-up who a request acts for (stderr: on stdio stdout is the protocol)."""
    if access.auth is None:
        named = {*access.allowed_users, *([access.default_user] if access.default_user else [])}
        log.warning(
            "MCP auth: header mode (%s names the user; allowed: %s). Any local process can act as any "
            "allowed user: loopback only (%s). Issue tokens with `agentx-memory mcp-token issue` to "
            "require them.",
            access.header,
            ", ".join(sorted(named)) or "none",
            host,
        )
    else:
        log.warning("MCP auth: %s mode, every request to /mcp needs a bearer token", access.auth.mode)
