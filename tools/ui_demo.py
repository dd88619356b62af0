"""Seed a demo user and take a screenshot of every page of the memory inspector (``agentx-memory ui``).

    python tools/ui_demo.py            # writes docs/images/ui-*.png

Runs on throw-away embedded servers under a temporary data directory (your own memory is not read or
touched), drives Debian's ``chromium`` with Playwright (``apt-get install chromium``; never
``playwright install``). The browser tests seed the same users with :func:`seed`.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository's package, not an installed one
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import uvicorn

from agentx_memory import AsyncAgentMemory, Settings, embedded
from agentx_memory.models import Fact
from agentx_memory.ui import create_app

__all__ = ["CHROMIUM", "DRAWN", "SCREENS", "TAP", "Seeded", "free_port", "seed", "start_inspector"]

#: Debian's chromium (``apt-get install chromium``), the browser of the tests and the screenshots.
CHROMIUM = "/usr/bin/chromium"

#: Days ago, then the user's lines of each conversation (the assistant answers "Noted.").
_PRIYA = (
    (
        10,
        (
            "Hi, I'm Priya. I live in Leeds and I work as a teacher.",
            "My husband Arjun works for Siemens.",
            "I'm vegetarian, so no meat please.",
            "I use Python and Postgres at work.",
        ),
    ),
    (3, ("We moved! I live in Manchester now.", "My favourite band is Radiohead.")),
    (1, ("I'm planning a trip to Japan in April with Arjun.", "Arjun's sister Meera lives in Tokyo.")),
    (0, ("I work as a nurse.",)),
    (0, ("I am a software engineer.",)),  # "works as" again, not ordered by time: the review queue
)
_SAM = ((2, ("I'm Sam. I live in Lisbon and I love sailing.", "My dog Biscuit is a beagle.")),)
#: Relations written through the public API (the offline extractor draws few edges).
_RELATIONS = (
    ("Arjun", "WORKS_FOR", "Siemens"),
    ("Meera", "LOCATED_IN", "Tokyo"),
    ("Meera", "RELATED_TO", "Arjun"),
    ("Priya", "LOCATED_IN", "Manchester"),
    ("Tokyo", "PART_OF", "Japan"),
)


@dataclass
class Seeded:
    """What :func:`seed` stored: the users, and Priya's conversations (oldest first)."""

    user: str = "priya"
    other: str = "sam"
    channel: str = "sailing"
    conversations: list[str] = field(default_factory=list)
    corrected: Fact | None = None


async def _chat(memory: AsyncAgentMemory, title: str, days: int, lines: tuple[str, ...]) -> str:
    conversation = await memory.new_conversation(title=title)
    start = datetime.now(UTC) - timedelta(days=days, minutes=30)
    for n, line in enumerate(lines):
        await memory.store_turn(conversation, "user", line, timestamp=start + timedelta(minutes=2 * n))
        await memory.store_turn(
            conversation, "assistant", "Noted.", timestamp=start + timedelta(minutes=2 * n + 1)
        )
    await memory.consolidate_conversation(conversation)
    return conversation


async def seed(root: AsyncAgentMemory) -> Seeded:
    """Priya (five conversations learned offline, relations, a correction, a contradiction under
    review) and Sam (a conversation in ``_global``, one in the project channel ``sailing``), through the
    public API only."""
    seeded = Seeded()
    priya = await root.for_user(seeded.user)
    titles = ("Getting started", "Moving house", "Japan trip", "New job", "Career change")
    for title, (days, lines) in zip(titles, _PRIYA, strict=True):
        seeded.conversations.append(await _chat(priya, title, days, lines))
    for source, kind, target in _RELATIONS:
        ends = [(await priya.get_entity_info(name)).entity.id for name in (source, target)]
        await priya.create_relationship(ends[0], ends[1], kind)
    [diet] = [fact for fact in await priya.list_facts() if "vegetarian" in fact.claim]
    seeded.corrected = await priya.correct_fact(diet.id, "Priya is vegan.")
    sam = await root.for_user(seeded.other)
    for days, lines in _SAM:
        await _chat(sam, "Hello", days, lines)
    boat = await root.for_user(seeded.other, seeded.channel)  # a project channel of Sam's
    await _chat(boat, "The regatta", 1, ("My boat is called Gull.",))
    return seeded


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


#: True once the graph page has drawn its nodes.
DRAWN = "window.agentxGraph && window.agentxGraph.nodes().length > 0"
#: Select a node by its label, as a click does (returns nothing: a cytoscape collection is too big to
#: send back to Playwright, which took 18 s).
TAP = "(label) => { window.agentxGraph.nodes().filter(n => n.data('label') === label).emit('tap'); }"

#: Each page of the inspector: its file name under docs/images and its path (``{user}``, ``{c}``).
SCREENS = (
    ("users", "/"),
    ("profile", "/u/{user}"),
    ("facts", "/u/{user}/facts"),
    ("graph", "/u/{user}/graph"),
    ("conversations", "/u/{user}/conversations"),
    ("conversation", "/u/{user}/conversations/{c}"),
    ("recall", "/u/{user}/recall?q=Where+does+Priya+live+now%3F"),
    ("review", "/u/{user}/review"),
    ("jobs", "/jobs"),
)


def _capture(base: str, seeded: Seeded, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.goto(base + "/jobs")
        page.get_by_role("button", name="Check now").click()  # so the jobs page shows doctor's report
        for name, path in SCREENS:
            response = page.goto(base + path.format(user=seeded.user, c=seeded.conversations[0]))
            if response is None or not response.ok:
                raise RuntimeError(f"{path}: {response.status if response else 'no response'}")
            if name == "graph":
                page.wait_for_function(DRAWN)
                page.evaluate(TAP, "Priya")
            target = out / f"ui-{name}.png"
            page.screenshot(path=str(target), full_page=name not in ("graph",))
            written.append(target)
        browser.close()
    return written


class _Server(uvicorn.Server):
    """uvicorn's server with an event for "listening" (it has only a flag to poll)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = asyncio.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.ready.set()


async def start_inspector(
    root: AsyncAgentMemory, port: int, token: str | None = None
) -> tuple[uvicorn.Server, asyncio.Task[None]]:
    """The inspector over ``root`` served on 127.0.0.1:``port`` in a task of this loop, once listening
    (set ``server.should_exit`` and await the task to stop it)."""
    server = _Server(
        uvicorn.Config(create_app(root, token=token), host="127.0.0.1", port=port, log_level="warning")
    )
    serving = asyncio.create_task(server.serve())
    ready = asyncio.create_task(server.ready.wait())
    await asyncio.wait([serving, ready], return_when=asyncio.FIRST_COMPLETED)
    if serving.done():  # it could not listen: say why
        ready.cancel()
        serving.result()
        raise RuntimeError(f"the inspector did not start on port {port}")
    return server, serving


async def _main(out: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="agx-ui-", dir="/tmp") as directory:
        settings = Settings(data_dir=Path(directory), learning={"auto_consolidate": False})
        try:
            async with AsyncAgentMemory("maintenance", settings=settings) as root:
                seeded = await seed(root)
                port = free_port()
                server, serving = await start_inspector(root, port)
                written = await asyncio.to_thread(_capture, f"http://127.0.0.1:{port}", seeded, out)
                server.should_exit = True
                await serving
        finally:
            embedded.stop(settings)
    for path in written:
        print(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"), help="where the PNGs go")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(_main(args.out))


if __name__ == "__main__":
    main()
