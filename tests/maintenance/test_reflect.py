"""The reflect job on the real servers: a weekly reflection from new facts, protected from decay and
shown by get_context; with an LLM configured, written by it through the real SDK against the stub."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory import AgentMemory
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.llm_stub import LLMStub
from tests.maintenance.test_promote import _store_counts

REFLECTIONS = (
    "MATCH (f:Fact {user_id: $user, source: 'reflection'}) "
    "RETURN f.id AS id, f.claim AS claim, f.confidence AS confidence, f.decay_rate AS decay_rate, "
    "f.valid_until AS valid_until ORDER BY f.created_at"
)


def _reflections(graph: FalkorDBStore, user: str = "alice") -> list[dict[str, object]]:
    return graph._execute(REFLECTIONS, {"user": user})


def _days(n: float) -> datetime:
    return datetime.now(UTC) + timedelta(days=n)


def test_reflect_needs_new_facts_waits_six_days_and_survives_decay(
    memory: AgentMemory, graph: FalkorDBStore, ledger: PostgresStore
) -> None:
    alice = memory.for_user("alice", channel="trip-2026")
    bob = memory.for_user("bob", channel="trip-2026")
    alice.new_conversation()
    bob.new_conversation()
    alice.learn_fact("Alice is planning a trip to Lisbon in May", confidence=0.9, source="user")
    alice.learn_fact("Alice's sister Maya is vegetarian", confidence=0.8, source="inferred")
    bob.learn_fact("Bob likes sailing", confidence=0.9, source="user")

    few = run_job(memory, JOBS["reflect"], clock=lambda: _days(1))
    assert few.counts["too_few_facts"] == 2
    assert _reflections(graph) == []

    alice.learn_fact("Alice prefers aisle seats on flights", confidence=0.9, source="user")
    before = _store_counts(graph, ledger)
    dry = run_job(memory, JOBS["reflect"], dry_run=True, clock=lambda: _days(1))
    assert dry.counts["reflections"] == 1
    assert dry.planned == ["reflect alice on 3 new facts"]
    assert _store_counts(graph, ledger) == before

    report = run_job(memory, JOBS["reflect"], clock=lambda: _days(1))
    assert report.counts == {"reflections": 1, "too_few_facts": 1}  # bob: one fact only
    (written,) = _reflections(graph)
    claim = str(written["claim"])
    assert claim.startswith("Reflection of ")
    assert "Alice is planning a trip to Lisbon in May" in claim
    assert "Alice prefers aisle seats on flights" in claim
    assert written["decay_rate"] == 0.0
    assert _reflections(graph, "bob") == []

    for n in range(3):
        alice.learn_fact(f"Alice booked hotel number {n}", confidence=0.7, source="user")
    soon = run_job(memory, JOBS["reflect"], clock=lambda: _days(5))
    assert soon.counts == {"too_soon": 1, "too_few_facts": 1}
    assert len(_reflections(graph)) == 1

    for week in range(1, 11):  # ten simulated weeks of daily-ish decay: the reflection stays as it is
        moment = _days(7 * week)
        run_job(memory, JOBS["decay"], clock=lambda: moment)  # noqa: B023 - called within this turn
    (kept,) = [row for row in _reflections(graph) if row["id"] == written["id"]]
    assert kept["confidence"] == 1.0
    assert kept["valid_until"] is None

    context = alice.get_context("what do you know about my plans?", budget_tokens=1500)
    assert "### Latest reflection" in context
    assert claim[:60] in context
    assert context.count(f"[mem:{str(written['id'])[:8]}]") == 1  # once, not also among the facts

    later = run_job(memory, JOBS["reflect"], clock=lambda: _days(8))
    assert later.counts["reflections"] == 1
    newest = _reflections(graph)[-1]
    assert "Alice booked hotel number" in str(newest["claim"])
    assert f"[mem:{str(newest['id'])[:8]}]" in alice.get_context("my plans?", budget_tokens=1500)


@pytest.mark.parametrize("llm_memory", ["openai", "anthropic"], indirect=True)
def test_reflect_with_an_llm_writes_its_answer(llm_memory: AgentMemory, stub: LLMStub) -> None:
    llm_memory.new_conversation()
    for claim in ("Alice runs every morning", "Alice trains for the Lisbon marathon", "Alice eats no meat"):
        llm_memory.learn_fact(claim, confidence=0.9, source="user")
    stub.script("Alice's week revolves around marathon training and a plant-based diet.")
    report = run_job(llm_memory, JOBS["reflect"], clock=lambda: _days(1))
    spent = {name: report.counts.pop(name) for name in ("llm_input_tokens", "llm_output_tokens")}
    assert spent["llm_input_tokens"] > 0  # the job's LLM tokens, counted for the metrics
    assert report.counts == {"reflections": 1, "by_llm": 1}
    asked = str(stub.requests[-1].body)
    assert "Alice trains for the Lisbon marathon" in asked
    context = llm_memory.get_context("how is my training going?", budget_tokens=800)
    assert "marathon training and a plant-based diet" in context

    llm_memory.learn_fact("Alice ran 30 km on Sunday", confidence=0.9, source="user")
    llm_memory.learn_fact("Alice bought new running shoes", confidence=0.9, source="user")
    llm_memory.learn_fact("Alice sleeps eight hours", confidence=0.9, source="user")
    stub.fail(500)  # the LLM fails: the rule-based digest is written instead
    fallback = run_job(llm_memory, JOBS["reflect"], clock=lambda: _days(8))
    assert fallback.counts == {"reflections": 1, "llm_failed": 1}
    assert "Alice ran 30 km on Sunday" in llm_memory.get_context("running?", budget_tokens=800)
