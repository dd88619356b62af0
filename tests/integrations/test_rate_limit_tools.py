"""Over the recall rate limit, the MCP server and the tool dispatcher answer with a tool error that says
when to retry (``RateLimitedError`` is an ``AgentMemoryError`` like any other refusal)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from mcp import Client
from mcp.types import TextContent

from agentx_memory import AgentMemory, AsyncAgentMemory, RateLimitedError, Settings
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.integrations.mcp import MemoryMcpServer
from agentx_memory.integrations.tools import dispatch, error_result
from tests.conftest import cleanup, isolated_settings


@pytest.fixture
def limited_settings(endpoints: ResolvedEndpoints, data_dir: Path) -> Iterator[Settings]:
    """One recall a minute (bursts of 1): the second recall is refused for about 60 s."""
    chosen = isolated_settings(endpoints, data_dir, limits={"recall_per_minute": 1, "recall_burst": 1})
    yield chosen
    cleanup(chosen, endpoints)


@pytest.fixture
async def limited_async(limited_settings: Settings, embedder: Embedder) -> AsyncIterator[AsyncAgentMemory]:
    async with AsyncAgentMemory("alice", settings=limited_settings, embedder=embedder) as memory:
        yield memory


async def test_mcp_answers_a_tool_error_saying_when_to_retry(limited_async: AsyncAgentMemory) -> None:
    server = MemoryMcpServer(limited_async)
    async with Client(server.server) as client:
        assert not (await client.call_tool("add_memory", {"content": "I live in Porto"})).is_error
        assert not (await client.call_tool("remember", {"query": "where do I live?"})).is_error
        result = await client.call_tool("search_facts", {"query": "home"})
        assert result.is_error
        [block] = result.content
        assert isinstance(block, TextContent)
        assert "over the recall rate limit" in block.text
        assert "retry in" in block.text
        assert "Traceback" not in block.text
        # Writes are not limited.
        assert not (await client.call_tool("add_memory", {"content": "I have a cat"})).is_error


def test_dispatch_raises_and_error_result_carries_retry_after(
    limited_settings: Settings, embedder: Embedder
) -> None:
    with AgentMemory("alice", settings=limited_settings, embedder=embedder) as memory:
        dispatch(memory, "remember", {"query": "where do I live?"})
        with pytest.raises(RateLimitedError) as caught:
            dispatch(memory, "get_context", {"prompt": "where do I live?"})
    answer = error_result(caught.value)
    assert answer["error"] == str(caught.value)
    assert 55 <= answer["retry_after"] <= 60.5
