"""Query decomposition in recall (off by default): each person's part is recalled and the answers are
interleaved, so both people's evidence leads the results."""

from __future__ import annotations

from agentx_memory import AgentMemory, Settings
from agentx_memory.embedding import Embedder

TURNS = [
    ("Priya", "I have been listening to a lot of old jazz records this winter"),
    ("Priya", "My cat knocked over the plant again"),
    ("Tom", "Honestly nothing beats a loud punk gig on a Friday"),
    ("Tom", "Tom here, Priya, Priya, Priya: shall we meet, Priya?"),
    ("Priya", "Tom, Tom, you and Priya should talk more, Tom!"),
]


def _store(memory: AgentMemory) -> None:
    conversation = memory.new_conversation()
    for speaker, content in TURNS:
        memory.store_turn(conversation, "user", content, metadata={"speaker": speaker})


def test_each_persons_part_is_recalled_and_interleaved(settings: Settings, embedder: Embedder) -> None:
    # Without the discount of turns that ask (retrieval.question_turn_factor): it lowers Tom's name-stuffed
    # question below the evidence, which this test's order of speakers does not measure.
    update = {"query_decomposition": True, "question_turn_factor": 1.0}
    on = settings.model_copy(update={"retrieval": settings.retrieval.model_copy(update=update)})
    question = "What music do Priya and Tom both enjoy?"
    with AgentMemory(user_id="alice", settings=on, embedder=embedder) as memory:
        _store(memory)
        bundle = memory.remember(question, top_k=4)
        assert bundle.filters is not None
        assert bundle.filters.parts == ["What music do Priya enjoy?", "What music do Tom enjoy?"]
        assert bundle.metrics["decomposition"].results == 2
        assert bundle.query == question
        assert "total" in bundle.timings_ms
        speakers = [str(item.metadata.get("speaker")) for item in bundle.items[:2]]
        assert sorted(speakers) == ["Priya", "Tom"]
        assert len({item.id for item in bundle.items}) == len(bundle.items)
    with AgentMemory(user_id="alice", settings=settings, embedder=embedder) as memory:
        assert memory.remember(question).metrics["decomposition"].skipped == "switched off"
    with AgentMemory(user_id="bob", settings=on, embedder=embedder) as bob:
        assert bob.remember(question).items == []
