"""Skill proposals' pure half: what a conversation's tool calls teach, its task's name, and its stable id."""

from __future__ import annotations

from datetime import UTC, datetime

from agentx_memory.memory.procedural_pure import proposal_from_invocations, proposal_id, proposal_task
from agentx_memory.models.procedural import ToolInvocation


def call(tool: str, success: bool, error: str | None = None) -> ToolInvocation:
    return ToolInvocation(
        id=tool, conversation_id="c", user_id="u", channel="_global", turn_index=None, tool_name=tool,
        success=success, latency_ms=1.0, error_message=error, created_at=datetime(2024, 5, 1, tzinfo=UTC),
    )  # fmt: skip


def test_a_path_that_ended_in_success() -> None:
    long_error = "connection\n  refused " + "x" * 200
    calls = [call("build", True), call("ssh", False, long_error), call("ssh", False)]
    steps, failed = proposal_from_invocations([*calls, call("build", True), call("helm", True)]) or ([], [])
    assert steps == ["build", "helm"]
    assert failed[0].startswith("ssh: connection refused x")
    assert len(failed[0]) == len("ssh: ") + 120  # the error message is shortened
    assert failed[1] == "ssh: failed"
    assert proposal_from_invocations([call("a", True), call("b", False)]) is None  # did not end well
    assert proposal_from_invocations([call("a", True)]) is None  # one call is not a path
    assert proposal_from_invocations([]) is None


def test_the_task_is_the_title_else_the_request_else_the_steps() -> None:
    request = "please   book a table for four at the Italian place near the office on Friday"
    assert proposal_task(" Dinner  plans ", request, ["search"]) == (
        "Dinner plans",
        "please book a table for four at the Italian place near the office on Friday",
    )
    task, description = proposal_task(None, request, ["search"])
    assert task == "please book a table for four at the"
    assert description.endswith("on Friday")
    assert proposal_task(None, None, ["search", "book"]) == ("search → book", "search → book")


def test_one_proposal_id_per_user_and_conversation() -> None:
    assert proposal_id("alice", "c1") == proposal_id("alice", "c1")
    assert proposal_id("alice", "c1") != proposal_id("bob", "c1")
    assert proposal_id("alice", "c1") != proposal_id("alice", "c2")
