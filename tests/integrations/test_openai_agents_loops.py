"""AgentMemorySession from any event loop and any thread, as the SDK uses it: ``asyncio.run`` after
``asyncio.run``, ``Runner.run_sync`` (a new loop per turn), threads each with their own loop; and
``close()``. Each test runs outside pytest's loop (plain functions), as applications do."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any, cast

import pytest
from agents import Agent, Runner
from agents.items import TResponseInputItem
from agents.testing import ScriptedModel, assistant_message

from agentx_memory import AsyncAgentMemory, ClosedError, Settings
from agentx_memory.embedding import Embedder
from agentx_memory.integrations.openai_agents import AgentMemorySession, item_text

#: Bounds every test here: before the fix, threads with their own loops never returned.
TIMEOUT_S = 120


def _user(text: str) -> list[TResponseInputItem]:
    return [cast("TResponseInputItem", {"role": "user", "content": text})]


def _contents(items: list[TResponseInputItem]) -> list[Any]:
    return [cast("dict[str, Any]", item).get("content") for item in items]


def test_one_session_across_several_asyncio_runs(loose_amemory: AsyncAgentMemory) -> None:
    session = AgentMemorySession("runs", loose_amemory)
    asyncio.run(session.add_items(_user("first")))
    asyncio.run(session.add_items(_user("second")))
    assert _contents(asyncio.run(session.get_items())) == ["first", "second"]
    assert asyncio.run(session.pop_item()) == _user("second")[0]
    cid = asyncio.run(session.conversation_id())
    assert cid is not None
    assert [t.content for t in asyncio.run(loose_amemory.get_conversation(cid))] == ["first"]


def test_runner_run_sync_keeps_history_across_turns(loose_amemory: AsyncAgentMemory) -> None:
    model = ScriptedModel([[assistant_message(f"answer {n}")] for n in range(3)])
    agent = Agent(name="assistant", instructions="Answer briefly.", model=model)
    session = AgentMemorySession("run-sync", loose_amemory)
    for n in range(3):
        result = Runner.run_sync(agent, f"question {n}", session=session)
        assert result.final_output == f"answer {n}"
    # the third call saw the first two exchanges: history came from the session, loop after loop
    seen = [item_text(cast("dict[str, Any]", item)) for item in model.calls[2].input]
    assert seen == [
        ("user", "question 0"),
        ("assistant", "answer 0"),
        ("user", "question 1"),
        ("assistant", "answer 1"),
        ("user", "question 2"),
    ]
    assert len(asyncio.run(session.get_items())) == 6
    cid = asyncio.run(session.conversation_id())
    turns = asyncio.run(loose_amemory.get_conversation(cid or ""))
    assert [t.content for t in turns] == [text for n in range(3) for text in (f"question {n}", f"answer {n}")]


def test_threads_each_with_its_own_loop(loose_amemory: AsyncAgentMemory) -> None:
    session = AgentMemorySession("threads", loose_amemory)

    def write(thread: int) -> None:
        items = [*_user(f"t{thread} a"), *_user(f"t{thread} b")]
        asyncio.run(session.add_items(items))

    with concurrent.futures.ThreadPoolExecutor(max_workers=5) as pool:
        for done in [pool.submit(write, n) for n in range(5)]:
            done.result(timeout=TIMEOUT_S)
    contents = _contents(asyncio.run(session.get_items()))
    assert sorted(contents) == sorted(f"t{n} {part}" for n in range(5) for part in "ab")
    # one add_items call's items stay together, and the first writes started one conversation
    assert all(contents[i][:2] == contents[i + 1][:2] for i in range(0, 10, 2))
    cid = asyncio.run(session.conversation_id())
    assert [t.content for t in asyncio.run(loose_amemory.get_conversation(cid or ""))] == contents


def test_close_ends_the_session_and_an_owned_memory(settings: Settings, embedder: Embedder) -> None:
    shared = AsyncAgentMemory(user_id="alice", settings=settings, embedder=embedder)
    borrowed = AgentMemorySession("closing", shared)
    asyncio.run(borrowed.add_items(_user("kept")))
    asyncio.run(borrowed.close())
    asyncio.run(borrowed.close())  # idempotent
    for call in (borrowed.get_items(), borrowed.add_items(_user("late")), borrowed.pop_item()):
        with pytest.raises(ClosedError, match="closing"):
            asyncio.run(call)
    with pytest.raises(RuntimeError):  # as the SDK's closed sessions raise
        asyncio.run(borrowed.clear_session())
    # the memory it borrowed is still open; a new session object carries on
    assert _contents(asyncio.run(AgentMemorySession("closing", shared).get_items())) == ["kept"]

    owner = AgentMemorySession("closing", shared, owns_memory=True)
    asyncio.run(owner.close())
    assert shared._backends is None  # closed with its session
    assert _contents(asyncio.run(AgentMemorySession("closing", shared).get_items())) == ["kept"]  # reopens
    asyncio.run(shared.close())
