"""Secrets kept out of what we print, log, raise and audit. Pure.

API keys and passwords are ``SecretStr`` in the settings; connection URLs stay plain strings (every
driver wants one) but may carry a password (``postgresql://app:s3cret@db/agentx``), so every text that
could contain one goes through :func:`redact_text` before it leaves the library: error messages built
from driver exceptions, the LLM providers' descriptions, the settings' ``repr``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["REDACTED", "redact_text", "redact_url"]

REDACTED: Final = "***"

# scheme://user:password@host — the password, whatever the scheme (postgresql, redis, rediss, bolt …).
_USERINFO: Final = re.compile(r"(?P<head>\b[a-z][a-z0-9+.-]*://[^:/@\s]*):(?P<secret>[^@/\s]+)@", re.I)
# ?password=…, &api_key=…, libpq's "password=…" keyword form.
_PARAM: Final = re.compile(
    r"(?P<head>(?:[?&;]|\b)(?:password|passwd|pwd|sslpassword|secret|token|api[_-]?key|access[_-]?key)"
    r"\s*=\s*)(?P<secret>'[^']*'|[^&\s;'\"]+)",
    re.I,
)
# Bearer tokens and the vendors' key shapes (sk-…, sk-ant-…).
_TOKEN: Final = re.compile(r"(?P<head>\bBearer\s+)(?P<secret>\S+)|\bsk-[A-Za-z0-9_-]{8,}", re.I)


def redact_url(url: str | None) -> str | None:
    """``url`` with its password and secret query parameters replaced by ``***``."""
    return None if url is None else redact_text(url)


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with URL passwords, secret parameters, bearer tokens, vendor-shaped keys and every
    non-empty string of ``secrets`` replaced by ``***``."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    text = _USERINFO.sub(lambda m: f"{m['head']}:{REDACTED}@", text)
    text = _PARAM.sub(lambda m: f"{m['head']}{REDACTED}", text)
    return _TOKEN.sub(lambda m: f"{m['head']}{REDACTED}" if m["head"] else REDACTED, text)
