"""Fixtures of the inspector's tests: the inspector served by uvicorn in a thread over a module's own
isolated stores, seeded once (tools/ui_demo.py's users), and Debian's chromium driven by Playwright."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from agentx_memory import AgentMemory, AsyncAgentMemory, Settings
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from tests.conftest import cleanup, isolated_settings
from tools.ui_demo import CHROMIUM, Seeded, free_port, seed, start_inspector

#: The token of the second server, the one that requires it.
TOKEN = "s3cret-inspector-token"


@dataclass(frozen=True)
class Inspector:
    """The served inspector: ``url`` needs no token (loopback), ``guarded_url`` needs :data:`TOKEN`."""

    url: str
    guarded_url: str
    seeded: Seeded
    settings: Settings


@pytest.fixture(scope="module")
def inspector(endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder) -> Iterator[Inspector]:
    settings = isolated_settings(endpoints, data_dir)
    ports = free_port(), free_port()
    ready = threading.Event()
    servers: list[uvicorn.Server] = []
    seeded: list[Seeded] = []
    failure: list[BaseException] = []

    async def main() -> None:
        try:
            async with AsyncAgentMemory("maintenance", settings=settings, embedder=embedder) as root:
                seeded.append(await seed(root))
                tasks = []
                for port, token in zip(ports, (None, TOKEN), strict=True):
                    server, serving = await start_inspector(root, port, token)
                    servers.append(server)
                    tasks.append(serving)
                ready.set()
                await asyncio.gather(*tasks)
        except BaseException as exc:
            failure.append(exc)
            ready.set()
            raise

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    ready.wait(120)
    if failure:
        raise failure[0]
    try:
        yield Inspector(f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[1]}", seeded[0], settings)
    finally:
        for server in servers:
            server.should_exit = True
        thread.join(30)
        cleanup(settings, endpoints)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no chromium at {CHROMIUM}: `apt-get install chromium` (.ci/run installs it)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.on("dialog", lambda dialog: dialog.accept())  # the forget button asks first
    opened.set_default_timeout(20_000)
    yield opened
    context.close()


@pytest.fixture
def priya(inspector: Inspector, embedder: Embedder) -> Iterator[AgentMemory]:
    """Priya's facade on the inspector's stores, from the test's thread (its own connections)."""
    with AgentMemory(inspector.seeded.user, settings=inspector.settings, embedder=embedder) as memory:
        yield memory
