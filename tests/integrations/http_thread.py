"""A memory's MCP HTTP app under uvicorn on a thread of its own (its own event loop, where the facade
is opened), for the transport tests: started before the test, stopped after it."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Callable, Iterator

import uvicorn

from agentx_memory import AsyncAgentMemory, Settings
from agentx_memory.embedding import Embedder
from agentx_memory.integrations.mcp import MemoryMcpServer, UserAccess


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(
    settings: Settings, embedder: Embedder, user: str, access: Callable[[], UserAccess]
) -> Iterator[str]:
    """``http://127.0.0.1:<port>`` of a server whose root facade is ``user``'s, with ``access()``."""
    port = free_port()
    servers: list[uvicorn.Server] = []

    async def main() -> None:
        async with AsyncAgentMemory(user, settings=settings, embedder=embedder) as memory:
            mcp = MemoryMcpServer(memory, access())
            config = uvicorn.Config(mcp.http_app(), host="127.0.0.1", port=port, log_level="warning")
            servers.append(uvicorn.Server(config))
            await servers[0].serve()
            await mcp.aclose()

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    for _ in range(200):
        if servers and servers[0].started:
            break
        threading.Event().wait(0.05)
    assert servers, "uvicorn did not start"
    assert servers[0].started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        servers[0].should_exit = True
        thread.join(10)
