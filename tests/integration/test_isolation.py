"""Cross-user isolation: whatever alice stores, no read of any other user returns any of it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from agentx_memory import AgentMemory, AsyncAgentMemory, NotFoundError
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore

#: Other users, including ids that differ from ``alice`` only by case or a prefix/suffix.
OTHERS = ["bob", "Alice", "alice2", "alic", "alice.x"]
SECRET = "alice's secret: the vault code is 4711"


@dataclass(frozen=True)
class AliceData:
    conversation_id: str
    turn_ids: frozenset[str]


@pytest.fixture
def alice_data(memory: AgentMemory) -> AliceData:
    cid = memory.new_conversation(title="private")
    turns = [
        memory.store_turn(cid, "user", SECRET),
        memory.store_turn(cid, "assistant", "I will keep the vault code safe"),
    ]
    working = memory.working(cid)
    working.set("vault", {"code": 4711})
    working.push_thought("alice thinks about the vault")
    working.set_active_goal("open the vault")
    return AliceData(cid, frozenset(turn.id for turn in turns))


def node_counts(graph: FalkorDBStore, user_id: str) -> dict[str, int]:
    return {
        str(row["label"]): int(row["count"]) for row in graph.run("count_user_nodes", {"user_id": user_id})
    }


@pytest.mark.parametrize("other", OTHERS)
def test_other_users_read_nothing_of_alice(memory: AgentMemory, alice_data: AliceData, other: str) -> None:
    reader = memory.for_user(other)
    own = reader.new_conversation()
    own_turn = reader.store_turn(own, "user", "the vault code is something I keep forgetting")
    cid = alice_data.conversation_id
    assert reader.get_conversation(cid) == []
    assert [turn.id for turn in reader.get_recent_turns(hours=24, limit=200)] == [own_turn.id]
    recalled = reader.remember("what is the vault code?", top_k=50)
    assert [item.id for item in recalled.items] == [own_turn.id]
    assert SECRET not in {item.content for item in recalled.items}
    working = reader.working(cid)
    assert working.get_recent_turns(50) == []
    assert working.get_context() == {}
    assert working.get("vault") is None
    assert working.get_thoughts() == []
    assert working.get_active_goal() is None
    # alice still sees all of it
    assert {turn.id for turn in memory.get_conversation(cid)} == alice_data.turn_ids
    assert memory.working(cid).get("vault") == {"code": 4711}


def test_a_user_with_nothing_recalls_nothing(memory: AgentMemory, alice_data: AliceData) -> None:
    bob = memory.for_user("bob")
    assert bob.remember(SECRET, top_k=10).items == []
    assert bob.get_recent_turns() == []
    assert bob.get_conversation(alice_data.conversation_id) == []


def test_other_channels_of_another_user_see_nothing(memory: AgentMemory, alice_data: AliceData) -> None:
    for channel in ("_global", "proj-a"):
        bob = memory.for_user("bob", channel=channel)
        assert bob.get_conversation(alice_data.conversation_id) == []
        assert bob.get_recent_turns() == []
        assert bob.remember("vault code").items == []
        assert bob.working(alice_data.conversation_id).get_context() == {}


def test_bob_cannot_write_into_alices_conversation(
    memory: AgentMemory, alice_data: AliceData, ledger: PostgresStore, graph: FalkorDBStore
) -> None:
    cid = alice_data.conversation_id
    bob = memory.for_user("bob")
    alice_rows = ledger.fetch_all("list_turns", {"conversation_id": cid, "user_id": "alice"})
    alice_nodes = node_counts(graph, "alice")
    for turn_index in (None, 0, 2):
        with pytest.raises(NotFoundError, match="does not exist"):
            bob.store_turn(cid, "user", "bob was here", turn_index=turn_index)
    assert ledger.fetch_all("list_turns", {"conversation_id": cid, "user_id": "alice"}) == alice_rows
    assert ledger.fetch_all("list_turns", {"conversation_id": cid, "user_id": "bob"}) == []
    assert ledger.fetch_one("get_conversation", {"conversation_id": cid, "user_id": "bob"}) is None
    assert node_counts(graph, "alice") == alice_nodes
    assert node_counts(graph, "bob") == {}
    assert bob.working(cid).get_recent_turns() == []
    assert [turn.content for turn in memory.get_conversation(cid)] == [
        SECRET,
        "I will keep the vault code safe",
    ]


async def test_async_facade_isolation(amemory: AsyncAgentMemory) -> None:
    cid = await amemory.new_conversation()
    secret = await amemory.store_turn(cid, "user", SECRET)
    working = await amemory.working(cid)
    await working.set("vault", 4711)
    await working.push_thought("vault")
    await working.set_active_goal("open it")
    for other in ("bob", "Alice", "alice2"):
        reader = await amemory.for_user(other)
        assert await reader.get_conversation(cid) == []
        assert await reader.get_recent_turns() == []
        assert (await reader.remember("vault code")).items == []
        theirs = await reader.working(cid)
        assert await theirs.get_recent_turns() == []
        assert await theirs.get_context() == {}
        assert await theirs.get_thoughts() == []
        assert await theirs.get_active_goal() is None
        with pytest.raises(NotFoundError):
            await reader.store_turn(cid, "user", "intruder")
    assert [turn.id for turn in await amemory.get_conversation(cid)] == [secret.id]
    assert [item.id for item in (await amemory.remember("vault code")).items] == [secret.id]
