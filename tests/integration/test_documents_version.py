"""Recall's "this user has no documents", remembered per process under the user's documents version
(``memory/documents.py``), on the real servers: a document another process writes is found by the
next recall, one user's "none" never hides another's documents, and a forgotten user starts over."""

from __future__ import annotations

import multiprocessing

from agentx_memory import AgentMemory, Settings
from agentx_memory.stores import keys

QUESTION = "Which seat do I prefer on flights?"
TEXT = "I prefer a window seat on flights."


def _put_document(settings: Settings, user_id: str) -> None:
    """In another process: its own facade, its own stores, its own cache."""
    with AgentMemory(user_id=user_id, settings=settings) as other:
        other.put_document("langgraph", ["notes"], "seat", {"text": TEXT}, index_texts={"text": TEXT})


def _in_another_process(settings: Settings, user_id: str) -> None:
    child = multiprocessing.get_context("spawn").Process(target=_put_document, args=(settings, user_id))
    child.start()
    child.join(120)
    assert child.exitcode == 0


def _documents(memory: AgentMemory) -> list[str]:
    return [item.content for item in memory.remember(QUESTION, top_k=5).items if item.kind == "document"]


def test_a_document_written_by_another_process_is_recalled_next(memory: AgentMemory) -> None:
    assert _documents(memory) == []
    assert _documents(memory) == []  # "none" remembered under the current version
    backends = memory._open_backends()
    key = keys.memory_version(memory.settings.redis.key_prefix, "alice", "documents")
    before = backends.redis.get_value(key)
    assert before is not None
    _in_another_process(memory.settings, "alice")
    assert backends.redis.get_value(key) != before
    found = _documents(memory)
    assert len(found) == 1
    assert "window seat" in found[0]


def test_one_users_none_never_hides_anothers_documents(memory: AgentMemory) -> None:
    bob = memory.for_user("bob")
    assert _documents(memory) == []
    assert _documents(bob) == []
    _in_another_process(memory.settings, "bob")
    assert _documents(memory) == []  # alice's version did not change, and bob's document is not hers
    assert len(_documents(bob)) == 1
    memory.put_document("langgraph", ["notes"], "seat", {"text": TEXT}, index_texts={"text": TEXT})
    assert len(_documents(memory)) == 1


def test_a_forgotten_user_starts_over(memory: AgentMemory) -> None:
    assert _documents(memory) == []
    memory.forget_user()
    _in_another_process(memory.settings, "alice")
    assert len(_documents(memory)) == 1
