"""Who an HTTP request to the MCP server acts for: a verified bearer token, mapped to exactly one user.

The MCP specification makes an HTTP server an OAuth 2.1 *resource server*: it validates bearer tokens
and answers 401 without one. The official SDK does that through its ``TokenVerifier`` hook; this
module supplies the verifiers, and :class:`MemoryAccessToken` carries the one user a token acts for:

* ``token`` mode: :class:`TokenFileVerifier`, tokens issued per user by ``agentx-memory mcp-token``
  (``mcp_tokens.py``: stored hashed, revocable without a restart) or configured as digests;
* ``oauth`` mode: :class:`ClaimUserVerifier` around a deployment's own verifier (its OAuth provider's
  introspection or JWT check), the user read from one claim of the verified token (``sub`` by default);
* ``header`` mode (no verifier): the ``X-AgentX-User`` header names the user. Anything that reaches the
  port can claim any allowed user, so it is refused on any address but loopback.
"""

from __future__ import annotations

import importlib
import ipaddress
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ..errors import ConfigurationError, InvalidInputError
from ..settings import Settings
from ..validation import validate_user_id
from . import MissingExtraError
from .mcp_tokens import TOKEN_FILE_NAME, TokenIndex

try:
    from mcp.server.auth.provider import AccessToken, TokenVerifier
    from mcp.server.auth.settings import AuthSettings
except ImportError as exc:  # pragma: no cover - exercised in a subprocess without the extra
    raise MissingExtraError("mcp", "agentx_memory.integrations.mcp_auth") from exc

__all__ = [
    "AuthConfig",
    "AuthMode",
    "ClaimUserVerifier",
    "MemoryAccessToken",
    "TokenFileVerifier",
    "auth_from_settings",
    "is_loopback",
    "token_file_of",
]

log = logging.getLogger(__name__)

AuthMode = Literal["header", "token", "oauth"]
#: The scope our own tokens carry (a deployment's OAuth tokens carry what its provider grants).
MEMORY_SCOPE = "agentx-memory"


class MemoryAccessToken(AccessToken):
    """A verified token and the one user every call made with it acts for."""

    user_id: str


class TokenFileVerifier:
    """The SDK's ``TokenVerifier`` over issued tokens (:class:`~.mcp_tokens.TokenIndex`)."""

    def __init__(self, index: TokenIndex) -> None:
        self.index = index

    async def verify_token(self, token: str) -> AccessToken | None:
        # A stat of the token file and one SHA-256 per known token: microseconds, fine on the loop.
        found = self.index.user_of(token)
        if found is None:
            return None
        user, token_id = found
        return MemoryAccessToken(
            token=token, client_id=token_id, scopes=[MEMORY_SCOPE], subject=user, user_id=user
        )


class ClaimUserVerifier:
    """A deployment's ``TokenVerifier`` (its OAuth provider), with the user read from the verified
    token's ``claim`` (``sub``: :attr:`AccessToken.subject`). A token without the claim, or whose value
    is no valid user id, is refused (401) like an invalid one."""

    def __init__(self, inner: TokenVerifier, claim: str = "sub") -> None:
        self.inner = inner
        self.claim = claim

    async def verify_token(self, token: str) -> AccessToken | None:
        verified = await self.inner.verify_token(token)
        if verified is None:
            return None
        value = verified.subject if self.claim == "sub" else (verified.claims or {}).get(self.claim)
        try:
            user = validate_user_id(value)
        except InvalidInputError:
            log.warning("a verified token's %r claim names no valid user id: refused", self.claim)
            return None
        return MemoryAccessToken(**{**verified.model_dump(), "user_id": user})


@dataclass(frozen=True)
class AuthConfig:
    """Bearer-token authentication of the HTTP transport, as the SDK takes it."""

    mode: AuthMode
    verifier: TokenVerifier
    #: The authorization server that issues the tokens (``oauth``); ours otherwise, and then unused.
    issuer_url: str = "http://127.0.0.1"
    #: This server's public MCP URL: published as OAuth protected-resource metadata (RFC 9728) so
    #: clients find the authorization server, and the audience tokens must have been issued for.
    resource_url: str | None = None
    required_scopes: list[str] = field(default_factory=list)

    def sdk_settings(self) -> AuthSettings:
        return AuthSettings(
            issuer_url=self.issuer_url,
            resource_server_url=self.resource_url,
            required_scopes=self.required_scopes or None,
            validate_token_resource=self.resource_url is not None,
        )


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` reaches this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


def token_file_of(settings: Settings) -> Path:
    return settings.mcp.token_file or settings.data_dir / TOKEN_FILE_NAME


def auth_from_settings(settings: Settings, host: str) -> AuthConfig | None:
    """The authentication ``settings.mcp.auth`` asks for on ``host`` (``None``: header mode).

    ``auto``: ``oauth`` when ``mcp.verifier`` is set; ``token`` when tokens are issued or configured,
    or whenever ``host`` is not loopback; ``header`` otherwise. ``header`` on a non-loopback address is
    a :class:`ConfigurationError`: the server refuses to start.
    """
    mcp = settings.mcp
    mode = mcp.auth
    if mode == "auto":
        index = TokenIndex(token_file_of(settings), mcp.tokens)
        if mcp.verifier:
            mode = "oauth"
        elif index.known() or not is_loopback(host):
            mode = "token"
        else:
            mode = "header"
    if mode == "header":
        if not is_loopback(host):
            raise ConfigurationError(
                f"refusing to serve MCP on {host} without authentication: header mode lets anyone who "
                "reaches the port act as any allowed user. Issue tokens (`agentx-memory mcp-token issue "
                "--user U`) and set AGENTX_MCP__AUTH=token (or auto), or bind 127.0.0.1"
            )
        return None
    if mode == "token":
        return AuthConfig("token", TokenFileVerifier(TokenIndex(token_file_of(settings), mcp.tokens)))
    if not mcp.verifier or not mcp.issuer_url:
        raise ConfigurationError(
            "mcp.auth=oauth needs AGENTX_MCP__VERIFIER (module:attribute of a TokenVerifier, or of a "
            "function of the settings returning one) and AGENTX_MCP__ISSUER_URL (the authorization server)"
        )
    return AuthConfig(
        "oauth",
        ClaimUserVerifier(_load_verifier(mcp.verifier, settings), mcp.user_claim),
        issuer_url=mcp.issuer_url,
        resource_url=mcp.resource_url,
        required_scopes=list(mcp.required_scopes),
    )


def _load_verifier(spec: str, settings: Settings) -> TokenVerifier:
    module_name, _, attribute = spec.partition(":")
    try:
        found: object = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ConfigurationError(f"mcp.verifier {spec!r} cannot be imported: {exc}") from exc
    if not hasattr(found, "verify_token") and callable(found):
        found = found(settings)
    if not hasattr(found, "verify_token"):
        raise ConfigurationError(f"mcp.verifier {spec!r} is no TokenVerifier (it has no verify_token)")
    verifier: TokenVerifier = found
    return verifier
