"""AgentMemorySession against the Agents SDK: its ``Session`` protocol, the SDK's own ``SQLiteSession``
as the oracle (hypothesis sequences of add / get(limit) / pop / clear), long-term memory, isolation."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest
from agents.items import TResponseInputItem
from agents.memory import Session, SessionSettings, SQLiteSession
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from agentx_memory import AgentMemory, AsyncAgentMemory, InvalidInputError, NotFoundError, Settings
from agentx_memory.embedding import Embedder
from agentx_memory.integrations.openai_agents import SPACE, AgentMemorySession, item_text
from tests.flavours import EventLoopThread


@pytest.fixture
async def amem(settings: Settings, embedder: Embedder) -> AsyncIterator[AsyncAgentMemory]:
    async with AsyncAgentMemory(user_id="alice", settings=settings, embedder=embedder) as mem:
        yield mem


def _items(*values: dict[str, Any]) -> list[TResponseInputItem]:
    return [cast("TResponseInputItem", value) for value in values]


texts = st.sampled_from(["Hi, I'm flying to Lisbon on May 3rd", "Noted: Lisbon ✈️", "ok", "x" * 50])
messages = st.builds(
    lambda role, text: {"role": role, "content": text},
    st.sampled_from(["user", "assistant", "system", "developer"]),
    texts,
)
part_messages = st.builds(
    lambda text, n: {
        "type": "message",
        "role": "assistant",
        "id": f"msg_{n}",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    },
    texts,
    st.integers(0, 99),
)
tool_calls = st.builds(
    lambda n, args: {
        "type": "function_call",
        "call_id": f"call_{n}",
        "name": "remember",
        "arguments": args,
    },
    st.integers(0, 99),
    st.sampled_from(['{"query": "trip"}', "{}"]),
)
tool_outputs = st.builds(
    lambda n, out: {"type": "function_call_output", "call_id": f"call_{n}", "output": out},
    st.integers(0, 99),
    st.sampled_from(["[]", '{"ok": true, "score": 0.25}', ""]),
)
odd = st.fixed_dictionaries(
    {"type": st.just("reasoning"), "summary": st.just([])},
    optional={"extra": st.none() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)},
)
items = st.one_of(messages, part_messages, tool_calls, tool_outputs, odd)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.lists(items, max_size=3)),
        st.tuples(st.just("get"), st.sampled_from([None, 0, 1, 2, 5, -1])),
        st.tuples(st.just("pop")),
        st.tuples(st.just("clear")),
    ),
    min_size=1,
    max_size=10,
)

#: Limits around the number of items held (a default above it once cut the newest item only).
LIMITS: list[tuple[Any, ...]] = [
    ("add", [{"role": "user", "content": "ok"}, {"type": "reasoning", "summary": []}]),
    ("get", None),
    ("get", 5),
    ("get", 2),
    ("pop",),
    ("get", None),
    ("get", 1),
    ("get", -1),
    ("get", 0),
]


async def _apply(session: Session, step: tuple[Any, ...]) -> object:
    match step:
        case ("add", values):
            await session.add_items(_items(*values))
            return None
        case ("get", limit):
            return await session.get_items(limit)
        case ("pop",):
            return await session.pop_item()
        case ("clear",):
            await session.clear_session()
            return None
    raise AssertionError(step)


def test_same_answers_as_sqlite_session(
    settings: Settings, embedder: Embedder, event_loop_thread: EventLoopThread
) -> None:
    memory = AsyncAgentMemory(user_id="alice", settings=settings, embedder=embedder)

    @hypothesis_settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(steps, st.sampled_from([None, 3]))
    @example(LIMITS, 3)
    def run(sequence: list[tuple[Any, ...]], default_limit: int | None) -> None:
        session_id = f"s-{uuid.uuid4().hex[:8]}"
        chosen = SessionSettings(limit=default_limit)
        oracle = SQLiteSession(session_id, session_settings=chosen)
        ours = AgentMemorySession(session_id, memory, session_settings=chosen)

        async def compare() -> None:
            for number, step in enumerate(sequence):
                expected, got = await _apply(oracle, step), await _apply(ours, step)
                assert got == expected, f"step {number}: {step}"
            assert await ours.get_items() == await oracle.get_items()

        try:
            event_loop_thread.run(compare())
        finally:
            oracle.close()

    try:
        run()
    finally:
        event_loop_thread.run(memory.close())


async def test_protocol_and_long_term_memory(amem: AsyncAgentMemory) -> None:
    session = AgentMemorySession("trip", amem)
    assert isinstance(session, Session)
    assert await session.get_items() == []
    assert await session.pop_item() is None
    await session.add_items(
        _items(
            {"role": "user", "content": "I'm flying to Lisbon on May 3rd"},
            {"type": "function_call", "call_id": "c1", "name": "remember", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "[]"},
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Noted: Lisbon, May 3rd.", "annotations": []}],
            },
        )
    )
    cid = await session.conversation_id()
    assert cid is not None
    turns = await amem.get_conversation(cid)
    assert [(t.role, t.content) for t in turns] == [
        ("user", "I'm flying to Lisbon on May 3rd"),
        ("assistant", "Noted: Lisbon, May 3rd."),
    ]
    assert [t.content for t in await (await amem.working(cid)).all_turns()] == [t.content for t in turns]
    recalled = await amem.remember("when do I fly to Lisbon?", top_k=3)
    assert recalled.items[0].content == "I'm flying to Lisbon on May 3rd"

    # a new session object with the same id is the same session
    again = AgentMemorySession("trip", amem)
    assert await again.get_items(limit=1) == await session.get_items(limit=1)
    assert await again.conversation_id() == cid

    # pop forgets the popped message's turn everywhere
    popped = await again.pop_item()
    assert popped is not None
    assert item_text(cast("dict[str, Any]", popped)) == ("assistant", "Noted: Lisbon, May 3rd.")
    assert [t.content for t in await amem.get_conversation(cid)] == ["I'm flying to Lisbon on May 3rd"]
    assert [t.content for t in await (await amem.working(cid)).all_turns()] == [
        "I'm flying to Lisbon on May 3rd"
    ]
    assert len(await session.get_items()) == 3

    # clear forgets the conversation
    await session.clear_session()
    assert await session.get_items() == []
    assert await session.conversation_id() is None
    with pytest.raises(NotFoundError):
        await amem.forget_conversation(cid)
    assert (await amem.remember("Lisbon", top_k=3)).items == []
    await session.add_items(_items({"role": "user", "content": "starting over"}))
    restarted = await session.conversation_id()
    assert restarted not in (None, cid)

    # a conversation forgotten by hand: the items stay, the next message starts a new conversation
    assert restarted is not None
    await amem.forget_conversation(restarted)
    await session.add_items(_items({"role": "user", "content": "and again"}))
    assert [i["content"] for i in await session.get_items()] == ["starting over", "and again"]  # type: ignore[typeddict-item]
    newest = await session.conversation_id()
    assert newest not in (None, restarted)
    assert [t.content for t in await amem.get_conversation(newest or "")] == ["and again"]
    assert AgentMemorySession("x", amem, session_settings={"limit": 2}).session_settings == SessionSettings(
        limit=2
    )


async def test_users_are_isolated(amem: AsyncAgentMemory) -> None:
    bob = await amem.for_user("bob")
    mine, theirs = AgentMemorySession("shared-id", amem), AgentMemorySession("shared-id", bob)
    await mine.add_items(_items({"role": "user", "content": "alice's secret plan"}))
    assert await theirs.get_items() == []
    assert await theirs.pop_item() is None
    await theirs.clear_session()
    assert len(await mine.get_items()) == 1
    assert (await bob.remember("secret plan")).items == []
    await theirs.add_items(_items({"role": "user", "content": "bob's own note"}))
    assert [i["content"] for i in await mine.get_items()] == ["alice's secret plan"]  # type: ignore[typeddict-item]
    assert await mine.conversation_id() != await theirs.conversation_id()


async def test_items_holding_a_nul_come_back_exactly(amem: AsyncAgentMemory) -> None:
    # The SDK's SQLite session takes a NUL, so a tool's output may hold one: the document (a ``json``
    # value) keeps it, a turn's text (which takes none) drops it.
    added = _items(
        {"role": "user", "content": "my key is a\x00b, and C:\\u0000 is a path"},
        {"type": "function_call_output", "call_id": "c1", "output": "\x00\x00binary"},
        {"type": "reasoning", "summary": [], "extra": {"k\x00": ["\x00"]}},
        {"role": "assistant", "content": "C:\\u0000 has no NUL, only its escape"},
    )
    session = AgentMemorySession("nul", amem)
    await session.add_items(added)
    assert await session.get_items() == added
    cid = await session.conversation_id()
    assert cid is not None
    assert [t.content for t in await amem.get_conversation(cid)] == [
        "my key is ab, and C:\\u0000 is a path",  # the recall copy drops the NUL; the item keeps it
        "C:\\u0000 has no NUL, only its escape",
    ]
    assert [d.value for d in await amem.scan_documents(SPACE, ("session", "nul"))] == added  # as they are
    assert await session.pop_item() == added[-1]
    assert await session.pop_item() == added[-2]
    assert await session.get_items() == added[:2]


async def test_items_an_earlier_version_stored_as_json_text_are_read(amem: AsyncAgentMemory) -> None:
    # Before document values kept a NUL, an item holding one was stored as its JSON text under one key.
    item = {"type": "function_call_output", "call_id": "c1", "output": "\x00binary"}
    session = AgentMemorySession("old", amem)
    await amem.put_document(SPACE, ("session", "old"), "item:1", {"agentx:json": json.dumps(item)})
    assert await session.get_items() == [item]
    assert await session.pop_item() == item
    assert await session.get_items() == []


async def test_an_item_no_store_takes_leaves_nothing_behind(amem: AsyncAgentMemory) -> None:
    session = AgentMemorySession("bad", amem)
    with pytest.raises(InvalidInputError):
        await session.add_items(_items({"role": "user", "content": "hi\x00", "when": float("nan")}))
    assert await session.get_items() == []
    assert await session.conversation_id() is None  # no turn was stored, so no conversation began


def test_the_sync_facade_is_refused_at_once_saying_what_is_needed(agent_memory: AgentMemory) -> None:
    with pytest.raises(InvalidInputError, match="needs the async facade AsyncAgentMemory, not AgentMemory"):
        AgentMemorySession("s-sync", agent_memory)  # type: ignore[arg-type]
