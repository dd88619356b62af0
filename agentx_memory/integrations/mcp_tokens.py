"""Bearer tokens of the MCP server's HTTP transport: issued per user, stored hashed, checked per request.

No ``mcp`` import here, so ``agentx-memory mcp-token`` works without the extra. A token reads
``agxm_<id>_<secret>``: ``id`` (8 hex digits) names it in listings and for revocation, ``secret`` is
32 random bytes. The token file (``mcp.token_file``, default ``<data_dir>/mcp-tokens.json``, mode
0600) holds per token its id, user, label, creation time and the SHA-256 of the whole token, never the
token: whoever reads the file cannot act as anyone. A fast hash is right here, unlike for passwords:
a token carries 256 random bits, so there is nothing to guess that a slow hash would protect.

:class:`TokenIndex` checks a presented token against every known digest with
:func:`hmac.compare_digest`, always all of them, so the time a check takes says nothing about which
digest, or how much of one, matched. It re-reads the file when the file changes (its size, mtime or
inode), so a token revoked by ``agentx-memory mcp-token revoke`` stops working at the next request,
without a restart.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import secrets
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from ..errors import ConfigurationError, InvalidInputError, NotFoundError
from ..validation import validate_user_id

__all__ = [
    "TOKEN_FILE_NAME",
    "IssuedToken",
    "TokenEntry",
    "TokenFile",
    "TokenIndex",
    "hash_token",
]

TOKEN_FILE_NAME: Final = "mcp-tokens.json"
_FORMAT: Final = "agentx-memory-mcp-tokens"
_PREFIX: Final = "agxm_"
_MAX_TOKEN_CHARS: Final = 512
#: Compared against when no digest is known, so an empty index costs a check the same time.
_NO_DIGEST: Final = hashlib.sha256(b"agentx-memory: no token").hexdigest()


def hash_token(token: str) -> str:
    """The SHA-256 (hex) a token is stored and configured as (``mcp.tokens``)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class TokenEntry:
    """One issued token as the file keeps it (no secret)."""

    id: str
    user: str
    sha256: str
    label: str = ""
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A token just issued: ``token`` is shown once and stored nowhere."""

    entry: TokenEntry
    token: str


class TokenFile:
    """The token file: issue, list and revoke (each a locked read-modify-write, written atomically)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def entries(self) -> list[TokenEntry]:
        """Every issued token, oldest first; none when the file does not exist."""
        return _read_entries(self.path)

    def issue(self, user: str, label: str = "") -> IssuedToken:
        user = validate_user_id(user)
        if len(label) > 200 or any(ord(ch) < 32 for ch in label):
            raise InvalidInputError("a token label is at most 200 printable characters")
        with self._locked():
            entries = self.entries()
            known = {entry.id for entry in entries}
            token_id = secrets.token_hex(4)
            while token_id in known:
                token_id = secrets.token_hex(4)
            token = f"{_PREFIX}{token_id}_{secrets.token_urlsafe(32)}"
            created = datetime.now(UTC).isoformat(timespec="seconds")
            entry = TokenEntry(token_id, user, hash_token(token), label, created)
            self._write([*entries, entry])
        return IssuedToken(entry, token)

    def revoke(self, token_id: str | None = None, *, user: str | None = None) -> list[TokenEntry]:
        """Remove the token ``token_id``, or every token of ``user``; returns what was removed.
        :class:`NotFoundError` when nothing matches."""
        if (token_id is None) == (user is None):
            raise InvalidInputError("revoke one token by its id, or every token of one user (--user)")
        with self._locked():
            entries = self.entries()
            gone = [entry for entry in entries if entry.id == token_id or entry.user == user]
            if not gone:
                what = f"token {token_id}" if token_id is not None else f"tokens of user {user!r}"
                raise NotFoundError(f"no {what} in {self.path}")
            self._write([entry for entry in entries if entry not in gone])
        return gone

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        # A lock file beside the token file: the token file itself is replaced on every write.
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_suffix(".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _write(self, entries: Sequence[TokenEntry]) -> None:
        document = {"format": _FORMAT, "version": 1, "tokens": [asdict(entry) for entry in entries]}
        handle, temporary = tempfile.mkstemp(prefix=".mcp-tokens-", dir=self.path.parent)
        try:
            os.fchmod(handle, 0o600)
            with os.fdopen(handle, "w") as out:
                json.dump(document, out, indent=1)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise


class TokenIndex:
    """Which user a presented token belongs to: the token file's tokens (re-read when it changes) and
    the digests configured in settings (``mcp.tokens``: user → SHA-256 digests). Thread-safe."""

    def __init__(self, path: Path | None, configured: Mapping[str, Sequence[str]] | None = None) -> None:
        self._path = path
        self._configured = [
            (f"settings-{digest[:8]}", validate_user_id(user), digest)
            for user, digests in (configured or {}).items()
            for digest in map(_digest, digests)
        ]
        self._lock = threading.Lock()
        self._stamp: tuple[int, int, int] | None = None
        self._from_file: list[tuple[str, str, str]] = []

    def known(self) -> int:
        """How many tokens are valid now."""
        return len(self._entries())

    def user_of(self, token: str) -> tuple[str, str] | None:
        """``(user, token id)`` of a valid token, else ``None``. Every known digest is compared, in
        constant time each, whatever matches: the time taken does not depend on the token."""
        presented = hash_token(token[:_MAX_TOKEN_CHARS]).encode()
        found: tuple[str, str] | None = None
        entries = self._entries()
        for token_id, user, digest in entries or [("", "", _NO_DIGEST)]:
            if hmac.compare_digest(presented, digest.encode()) and token_id:
                found = (user, token_id)
        return found

    def _entries(self) -> list[tuple[str, str, str]]:
        return [*self._file_entries(), *self._configured]

    def _file_entries(self) -> list[tuple[str, str, str]]:
        if self._path is None:
            return []
        try:
            status = self._path.stat()
            stamp: tuple[int, int, int] | None = (status.st_ino, status.st_size, status.st_mtime_ns)
        except FileNotFoundError:
            stamp = None
        with self._lock:
            if stamp != self._stamp:
                entries = _read_entries(self._path) if stamp is not None else []
                self._from_file = [(entry.id, entry.user, entry.sha256) for entry in entries]
                self._stamp = stamp
            return self._from_file


def _read_entries(path: Path) -> list[TokenEntry]:
    try:
        document: Any = json.loads(path.read_text())
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"the MCP token file {path} cannot be read: {exc}") from exc
    if not isinstance(document, dict) or document.get("format") != _FORMAT:
        raise ConfigurationError(f"{path} is not an agentx-memory MCP token file")
    try:
        return [
            TokenEntry(**{key: str(value) for key, value in item.items()})
            for item in document.get("tokens", [])
        ]
    except TypeError as exc:
        raise ConfigurationError(f"the MCP token file {path} has a malformed entry: {exc}") from exc


def _digest(value: str) -> str:
    cleaned = value.strip().lower().removeprefix("sha256:")
    if len(cleaned) != 64 or any(ch not in "0123456789abcdef" for ch in cleaned):
        raise ConfigurationError(
            "mcp.tokens holds SHA-256 digests (64 hex digits) of tokens, not tokens: "
            "`agentx-memory mcp-token issue --user U --no-file` prints one"
        )
    return cleaned
