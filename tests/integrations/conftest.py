"""Fixtures of the integration tests: one isolated namespace per module, shared by its tests (the MCP
tests only read what they wrote themselves, under users of their own), and a synchronous facade on the
test's own isolated stores (the framework adapters' tests)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from agentx_memory import AgentMemory, AsyncAgentMemory, Settings
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from tests.conftest import cleanup, isolated_settings


@pytest.fixture(scope="module")
def module_settings(endpoints: ResolvedEndpoints, data_dir: Path) -> Iterator[Settings]:
    chosen = isolated_settings(endpoints, data_dir)
    yield chosen
    cleanup(chosen, endpoints)


@pytest.fixture(scope="module")
async def root_memory(module_settings: Settings, embedder: Embedder) -> AsyncIterator[AsyncAgentMemory]:
    """An open async facade for ``alice``; other users share its connections through ``for_user``."""
    async with AsyncAgentMemory("alice", settings=module_settings, embedder=embedder) as memory:
        yield memory


@pytest.fixture
def agent_memory(settings: Settings, embedder: Embedder) -> Iterator[AgentMemory]:
    """The sync facade for ``alice`` (the LangGraph store takes the sync facade; its async methods run
    it in a thread)."""
    with AgentMemory(user_id="alice", settings=settings, embedder=embedder) as mem:
        yield mem
