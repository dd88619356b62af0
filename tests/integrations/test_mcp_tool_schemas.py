"""``integrations.tools``: the MCP tools as Anthropic / OpenAI schemas (valid JSON Schema, one list with
the server's) and the dispatcher, the integrations page's plain SDK loop run against the LLM stub through
the real Anthropic SDK, and the optional extra kept out of ``import agentx_memory``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from agentx_memory import AgentMemory, Settings
from agentx_memory.embedding import Embedder
from agentx_memory.errors import AgentMemoryError, InvalidInputError, NotFoundError
from agentx_memory.integrations import MissingExtraError
from agentx_memory.integrations.specs import TOOLS
from agentx_memory.integrations.tools import (
    anthropic_tools,
    dispatch,
    error_result,
    openai_tools,
    tool_names,
)
from tests.llm_stub import ANTHROPIC_PATH, LLMStub
from tests.settings_env import env_of

INTEGRATIONS = Path(__file__).resolve().parents[2] / "docs" / "integrations.md"


@pytest.fixture(scope="module")
def memory(module_settings: Settings, embedder: Embedder) -> Iterator[AgentMemory]:
    with AgentMemory("ivy", settings=module_settings, embedder=embedder) as mem:
        yield mem


def test_schemas_are_valid_json_schema_in_both_formats() -> None:
    anthropic, openai = anthropic_tools(), openai_tools()
    assert [tool["name"] for tool in anthropic] == tool_names() == [spec.name for spec in TOOLS]
    assert [tool["function"]["name"] for tool in openai] == tool_names()
    for a_tool, o_tool in zip(anthropic, openai, strict=True):
        assert set(a_tool) == {"name", "description", "input_schema"}
        assert o_tool["type"] == "function"
        assert set(o_tool["function"]) == {"name", "description", "parameters"}
        assert o_tool["function"]["parameters"] == a_tool["input_schema"]
        assert re.fullmatch(r"[a-z_]{1,64}", a_tool["name"])  # both vendors' name rules
        schema = a_tool["input_schema"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{a_tool['name']}.{name} has no description"


def test_schemas_accept_examples_and_refuse_nonsense() -> None:
    schemas = {tool["name"]: tool["input_schema"] for tool in anthropic_tools()}
    jsonschema.validate({"content": "hi", "role": "assistant"}, schemas["add_memory"])
    jsonschema.validate({"claim": "x", "about": ["Ana"], "temporal": "past"}, schemas["learn_fact"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"content": "hi", "role": "narrator"}, schemas["add_memory"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"query": "x", "user_id": "bob"}, schemas["remember"])


def test_dispatch_round_trip(memory: AgentMemory) -> None:
    added = dispatch(memory, "add_memory", {"content": "Ivy's sister Maya lives in Oslo"})
    again = dispatch(memory, "add_memory", json.dumps({"content": "Maya is a nurse", **_cid(added)}))
    assert again["turn_index"] == 1
    recalled = dispatch(memory, "remember", {"query": "where does Maya live?"})
    assert added["turn_id"] in [item["id"] for item in recalled["memories"]]
    fact = dispatch(memory, "learn_fact", '{"claim": "Maya lives in Oslo", "about": ["Maya"]}')["fact"]
    assert dispatch(memory, "get_entity", {"name_or_id": "Maya"})["facts"][0]["id"] == fact["id"]
    assert json.loads(json.dumps(recalled)) == recalled  # JSON-ready

    job = dispatch(memory, "consolidate_conversation", _cid(added))
    assert job["status"] == "running"
    for _ in range(200):  # a background thread in the sync flavour
        status = dispatch(memory, "consolidation_status", {"job_id": job["job_id"]})
        if status["status"] != "running":
            break
        time.sleep(0.05)
    assert status["status"] == "done", status


def _cid(added: dict[str, Any]) -> dict[str, Any]:
    return {"conversation_id": added["conversation_id"]}


def test_dispatch_refusals(memory: AgentMemory) -> None:
    with pytest.raises(InvalidInputError, match="unknown tool 'recall': the tools are add_entity, add_goal"):
        dispatch(memory, "recall", {})
    with pytest.raises(InvalidInputError, match="invalid arguments for remember: query: Field required"):
        dispatch(memory, "remember", {})
    with pytest.raises(InvalidInputError, match="not valid JSON"):
        dispatch(memory, "remember", "{query")
    with pytest.raises(NotFoundError) as caught:
        dispatch(memory, "forget_fact", {"fact_id": "00000000-0000-4000-8000-000000000000", "confirm": True})
    assert error_result(caught.value) == {
        "error": "fact 00000000-0000-4000-8000-000000000000 does not exist for user 'ivy'"
    }


class _ToolLoopStub(LLMStub):
    """The Anthropic API answering with the scripted messages, in order (tool calls included)."""

    turns: deque[dict[str, Any]]

    def answer(self, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
        assert path == ANTHROPIC_PATH
        message = {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"]}
        return 200, json.dumps({**message, **self.turns.popleft()}).encode()


def _snippet(after: str) -> str:
    text = INTEGRATIONS.read_text()
    start = text.index(after)
    match = re.search(r"```python\n(.*?)```", text[start:], re.DOTALL)
    assert match is not None
    return match.group(1)


def test_docs_plain_loop_runs(
    module_settings: Settings,
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stub = _ToolLoopStub()
    usage = {"input_tokens": 10, "output_tokens": 5}
    call = {"type": "tool_use", "id": "toolu_1", "name": "learn_fact"}
    stub.turns = deque(
        [
            {
                "content": [{**call, "input": {"claim": "Alice is allergic to peanuts", "about": ["Alice"]}}],
                "stop_reason": "tool_use",
                "usage": usage,
            },
            {
                "content": [{"type": "text", "text": "Noted: no peanuts."}],
                "stop_reason": "end_turn",
                "usage": usage,
            },
        ]
    )
    stub.start()
    try:
        env = {**env_of(module_settings), "AGENTX_DATA_DIR": str(data_dir)}
        env |= {"ANTHROPIC_API_KEY": "test", "ANTHROPIC_BASE_URL": stub.anthropic_url}
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        exec(compile(_snippet("A plain Anthropic SDK loop"), "docs/integrations.md", "exec"), {})
    finally:
        stub.stop()
    assert capsys.readouterr().out == "Noted: no peanuts.\n"
    sent = stub.requests[1].body["messages"][-1]["content"][0]
    assert sent["tool_use_id"] == "toolu_1"
    assert sent["is_error"] is False
    assert json.loads(sent["content"])["fact"]["claim"] == "Alice is allergic to peanuts"
    assert [tool["name"] for tool in stub.requests[0].body["tools"]] == tool_names()


def test_core_import_stays_free_of_the_extra() -> None:
    code = (
        "import sys, agentx_memory; from agentx_memory import AgentMemory, AsyncAgentMemory;"
        "import agentx_memory.cli, agentx_memory.integrations.tools;"
        "assert 'mcp' not in sys.modules and 'agentx_memory.integrations.mcp' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=os.environ.copy())


def test_missing_extra_names_it() -> None:
    code = (
        "import sys; sys.modules['mcp'] = None\n"
        "from agentx_memory.integrations import MissingExtraError\n"
        "try:\n    import agentx_memory.integrations.mcp\n"
        "except MissingExtraError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert done.stdout.strip() == (
        "agentx_memory.integrations.mcp needs the optional dependency group 'mcp': from the project's "
        "clone, pip install '.[mcp]' (or a built wheel: pip install 'dist/<wheel>.whl[mcp]'); the package "
        "is not on PyPI"
    )
    assert issubclass(MissingExtraError, AgentMemoryError)
