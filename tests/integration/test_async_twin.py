"""The async facade end to end, and the guards that keep the sync twin and the public API in step."""

from __future__ import annotations
import __future__

import asyncio
import inspect
import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

import agentx_memory
from agentx_memory import (
    AgentMemory,
    AsyncAgentMemory,
    AsyncWorkingMemory,
    ConflictError,
    InvalidInputError,
    MemoryBundle,
    NotFoundError,
    Turn,
    WorkingMemory,
)

ROOT = Path(__file__).resolve().parents[2]

EXPECTED_ALL = [
    "AgentMemory",
    "AgentMemoryError",
    "AsyncAgentMemory",
    "AsyncWorkingMemory",
    "ClosedError",
    "ConfigurationError",
    "ConflictError",
    "EmbeddingDimensionError",
    "Entity",
    "EntityEdge",
    "EntityGraph",
    "EntityInfo",
    "Fact",
    "Goal",
    "GoalStatus",
    "GraphSyncError",
    "InvalidInputError",
    "MemoryBundle",
    "MemoryItem",
    "MemoryStats",
    "Neighbour",
    "NotFoundError",
    "PromotionCandidate",
    "RateLimitedError",
    "SchemaVersionError",
    "Scope",
    "Settings",
    "StoreError",
    "StoreUnavailableError",
    "Strategy",
    "StrategyMatch",
    "ToolInvocation",
    "ToolStats",
    "Turn",
    "TurnSpec",
    "UserProfile",
    "WorkingMemory",
]


async def test_async_facade_end_to_end(amemory: AsyncAgentMemory) -> None:
    cid = await amemory.new_conversation(title="async trip")
    first = await amemory.store_turn(cid, "user", "I'm flying to Lisbon on May 3rd")
    second = await amemory.store_turn(cid, "assistant", "Noted, Lisbon on May 3rd.")
    third = await amemory.store_turn(cid, "user", "My cat is called Whiskers")
    assert [turn.index for turn in (first, second, third)] == [0, 1, 2]
    assert all(isinstance(turn, Turn) and turn.synced for turn in (first, second, third))
    again = await amemory.store_turn(cid, "user", "I'm flying to Lisbon on May 3rd", turn_index=0)
    assert again.id == first.id
    with pytest.raises(ConflictError):
        await amemory.store_turn(cid, "user", "something else", turn_index=0)
    conversation = await amemory.get_conversation(cid)
    assert [turn.id for turn in conversation] == [first.id, second.id, third.id]
    bundle = await amemory.remember("what is my pet's name?", top_k=2)
    assert isinstance(bundle, MemoryBundle)
    assert bundle.items[0].id == third.id
    recent = await amemory.get_recent_turns()
    assert [turn.id for turn in recent] == [third.id, second.id, first.id]
    working = await amemory.working(cid)
    assert isinstance(working, AsyncWorkingMemory)
    assert [turn.id for turn in await working.get_recent_turns()] == [first.id, second.id, third.id]
    await working.set("plan", {"city": "Lisbon"}, ttl_s=60)
    assert await working.get("plan") == {"city": "Lisbon"}
    assert await working.get_context() == {"plan": {"city": "Lisbon"}}
    await working.push_thought("book a hotel")
    assert await working.get_thoughts() == ["book a hotel"]
    await working.set_active_goal("plan the trip")
    assert await working.get_active_goal() == "plan the trip"
    assert await working.delete("plan") is True
    assert await working.clear_session() == 3  # turns, thoughts, goal (the context index went with "plan")
    assert await working.get_recent_turns() == []
    with pytest.raises(InvalidInputError):
        await amemory.store_turn(cid, "robot", "hi")
    with pytest.raises(NotFoundError):
        await (await amemory.for_user("bob")).store_turn(cid, "user", "hi")


async def test_async_concurrent_writers_get_consecutive_indexes(amemory: AsyncAgentMemory) -> None:
    cid = await amemory.new_conversation()

    async def writer(worker: int) -> list[int]:
        return [(await amemory.store_turn(cid, "user", f"w{worker} n{n}")).index for n in range(5)]

    results = await asyncio.gather(*(writer(worker) for worker in range(4)))
    assert sorted(index for indexes in results for index in indexes) == list(range(20))
    assert [turn.index for turn in await amemory.get_conversation(cid)] == list(range(20))


def _public(cls: type) -> dict[str, object]:
    return {name: getattr(cls, name) for name in dir(cls) if not name.startswith("_")}


@pytest.mark.parametrize(
    ("sync_cls", "async_cls"), [(AgentMemory, AsyncAgentMemory), (WorkingMemory, AsyncWorkingMemory)]
)
def test_sync_and_async_twins_expose_the_same_api(sync_cls: type, async_cls: type) -> None:
    sync_api, async_api = _public(sync_cls), _public(async_cls)
    assert sorted(sync_api) == sorted(async_api)
    assert len(sync_api) >= 4
    for name, member in async_api.items():
        if not callable(member):
            continue
        assert inspect.iscoroutinefunction(member), f"{async_cls.__name__}.{name} is not async"
        assert not inspect.iscoroutinefunction(sync_api[name]), f"{sync_cls.__name__}.{name} is async"
        async_params = list(inspect.signature(member).parameters)
        assert list(inspect.signature(sync_api[name]).parameters) == async_params, name  # type: ignore[arg-type]


def test_context_manager_protocols() -> None:
    assert hasattr(AgentMemory, "__enter__")
    assert hasattr(AgentMemory, "__exit__")
    assert inspect.iscoroutinefunction(AsyncAgentMemory.__aenter__)
    assert inspect.iscoroutinefunction(AsyncAgentMemory.__aexit__)
    assert not hasattr(AgentMemory, "__aenter__")


def test_generated_sync_modules_are_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, "tools/async_to_sync.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_public_api_is_exactly_the_expected_list() -> None:
    assert agentx_memory.__all__ == EXPECTED_ALL
    assert sorted(agentx_memory.__all__) == agentx_memory.__all__
    for name in agentx_memory.__all__:
        assert getattr(agentx_memory, name) is not None
    # Anything public defined at package level (not a submodule) must be exported on purpose.
    exported_by_accident = [
        name
        for name, value in vars(agentx_memory).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType | __future__._Feature)
        and name not in agentx_memory.__all__
    ]
    assert exported_by_accident == []
    assert isinstance(agentx_memory.__version__, str)


def test_star_import_in_a_fresh_interpreter() -> None:
    code = (
        "import json; from agentx_memory import *; import agentx_memory; "
        "print(json.dumps(sorted(k for k in dir() if k[0] != '_' and k != 'json')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    names = set(json.loads(result.stdout))
    assert names == {*EXPECTED_ALL, "agentx_memory"}
