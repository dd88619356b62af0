"""Recall with an LLM configured: HyDE, LLM query expansion and LLM self-query through the real OpenAI and
Anthropic SDKs against the local stub — and the fallback to rules when the LLM fails."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from agentx_memory import AgentMemory, MemoryBundle
from agentx_memory.retrieval.llm_query import EXPANSION_SYSTEM, HYDE_SYSTEM, SELF_QUERY_SYSTEM
from tests.llm_stub import LLMStub, Reply, prompt_of

HYPOTHESIS = "I cooked a mushroom risotto on the camping trip."


def system_of(body: dict[str, Any]) -> str:
    """The system prompt of either request format (OpenAI: first message; Anthropic: its own field)."""
    if "system" in body:
        return str(body["system"])
    messages = [message for message in body.get("messages", []) if message.get("role") == "system"]
    return str(messages[0]["content"]) if messages else ""


def answers(self_query: str) -> Callable[[dict[str, Any]], Reply]:
    def reply(body: dict[str, Any]) -> Reply:
        system = system_of(body)
        if system == SELF_QUERY_SYSTEM:
            return self_query
        if system == HYDE_SYSTEM:
            return HYPOTHESIS
        if system == EXPANSION_SYSTEM:
            return "I cooked something on the trip."
        return f"unexpected: {prompt_of(body)}"

    return reply


def trip(memory: AgentMemory) -> tuple[str, str]:
    """Two near-identical cooking turns in two conversations: one four days ago, one today."""
    now = datetime.now(UTC)
    inside = memory.store_turn(
        memory.new_conversation(), "user", "We cooked pasta by the lake", timestamp=now - timedelta(days=4)
    )
    outside = memory.store_turn(
        memory.new_conversation(), "user", "We cooked pasta at the lake again tonight"
    )
    return inside.id, outside.id


def score(bundle: MemoryBundle, item_id: str) -> float:
    return next(item.score for item in bundle.items if item.id == item_id)


def day_range(days_back_start: int, days_back_end: int) -> tuple[str, str]:
    now = datetime.now(UTC)
    return (
        (now - timedelta(days=days_back_start)).isoformat(),
        (now - timedelta(days=days_back_end)).isoformat(),
    )


@pytest.mark.parametrize("llm_memory", ["openai", "anthropic"], indirect=True)
def test_hyde_and_expansion_run_through_the_llm(llm_memory: AgentMemory, stub: LLMStub) -> None:
    stub.reply = answers("not json")
    inside, outside = trip(llm_memory)
    bundle = llm_memory.remember("What did we make on the camping trip?", top_k=5)
    assert {inside, outside} <= {item.id for item in bundle.items}
    hyde = bundle.metrics["hyde"]
    assert (hyde.skipped, hyde.results) == (None, 1)
    assert hyde.latency_ms > 0
    assert bundle.metrics["expansion"].results == 1
    # the hypothetical answer got its own vector search over the turns
    assert bundle.metrics["turns.hyde"].results == 2
    assert "hyde" in bundle.items[0].found_by
    systems = [system_of(request.body) for request in stub.requests]
    assert systems == [SELF_QUERY_SYSTEM, EXPANSION_SYSTEM, HYDE_SYSTEM]
    [hyde_request] = [request for request in stub.requests if system_of(request.body) == HYDE_SYSTEM]
    assert "What did we make on the camping trip?" in prompt_of(hyde_request.body)
    path = "/v1/chat/completions" if llm_memory.settings.llm.provider == "openai" else "/v1/messages"
    assert {request.path for request in stub.requests} == {path}
    assert bundle.filters is not None
    assert bundle.filters.source == "rules"  # "not json" from the self-query step


def test_self_query_by_llm_restricts_turns_to_its_range(llm_memory: AgentMemory, stub: LLMStub) -> None:
    start, end = day_range(6, 2)
    stub.reply = answers(
        json.dumps(
            {
                "text": "what did we cook",
                "start": start,
                "end": end,
                "kinds": ["episodic"],
                "channels": ["nope"],
            }
        )
    )
    inside, _outside = trip(llm_memory)
    # no time phrase the rules could read: only the LLM knows "the camping trip" was last week
    bundle = llm_memory.remember("What did we cook on the camping trip?", top_k=5)
    assert bundle.filters is not None
    assert bundle.filters.source == "llm"
    assert bundle.filters.text == "what did we cook"
    assert bundle.filters.kinds == ["episodic"]
    assert bundle.filters.channels == []
    assert bundle.filters.time_range is not None
    assert bundle.filters.time_range.start == datetime.fromisoformat(start)
    assert bundle.episodic[0].id == inside
    assert bundle.metrics["self_query"].results == 2  # the range and one kind
    # the same answer without a range: the LLM's range is what lifted the older turn
    stub.reply = answers(json.dumps({"text": "what did we cook"}))
    plain = llm_memory.remember("What did we cook on the camping trip?", top_k=5)
    assert plain.filters is not None
    assert (plain.filters.source, plain.filters.time_range) == ("llm", None)
    assert score(plain, inside) < score(bundle, inside)
    request = next(request for request in stub.requests if system_of(request.body) == SELF_QUERY_SYSTEM)
    assert "Allowed channels: _global" in prompt_of(request.body)


def test_fenced_self_query_answer_is_accepted(llm_memory: AgentMemory, stub: LLMStub) -> None:
    start, end = day_range(6, 2)
    stub.reply = answers(f'```json\n{{"text": "cooking", "start": "{start}", "end": "{end}"}}\n```')
    inside, _ = trip(llm_memory)
    bundle = llm_memory.remember("what about cooking?", top_k=5)
    assert bundle.filters is not None
    assert bundle.filters.source == "llm"
    assert bundle.episodic[0].id == inside


@pytest.mark.parametrize(
    "self_query",
    [
        "I think you mean last week",
        '{"start": "2024-05-03T00:00:00Z", "end": "2024-05-01T00:00:00Z"}',
        '{"kinds": "episodic"}',
    ],
)
def test_unusable_self_query_answer_falls_back_to_rules(
    llm_memory: AgentMemory, stub: LLMStub, self_query: str
) -> None:
    stub.reply = answers(self_query)
    inside, _ = trip(llm_memory)
    bundle = llm_memory.remember("What did we cook 4 days ago?", top_k=5)
    assert bundle.filters is not None
    assert bundle.filters.source == "rules"
    assert bundle.filters.time_range is not None  # the rules read "4 days ago"
    assert bundle.episodic[0].id == inside
    assert bundle.metrics["hyde"].skipped is None


@pytest.mark.parametrize("llm_memory", ["openai", "anthropic"], indirect=True)
def test_llm_errors_fall_back_to_rules(llm_memory: AgentMemory, stub: LLMStub) -> None:
    inside, _ = trip(llm_memory)
    stub.fail(500, times=3)
    bundle = llm_memory.remember("What did we cook 4 days ago?", top_k=5)
    assert len(stub.requests) == 3  # one attempt per step, no retries
    assert bundle.filters is not None
    assert bundle.filters.source == "rules"
    assert bundle.episodic[0].id == inside
    assert bundle.metrics["hyde"].skipped == "LLM gave no usable answer"
    assert "turns.hyde" not in bundle.metrics
    assert bundle.metrics["expansion"].results == 1  # the rules rewrote the question
    stub.break_body("json", times=3)
    assert llm_memory.remember("What did we cook 4 days ago?").episodic[0].id == inside


def test_empty_llm_answers_skip_hyde(llm_memory: AgentMemory, stub: LLMStub) -> None:
    trip(llm_memory)
    stub.script("", "", "")
    bundle = llm_memory.remember("What did we cook?", top_k=5)
    assert bundle.metrics["hyde"].skipped == "LLM gave no usable answer"
    assert bundle.filters is not None
    assert bundle.filters.source == "rules"
    assert len(bundle.episodic) == 2


def test_naive_times_from_the_llm_are_read_as_utc(llm_memory: AgentMemory, stub: LLMStub) -> None:
    now = datetime.now(UTC).replace(tzinfo=None)
    start, end = (now - timedelta(days=6)).isoformat(), (now - timedelta(days=2)).isoformat()
    stub.reply = answers(json.dumps({"text": "cooking", "start": start, "end": end}))
    inside, _ = trip(llm_memory)
    bundle = llm_memory.remember("What did we cook on the camping trip?", top_k=5)
    assert bundle.episodic[0].id == inside
