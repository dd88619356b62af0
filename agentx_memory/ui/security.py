"""Who may reach the inspector: the bind rule, the access token and the form token.

The inspector reads and changes every user's memory, so anything beyond this machine's loopback needs a
token, and the server refuses to start without one (:func:`check_bind`). With a token, every request
must carry it: ``Authorization: Bearer …``, or the cookie set when a browser first opens
``/?token=…`` (the link ``agentx-memory ui`` prints, as Jupyter does). Forms carry a per-process token
of their own, so a page on another site cannot make the browser post a correction or a forget
(cross-site request forgery) even to the loopback inspector that needs no access token.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from urllib.parse import parse_qsl, urlencode

from starlette.datastructures import URL
from starlette.requests import HTTPConnection
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import ConfigurationError

__all__ = ["COOKIE", "TokenGate", "check_bind", "is_loopback", "new_form_token", "same_token"]

#: The cookie that carries the access token after the first visit with ``?token=``.
COOKIE = "agentx_ui_token"
#: Hosts that name this machine's loopback interface (``Host`` header check: DNS rebinding).
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and any loopback address (``127.0.0.0/8``, ``::1``)."""
    name = host.strip().strip("[]").casefold()
    if name in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve another address than loopback without a token (``0.0.0.0`` included)."""
    if not is_loopback(host) and not token:
        raise ConfigurationError(
            f"the inspector shows and changes every user's memory: binding {host!r} (not loopback) needs a "
            "token: set AGENTX_UI__TOKEN (e.g. `openssl rand -hex 16`) or pass --token, or bind 127.0.0.1"
        )


def same_token(given: str | None, expected: str) -> bool:
    """Constant-time comparison (no timing oracle on the token)."""
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def new_form_token() -> str:
    return secrets.token_urlsafe(24)


class TokenGate:
    """ASGI middleware: every HTTP request needs the token (header, cookie or ``?token=``), and when
    serving loopback without a token, a ``Host`` naming loopback (a rebinding page's host is refused)."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(HTTPConnection(scope))
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(self, conn: HTTPConnection) -> Response | None:
        if self.token is None:
            host = conn.url.hostname or ""
            if not is_loopback(host):
                return PlainTextResponse(f"Host {host!r} is not this machine's loopback.", status_code=421)
            return None
        if same_token(conn.query_params.get("token"), self.token):
            # Into a cookie, and out of the address bar (and of the history and the Referer header).
            response = RedirectResponse(_without_token(conn.url), status_code=303)
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="strict")
            return response
        bearer = conn.headers.get("authorization", "")
        given = bearer[7:] if bearer.lower().startswith("bearer ") else conn.cookies.get(COOKIE)
        if same_token(given, self.token):
            return None
        return PlainTextResponse(
            "This inspector needs its token: open the link `agentx-memory ui` printed (…/?token=…) or "
            "send `Authorization: Bearer <token>`.",
            status_code=401,
        )


def _without_token(url: URL) -> str:
    query = urlencode([(k, v) for k, v in parse_qsl(url.query, keep_blank_values=True) if k != "token"])
    return url.path + (f"?{query}" if query else "")
