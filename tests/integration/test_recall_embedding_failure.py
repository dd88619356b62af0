"""A recall whose query cannot be embedded fails as a whole, with the embedder's error, in both flavours.

Recall runs its steps concurrently in the async source (BM25 while the query is embedded, the graph
kinds as soon as the vector is there, the turns' vector search once both are): every step that waits
for the vector must see the failure, none may leave a half-built answer behind, and the next recall,
once the service answers again, is whole. The embedder is the real OpenAI SDK against the local stub.
"""

from __future__ import annotations

import gc
import logging

import pytest

from agentx_memory import AgentMemory
from agentx_memory.embedding import Embedder, OpenAIEmbedder
from agentx_memory.errors import AgentMemoryError, StoreError
from tests.embedding_stub import EmbeddingStub


@pytest.fixture
def embedder(embedding_stub: EmbeddingStub) -> Embedder:
    """Overrides the suite's local embedder: this module's facades embed through the stub."""
    return OpenAIEmbedder(
        model="text-embedding-3-small",
        dimensions=16,
        api_key="sk-test",
        base_url=embedding_stub.base_url,
        timeout=5.0,
        max_retries=0,
    )


def test_a_failed_query_embedding_fails_the_recall_and_the_next_one_is_whole(
    memory: AgentMemory, embedding_stub: EmbeddingStub, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="asyncio")
    conversation = memory.new_conversation()
    memory.store_turn(conversation, "user", "My sister Clara plays the cello in Porto.")
    memory.learn_fact("Alice's sister Clara plays the cello", confidence=0.9, source="user")
    memory.upsert_entity("Clara", "person", description="Alice's sister, a cellist")

    embedding_stub.status = 500
    with pytest.raises(StoreError, match="HTTP 500") as caught:
        memory.remember("Who plays the cello?", top_k=5)
    assert isinstance(caught.value, AgentMemoryError)
    # Entity-centric recall looks its entity up by name beside the embedding: it fails the same way.
    with pytest.raises(StoreError, match="HTTP 500"):
        memory.remember("Tell me about Clara", top_k=5)

    gc.collect()  # a task whose error nobody read says so when it is collected
    assert not [record for record in caplog.records if "never retrieved" in record.getMessage()]

    embedding_stub.status = 200
    bundle = memory.remember("Who plays the cello?", top_k=5)
    kinds = {item.kind for item in bundle.items}
    assert {"episodic", "fact"} <= kinds, kinds
    assert any("cello" in item.content for item in bundle.items if item.kind == "episodic")
    about = memory.remember("Tell me about Clara", top_k=5)
    assert any(item.kind == "entity" and "Clara" in item.content for item in about.items)
