"""The patterns job on the real servers: a path three conversations took becomes one proposal, a fourth
reinforces it, and nothing is mined twice."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from psycopg import sql

from agentx_memory import AgentMemory
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.memory.procedural_pure import strategy_from_graph
from agentx_memory.models.procedural import Strategy
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.maintenance.test_promote import _store_counts

PATH = ("search_flights", "book_flight")


def _conversation(memory: AgentMemory, *, ends_well: bool = True, title: str = "book a flight") -> str:
    cid = memory.new_conversation(title=title)
    memory.record_invocation(cid, None, "search_flights", {"to": "LIS"}, ["TP123"], True, 120.0)
    memory.record_invocation(cid, None, "book_flight", {"id": "TP123"}, None, False, 80.0, "card declined")
    memory.record_invocation(cid, None, "book_flight", {"id": "TP123"}, {"ok": ends_well}, ends_well, 90.0)
    return cid


def _later(hours: float = 2) -> datetime:
    return datetime.now(UTC) + timedelta(hours=hours)


def test_patterns_proposes_once_reinforces_and_mines_each_conversation_once(
    memory: AgentMemory, graph: FalkorDBStore, ledger: PostgresStore
) -> None:
    alice = memory.for_user("alice", channel="travel")
    bob = memory.for_user("bob", channel="travel")
    _conversation(alice)
    _conversation(alice)
    _conversation(alice, ends_well=False)  # failed: never counted
    _conversation(bob)
    _conversation(bob)

    waiting = run_job(memory, JOBS["patterns"], clock=_later)
    assert waiting.status == "done"
    assert waiting.counts["conversations"] == 5
    assert waiting.counts["unsuccessful"] == 1
    assert waiting.counts["proposed"] == 0
    assert waiting.counts["waiting"] == 2  # alice's path and bob's, each seen twice
    assert alice.proposed_strategies() == []

    third = _conversation(alice)
    before = _store_counts(graph, ledger)
    dry = run_job(memory, JOBS["patterns"], dry_run=True, clock=_later)
    assert _store_counts(graph, ledger) == before
    assert dry.counts["proposed"] == 1
    assert dry.planned[0].startswith(f"propose alice/{third}: search_flights → book_flight (3 conversations)")

    report = run_job(memory, JOBS["patterns"], clock=_later)
    assert report.counts["proposed"] == 1
    (proposal,) = alice.proposed_strategies()
    assert tuple(proposal.tool_sequence) == PATH
    assert proposal.source_conversation_id == third
    assert proposal.what_failed == ["book_flight: card declined"]
    first = _strategy(graph, proposal.id)
    assert first.success_count == 3
    assert first.last_used is not None
    assert bob.proposed_strategies() == []  # bob's two conversations are his own count

    alice.publish_strategy(proposal.id)
    _conversation(alice)
    reinforced = run_job(memory, JOBS["patterns"], clock=lambda: _later(3))
    assert reinforced.counts["reinforced"] == 1
    assert reinforced.counts["proposed"] == 0
    fourth = _strategy(graph, proposal.id)
    assert fourth.success_count == 4
    assert fourth.last_used is not None
    assert fourth.last_used >= first.last_used

    again = run_job(memory, JOBS["patterns"], clock=lambda: _later(4))
    assert again.counts.get("conversations", 0) == 0
    assert _strategy(graph, proposal.id) == fourth
    assert len(_strategies(graph)) == 1


def test_patterns_waits_for_an_idle_conversation(memory: AgentMemory) -> None:
    alice = memory.for_user("alice", channel="travel")
    for _ in range(3):
        _conversation(alice)
    early = run_job(memory, JOBS["patterns"], clock=lambda: datetime.now(UTC))
    assert early.counts.get("conversations", 0) == 0  # still going on: mined later, with all its calls
    assert run_job(memory, JOBS["patterns"], clock=_later).counts["proposed"] == 1


def _strategies(graph: FalkorDBStore) -> list[dict[str, object]]:
    return graph._execute("MATCH (s:Strategy) RETURN s.id AS id", {})


def _strategy(graph: FalkorDBStore, strategy_id: str) -> Strategy:
    (row,) = graph._execute(
        "MATCH (s:Strategy {id: $id}) RETURN s {.id, .user_id, .channel, .description, .context_pattern, "
        ".tool_sequence, .success_count, .failure_count, .source_conversation_id, .created_at, "
        ".updated_at, .status, .what_failed, .applies_when, .last_used} AS item",
        {"id": strategy_id},
    )
    return strategy_from_graph(row["item"])


def test_a_run_that_died_before_marking_its_conversations_credits_nothing_twice(
    memory: AgentMemory, graph: FalkorDBStore, ledger: PostgresStore
) -> None:
    """Credits go to the graph, the mined flags to the ledger: a run killed between the two is replayed
    by the next one, which must not count the same conversations again (without credit keys the
    replays below reach 5 and then 6 successes)."""
    alice = memory.for_user("alice", channel="travel")
    first_run = [_conversation(alice) for _ in range(3)]
    run_job(memory, JOBS["patterns"], clock=_later)
    (proposal,) = alice.proposed_strategies()
    assert _strategy(graph, proposal.id).success_count == 3
    _unmark(ledger, first_run)  # the proposing run died after crediting
    replayed = run_job(memory, JOBS["patterns"], clock=lambda: _later(3))
    assert replayed.counts["conversations"] == 3
    assert _strategy(graph, proposal.id).success_count == 3
    fourth = _conversation(alice)
    run_job(memory, JOBS["patterns"], clock=lambda: _later(4))
    assert _strategy(graph, proposal.id).success_count == 4
    _unmark(ledger, [fourth])  # the reinforcing run died after crediting
    run_job(memory, JOBS["patterns"], clock=lambda: _later(5))
    assert _strategy(graph, proposal.id).success_count == 4
    assert [s.id for s in alice.proposed_strategies()] == [proposal.id]


def _unmark(ledger: PostgresStore, conversations: list[str]) -> None:
    with ledger.session() as session:
        session.execute_composed(
            sql.SQL(
                "UPDATE conversations SET patterns_extracted_at = NULL, tool_pattern = NULL "
                "WHERE id = ANY({})"
            ).format(sql.Literal(conversations)),
            "unmark for the test",
        )
