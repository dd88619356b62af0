"""Procedural memory end to end on the real servers: invocations, tool counters, strategies."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from psycopg import sql

from agentx_memory import AgentMemory, AsyncAgentMemory, InvalidInputError, NotFoundError, Settings
from agentx_memory.memory.procedural_pure import laplace_success_rate, rank_strategies, strategy_score
from agentx_memory.models.procedural import Strategy, ToolInvocation, ToolStats
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.payloads import INJECTIONS


def stats_by_name(stats: list[ToolStats]) -> dict[str, ToolStats]:
    return {stat.tool_name: stat for stat in stats}


def node_counts(graph: FalkorDBStore, user_id: str = "alice") -> dict[str, int]:
    return {row["label"]: row["count"] for row in graph.run("count_user_nodes", {"user_id": user_id})}


def learn(memory: AgentMemory, description: str, pattern: str, tools: list[str], success: bool) -> Strategy:
    return memory.learn_strategy(description, pattern, tools, None, success)


# ------------------------------------------------------------------------------------------ pure scoring


def test_laplace_success_rate_formula() -> None:
    assert laplace_success_rate(0, 0) == 0.5
    assert laplace_success_rate(3, 1) == pytest.approx(4 / 6)
    assert laplace_success_rate(0, 3) == pytest.approx(1 / 5)
    assert laplace_success_rate(98, 0) == pytest.approx(99 / 100)


def test_strategy_score_weights_similarity_and_clamps_it() -> None:
    assert strategy_score(1.0, 0, 0) == pytest.approx(0.7 + 0.3 * 0.5)
    assert strategy_score(-0.4, 0, 0) == pytest.approx(0.3 * 0.5)
    assert strategy_score(0.5, 4, 0) > strategy_score(0.5, 0, 4)


def test_rank_strategies_orders_by_score_and_cuts_to_top_k() -> None:
    now = datetime.now(UTC)

    def strategy(successes: int, failures: int) -> Strategy:
        return Strategy(
            id=str(uuid.uuid4()), user_id="alice", channel="_global", description="d", context_pattern="p",
            tool_sequence=["t"], success_count=successes, failure_count=failures, created_at=now,
            updated_at=now,
        )  # fmt: skip

    good, bad, far = strategy(5, 0), strategy(0, 5), strategy(9, 0)
    ranked = rank_strategies([(bad, 0.8), (far, 0.1), (good, 0.8)], top_k=2)
    assert [match.strategy.id for match in ranked] == [good.id, bad.id]
    assert ranked[0].success_rate == pytest.approx(6 / 7)
    assert ranked[0].score == pytest.approx(strategy_score(0.8, 5, 0))


# ------------------------------------------------------------------------------------------- invocations


def test_counters_and_running_average_are_exact(memory: AgentMemory, graph: FalkorDBStore) -> None:
    cid = memory.new_conversation()
    for latency, success in [(100, True), (200, False), (600, True), (300, True)]:
        memory.record_invocation(cid, 1, "web_search", {"q": "paris"}, {"hits": 3}, success, latency)
    memory.record_invocation(cid, 2, "calculator", {"expr": "1+1"}, 2, True, 7.5)
    stats = stats_by_name(memory.get_tool_stats())
    search = stats["web_search"]
    assert (search.usage_count, search.success_count) == (4, 3)
    assert search.avg_latency_ms == pytest.approx(300.0)
    assert search.success_rate == pytest.approx(0.75)
    assert search.last_used is not None
    calc = stats["calculator"]
    assert (calc.usage_count, calc.success_count, calc.avg_latency_ms) == (1, 1, 7.5)
    assert [stat.tool_name for stat in memory.get_tool_stats()] == ["web_search", "calculator"]
    assert node_counts(graph) == {"Conversation": 1, "Tool": 2, "ToolInvocation": 5, "User": 1}
    rows = graph._execute(
        "MATCH (:Conversation {id: $cid, user_id: 'alice'})-[:USED_TOOL]->(i:ToolInvocation)-[:INVOKED]->"
        "(t:Tool {user_id: 'alice'}) RETURN t.name AS name, count(i) AS n ORDER BY name",
        {"cid": cid},
    )
    assert rows == [{"name": "calculator", "n": 1}, {"name": "web_search", "n": 4}]


def test_replaying_an_invocation_id_does_not_double_count(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    backends = memory._open_backends()
    procedural = backends.procedural
    invocation = ToolInvocation(
        id=str(uuid.uuid4()), conversation_id=cid, user_id="alice", channel="_global", turn_index=0,
        tool_name="web_search", tool_input={"q": "x"}, tool_output=None, success=True, latency_ms=40.0,
        created_at=datetime.now(UTC),
    )  # fmt: skip
    first, created = procedural.record_invocation(memory.scope, invocation)
    again, created_again = procedural.record_invocation(memory.scope, invocation)
    assert (created, created_again) == (True, False)
    assert again == first
    memory.record_invocation(cid, 1, "web_search", {}, None, False, 80)
    [stat] = memory.get_tool_stats()
    assert (stat.usage_count, stat.success_count) == (2, 1)
    assert stat.avg_latency_ms == pytest.approx(60.0)


def test_invocation_row_is_in_the_ledger(memory: AgentMemory, ledger: PostgresStore) -> None:
    cid = memory.new_conversation()
    stored = memory.record_invocation(
        cid, 3, "http.get", {"url": "https://example.org", "n": [1, 2]}, {"status": 500}, False, 12, "timeout"
    )
    row = ledger.fetch_one("get_tool_invocation", {"id": stored.id, "user_id": "alice"})
    assert row is not None
    assert row["conversation_id"] == cid
    assert (row["tool_name"], row["turn_index"], row["success"]) == ("http.get", 3, False)
    assert row["tool_input"] == {"url": "https://example.org", "n": [1, 2]}
    assert row["tool_output"] == {"status": 500}
    assert (row["latency_ms"], row["error_message"]) == (12.0, "timeout")
    assert stored.tool_output == {"status": 500}


def test_invocation_in_an_unknown_or_foreign_conversation_is_not_found(
    memory: AgentMemory, ledger: PostgresStore, graph: FalkorDBStore
) -> None:
    cid = memory.new_conversation()
    bob = memory.for_user("bob")
    with pytest.raises(NotFoundError):
        memory.record_invocation(str(uuid.uuid4()), 0, "web_search", {}, None, True, 1)
    with pytest.raises(NotFoundError):
        bob.record_invocation(cid, 0, "web_search", {}, None, True, 1)
    assert memory.get_tool_stats() == []
    assert bob.get_tool_stats() == []
    assert node_counts(graph, "bob") == {}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("tool_name", "web search"),
        ("tool_name", "x'}) DETACH DELETE n //"),
        ("tool_name", "a" * 101),
        ("tool_input", {"f": object()}),
        ("tool_input", ["not", "a", "dict"]),
        ("tool_output", {"big": "x" * 20_000}),
        ("success", 1),
        ("latency_ms", -1),
        ("turn_index", -2),
    ],
)
def test_bad_invocation_input_is_rejected(memory: AgentMemory, field: str, value: Any) -> None:
    cid = memory.new_conversation()
    args: dict[str, Any] = {
        "conversation_id": cid, "turn_index": 0, "tool_name": "web_search", "tool_input": {},
        "tool_output": None, "success": True, "latency_ms": 1.0,
    }  # fmt: skip
    with pytest.raises(InvalidInputError):
        memory.record_invocation(**{**args, field: value})
    assert memory.get_tool_stats() == []


# -------------------------------------------------------------------------------------------- strategies


def test_find_strategies_ranks_relevant_successful_first(memory: AgentMemory) -> None:
    flights = "Book a flight: search flights, compare prices, then book the cheapest seat"
    good = learn(memory, flights, "travel booking of flights", ["flight_search", "booking"], True)
    bad = learn(memory, flights, "travel booking of flights", ["flight_search", "booking"], False)
    other = learn(
        memory, "Debug a failing Python unit test with the debugger", "software debugging", ["pytest"], True
    )
    matches = memory.find_strategies("book me a flight to Paris", top_k=3)
    assert [match.strategy.id for match in matches] == [good.id, bad.id, other.id]
    assert matches[0].similarity == pytest.approx(matches[1].similarity, abs=1e-4)
    assert matches[0].similarity > matches[2].similarity
    assert matches[0].success_rate == pytest.approx(2 / 3)
    assert matches[1].success_rate == pytest.approx(1 / 3)
    assert matches[0].score == pytest.approx(strategy_score(matches[0].similarity, 1, 0))
    assert len(memory.find_strategies("book me a flight to Paris", top_k=1)) == 1


def test_learn_strategy_links_tools_in_order_and_the_conversation(
    memory: AgentMemory, graph: FalkorDBStore, settings: Settings
) -> None:
    cid = memory.new_conversation()
    won = memory.learn_strategy(
        "Summarise a paper", "research reading", ["pdf_reader", "summarizer"], cid, True
    )
    lost = memory.learn_strategy("Summarise a paper badly", "research reading", ["summarizer"], cid, False)
    assert won.tool_sequence == ["pdf_reader", "summarizer"]
    assert (won.success_count, won.failure_count, lost.success_count, lost.failure_count) == (1, 0, 0, 1)
    assert won.source_conversation_id == cid
    assert won.channel == "_global"
    edges = graph._execute(
        "MATCH (s:Strategy {id: $id, user_id: 'alice'})-[r:USES_TOOL]->(t:Tool) "
        "RETURN t.name AS name, r.position AS position, t.key AS key ORDER BY position",
        {"id": won.id},
    )
    assert edges == [
        {"name": "pdf_reader", "position": 0, "key": "alice:pdf_reader"},
        {"name": "summarizer", "position": 1, "key": "alice:summarizer"},
    ]
    succeeded = graph._execute(
        "MATCH (s:Strategy {user_id: 'alice'})-[:SUCCEEDED_IN]->(c:Conversation {id: $cid}) "
        "RETURN s.id AS id",
        {"cid": cid},
    )
    assert succeeded == [{"id": won.id}]
    assert node_counts(graph)["Tool"] == 2  # both strategies share alice's summarizer tool
    with psycopg.connect(settings.postgres.url or "") as conn:
        query = sql.SQL(
            "SELECT memory_id, summary FROM {}.memory_timeline "
            "WHERE memory_type = 'strategy' AND user_id = 'alice' ORDER BY summary"
        ).format(sql.Identifier(settings.postgres.schema_name))
        assert conn.execute(query).fetchall() == [
            (won.id, "Summarise a paper"),
            (lost.id, "Summarise a paper badly"),
        ]


def test_learn_strategy_from_a_foreign_conversation_is_not_found(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    bob = memory.for_user("bob")
    with pytest.raises(NotFoundError):
        bob.learn_strategy("Plan a trip", "travel", ["maps"], cid, True)
    assert bob.find_strategies("Plan a trip") == []


def test_reinforce_counts_and_rejects_unknown_or_foreign_ids(memory: AgentMemory) -> None:
    strategy = learn(memory, "Plan a trip", "travel", ["maps"], True)
    memory.reinforce_strategy(strategy.id, True)
    after = memory.reinforce_strategy(strategy.id, False)
    assert (after.success_count, after.failure_count) == (2, 1)
    assert after.updated_at >= strategy.updated_at
    with pytest.raises(NotFoundError):
        memory.reinforce_strategy(str(uuid.uuid4()), True)
    bob = memory.for_user("bob")
    with pytest.raises(NotFoundError):
        bob.reinforce_strategy(strategy.id, False)
    with pytest.raises(InvalidInputError):
        memory.reinforce_strategy("not-a-uuid", True)
    [match] = memory.find_strategies("Plan a trip")
    assert (match.strategy.success_count, match.strategy.failure_count) == (2, 1)


def test_tool_stats_by_task_type(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    learn(memory, "Book a flight", "Travel booking", ["flight_search", "booking"], True)
    learn(memory, "Fix a bug", "software debugging", ["pytest"], True)
    memory.record_invocation(cid, 0, "flight_search", {}, None, True, 10)
    travel = stats_by_name(memory.get_tool_stats("travel"))
    assert sorted(travel) == ["booking", "flight_search"]
    assert travel["flight_search"].usage_count == 1
    assert travel["booking"].usage_count == 0
    assert travel["booking"].success_rate is None
    assert [stat.tool_name for stat in memory.get_tool_stats("debugging")] == ["pytest"]
    assert memory.get_tool_stats("cooking") == []
    assert len(memory.get_tool_stats()) == 3


def test_channels_scope_strategy_reads(memory: AgentMemory) -> None:
    shared = learn(memory, "Write a status report", "reporting", ["docs"], True)
    project_a = memory.for_user("alice", "proj-a")
    local = project_a.learn_strategy("Write a status report for project A", "reporting", ["docs"], None, True)
    assert local.channel == "proj-a"
    seen_in_a = {match.strategy.id for match in project_a.find_strategies("status report")}
    assert seen_in_a == {shared.id, local.id}
    project_b = memory.for_user("alice", "proj-b")
    assert {match.strategy.id for match in project_b.find_strategies("status report")} == {shared.id}
    with pytest.raises(NotFoundError):
        project_b.reinforce_strategy(local.id, True)
    assert [stat.tool_name for stat in project_b.get_tool_stats("reporting")] == ["docs"]


def test_other_users_see_nothing(memory: AgentMemory) -> None:
    cid = memory.new_conversation()
    memory.record_invocation(cid, 0, "web_search", {}, None, True, 5)
    learn(memory, "Book a flight", "travel", ["web_search"], True)
    bob = memory.for_user("bob")
    assert bob.find_strategies("Book a flight") == []
    assert bob.get_tool_stats() == []
    assert bob.get_tool_stats("travel") == []
    assert len(memory.find_strategies("Book a flight")) == 1


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_payloads_are_stored_verbatim(
    memory: AgentMemory, graph: FalkorDBStore, ledger: PostgresStore, payload: str
) -> None:
    cid = memory.new_conversation()
    stored = memory.record_invocation(cid, 0, "web_search", {"q": payload}, payload, False, 3, payload)
    row = ledger.fetch_one("get_tool_invocation", {"id": stored.id, "user_id": "alice"})
    assert row is not None
    assert (row["tool_input"], row["tool_output"], row["error_message"]) == ({"q": payload}, payload, payload)
    strategy = memory.learn_strategy(payload, payload, ["web_search"], cid, True)
    assert (strategy.description, strategy.context_pattern) == (payload, payload)
    [match] = memory.find_strategies(payload)
    assert match.strategy == strategy
    assert [stat.tool_name for stat in memory.get_tool_stats(payload)] == ["web_search"]
    assert node_counts(graph) == {"Conversation": 1, "Strategy": 1, "Tool": 1, "ToolInvocation": 1, "User": 1}


# --------------------------------------------------------------------------------------------- async twin


async def test_async_procedural_surface(amemory: AsyncAgentMemory) -> None:
    cid = await amemory.new_conversation()
    await amemory.record_invocation(cid, 0, "web_search", {"q": "a"}, None, True, 10)
    await amemory.record_invocation(cid, 1, "web_search", {"q": "b"}, None, False, 30)
    [stat] = await amemory.get_tool_stats()
    assert (stat.usage_count, stat.success_count, stat.avg_latency_ms) == (2, 1, 20.0)
    strategy = await amemory.learn_strategy("Search the web", "research", ["web_search"], cid, True)
    reinforced = await amemory.reinforce_strategy(strategy.id, True)
    assert reinforced.success_count == 2
    [match] = await amemory.find_strategies("search the web for something")
    assert match.strategy.id == strategy.id
    assert match.success_rate == pytest.approx(3 / 4)
    bob = await amemory.for_user("bob")
    assert await bob.find_strategies("search the web") == []
    assert await bob.get_tool_stats() == []
