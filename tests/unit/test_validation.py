"""The input checks shared by every entry point (pure functions)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from agentx_memory.errors import AgentMemoryError, InvalidInputError
from agentx_memory.settings import LimitSettings
from agentx_memory.validation import (
    GLOBAL_CHANNEL,
    validate_channel,
    validate_content,
    validate_metadata,
    validate_role,
    validate_top_k,
    validate_user_id,
    validate_uuid,
)

LIMITS = LimitSettings(max_content_chars=10, max_metadata_bytes=40, max_top_k=50)


def test_invalid_input_is_both_ours_and_a_value_error() -> None:
    assert issubclass(InvalidInputError, AgentMemoryError)
    assert issubclass(InvalidInputError, ValueError)


@pytest.mark.parametrize(
    "user_id", ["alice", "A", "7", "bob.smith@example.com", "a+b", "user_1-x", "x" * 128, "0lead"]
)
def test_valid_user_ids(user_id: str) -> None:
    assert validate_user_id(user_id) == user_id


@pytest.mark.parametrize(
    "user_id",
    ["", "a:b", "x*", "x?", "a[b]", "x" * 129, "x" * 200, "../etc", "_lead", ".lead", "-lead", "a b", "a/b",
     "ä", "a\x00", "a\nb", None, 42, b"alice"],
)  # fmt: skip
def test_invalid_user_ids(user_id: Any) -> None:
    with pytest.raises(InvalidInputError, match="user_id") as caught:
        validate_user_id(user_id)
    assert "letters, digits" in str(caught.value)


@pytest.mark.parametrize("channel", ["_global", "proj", "proj-a", "a_b", "0", "x" * 100])
def test_valid_channels(channel: str) -> None:
    assert validate_channel(channel) == channel


@pytest.mark.parametrize(
    "channel", ["Proj", "a b", "_other", "_", "x" * 101, "", "-x", "a:b", "proj*", "é", None, 3]
)
def test_invalid_channels(channel: Any) -> None:
    with pytest.raises(InvalidInputError, match="channel") as caught:
        validate_channel(channel)
    assert "_global" in str(caught.value)


def test_global_channel_constant() -> None:
    assert GLOBAL_CHANNEL == "_global"


@pytest.mark.parametrize("role", ["user", "assistant", "system", "tool"])
def test_valid_roles(role: str) -> None:
    assert validate_role(role) == role


@pytest.mark.parametrize("role", ["User", "robot", "", None, 1, "user "])
def test_invalid_roles_list_the_allowed_ones(role: Any) -> None:
    with pytest.raises(InvalidInputError) as caught:
        validate_role(role)
    assert "assistant, system, tool, user" in str(caught.value)


def test_content_limits_are_inclusive() -> None:
    assert validate_content("x" * 10, LIMITS) == "x" * 10
    assert validate_content(" padded ", LIMITS) == " padded "  # stored as given, not stripped
    with pytest.raises(InvalidInputError, match="max_content_chars") as caught:
        validate_content("x" * 11, LIMITS)
    assert "11 characters" in str(caught.value)
    assert "limit of 10" in str(caught.value)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("", "empty"),
        ("  \t\n", "empty"),
        ("a\x00", "NUL"),
        (5, "must be a string"),
        (None, "must be a string"),
    ],
)
def test_invalid_content(content: Any, expected: str) -> None:
    with pytest.raises(InvalidInputError, match=expected):
        validate_content(content, LIMITS)


def test_content_messages_name_the_field() -> None:
    with pytest.raises(InvalidInputError, match=r"^title is empty"):
        validate_content("", LIMITS, "title")
    with pytest.raises(InvalidInputError, match=r"^query has 11 characters"):
        validate_content("q" * 11, LIMITS, "query")


def test_metadata_accepts_json_dicts() -> None:
    assert validate_metadata(None, LIMITS) == {}
    value = {"a": [1, 2.5, None, True], "b": {"c": "d"}}
    assert validate_metadata(value, LimitSettings()) is value


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ("{}", "dict"),
        ([1], "dict"),
        ({1: "x"}, "string keys"),
        ({"a": object()}, "JSON"),
        ({"a": float("nan")}, "JSON"),
        ({"a": float("inf")}, "JSON"),
        ({"a": {1, 2}}, "JSON"),
        ({"a": "x\x00"}, "NUL"),
        ({"k": "x" * 40}, "max_metadata_bytes"),
        ({"k": "é" * 16}, "max_metadata_bytes"),  # 41 bytes but only 25 characters
    ],
)
def test_invalid_metadata(metadata: Any, expected: str) -> None:
    with pytest.raises(InvalidInputError, match=expected):
        validate_metadata(metadata, LIMITS)


def test_metadata_limit_is_inclusive() -> None:
    fits = {"k": "x" * 31}  # {"k": "…"} is 9 bytes of JSON around the value
    assert len('{"k": "' + "x" * 31 + '"}') == 40
    assert validate_metadata(fits, LIMITS) == fits


def test_uuid_is_canonicalised() -> None:
    value = uuid.uuid4()
    assert validate_uuid(value, "id") == str(value)
    assert validate_uuid(str(value).upper(), "id") == str(value)
    assert validate_uuid(value.hex, "id") == str(value)
    assert validate_uuid("{" + str(value) + "}", "id") == str(value)


@pytest.mark.parametrize(
    "value", ["", "not-a-uuid", "1234", "' OR 1=1 --", None, 42, str(uuid.uuid4()) + "0"]
)
def test_invalid_uuid_names_the_field(value: Any) -> None:
    with pytest.raises(InvalidInputError, match=r"^conversation_id .* is not a UUID$"):
        validate_uuid(value, "conversation_id")


@pytest.mark.parametrize("top_k", [1, 25, 50])
def test_valid_top_k(top_k: int) -> None:
    assert validate_top_k(top_k, LIMITS) == top_k


@pytest.mark.parametrize("top_k", [0, -1, 51, 10_000, True, False, 1.0, "5", None])
def test_invalid_top_k(top_k: Any) -> None:
    with pytest.raises(InvalidInputError, match="from 1 to 50"):
        validate_top_k(top_k, LIMITS)
