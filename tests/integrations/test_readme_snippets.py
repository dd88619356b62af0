"""The README's named snippets (its Python API and integration examples, which the docs pages include)
run as written, each in its own interpreter, against the test's stores (``AGENTX_*``) and, for the
Agents SDK, the local LLM stub (``OPENAI_BASE_URL``); their output is checked. The docs' other blocks
run in ``tests/docs/test_snippets.py``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentx_memory import Settings
from tests.docs.snippets import README, named, run_as_pasted
from tests.llm_stub import LLMStub, ToolCall

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)


def run_snippet(name: str, settings: Settings, tmp_path: Path, **extra_env: str) -> list[str]:
    return run_as_pasted(named(name), f"README section {name!r}", settings, tmp_path, **extra_env)


def test_use_it_snippet_runs_as_pasted(settings: Settings, tmp_path: Path) -> None:
    """The first block of "Use it", sync and async, as a reader pastes it into a file."""
    lines = run_snippet("use-it", settings, tmp_path)
    assert any("Lisbon" in line for line in lines), lines


def test_readme_says_how_to_install_without_the_package_index() -> None:
    text = README.read_text()
    assert "pip install 'agentx-memory[" not in text  # not on the index: it cannot work
    assert 'pip install ".[mcp]"' in text


def test_langgraph_snippet(settings: Settings, tmp_path: Path) -> None:
    assert run_snippet("langgraph", settings, tmp_path) == ["seat", "[('memories',)]", "Alice is vegetarian"]


@pytest.fixture
def agents_env(stub: LLMStub) -> dict[str, str]:
    return {
        "OPENAI_BASE_URL": stub.openai_url,
        "OPENAI_API_KEY": "test",
        "OPENAI_AGENTS_DISABLE_TRACING": "1",
    }


def test_openai_agents_snippet(
    settings: Settings, tmp_path: Path, stub: LLMStub, agents_env: dict[str, str]
) -> None:
    stub.script("Noted!", ToolCall("remember", {"query": "flight"}), "You fly to Lisbon on May 3rd.")
    lines = run_snippet("openai-agents", settings, tmp_path, **agents_env)
    assert lines == ["You fly to Lisbon on May 3rd.", "4"]
    # the second session's model call saw the tool's answer: Monday's turn, recalled on Friday
    last = stub.requests[-1].body
    tool_messages = [m for m in last["messages"] if m.get("role") == "tool"]
    assert len(tool_messages) == 1
    assert "I'm flying to Lisbon on May 3rd." in json.dumps(tool_messages[0]["content"])
    assert [m["role"] for m in last["messages"]][-3:] == ["user", "assistant", "tool"]
    assert last["tools"][0]["function"]["name"] == "remember"
