"""A LangGraph store's items are the agent's memory, as LangMem keeps memories in one: they count in
``memory_stats`` and ``remember`` / ``get_context`` recall them as documents, for their user only; an
item put with ``index=False`` (not searchable in LangGraph either) is counted, never recalled."""

from __future__ import annotations

from typer.testing import CliRunner

from agentx_memory import AgentMemory
from agentx_memory.cli import app
from agentx_memory.integrations.langgraph_store import SPACE, AgentMemoryStore
from agentx_memory.settings import Settings
from tests.settings_env import env_of

MEMORIES = {
    "seat": {"content": "The user always wants a window seat on flights."},
    "diet": {"content": "The user is vegetarian and avoids fish."},
    "pet": {"content": "The user has a beagle called Rex."},
    "city": {"content": "The user lives in Porto."},
}


def _store(memory: AgentMemory) -> AgentMemoryStore:
    store = AgentMemoryStore(memory)
    for key, value in MEMORIES.items():
        store.put(("memories",), key, value)
    store.put(("memories",), "secret", {"content": "The locker code is 4711."}, index=False)
    return store


def test_store_items_count_in_stats(agent_memory: AgentMemory, settings: Settings) -> None:
    _store(agent_memory)
    stats = agent_memory.memory_stats()
    assert stats.counts["Document"] == {"_global": 5}
    assert stats.total == 5
    assert stats.latest_write is not None
    assert "Document" not in agent_memory.for_user("bob").memory_stats().counts
    shown = CliRunner().invoke(app, ["stats", "--user", "alice"], env={**env_of(settings), "COLUMNS": "120"})
    assert shown.exit_code == 0, shown.output
    assert "Document" in shown.stdout


def test_remember_and_get_context_recall_store_items_as_documents(agent_memory: AgentMemory) -> None:
    _store(agent_memory)
    bundle = agent_memory.remember("Which seat should I book for the user's flight?", top_k=5)
    documents = [item for item in bundle.items if item.kind == "document"]
    assert documents, bundle.items
    best = documents[0]
    assert best.content == MEMORIES["seat"]["content"]
    assert best.metadata == {"space": SPACE, "namespace": ["memories"], "key": "seat"}
    assert best.found_by == ["vector"]
    assert "documents" in bundle.metrics
    # the same item, the same id (a context tag carries it)
    again = agent_memory.remember("window seat", top_k=5)
    assert best.id in {item.id for item in again.items}

    context = agent_memory.get_context("Suggest a dinner place for the user tonight.")
    assert "### Saved notes" in context
    assert "vegetarian" in context

    locker = agent_memory.remember("What is the locker code?", top_k=10)
    assert "4711" not in " ".join(item.content for item in locker.items)  # index=False: never recalled
    only_turns = agent_memory.remember("window seat", top_k=5, include_semantic=False)
    assert all(item.kind != "document" for item in only_turns.items)
    bob = agent_memory.for_user("bob")
    assert [i for i in bob.remember("window seat", top_k=5).items if i.kind == "document"] == []
    assert "window" not in bob.get_context("Which seat should I book?")
