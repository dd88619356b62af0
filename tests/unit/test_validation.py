"""The input checks shared by every entry point (pure functions)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from agentx_memory.errors import AgentMemoryError, InvalidInputError
from agentx_memory.settings import LimitSettings
from agentx_memory.validation import (
    GLOBAL_CHANNEL,
    validate_budget,
    validate_channel,
    validate_confidence,
    validate_content,
    validate_deadline,
    validate_expertise,
    validate_index,
    validate_metadata,
    validate_positive_hours,
    validate_priority,
    validate_role,
    validate_strings,
    validate_timestamp,
    validate_tool_sequence,
    validate_top_k,
    validate_user_id,
    validate_uuid,
    validate_window_hours,
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
    assert validate_metadata(value, LimitSettings()) == value


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


# A fixed UUID with a digit too many (not a fresh uuid4: pytest-xdist workers must collect the same ids).
@pytest.mark.parametrize(
    "value", ["", "not-a-uuid", "1234", "' OR 1=1 --", None, 42, "7c9e6679-7425-40de-944b-e07fc1f90ae7" + "0"]
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


# -- the pydantic checks: one translation, today's messages -------------------------------------------


def test_a_bool_is_not_a_number_anywhere() -> None:
    for call in (
        lambda: validate_top_k(True, LIMITS),
        lambda: validate_index(False),
        lambda: validate_confidence(True),
        lambda: validate_positive_hours(True),
        lambda: validate_priority(True),
    ):
        with pytest.raises(InvalidInputError, match=r"True|False"):
            call()


def test_numbers_are_normalised_and_bounded() -> None:
    assert validate_confidence(1) == 1.0
    assert isinstance(validate_confidence(1), float)
    assert validate_window_hours(24) == 24.0
    with pytest.raises(InvalidInputError, match=r"^time_window_hours must be a positive number, not 0$"):
        validate_window_hours(0)
    with pytest.raises(
        InvalidInputError, match=r"^budget_tokens must be an integer from 100 to 200, not 99$"
    ):
        validate_budget(99, 100, 200)
    assert validate_budget(150, 100, 200) == 150


def test_lists_of_strings_refuse_a_lone_string() -> None:
    assert validate_strings(("a", "b"), "names!") == ["a", "b"]
    for bad in ("ab", ["a", 1], 3):
        with pytest.raises(InvalidInputError, match=r"^names!$"):
            validate_strings(bad, "names!")
    with pytest.raises(InvalidInputError, match="tool_sequence must be a list of tool names"):
        validate_tool_sequence("search")
    with pytest.raises(InvalidInputError, match="expertise_areas must be a list of strings"):
        validate_expertise("python")
    assert validate_expertise(["a", "b", "a"]) == ["a", "b"]


def test_times_come_back_in_utc() -> None:
    naive = datetime(2026, 5, 3, 12, 0)
    assert validate_timestamp(naive) == naive.replace(tzinfo=UTC)
    paris = datetime(2026, 5, 3, 14, 0, tzinfo=timezone(timedelta(hours=2)))
    assert validate_timestamp(paris) == datetime(2026, 5, 3, 12, 0, tzinfo=UTC)
    assert validate_timestamp(paris).tzinfo == UTC
    with pytest.raises(InvalidInputError, match=r"^deadline must be a datetime or None, not str$"):
        validate_deadline("tomorrow")


def test_uuid_text_is_canonical_and_anything_else_is_read_as_text() -> None:
    upper = "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"
    assert validate_uuid(upper, "id") == upper.lower()
    assert validate_uuid(uuid.UUID(upper), "id") == upper.lower()
    with pytest.raises(InvalidInputError, match=r"^id 5 is not a UUID$"):
        validate_uuid(5, "id")
