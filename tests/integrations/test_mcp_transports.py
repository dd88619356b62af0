"""The MCP server over its real transports: ``agentx-memory mcp`` as a stdio subprocess driven by the
SDK's stdio client, and the streamable HTTP app under uvicorn (in a thread) with per-request users."""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextContent

from agentx_memory import Settings
from agentx_memory.embedding import Embedder
from agentx_memory.integrations.mcp import UserAccess
from agentx_memory.integrations.tools import tool_names
from tests.integrations.http_thread import serving
from tests.settings_env import env_of


def _structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    structured: dict[str, Any] = result.structured_content
    return structured


async def test_stdio_subprocess_lists_and_calls(module_settings: Settings, data_dir: Path) -> None:
    env = {
        **os.environ,
        **env_of(module_settings),
        "AGENTX_DATA_DIR": str(data_dir),
        "AGENTX_LEARNING__AUTO_CONSOLIDATE": "false",
    }
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "agentx_memory.cli", "mcp", "--user", "frank"], env=env
    )
    async with Client(params, read_timeout_seconds=60) as client:
        assert [tool.name for tool in (await client.list_tools()).tools] == tool_names()
        added = _structured(
            await client.call_tool("add_memory", {"content": "Frank's bike is a green Brompton"})
        )
        recalled = _structured(await client.call_tool("remember", {"query": "what bike does Frank ride?"}))
        refused = await client.call_tool("add_memory", {"content": ""})
    assert added["turn_id"] in [m["id"] for m in recalled["memories"]]
    assert refused.is_error
    block = refused.content[0]
    assert isinstance(block, TextContent)
    assert block.text == "content is empty: there is nothing to remember"


@pytest.fixture(scope="module")
def http_url(module_settings: Settings, embedder: Embedder) -> Iterator[str]:
    """The streamable HTTP app for default user ``gina`` (``hank`` allowed too), on its own loop."""
    access = UserAccess("gina", allowed_users=frozenset({"hank"}))
    with serving(module_settings, embedder, "gina", lambda: access) as url:
        yield url


def _get(url: str, headers: dict[str, str] | None = None, body: bytes | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_http_health(http_url: str) -> None:
    status, body = _get(f"{http_url}/health")
    assert (status, body["status"], body["server"]) == (200, "ok", "agentx-memory")
    assert body["stores"] == {"postgres": "ok", "graph": "ok", "redis": "ok"}


async def test_http_calls_act_for_the_header_user(http_url: str) -> None:
    async with (
        httpx2.AsyncClient(headers={"X-AgentX-User": "hank"}) as as_hank,
        Client(streamable_http_client(f"{http_url}/mcp", http_client=as_hank)) as hank,
        Client(f"{http_url}/mcp") as gina,
    ):
        assert len((await hank.list_tools()).tools) == 20
        await hank.call_tool("add_memory", {"content": "Hank keeps bees in the garden"})
        found = _structured(await hank.call_tool("remember", {"query": "who keeps bees?"}))
        assert any("bees" in m["content"] for m in found["memories"])
        assert _structured(await gina.call_tool("remember", {"query": "who keeps bees?"}))["memories"] == []


def test_http_refuses_a_user_not_allowed(http_url: str) -> None:
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    status, body = _get(f"{http_url}/mcp", {**headers, "X-AgentX-User": "mallory"}, init)
    assert status == 403
    assert body == {
        "error": "user 'mallory' is not allowed on this server (the X-AgentX-User header must name an "
        "allowed user: AGENTX_MCP__ALLOWED_USERS or --allow-user)"
    }
