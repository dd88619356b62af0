"""The metrics a scrape reads: the memory size re-counted once stale (the last count kept when a
count fails), and the LLM tokens a job spent, through the real LLM SDK against the local stub."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from agentx_memory import AgentMemory
from agentx_memory.errors import StoreUnavailableError
from agentx_memory.maintenance.base import MemorySize
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.metrics import REGISTRY, size_on_scrape
from tests.llm_stub import LLMStub

T0 = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)
NOTHING_LEARNED: dict[str, list[str]] = {"entities": [], "facts": [], "relationships": [], "strategies": []}


def _sample(name: str, labels: dict[str, str] | None = None) -> float | None:
    return REGISTRY.get_sample_value(name, labels or {})


def test_the_size_is_recounted_once_stale_and_kept_when_a_count_fails() -> None:
    counts = iter([MemorySize(nodes={"Turn": 1}, redis_keys=3), MemorySize(nodes={"Turn": 2})])
    failing: list[bool] = []

    def count() -> MemorySize:
        if failing:
            raise StoreUnavailableError("the graph is restarting")
        return next(counts)

    size_on_scrape(count, max_age_s=0.3)
    try:
        assert _sample("agentx_memory_nodes", {"label": "Turn"}) == 1
        assert _sample("agentx_redis_keys") == 3
        assert _sample("agentx_memory_nodes", {"label": "Turn"}) == 1  # fresh: not counted again
        time.sleep(0.35)
        assert _sample("agentx_memory_nodes", {"label": "Turn"}) == 2
        assert _sample("agentx_redis_keys") is None  # that count did not say
        failing.append(True)
        time.sleep(0.35)
        assert _sample("agentx_memory_nodes", {"label": "Turn"}) == 2  # the scrape still answers
    finally:
        size_on_scrape(None)


def test_consolidate_counts_the_llm_tokens_it_spent(llm_memory: AgentMemory, stub: LLMStub) -> None:
    before = {side: _sample("agentx_llm_tokens_total", {"job": "consolidate", "direction": side}) or 0.0
              for side in ("input", "output")}  # fmt: skip
    c = llm_memory.new_conversation()
    llm_memory.store_turn(c, "user", "My friend Leo loves jazz.", timestamp=T0)
    stub.script(NOTHING_LEARNED)
    report = run_job(llm_memory, JOBS["consolidate"], clock=lambda: T0 + timedelta(hours=1))
    assert report.counts["done"] == 1, report.error
    assert report.counts["llm_input_tokens"] == 7  # what the stub says every prompt cost
    assert report.counts["llm_output_tokens"] > 0
    spent = {side: (_sample("agentx_llm_tokens_total", {"job": "consolidate", "direction": side}) or 0.0)
             - before[side] for side in ("input", "output")}  # fmt: skip
    assert spent == {"input": 7, "output": report.counts["llm_output_tokens"]}


def test_without_an_llm_no_tokens_are_counted(memory: AgentMemory) -> None:
    c = memory.new_conversation()
    memory.store_turn(c, "user", "I'm allergic to peanuts.", timestamp=T0)
    report = run_job(memory, JOBS["consolidate"], clock=lambda: T0 + timedelta(hours=1))
    assert report.counts["done"] == 1
    assert not {"llm_input_tokens", "llm_output_tokens"} & set(report.counts)
