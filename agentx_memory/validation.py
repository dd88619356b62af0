"""Input checks shared by every entry point (pure functions, no I/O).

Each raises :class:`InvalidInputError` with a message that says what is allowed, before anything is
written, so bad input changes nothing.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from .errors import InvalidInputError
from .models import ROLES, Role
from .settings import LimitSettings

__all__ = [
    "GLOBAL_CHANNEL",
    "validate_channel",
    "validate_content",
    "validate_metadata",
    "validate_role",
    "validate_top_k",
    "validate_user_id",
    "validate_uuid",
]

GLOBAL_CHANNEL = "_global"
_USER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,127}$")
_CHANNEL = re.compile(r"^[a-z0-9][a-z0-9_-]{0,99}$")


def validate_user_id(user_id: object) -> str:
    if not isinstance(user_id, str) or not _USER_ID.match(user_id):
        raise InvalidInputError(
            f"user_id {user_id!r} is not allowed: use 1-128 characters of letters, digits and _.@+- "
            "starting with a letter or digit"
        )
    return user_id


def validate_channel(channel: object) -> str:
    if channel == GLOBAL_CHANNEL:
        return GLOBAL_CHANNEL
    if not isinstance(channel, str) or not _CHANNEL.match(channel):
        raise InvalidInputError(
            f"channel {channel!r} is not allowed: use '_global' or a lowercase slug of at most 100 "
            "characters (a-z, 0-9, '-', '_'; starting with a letter or digit)"
        )
    return channel


def validate_role(role: object) -> Role:
    if role not in ROLES:
        raise InvalidInputError(f"role {role!r} is unknown: use one of {', '.join(sorted(ROLES))}")
    return role  # type: ignore[return-value]  # narrowed by the membership test above


def validate_content(content: object, limits: LimitSettings, what: str = "content") -> str:
    if not isinstance(content, str):
        raise InvalidInputError(f"{what} must be a string, not {type(content).__name__}")
    if not content.strip():
        raise InvalidInputError(f"{what} is empty: there is nothing to remember")
    if "\x00" in content:
        raise InvalidInputError(f"{what} contains a NUL character, which no store accepts")
    if len(content) > limits.max_content_chars:
        raise InvalidInputError(
            f"{what} has {len(content)} characters, over the limit of {limits.max_content_chars} "
            "(setting limits.max_content_chars / AGENTX_LIMITS__MAX_CONTENT_CHARS); split it into turns"
        )
    return content


def validate_metadata(metadata: object, limits: LimitSettings) -> dict[str, Any]:
    if metadata is None:
        return {}
    if not isinstance(metadata, dict) or not all(isinstance(key, str) for key in metadata):
        raise InvalidInputError("metadata must be a dict with string keys")
    try:
        encoded = json.dumps(metadata, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"metadata must be JSON-serialisable: {exc}") from exc
    if "\\u0000" in encoded:
        raise InvalidInputError("metadata contains a NUL character, which no store accepts")
    if len(encoded.encode()) > limits.max_metadata_bytes:
        raise InvalidInputError(
            f"metadata is {len(encoded.encode())} bytes as JSON, over the limit of "
            f"{limits.max_metadata_bytes} (limits.max_metadata_bytes)"
        )
    return metadata


def validate_uuid(value: object, what: str) -> str:
    """A canonical lowercase UUID string; ids from other users are just as valid (and then not found)."""
    if isinstance(value, uuid.UUID):
        return str(value)
    try:
        return str(uuid.UUID(str(value)))
    except ValueError as exc:
        raise InvalidInputError(f"{what} {value!r} is not a UUID") from exc


def validate_top_k(top_k: object, limits: LimitSettings, what: str = "top_k") -> int:
    if not isinstance(top_k, int) or isinstance(top_k, bool) or not 1 <= top_k <= limits.max_top_k:
        raise InvalidInputError(f"{what} must be an integer from 1 to {limits.max_top_k}, not {top_k!r}")
    return top_k
