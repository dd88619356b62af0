"""Hypothesis strategies for hostile input: unicode edge cases, wrong types, odd numbers, nested and
huge JSON, and ids (random, alice's own, and bob's, which alice must see as missing)."""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

from hypothesis import strategies as st

__all__ = [
    "NASTY_TEXTS",
    "Shown",
    "any_value",
    "deep",
    "floats",
    "ids",
    "ints",
    "json_objects",
    "maybe",
    "nasty_text",
    "string_lists",
    "text",
    "timestamps",
]

ONE_MB = 1_000_000


class Shown(dict[str, Any]):
    """A dict that prints as its label: hypothesis' printer would recurse through 2,000 levels."""

    def __init__(self, label: str, value: dict[str, Any]) -> None:
        super().__init__(value)
        self.label = label

    def __repr__(self) -> str:
        return self.label

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.label)


def deep(depth: int) -> Shown:
    """``{"deep": [{"k": [...]}]}`` nested ``depth`` levels."""
    value: Any = "leaf"
    for level in range(depth):
        value = {"k": value} if level % 2 else [value]
    return Shown(f"deep({depth})", {"deep": value})


#: Strings every text field must survive (or refuse with an AgentMemoryError).
NASTY_TEXTS: list[str] = [
    "",
    " ",
    "\t\n\r",
    "\x00",
    "a\x00b",
    "\ud800",  # a lone high surrogate: not encodable as UTF-8
    "ok \udfff end",
    "\u202eevil\u202c",  # right-to-left override
    "\u200f\u200e\u061c",  # bidi marks
    "\u200b\u200c\u200d\u2060\ufeff",  # zero-width characters only
    "zero\u200bwidth",
    "e\u0301\u0301\u0301\u0301",  # combining marks
    "\u0300",  # a combining mark alone
    "Z\u0351\u0355\u0361\u0362" * 50,
    "\U0001f600\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\uffff\ufffe\U0010ffff",
    "\x7f\x1b[31mred",
    "' OR '1'='1",
    "}) MATCH (n) DETACH DELETE n //",
    "$user_id",
    "%s %(x)s {0}",
    "*",
    "a:b:*",
    "..",
    "a" * 10_001,
    "x" * ONE_MB,
    "\u00e9" * ONE_MB,
]


def nasty_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(NASTY_TEXTS),
        st.text(max_size=40),
        st.text(alphabet=st.characters(codec=None, categories=["Cs", "Cf", "Mn", "Zs", "Cc"]), max_size=8),
        st.tuples(st.text(max_size=10), st.sampled_from(NASTY_TEXTS[:16])).map("".join),
    )


#: Values of the wrong type for any parameter.
_WRONG: list[Any] = [
    None,
    0,
    -1,
    True,
    2**64,
    -(2**70),
    1.5,
    math.nan,
    math.inf,
    -math.inf,
    b"bytes",
    b"\xff\xfe",
    bytearray(b"x"),
    [],
    ["a"],
    {},
    {"a": 1},
    (),
    {"a"},
    object(),
    Decimal("NaN"),
    complex(1, 1),
    datetime(2024, 1, 1, tzinfo=UTC),
    uuid.UUID(int=1),
]


def wrong_type() -> st.SearchStrategy[Any]:
    return st.sampled_from(_WRONG)


def any_value() -> st.SearchStrategy[Any]:
    return st.one_of(nasty_text(), wrong_type())


def maybe(valid: st.SearchStrategy[Any], weight_valid: int = 2) -> st.SearchStrategy[Any]:
    """Mostly a valid value (so the call reaches the stores), sometimes anything at all."""
    return st.one_of(*([valid] * weight_valid), any_value())


def text(valid: Sequence[str] = ("hello", "Helix editor", "tests for the parser")) -> st.SearchStrategy[Any]:
    return maybe(st.one_of(st.sampled_from(list(valid)), st.text(min_size=1, max_size=30)))


def ints(low: int = 0, high: int = 20) -> st.SearchStrategy[Any]:
    edge = st.sampled_from([-(2**63), -1, 0, 1, 2**31, 2**63, 10**30])
    return st.one_of(st.integers(low, high), st.integers(low, high), edge, st.integers(), wrong_type())


def floats(low: float = 0.0, high: float = 1.0) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.floats(low, high),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([-0.0, 1e-320, 1e308, -1e308]),
        wrong_type(),
    )


def timestamps() -> st.SearchStrategy[Any]:
    zones = st.sampled_from([UTC, timezone(timedelta(hours=14)), timezone(timedelta(hours=-12))])
    return st.one_of(
        st.none(),
        st.datetimes(timezones=st.none() | zones),
        st.sampled_from([datetime.min, datetime.max, datetime.max.replace(tzinfo=UTC)]),
        any_value(),
    )


def _json_leaf() -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), nasty_text())


def json_objects() -> st.SearchStrategy[Any]:
    """Metadata: small valid dicts, nested and huge ones, and non-JSON values and keys."""
    nested = st.recursive(
        _json_leaf(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=12,
    )
    odd = st.sampled_from(
        [
            deep(2_000),
            deep(50),
            {"k" * 200_000: 1},
            {"big": "v" * ONE_MB},
            {1: "int key"},
            {None: "none key"},
            {("a", "b"): "tuple key"},
            {"set": {1, 2}},
            {"bytes": b"\x00"},
            {"nan": math.nan},
            {"inf": math.inf},
            {"when": datetime(2024, 1, 1)},
            {"obj": object()},
            {"huge": 10**400},
            {"nul": "a\x00b"},
            {"a\x00": 1},
            {"sur": "\ud800"},
            {"\udfff": 1},
        ]
    )
    return st.one_of(
        st.none(), st.dictionaries(st.text(max_size=10), _json_leaf(), max_size=4), nested, odd, wrong_type()
    )


def string_lists(valid: Sequence[str] = ("git", "pytest")) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(st.sampled_from(list(valid)), min_size=1, max_size=3),
        st.lists(nasty_text(), max_size=3),
        st.lists(wrong_type(), min_size=1, max_size=2),
        st.just(["x"] * 10_000),
        any_value(),
    )


def ids(own: Sequence[str], others: Sequence[str]) -> st.SearchStrategy[Any]:
    """An id: random, one of alice's own, one of bob's (must be 'not found'), or garbage."""
    return st.one_of(
        st.uuids().map(str),
        st.sampled_from(list(own)),
        st.sampled_from(list(others)),
        st.sampled_from(list(others)).map(str.upper),
        st.sampled_from(list(others)).map(lambda value: "{" + value + "}"),
        st.uuids(),
        any_value(),
    )
