"""Fixtures of the framework adapters: a synchronous facade on the test's isolated stores."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agentx_memory import AgentMemory, Settings
from agentx_memory.embedding import Embedder


@pytest.fixture
def agent_memory(settings: Settings, embedder: Embedder) -> Iterator[AgentMemory]:
    """The sync facade for ``alice`` (the adapters take the sync facade; their async methods run it in
    a thread)."""
    with AgentMemory(user_id="alice", settings=settings, embedder=embedder) as mem:
        yield mem
