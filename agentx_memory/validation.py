"""Input checks shared by every entry point, expressed as pydantic types (pure, no I/O).

Each check is a :class:`Check`: a pydantic ``TypeAdapter`` over an ``Annotated`` type (strict, so
``True`` is not an integer and ``"3"`` not a number) whose rules carry the message a caller sees, and
the message for a value that is not even of the type. :meth:`Check.__call__` is the one place a
pydantic ``ValidationError`` becomes :class:`InvalidInputError`, with the same messages as the
hand-written checks this module replaced. Every check runs before anything is written, so bad input
changes nothing.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Final, Generic, TypeGuard, TypeVar, get_args

from pydantic import AfterValidator, BeforeValidator, TypeAdapter, ValidationError, ValidationInfo
from pydantic_core import PydanticCustomError

from .crypto import SEALED_KEY
from .errors import InvalidInputError
from .kinds import KindGroup, MemoryKind, kinds_in_groups
from .models import Role
from .settings import LimitSettings
from .timecodec import to_utc

__all__ = [
    "GLOBAL_CHANNEL",
    "Check",
    "idempotent_id",
    "is_one_of",
    "validate_budget",
    "validate_channel",
    "validate_channels",
    "validate_confidence",
    "validate_content",
    "validate_deadline",
    "validate_depth",
    "validate_expertise",
    "validate_flag",
    "validate_index",
    "validate_json_object",
    "validate_json_value",
    "validate_kind_flags",
    "validate_latency",
    "validate_metadata",
    "validate_name",
    "validate_positive_hours",
    "validate_priority",
    "validate_role",
    "validate_strings",
    "validate_timeout",
    "validate_timestamp",
    "validate_tool_name",
    "validate_tool_sequence",
    "validate_top_k",
    "validate_user_id",
    "validate_uuid",
    "validate_window_hours",
    "validate_working_key",
    "working_json",
]

GLOBAL_CHANNEL: Final = "_global"
T = TypeVar("T")
Message = Callable[[Any, Mapping[str, Any]], str]

_MAX_WINDOW_HOURS: Final = 24 * 365 * 100
_MAX_TOOL_SEQUENCE: Final = 50
_MAX_EXPERTISE_AREAS: Final = 200
_MAX_LABEL_CHARS: Final = 200
#: JSON values (metadata, properties, documents) nest at most this deep: ``json`` and the stores'
#: parsers recurse, and no memory needs more.
_MAX_NESTING: Final = 64


def _rule(test: Callable[[Any, Mapping[str, Any]], object], message: Message) -> AfterValidator:
    """A constraint with its own message (``context`` holds the call's limits and names)."""

    def check(value: Any, info: ValidationInfo) -> Any:
        context: Mapping[str, Any] = info.context or {}
        if not test(value, context):
            raise PydanticCustomError("agentx", "{message}", {"message": message(value, context)})
        return value

    return AfterValidator(check)


@dataclass(frozen=True)
class Check(Generic[T]):
    """One input check: the pydantic type, and the message for a value not of that type at all."""

    adapter: TypeAdapter[T]
    message: Message

    def __call__(self, value: object, **context: Any) -> T:
        """``value`` validated (and normalised); :class:`InvalidInputError` with the check's message."""
        try:
            # ``input`` is the value as given: a message shows it, not its coerced form (``0``, not ``0.0``)
            return self.adapter.validate_python(value, strict=True, context={**context, "input": value})
        except ValidationError as exc:
            error = exc.errors(include_url=False)[0]
            custom = error["type"] == "agentx"
            text = str(error["ctx"]["message"]) if custom else self.message(value, context)
            raise InvalidInputError(text) from None


def _check(tp: Any, message: Message) -> Check[Any]:
    return Check(TypeAdapter(tp), message)


def _not_bool_number(value: object) -> object:
    # Strict floats take ints but a bool is an int too: refuse it as today's checks did.
    return "" if isinstance(value, bool) else value


def _nesting(value: object) -> int:
    """How deeply lists and dicts nest in ``value`` (without recursion: it may be very deep)."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, level = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list | tuple) else ()
        for child in children:
            if isinstance(child, dict | list | tuple):
                if level + 1 > _MAX_NESTING:
                    return level + 1
                pending.append((child, level + 1))
        deepest = max(deepest, level)
    return deepest


def _json(value: object, what: str) -> str:
    if _nesting(value) > _MAX_NESTING:
        message = f"{what} nests deeper than {_MAX_NESTING} levels"
        raise PydanticCustomError("agentx", "{message}", {"message": message})
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise PydanticCustomError(
            "agentx", "{message}", {"message": f"{what} must be JSON-serialisable: {exc}"}
        ) from None


def _json_rules(what: Callable[[Mapping[str, Any]], str]) -> AfterValidator:
    """Serialisable, no NUL, within ``limits.max_metadata_bytes`` (from the context)."""

    def check(value: Any, info: ValidationInfo) -> Any:
        context: Mapping[str, Any] = info.context or {}
        name, limit = what(context), context["limits"].max_metadata_bytes
        encoded = _json(value, name)
        message = None
        if "\\u0000" in encoded:
            message = f"{name} contains a NUL character, which no store accepts"
        elif not _utf8(encoded):
            message = f"{name} contains a lone surrogate (not valid UTF-8), which no store accepts"
        elif len(encoded.encode()) > limit:
            message = (
                f"{name} is {len(encoded.encode())} bytes as JSON, over the limit of {limit} "
                "(limits.max_metadata_bytes)"
            )
        if message is not None:
            raise PydanticCustomError("agentx", "{message}", {"message": message})
        return value

    return AfterValidator(check)


def _utf8(text: str) -> bool:
    """Whether ``text`` is valid UTF-8 once encoded (a lone surrogate is not; no store takes it)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _what(context: Mapping[str, Any]) -> str:
    return str(context.get("what", "value"))


# -- identities ------------------------------------------------------------------------------------

_USER_ID_MESSAGE: Message = lambda value, _: (  # noqa: E731
    f"user_id {value!r} is not allowed: use 1-128 characters of letters, digits and _.@+- "
    "starting with a letter or digit"
)
_USER_ID = _check(
    Annotated[
        str, _rule(lambda v, _: re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.@+-]{0,127}", v), _USER_ID_MESSAGE)
    ],
    _USER_ID_MESSAGE,
)
_CHANNEL_MESSAGE: Message = lambda value, _: (  # noqa: E731
    f"channel {value!r} is not allowed: use '_global' or a lowercase slug of at most 100 "
    "characters (a-z, 0-9, '-', '_'; starting with a letter or digit)"
)
_CHANNEL = _check(
    Annotated[
        str,
        _rule(
            lambda v, _: v == GLOBAL_CHANNEL or re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,99}", v), _CHANNEL_MESSAGE
        ),
    ],
    _CHANNEL_MESSAGE,
)
_ROLE = _check(
    Role, lambda value, _: f"role {value!r} is unknown: use one of {', '.join(sorted(get_args(Role)))}"
)
_UUID = _check(
    # anything is read as its text, as ``uuid.UUID(str(value))`` always did; the result is canonical
    Annotated[str, BeforeValidator(str), AfterValidator(lambda v: str(uuid.UUID(v)))],
    lambda value, context: f"{_what(context)} {value!r} is not a UUID",
)


def is_one_of(value: object, choices: Collection[str]) -> TypeGuard[str]:
    """Whether ``value`` is one of the names ``choices`` (a list or a bytes value is not: ``in`` on a
    set would raise TypeError for an unhashable one)."""
    return isinstance(value, str) and value in choices


def validate_user_id(user_id: object) -> str:
    checked: str = _USER_ID(user_id)
    return checked


def validate_channel(channel: object) -> str:
    checked: str = _CHANNEL(channel)
    return checked


def validate_channels(channels: object) -> tuple[str, ...] | None:
    """Distinct channel names in their first order; None (the default channels) stays None."""
    if channels is None:
        return None
    message = "channels must be a non-empty list of channel names"
    if isinstance(channels, str | bytes | bytearray | Mapping) or not isinstance(channels, Iterable):
        raise InvalidInputError(message)
    names = tuple(dict.fromkeys(validate_channel(channel) for channel in channels))
    if not names:
        raise InvalidInputError(message)
    return names


def validate_role(role: object) -> Role:
    checked: Role = _ROLE(role)
    return checked


def validate_uuid(value: object, what: str) -> str:
    """A canonical lowercase UUID string; ids from other users are just as valid (and then not found)."""
    checked: str = _UUID(value, what=what)
    return checked


# -- text ------------------------------------------------------------------------------------------

_CONTENT = _check(
    Annotated[
        str,
        _rule(
            lambda v, _: bool(v.strip()), lambda _, c: f"{_what(c)} is empty: there is nothing to remember"
        ),
        _rule(
            lambda v, _: "\x00" not in v,
            lambda _, c: f"{_what(c)} contains a NUL character, which no store accepts",
        ),
        _rule(
            lambda v, _: _utf8(v),
            lambda _, c: f"{_what(c)} contains a lone surrogate (not valid UTF-8), which no store accepts",
        ),
        _rule(
            lambda v, c: len(v) <= c["limits"].max_content_chars,
            lambda v, c: (
                f"{_what(c)} has {len(v)} characters, over the limit of {c['limits'].max_content_chars} "
                "(setting limits.max_content_chars / AGENTX_LIMITS__MAX_CONTENT_CHARS); split it into turns"
            ),
        ),
    ],
    lambda value, context: f"{_what(context)} must be a string, not {type(value).__name__}",
)


def validate_content(content: object, limits: LimitSettings, what: str = "content") -> str:
    checked: str = _CONTENT(content, limits=limits, what=what)
    return checked


def validate_name(value: object, limits: LimitSettings, what: str) -> str:
    """Content short enough for a name, alias, title or source (``limits.max_title_chars``)."""
    text = validate_content(value, limits, what)
    if len(text) > limits.max_title_chars:
        raise InvalidInputError(f"{what} is longer than {limits.max_title_chars} characters")
    return text


_STRINGS = _check(Sequence[str], lambda _, context: str(context["message"]))


def validate_strings(values: object, message: str) -> list[str]:
    """A list or tuple of strings (a lone string is refused: it is not a list of names)."""
    return list(_STRINGS(values, message=message))


# -- JSON ------------------------------------------------------------------------------------------

_METADATA = _check(
    Annotated[dict[str, Any], _json_rules(lambda _: "metadata")],
    lambda *_: "metadata must be a dict with string keys",
)
_JSON_VALUE = _check(Annotated[Any, _json_rules(_what)], lambda *_: "")
_JSON_OBJECT = _check(
    Annotated[dict[str, Any], _json_rules(_what)],
    lambda _, context: f"{_what(context)} must be a dict with string keys (or None)",
)


def validate_metadata(metadata: object, limits: LimitSettings) -> dict[str, Any]:
    if metadata is None:
        return {}
    checked: dict[str, Any] = _METADATA(metadata, limits=limits)
    return _unsealed(checked, "metadata")


def validate_json_value(value: object, limits: LimitSettings, what: str) -> Any:
    """Any JSON value within the metadata size limit."""
    return _unsealed(_JSON_VALUE(value, limits=limits, what=what), what)


def validate_json_object(value: object, limits: LimitSettings, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    checked: dict[str, Any] = _JSON_OBJECT(value, limits=limits, what=what)
    return _unsealed(checked, what)


def _unsealed(value: T, what: str) -> T:
    """``value``, unless it is an object with the key that marks an encrypted value at rest (it would
    read back as one)."""
    if isinstance(value, dict) and SEALED_KEY in value:
        raise InvalidInputError(f"{what}: the top-level key {SEALED_KEY!r} is reserved: rename it")
    return value


# -- numbers, flags, times -------------------------------------------------------------------------


def _bounded_int(low: int, high: int | None, message: Message) -> Check[int]:
    def inside(value: int, context: Mapping[str, Any]) -> bool:
        top = context.get("high", high)
        return context.get("low", low) <= value and (top is None or value <= top)

    return Check(TypeAdapter(Annotated[int, _rule(inside, message)]), message)


def _bounded_float(test: Callable[[float], bool], message: Message) -> Check[float]:
    def as_given(_value: float, context: Mapping[str, Any]) -> str:
        return message(context["input"], context)

    return Check(
        TypeAdapter(
            Annotated[float, BeforeValidator(_not_bool_number), _rule(lambda v, _: test(v), as_given)]
        ),
        message,
    )


_TOP_K = _bounded_int(
    1, None, lambda value, c: f"{_what(c)} must be an integer from 1 to {c['high']}, not {value!r}"
)
_INDEX = _bounded_int(0, None, lambda value, c: f"{_what(c)} must be a non-negative integer, not {value!r}")
_DEPTH = _bounded_int(1, None, lambda value, _: f"depth must be a positive integer, not {value!r}")
_PRIORITY = _bounded_int(
    -1000, 1000, lambda value, _: f"priority must be an integer from -1000 to 1000, not {value!r}"
)
_BUDGET = _bounded_int(
    0,
    None,
    lambda value, c: f"budget_tokens must be an integer from {c['low']} to {c['high']}, not {value!r}",
)
_CONFIDENCE = _bounded_float(
    lambda v: 0.0 <= v <= 1.0, lambda value, c: f"{_what(c)} must be a number from 0 to 1, not {value!r}"
)
_HOURS = _bounded_float(
    # bounded like a time window: a look-back before year 1 is no date at all
    lambda v: 0 < v <= _MAX_WINDOW_HOURS,
    lambda value, _: f"hours must be a positive number of at most {_MAX_WINDOW_HOURS}, not {value!r}",
)
_WINDOW = _bounded_float(
    lambda v: 0 < v <= _MAX_WINDOW_HOURS,
    lambda value, _: f"time_window_hours must be a positive number, not {value!r}",
)
_TIMEOUT = _bounded_float(
    lambda v: 0 < v <= 3600, lambda value, _: f"timeout_s must be a positive number of seconds, not {value!r}"
)
_LATENCY = _bounded_float(
    lambda v: 0 <= v < 1e12, lambda value, _: f"latency_ms must be a non-negative number, not {value!r}"
)
_FLAG = _check(bool, lambda value, c: f"{_what(c)} must be True or False, not {value!r}")
#: The moments a memory may carry: a day inside ``datetime``'s range, so that any zone's offset and
#: the graph's epoch milliseconds (read back through a float) convert without leaving it.
_EARLIEST: Final = datetime.min.replace(tzinfo=UTC) + timedelta(days=1)
_LATEST: Final = datetime.max.replace(tzinfo=UTC) - timedelta(days=1)


def _utc_in_range(value: datetime, info: ValidationInfo) -> datetime:
    try:
        moment: datetime | None = to_utc(value)
    except OverflowError:  # e.g. 9999-12-31 23:00 at UTC-12
        moment = None
    if moment is None or not _EARLIEST <= moment <= _LATEST:
        what = _what(info.context or {})
        message = f"{what} {value.isoformat()} is out of range: use a moment from 0001-01-02 to 9999-12-30"
        raise PydanticCustomError("agentx", "{message}", {"message": message})
    return moment


_TIMESTAMP = _check(
    Annotated[datetime, AfterValidator(_utc_in_range)],
    lambda value, c: f"{_what(c)} must be a datetime{c.get('or_none', '')}, not {type(value).__name__}",
)


def validate_top_k(top_k: object, limits: LimitSettings, what: str = "top_k") -> int:
    return _TOP_K(top_k, what=what, high=limits.max_top_k)


def validate_index(value: object, what: str = "turn_index") -> int:
    return _INDEX(value, what=what)


def validate_depth(depth: object) -> int:
    return _DEPTH(depth)


def validate_priority(priority: object) -> int:
    return _PRIORITY(priority)


def validate_budget(budget_tokens: object, low: int, high: int) -> int:
    return _BUDGET(budget_tokens, low=low, high=high)


def validate_confidence(value: object, what: str = "confidence") -> float:
    return _CONFIDENCE(value, what=what)


def validate_positive_hours(hours: object) -> float:
    return _HOURS(hours)


def validate_window_hours(hours: object) -> float:
    return _WINDOW(hours)


def validate_timeout(seconds: object) -> float:
    """A timeout in seconds: positive, at most an hour."""
    return _TIMEOUT(seconds)


def validate_latency(latency_ms: object) -> float:
    return _LATENCY(latency_ms)


def validate_flag(value: object, what: str) -> bool:
    checked: bool = _FLAG(value, what=what)
    return checked


def validate_timestamp(value: object, what: str = "timestamp") -> datetime:
    """A datetime in UTC (a naive one is taken as UTC, the only zone the stores use)."""
    checked: datetime = _TIMESTAMP(value, what=what)
    return checked


def validate_deadline(deadline: object) -> datetime | None:
    if deadline is None:
        return None
    checked: datetime = _TIMESTAMP(deadline, what="deadline", or_none=" or None")
    return checked


# -- tools and profiles ----------------------------------------------------------------------------

_TOOL_NAME_MESSAGE: Message = lambda value, _: (  # noqa: E731
    f"tool_name {value!r} is not allowed: use 1-100 characters of letters, digits and _.- "
    "starting with a letter or digit"
)
_TOOL_NAME = _check(
    Annotated[
        str, _rule(lambda v, _: re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}", v), _TOOL_NAME_MESSAGE)
    ],
    _TOOL_NAME_MESSAGE,
)
_TOOL_SEQUENCE = _check(
    Annotated[
        Sequence[Any],
        _rule(lambda v, _: not isinstance(v, str), lambda *_: "tool_sequence must be a list of tool names"),
        _rule(
            lambda v, _: 1 <= len(v) <= _MAX_TOOL_SEQUENCE,
            lambda *_: f"tool_sequence must name 1 to {_MAX_TOOL_SEQUENCE} tools",
        ),
    ],
    lambda *_: "tool_sequence must be a list of tool names",
)
_AREA_MESSAGE: Message = lambda value, _: (  # noqa: E731
    f"expertise area {value!r} is not allowed: use a non-empty string of at most "
    f"{_MAX_LABEL_CHARS} characters"
)
_AREA = _check(
    Annotated[
        str,
        _rule(lambda v, _: bool(v.strip()) and "\x00" not in v and len(v) <= _MAX_LABEL_CHARS, _AREA_MESSAGE),
    ],
    _AREA_MESSAGE,
)
_AREAS = _check(
    Annotated[
        Sequence[Any],
        _rule(lambda v, _: not isinstance(v, str), lambda *_: "expertise_areas must be a list of strings"),
    ],
    lambda *_: "expertise_areas must be a list of strings",
)


def validate_tool_name(name: object) -> str:
    checked: str = _TOOL_NAME(name)
    return checked


def validate_tool_sequence(names: object) -> list[str]:
    return [validate_tool_name(name) for name in _TOOL_SEQUENCE(names)]


def validate_expertise(areas: object) -> list[str] | None:
    """Distinct expertise labels in their first order (None: leave the profile's as they are)."""
    if areas is None:
        return None
    unique = list(dict.fromkeys(_AREA(area) for area in _AREAS(areas)))
    if len(unique) > _MAX_EXPERTISE_AREAS:
        raise InvalidInputError(f"at most {_MAX_EXPERTISE_AREAS} expertise areas are allowed")
    return unique


# -- working memory --------------------------------------------------------------------------------

_WORKING_KEY_MESSAGE: Message = lambda value, _: (  # noqa: E731
    f"working-memory key {value!r} must be 1-100 characters of [A-Za-z0-9_.-]"
)
_WORKING_KEY = _check(
    Annotated[str, _rule(lambda v, _: re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", v), _WORKING_KEY_MESSAGE)],
    _WORKING_KEY_MESSAGE,
)


def validate_working_key(name: object) -> str:
    checked: str = _WORKING_KEY(name)
    return checked


def working_json(value: object) -> str:
    """``value`` as the JSON working memory stores."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"working-memory values must be JSON-serialisable: {exc}") from exc


def validate_kind_flags(episodic: bool, semantic: bool, procedural: bool) -> frozenset[MemoryKind]:
    """The kinds ``remember``'s ``include_*`` flags select (at least one group)."""
    flags: dict[KindGroup, bool] = {"episodic": episodic, "semantic": semantic, "procedural": procedural}
    kinds = kinds_in_groups({group for group, included in flags.items() if included})
    if not kinds:
        raise InvalidInputError("remember needs at least one of include_episodic/semantic/procedural")
    return kinds


#: Namespace of the ids derived from a caller's idempotency key (never change: ids are stored).
_IDEMPOTENCY_NAMESPACE = uuid.UUID("9d5c2a8e-3f41-4b7e-8a6d-2c1e5f0b7a93")


def idempotent_id(key: object, limits: LimitSettings, *scope: str) -> str | None:
    """The id a write with idempotency ``key`` gets (None without a key): a UUID derived from the key
    and ``scope`` (the user, the conversation …), so a retried call finds what the first one stored
    and two users' equal keys never meet."""
    if key is None:
        return None
    checked = validate_name(key, limits, "idempotency_key")
    return str(uuid.uuid5(_IDEMPOTENCY_NAMESPACE, "\x1f".join((*scope, checked))))
