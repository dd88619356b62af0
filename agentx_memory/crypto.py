"""Encryption of sensitive ledger values at rest: AES-256-GCM over JSON, bound to the owning user.

Pure (no I/O): :class:`Encryptor` turns a JSON value into an envelope string and back; the Postgres
adapter applies it to the columns listed in ``stores/sealing.py``. An envelope reads
``agx1:<kid>:<base64 of nonce + ciphertext + tag>``: ``agx1`` is the format version, ``kid`` names the
key (a digest of it, so a wrong key is told apart from a damaged value without trying it), the nonce
is 96 random bits per value. The associated data is the owning ``user_id``: a value copied into
another user's row does not decrypt.

A sealed JSON value as stored in a jsonb column is the object ``{"agx_sealed": "<envelope>"}``, plus
the plain keys a caller chose to keep searchable (a turn's ``speaker``, part of its full-text column).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from .errors import DecryptionError, EncryptionKeyError

if TYPE_CHECKING:
    from .settings import SecuritySettings

__all__ = [
    "ENVELOPE_VERSION",
    "SEALED_KEY",
    "Encryptor",
    "build_encryptor",
    "is_envelope",
    "is_sealed",
    "key_id",
    "open_json",
    "open_text",
    "parse_key",
    "seal_json",
    "seal_text",
]

ENVELOPE_VERSION = "agx1"
SEALED_KEY = "agx_sealed"
_NONCE_BYTES = 12
_ENV = "AGENTX_SECURITY__ENCRYPTION_KEY"
_OLD_ENV = "AGENTX_SECURITY__OLD_ENCRYPTION_KEYS"


def parse_key(text: str) -> bytes:
    """The 32 raw bytes of a base64 key (standard or URL-safe alphabet); ``ValueError`` otherwise."""
    cleaned = text.strip()
    try:
        raw = base64.b64decode(cleaned.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("an encryption key must be base64 (e.g. `openssl rand -base64 32`)") from None
    if len(raw) != 32:
        raise ValueError(f"an encryption key must be 32 bytes (AES-256), this one has {len(raw)}")
    return raw


def key_id(key: bytes) -> str:
    """A short public name of ``key``: 8 hex digits of a domain-separated SHA-256 (not the key)."""
    return hashlib.sha256(b"agentx-memory key id\x00" + key).hexdigest()[:8]


class Encryptor:
    """Encrypts with the current key; decrypts with the current key or any old one (rotation)."""

    def __init__(self, current: bytes, old: Sequence[bytes] = ()) -> None:
        self.current_kid = key_id(current)
        self._current = AESGCM(current)
        self._keys: dict[str, AESGCM] = {key_id(key): AESGCM(key) for key in old}
        self._keys[self.current_kid] = self._current

    @property
    def prefix(self) -> str:
        """The start of every envelope the current key writes (rotation finds the others by it)."""
        return f"{ENVELOPE_VERSION}:{self.current_kid}:"

    def encrypt(self, value: Any, user_id: str) -> str:
        """``value`` (anything JSON can hold) as an envelope bound to ``user_id``."""
        plain = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
        nonce = os.urandom(_NONCE_BYTES)
        sealed = self._current.encrypt(nonce, plain, _associated(user_id))
        return self.prefix + base64.b64encode(nonce + sealed).decode("ascii")

    def decrypt(self, envelope: str, user_id: str) -> Any:
        """The value of an envelope written for ``user_id``; :class:`EncryptionKeyError` when its key is
        not configured, :class:`DecryptionError` when it is damaged or belongs to another user."""
        kid, body = _split(envelope)
        cipher = self._keys.get(kid)
        if cipher is None:
            raise EncryptionKeyError(
                f"a stored value is encrypted with key {kid}, which is not configured: set {_ENV} to it, "
                f"or list it in {_OLD_ENV} while `agentx-memory rotate-key` re-encrypts under the new one"
            )
        try:
            raw = base64.b64decode(body, validate=True)
            plain = cipher.decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], _associated(user_id))
        except (InvalidTag, binascii.Error, ValueError):
            raise DecryptionError(
                f"a stored value (key {kid}) failed authentication for user {user_id!r}: it was altered, "
                "or copied from another user's row"
            ) from None
        return json.loads(plain)


def build_encryptor(settings: SecuritySettings) -> Encryptor | None:
    """The configured encryptor, or ``None`` without ``encryption_key`` (values are stored plain)."""
    if settings.encryption_key is None:
        if settings.old_encryption_keys:
            raise EncryptionKeyError(
                f"{_OLD_ENV} is set but {_ENV} is not: old keys only decrypt, set the current key too"
            )
        return None
    old = [parse_key(key.get_secret_value()) for key in settings.old_encryption_keys]
    return Encryptor(parse_key(settings.encryption_key.get_secret_value()), old)


def _associated(user_id: str) -> bytes:
    return f"{ENVELOPE_VERSION}|user|{user_id}".encode()


def _split(envelope: str) -> tuple[str, str]:
    version, _, rest = envelope.partition(":")
    kid, _, body = rest.partition(":")
    if version != ENVELOPE_VERSION or not kid or not body:
        raise DecryptionError(f"not an agentx-memory envelope (version {version!r}): the value is damaged")
    return kid, body


def is_sealed(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get(SEALED_KEY), str)


def seal_json(encryptor: Encryptor, value: Any, user_id: str, keep: Iterable[str] = ()) -> dict[str, Any]:
    """``value`` sealed for a jsonb column, with the top-level keys in ``keep`` left readable."""
    sealed: dict[str, Any] = {SEALED_KEY: encryptor.encrypt(value, user_id)}
    if isinstance(value, Mapping):
        sealed.update({key: value[key] for key in keep if key in value})
    return sealed


def open_json(encryptor: Encryptor | None, value: Any, user_id: str) -> Any:
    """A jsonb column's value as written: sealed values decrypted, plain ones as they are."""
    if not is_sealed(value):
        return value
    if encryptor is None:
        raise _no_key()
    return encryptor.decrypt(value[SEALED_KEY], user_id)


def is_envelope(text: object) -> bool:
    """Whether a text property (graph, Redis) holds an envelope rather than plain JSON text."""
    return isinstance(text, str) and text.startswith(ENVELOPE_VERSION + ":")


def seal_text(encryptor: Encryptor | None, value: Any, user_id: str) -> str:
    """``value`` as a text property of the graph or Redis: its envelope with a key, else its JSON text
    exactly as written before encryption existed (so plain stores read as they always did)."""
    if encryptor is None:
        return json.dumps(value, ensure_ascii=False)
    return encryptor.encrypt(value, user_id)


def open_text(encryptor: Encryptor | None, text: str | None, user_id: str) -> Any:
    """The value of a text property written by :func:`seal_text` (either form); ``None`` for none."""
    if text is None:
        return None
    if not is_envelope(text):
        return json.loads(text)
    if encryptor is None:
        raise _no_key()
    return encryptor.decrypt(text, user_id)


def _no_key() -> EncryptionKeyError:
    return EncryptionKeyError(
        f"a stored value is encrypted but no key is configured: set {_ENV} (and {_OLD_ENV} for "
        "keys being rotated out) to read it"
    )
