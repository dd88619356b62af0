"""Recall's metrics and the Redis cache of query embeddings, on the real servers: a repeated question
is served from the cache, the cached vector is the computed one, entries expire, the cache can be
switched off, and every recall's latency is in the histogram."""

from __future__ import annotations

from agentx_memory import AgentMemory
from agentx_memory.embedding.base import text_digest, vector_from_text, vector_to_text
from agentx_memory.metrics import EMBED_CACHE, RECALL_SECONDS, exposition
from agentx_memory.stores import keys


def _hits() -> float:
    return float(EMBED_CACHE.labels("hit")._value.get())


def test_vectors_round_trip_exactly_and_keys_hide_the_text() -> None:
    vector = [0.1, -0.25, 0.3333333432674408]
    assert vector_from_text(vector_to_text(vector)) == [0.10000000149011612, -0.25, 0.3333333432674408]
    assert text_digest("where do I live?") == text_digest("where do I live?")
    assert "live" not in keys.query_embedding("p", "m", text_digest("where do I live?"))


def test_a_repeated_question_is_served_from_the_cache(memory: AgentMemory) -> None:
    memory.store_turn(memory.new_conversation(), "user", "I keep my bike in the garage.")
    question = "where is the bike kept?"
    before = _hits()
    first = memory.remember(question, top_k=3)
    memory.close()  # the cache is written off the caller's path: wait for it (reopens on use)
    after_first = _hits()
    second = memory.remember(question, top_k=3)
    assert _hits() > after_first >= before  # the second recall's texts were all in the cache
    assert [item.id for item in first.items] == [item.id for item in second.items]
    backends = memory._open_backends()
    key = keys.query_embedding(
        memory.settings.redis.key_prefix, backends.embedder.model_id, text_digest(question)
    )
    cached = backends.redis.get_value(key)
    assert cached is not None
    assert 0 < backends.redis.ttl(key) <= memory.settings.embedding.query_cache_seconds
    computed = backends.embed([question])[0]
    assert max(abs(a - b) for a, b in zip(vector_from_text(cached), computed, strict=True)) < 1e-6


def test_recall_latency_is_in_the_metrics(memory: AgentMemory) -> None:
    def count() -> float:
        return sum(
            sample.value
            for metric in RECALL_SECONDS.collect()
            for sample in metric.samples
            if sample.name == "agentx_recall_seconds_count"
        )

    before = count()
    memory.remember("anything at all", top_k=3)
    memory.remember("anything else", top_k=3)
    assert count() == before + 2
    assert b"agentx_recall_seconds_bucket" in exposition()


def test_the_cache_can_be_switched_off(memory: AgentMemory) -> None:
    memory.settings = memory.settings.model_copy(
        update={"embedding": memory.settings.embedding.model_copy(update={"query_cache_seconds": 0})}
    )
    backends = memory._open_backends()
    backends.settings = memory.settings
    memory.remember("an uncached question", top_k=3)
    prefix = memory.settings.redis.key_prefix
    assert list(backends.redis.scan(f"{prefix}:embcache:*")) == []


def test_a_question_asked_again_in_the_process_is_served_from_its_recent_vectors(memory: AgentMemory) -> None:
    question = "what is kept in the garage?"
    memory.remember(question, top_k=3)
    backends = memory._open_backends()
    key = keys.query_embedding(
        memory.settings.redis.key_prefix, backends.embedder.model_id, text_digest(question)
    )
    [recent] = backends.recent_queries.get([key])
    assert recent is not None
    computed = backends.embed([question])[0]
    assert max(abs(a - b) for a, b in zip(recent, computed, strict=True)) < 1e-6
    before = _hits()
    memory.remember(question, top_k=3)
    assert _hits() == before + 1
