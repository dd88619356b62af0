"""The LangGraph store's filter rules: a dotted key reaches nested fields, as the SQLite store's
``json_extract`` path does, and a top-level field of the very name wins, as InMemoryStore reads it."""

from __future__ import annotations

from typing import Any

import pytest

from agentx_memory.integrations.langgraph_rules import field_at, matches_filter

VALUE: dict[str, Any] = {"u": {"a": 1, "b": {"c": "deep"}, "list": [1, 2]}, "n": 2, "x.y": "flat"}


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("n", 2),
        ("u.a", 1),
        ("u.b.c", "deep"),
        ("u.b", {"c": "deep"}),
        ("u.list", [1, 2]),
        ("x.y", "flat"),  # a top-level field named with a dot
        ("u.missing", None),
        ("u.a.deeper", None),  # through a number
        ("u.list.0", None),  # dots name object fields, not list positions
        ("missing", None),
    ],
)
def test_field_at(key: str, expected: Any) -> None:
    assert field_at(VALUE, key) == expected


def test_filters_with_dotted_keys() -> None:
    assert matches_filter(VALUE, {"u.a": 1, "n": 2})
    assert matches_filter(VALUE, {"u.a": {"$gte": 1, "$lt": 2}})
    assert matches_filter(VALUE, {"u.b": {"c": "deep"}})
    assert matches_filter(VALUE, {"u.missing": {"$ne": 1}})
    assert not matches_filter(VALUE, {"u.a": 2})
    assert not matches_filter(VALUE, {"u.b.c": "shallow"})
