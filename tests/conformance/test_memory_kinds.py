"""Facade-level conformance of the memory kinds: every graph operation behaves the same on every backend.

FalkorDB runs on the session's embedded server (a fresh graph per test, dropped afterwards). Neo4j runs only
when ``AGENTX_NEO4J_URI`` points at a live server; its graph data is removed with ``forget_user`` for every
user a test touched, and the Postgres schema / Redis prefix with the conftest cleanup.
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from agentx_memory import AgentMemory, ConflictError, InvalidInputError, NotFoundError
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.errors import StoreError
from agentx_memory.memory.procedural_pure import strategy_score
from agentx_memory.models.procedural import ToolStats
from agentx_memory.models.semantic import Entity
from tests.conftest import cleanup, isolated_settings

USERS = ("alice", "bob")


@pytest.fixture(params=["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def backend_memory(
    request: pytest.FixtureRequest, endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> Iterator[AgentMemory]:
    """A sync facade for ``alice`` in ``_global`` on the requested graph backend, isolated per test."""
    if request.param == "neo4j":
        uri = os.environ.get("AGENTX_NEO4J_URI")
        if not uri:
            pytest.skip("AGENTX_NEO4J_URI is not set: Neo4j conformance needs a live server")
        settings = isolated_settings(
            endpoints,
            data_dir,
            graph={
                "backend": "neo4j",
                "neo4j_uri": uri,
                "neo4j_user": os.environ.get("AGENTX_NEO4J_USER", "neo4j"),
                "neo4j_password": os.environ.get("AGENTX_NEO4J_PASSWORD", "neo4j"),
            },
        )
    else:
        settings = isolated_settings(endpoints, data_dir)
    assert settings.graph.backend == request.param
    mem = AgentMemory(user_id="alice", settings=settings, embedder=embedder)
    try:
        mem.open()
        if request.param == "neo4j":
            # A shared database: start from nothing of these users and leave nothing behind.
            for user_id in USERS:
                mem.for_user(user_id).forget_user()
        yield mem
    finally:
        try:
            if request.param == "neo4j":
                for user_id in USERS:
                    mem.for_user(user_id).forget_user()
        finally:
            mem.close()
            cleanup(settings, endpoints)


# ------------------------------------------------------------------------------------------------ helpers


def node_counts(mem: AgentMemory, user_id: str = "alice") -> dict[str, int]:
    rows = mem._open_backends().graph.run("count_user_nodes", {"user_id": user_id})
    return {str(row["label"]): int(row["count"]) for row in rows if int(row["count"]) > 0}


def stats_by_name(stats: list[ToolStats]) -> dict[str, ToolStats]:
    return {stat.tool_name: stat for stat in stats}


# -------------------------------------------------------------------------------------------------- goals


def test_goal_hierarchy_block_cycles_and_completion(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    root = mem.add_goal("plan the Lisbon trip", priority=5)
    flight = mem.add_goal("book the flight", priority=2, parent_id=root.id)
    hotel = mem.add_goal("book the hotel", parent_id=root.id)
    visa = mem.add_goal("check the visa rules", parent_id=flight.id)
    assert (root.status, root.parent, flight.parent, visa.parent) == ("active", None, root.id, flight.id)
    assert mem.get_goal(root.id).subgoals == [flight.id, hotel.id]
    assert mem.get_goal(flight.id).subgoals == [visa.id]

    # subgoal cycles, direct and transitive, are refused and change nothing
    for goal_id, parent_id in [(root.id, root.id), (root.id, flight.id), (root.id, visa.id)]:
        with pytest.raises(ConflictError):
            mem.set_goal_parent(goal_id, parent_id)
    assert mem.get_goal(root.id).parent is None
    moved = mem.set_goal_parent(visa.id, hotel.id)
    assert moved.parent == hotel.id
    assert mem.get_goal(flight.id).subgoals == []
    assert mem.get_goal(hotel.id).subgoals == [visa.id]

    # blockers: self, direct and transitive cycles are refused; re-blocking is idempotent
    blocked = mem.block_goal(hotel.id, flight.id)
    assert (blocked.status, blocked.blocked_by, blocked.completed_at) == ("blocked", [flight.id], None)
    mem.block_goal(flight.id, visa.id)
    for goal_id, blocker_id in [(visa.id, visa.id), (flight.id, hotel.id), (visa.id, hotel.id)]:
        with pytest.raises(ConflictError):
            mem.block_goal(goal_id, blocker_id)
    assert mem.get_goal(visa.id).blocked_by == []
    assert mem.get_goal(visa.id).status == "active"
    assert mem.block_goal(hotel.id, flight.id).blocked_by == [flight.id]

    assert [g.id for g in mem.active_goals()] == [root.id, flight.id, hotel.id, visa.id]
    assert [g.id for g in mem.active_goals(limit=2)] == [root.id, flight.id]

    # transitions: blocked -> completed, active -> abandoned; final states are final
    done = mem.complete_goal(hotel.id, result="booked the Alfama hotel")
    assert (done.status, done.result) == ("completed", "booked the Alfama hotel")
    assert done.blocked_by == [flight.id]
    assert done.completed_at is not None
    assert done.completed_at >= hotel.created_at
    dropped = mem.complete_goal(visa.id, status="abandoned")
    assert dropped.status == "abandoned"
    assert dropped.completed_at is not None
    for status in ("completed", "abandoned", "blocked"):
        with pytest.raises(ConflictError):
            mem.complete_goal(hotel.id, status=status)
    with pytest.raises(ConflictError):
        mem.block_goal(visa.id, root.id)
    marked = mem.complete_goal(root.id, status="blocked")
    assert (marked.status, marked.completed_at) == ("blocked", None)
    assert [g.id for g in mem.active_goals()] == [root.id, flight.id]
    assert mem.get_goal(hotel.id).status == "completed"
    assert node_counts(mem) == {"Goal": 4, "User": 1}


# --------------------------------------------------------------------------------------------- procedural


def test_tool_invocation_counters_and_average_latency(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    cid = mem.new_conversation()
    for latency, success in [(100, True), (200, False), (600, True)]:
        mem.record_invocation(cid, 1, "web_search", {"q": "paris"}, {"hits": 3}, success, latency)
    # the same call replayed through the facade is a new invocation, counted again
    first = mem.record_invocation(cid, 2, "web_search", {"q": "lyon"}, None, True, 300)
    second = mem.record_invocation(cid, 2, "web_search", {"q": "lyon"}, None, True, 300)
    assert first.id != second.id
    mem.record_invocation(cid, 3, "calculator", {"expr": "1+1"}, 2, True, 7.5)

    stats = mem.get_tool_stats()
    assert [stat.tool_name for stat in stats] == ["web_search", "calculator"]
    by_name = stats_by_name(stats)
    search = by_name["web_search"]
    assert (search.usage_count, search.success_count) == (5, 4)
    assert search.avg_latency_ms == pytest.approx(300.0)
    assert search.success_rate == pytest.approx(0.8)
    assert search.last_used is not None
    calc = by_name["calculator"]
    assert (calc.usage_count, calc.success_count, calc.avg_latency_ms, calc.success_rate) == (1, 1, 7.5, 1.0)
    assert node_counts(mem) == {"Conversation": 1, "Tool": 2, "ToolInvocation": 6, "User": 1}

    with pytest.raises(NotFoundError):
        mem.record_invocation(str(uuid.uuid4()), 0, "web_search", {}, None, True, 1)
    with pytest.raises(NotFoundError):
        mem.for_user("bob").record_invocation(cid, 0, "web_search", {}, None, True, 1)
    assert stats_by_name(mem.get_tool_stats())["web_search"].usage_count == 5


def test_strategy_ranking_reinforcement_and_task_stats(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    cid = mem.new_conversation()
    flights = "Book a flight: search flights, compare prices, then book the cheapest seat"
    good = mem.learn_strategy(flights, "travel booking of flights", ["flight_search", "booking"], cid, True)
    bad = mem.learn_strategy(flights, "travel booking of flights", ["flight_search", "booking"], None, False)
    other = mem.learn_strategy(
        "Debug a failing Python unit test with the debugger", "software debugging", ["pytest"], None, True
    )
    assert good.tool_sequence == ["flight_search", "booking"]
    assert good.source_conversation_id == cid
    assert (good.success_count, good.failure_count, bad.success_count, bad.failure_count) == (1, 0, 0, 1)

    matches = mem.find_strategies("book me a flight to Paris", top_k=3)
    assert [match.strategy.id for match in matches] == [good.id, bad.id, other.id]
    assert matches[0].similarity == pytest.approx(matches[1].similarity, abs=1e-4)
    assert matches[0].similarity > matches[2].similarity
    assert matches[0].success_rate == pytest.approx(2 / 3)
    assert matches[1].success_rate == pytest.approx(1 / 3)
    assert matches[0].score == pytest.approx(strategy_score(matches[0].similarity, 1, 0))
    assert [m.strategy.id for m in mem.find_strategies("book me a flight to Paris", top_k=1)] == [good.id]

    # reinforcing the failed one past the good one flips the ranking
    for _ in range(3):
        mem.reinforce_strategy(bad.id, True)
    after = mem.reinforce_strategy(bad.id, True)
    assert (after.success_count, after.failure_count) == (4, 1)
    assert after.updated_at >= bad.updated_at
    reranked = mem.find_strategies("book me a flight to Paris", top_k=2)
    assert [match.strategy.id for match in reranked] == [bad.id, good.id]
    assert reranked[0].success_rate == pytest.approx(5 / 7)
    with pytest.raises(NotFoundError):
        mem.reinforce_strategy(str(uuid.uuid4()), True)

    mem.record_invocation(cid, 0, "flight_search", {}, None, True, 10)
    travel = stats_by_name(mem.get_tool_stats("TRAVEL"))
    assert sorted(travel) == ["booking", "flight_search"]
    assert (travel["flight_search"].usage_count, travel["booking"].usage_count) == (1, 0)
    assert travel["booking"].success_rate is None
    assert [stat.tool_name for stat in mem.get_tool_stats("debugging")] == ["pytest"]
    assert mem.get_tool_stats("cooking") == []
    assert node_counts(mem) == {
        "Conversation": 1, "Strategy": 3, "Tool": 3, "ToolInvocation": 1, "User": 1
    }  # fmt: skip


# ----------------------------------------------------------------------------------------------- semantic


def test_entity_resolution(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    acme = mem.upsert_entity("Acme Corp", "organization", properties={"city": "Paris", "size": 10})
    again = mem.upsert_entity("  acme   CORP ", "organization", properties={"size": 12})
    assert again.id == acme.id
    assert (acme.mention_count, again.mention_count, again.access_count) == (1, 2, 1)
    assert (again.name, again.aliases, again.properties) == ("Acme Corp", [], {"city": "Paris", "size": 12})

    ibm = mem.upsert_entity("International Business Machines", "organization", aliases=["IBM"])
    by_alias = mem.upsert_entity("ibm", "organization", description="computer maker")
    assert by_alias.id == ibm.id
    assert by_alias.description == "computer maker"
    big_blue = mem.upsert_entity("Big Blue", "organization", aliases=["IBM"])
    assert big_blue.id == ibm.id
    assert (big_blue.aliases, big_blue.mention_count, big_blue.description) == (
        ["IBM", "Big Blue"], 3, "computer maker"
    )  # fmt: skip

    place = mem.upsert_entity("Jordan", "location")
    person = mem.upsert_entity("Jordan", "person")
    assert place.id != person.id
    assert (place.type, person.type) == ("location", "person")
    assert mem.get_entity_info("big blue").entity.id == ibm.id
    assert node_counts(mem) == {"Entity": 4}


def test_learn_fact_about_names_and_derived_from(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    acme = mem.upsert_entity("Acme Corp", "organization")
    cid = mem.new_conversation()
    turn = mem.store_turn(cid, "user", "I started working at Acme last week")
    fact = mem.learn_fact(
        "Alice works at Acme",
        confidence=0.8,
        source="conversation",
        about=[acme.id, "acme corp", "Alice"],
        source_turn_id=turn.id,
        priority="high",
    )
    alice = mem.get_entity_info("alice").entity
    assert alice.type == "other"
    assert fact.about == sorted([acme.id, alice.id])
    assert fact.source_turn_id == turn.id
    assert (fact.confidence, fact.source, fact.temporal, fact.priority, fact.is_current) == (
        0.8, "conversation", "current", "high", True
    )  # fmt: skip
    assert [f.id for f in mem.get_entity_info(acme.id).facts] == [fact.id]
    assert [f.id for f in mem.get_entity_info(alice.id).facts] == [fact.id]
    [(found, _)] = mem.search_facts("where does Alice work?", top_k=1)
    assert (found.id, found.source_turn_id, found.about) == (fact.id, turn.id, fact.about)

    with pytest.raises(NotFoundError):
        mem.learn_fact("x", confidence=0.5, source="chat", about=["Brand new name", str(uuid.uuid4())])
    with pytest.raises(NotFoundError):
        mem.for_user("bob").learn_fact("Bob too", confidence=0.5, source="turn", source_turn_id=turn.id)
    assert node_counts(mem)["Entity"] == 2
    assert node_counts(mem)["Fact"] == 1
    assert node_counts(mem, "bob") == {}


def test_correct_and_undo_chain(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    acme = mem.upsert_entity("Acme Corp", "organization")
    old = mem.learn_fact("Acme's office is in Paris", confidence=0.7, source="chat", about=[acme.id])
    new = mem.correct_fact(old.id, "Acme's office is in Lyon")
    assert new.id != old.id
    assert (new.about, new.confidence, new.source, new.is_current) == ([acme.id], 0.7, "chat", True)
    assert [f.id for f in mem.get_entity_info(acme.id).facts] == [new.id]
    assert [f.id for f, _ in mem.search_facts("where is Acme's office?")] == [new.id]
    with pytest.raises(InvalidInputError, match="no longer current"):
        mem.correct_fact(old.id, "Acme's office is in Nice")

    # a second correction on top of the first, then undo both, newest first
    newer = mem.correct_fact(new.id, "Acme's office is in Marseille")
    assert [f.id for f, _ in mem.search_facts("where is Acme's office?")] == [newer.id]
    restored = mem.undo_correction(newer.id)
    assert (restored.id, restored.is_current, restored.superseded_by) == (new.id, True, None)
    assert [f.id for f, _ in mem.search_facts("where is Acme's office?")] == [new.id]
    original = mem.undo_correction(old.id)  # via the superseded fact
    assert (original.id, original.is_current, original.superseded_by) == (old.id, True, None)
    assert [f.id for f, _ in mem.search_facts("where is Acme's office?")] == [old.id]
    assert [f.id for f in mem.get_entity_info(acme.id).facts] == [old.id]
    with pytest.raises(ConflictError):
        mem.undo_correction(new.id)
    with pytest.raises(ConflictError):
        mem.undo_correction(old.id)
    assert mem.memory_stats().current_facts == 1
    assert node_counts(mem)["Fact"] == 3


def test_confirm_fact(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    fact = mem.learn_fact("Alice is allergic to peanuts", confidence=0.6, source="chat", priority="critical")
    assert (fact.decay_rate, fact.salience) == (0.05, 1.0)
    confirmed = mem.confirm_fact(fact.id)
    assert (confirmed.id, confirmed.confidence, confirmed.decay_rate) == (fact.id, 1.0, 0.0)
    [(found, _)] = mem.search_facts("peanut allergy", top_k=1)
    assert (found.id, found.confidence, found.decay_rate) == (fact.id, 1.0, 0.0)
    with pytest.raises(NotFoundError):
        mem.confirm_fact(str(uuid.uuid4()))


@pytest.mark.parametrize("rel_type", ["works_for", "SAME_AS", "ABOUT", "KNOWS]->(x) DETACH DELETE x //", ""])
def test_relationship_allow_list(backend_memory: AgentMemory, rel_type: str) -> None:
    mem = backend_memory
    alice = mem.upsert_entity("Alice", "person")
    acme = mem.upsert_entity("Acme Corp", "organization")
    with pytest.raises(InvalidInputError, match="relationship type"):
        mem.create_relationship(alice.id, acme.id, rel_type)
    assert mem.get_entity_graph([alice.id]).edges == []
    edge = mem.create_relationship(alice.id, acme.id, "WORKS_FOR", {"since": 2020})
    assert (edge.source_id, edge.target_id, edge.type) == (alice.id, acme.id, "WORKS_FOR")
    mem.create_relationship(alice.id, acme.id, "WORKS_FOR", {"since": 2021})  # idempotent per type
    [stored] = mem.get_entity_graph([alice.id]).edges
    assert (stored.source_id, stored.target_id, stored.type, stored.properties) == (
        alice.id, acme.id, "WORKS_FOR", {"since": 2021}
    )  # fmt: skip
    info = mem.get_entity_info("acme corp")
    assert [(n.entity.id, n.type, n.outgoing) for n in info.neighbours] == [(alice.id, "WORKS_FOR", False)]
    with pytest.raises(NotFoundError):
        mem.create_relationship(alice.id, str(uuid.uuid4()), "KNOWS")


def test_entity_graph_depth_cap(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    chain: list[Entity] = [mem.upsert_entity(f"Node {letter}", "concept") for letter in "VWXYZ"]
    for left, right in itertools.pairwise(chain):
        mem.create_relationship(left.id, right.id, "RELATED_TO")
    start = chain[0].id
    ids = [entity.id for entity in chain]
    assert {n.id for n in mem.get_entity_graph([start], depth=1).nodes} == set(ids[:2])
    assert {n.id for n in mem.get_entity_graph([start], depth=2).nodes} == set(ids[:3])
    deep = mem.get_entity_graph([start], depth=10)
    assert {n.id for n in deep.nodes} == set(ids[:4])
    assert {(e.source_id, e.target_id, e.type) for e in deep.edges} == {
        (left, right, "RELATED_TO") for left, right in itertools.pairwise(ids[:4])
    }
    both_ends = mem.get_entity_graph([start, chain[-1].id], depth=1)
    assert {n.id for n in both_ends.nodes} == {ids[0], ids[1], ids[3], ids[4]}
    with pytest.raises(InvalidInputError):
        mem.get_entity_graph([start], depth=0)
    with pytest.raises(NotFoundError):
        mem.get_entity_graph([start, str(uuid.uuid4())])


def test_search_facts_and_entities_ordering(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    blue = mem.learn_fact("Alice's favourite colour is blue", confidence=0.9, source="chat")
    kube = mem.learn_fact("The build server runs on Kubernetes", confidence=0.4, source="chat")
    mem.learn_fact("Lunch is served at noon", confidence=0.7, source="chat")
    hits = mem.search_facts("which colour does Alice like best?", top_k=3)
    assert len(hits) == 3
    assert hits[0][0].id == blue.id
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True)
    assert hits[0][0].access_count == 1
    assert mem.search_facts("which colour does Alice like best?", top_k=1)[0][0].access_count == 2
    confident = mem.search_facts("Kubernetes build server", top_k=3, min_confidence=0.5)
    assert confident
    assert all(fact.confidence >= 0.5 for fact, _ in confident)
    assert kube.id not in [fact.id for fact, _ in confident]
    assert mem.search_facts("Kubernetes build server", top_k=1)[0][0].id == kube.id

    python = mem.upsert_entity("Python", "tool", description="programming language")
    mem.upsert_entity("Eiffel Tower", "location", description="landmark in Paris")
    ibm = mem.upsert_entity("International Business Machines", "organization", aliases=["IBM"])
    for name in ("Intel", "IKEA", "Business Insider"):
        mem.upsert_entity(name, "organization")
    entity_hits = mem.search_entities("a programming language for scripting", top_k=2)
    assert entity_hits[0][0].id == python.id
    assert entity_hits[0][1] > entity_hits[1][1]
    assert mem.search_entities("IBM", top_k=3)[0][0].id == ibm.id
    assert len(mem.search_entities("IBM", top_k=3)) == 3


def test_memory_stats_counts(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    empty = mem.memory_stats()
    assert (empty.total, empty.current_facts, empty.latest_write) == (0, 0, None)
    mem.upsert_entity("Alice", "person")
    fact = mem.learn_fact("Alice likes tea", confidence=0.9, source="chat")
    project = mem.for_user("alice", channel="apollo")
    project.learn_fact("Apollo ships in May", confidence=0.9, source="chat")
    project.correct_fact(fact.id, "Alice likes green tea")
    stats = project.memory_stats()
    assert stats.counts["Entity"] == {"_global": 1}
    assert stats.counts["Fact"] == {"_global": 1, "apollo": 2}
    assert stats.current_facts == 2
    assert stats.latest_write is not None
    global_stats = mem.memory_stats()
    assert global_stats.counts["Fact"] == {"_global": 1}  # _global does not read project channels
    assert global_stats.current_facts == 0
    assert mem.for_user("bob").memory_stats().total == 0


# ------------------------------------------------------------------------------------------------- forget


def test_forget_conversation_leaves_only_the_other(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    gone = mem.new_conversation(title="hiking")
    mem.store_turn(gone, "user", "I love hiking")
    mem.store_turn(gone, "assistant", "Noted: hiking.")
    mem.record_invocation(gone, 1, "search", {"q": "hiking"}, {"hits": 3}, True, 12.5)
    report = mem.forget_conversation(gone)
    assert (report["conversations"], report["turns"], report["tool_invocations"]) == (1, 2, 1)
    assert (report["graph_turns"], report["graph_tool_invocations"]) == (2, 1)
    assert mem.get_conversation(gone) == []
    with pytest.raises(NotFoundError):
        mem.forget_conversation(gone)
    # only the user node and the tool (keyed by user, not conversation) remain
    assert node_counts(mem) == {"Tool": 1, "User": 1}
    [stat] = mem.get_tool_stats()
    assert (stat.tool_name, stat.usage_count) == ("search", 1)


def test_forget_user_leaves_zero_graph_nodes(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    project = mem.for_user("alice", channel="proj-a")
    cid = mem.new_conversation()
    turn = mem.store_turn(cid, "user", "my sister Maya lives in Porto")
    mem.record_invocation(cid, 0, "search", {}, None, True, 3)
    mem.learn_strategy("Search the web", "research", ["search"], cid, True)
    root = mem.add_goal("plan the trip")
    project.add_goal("project step", parent_id=root.id)
    maya = mem.upsert_entity("Maya", "person")
    porto = project.upsert_entity("Porto", "location")
    project.create_relationship(maya.id, porto.id, "LOCATED_IN")
    fact = mem.learn_fact(
        "Maya lives in Porto", confidence=0.9, source="turn", about=["Maya"], source_turn_id=turn.id
    )
    mem.correct_fact(fact.id, "Maya lives in Lisbon")
    mem.update_profile(preferences={"seat": "window"}, expertise_areas=["hiking"])
    bob = mem.for_user("bob")
    bob.add_goal("bob's goal")
    bob_fact = bob.learn_fact("Bob likes chess", confidence=0.8, source="chat")
    assert sum(node_counts(mem).values()) > 0
    before_bob = node_counts(mem, "bob")
    assert before_bob == {"Fact": 1, "Goal": 1, "User": 1}

    report = mem.forget_user()
    assert report["graph_nodes"] > 0
    assert report["profiles"] == 1
    assert node_counts(mem) == {}
    assert mem.active_goals() == []
    assert project.active_goals() == []
    assert mem.get_tool_stats() == []
    assert mem.memory_stats().total == 0
    assert mem.search_facts("Maya") == []
    assert mem.get_profile().preferences == {}
    assert node_counts(mem, "bob") == before_bob
    assert [f.id for f, _ in bob.search_facts("chess")] == [bob_fact.id]
    again = mem.forget_user()
    assert again["graph_nodes"] == 0


# ----------------------------------------------------------------------------------------------- profile


def test_profile_round_trip(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    assert mem.get_profile().created_at is None
    mem.update_profile(preferences={"seat": "window", "tea": "green"}, expertise_areas=["python"])
    updated = mem.update_profile(
        preferences={"seat": "aisle"}, expertise_areas=["rust", "python"], communication_style="terse"
    )
    assert updated.preferences == {"seat": "aisle", "tea": "green"}
    assert updated.expertise_areas == ["python", "rust"]
    assert updated.communication_style == "terse"
    assert mem.get_profile() == updated
    assert mem.for_user("bob").get_profile().preferences == {}


# ------------------------------------------------------------------------------------------------ isolation


def test_bob_sees_none_of_alices_memory_kinds(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    cid = mem.new_conversation()
    mem.record_invocation(cid, 0, "web_search", {}, None, True, 5)
    strategy = mem.learn_strategy("Book a flight", "travel", ["web_search"], cid, True)
    goal = mem.add_goal("alice's secret plan")
    alice = mem.upsert_entity("Alice", "person")
    acme = mem.upsert_entity("Acme Corp", "organization")
    mem.create_relationship(alice.id, acme.id, "WORKS_FOR")
    fact = mem.learn_fact("Alice works at Acme", confidence=0.9, source="chat", about=[alice.id])
    correction = mem.correct_fact(fact.id, "Alice worked at Acme")
    alice_nodes = node_counts(mem)

    bob = mem.for_user("bob")
    assert bob.active_goals() == []
    assert bob.find_strategies("Book a flight") == []
    assert bob.get_tool_stats() == []
    assert bob.get_tool_stats("travel") == []
    assert bob.search_facts("Alice works at Acme") == []
    assert bob.search_entities("Alice") == []
    assert bob.memory_stats().total == 0
    calls: list[Callable[[], object]] = [
        lambda: bob.get_goal(goal.id),
        lambda: bob.complete_goal(goal.id),
        lambda: bob.reinforce_strategy(strategy.id, False),
        lambda: bob.record_invocation(cid, 1, "web_search", {}, None, True, 1),
        lambda: bob.get_entity_graph([alice.id]),
        lambda: bob.get_entity_info(alice.id),
        lambda: bob.get_entity_info("Alice"),
        lambda: bob.create_relationship(alice.id, acme.id, "KNOWS"),
        lambda: bob.learn_fact("Bob knows Alice", confidence=0.5, source="chat", about=[alice.id]),
        lambda: bob.correct_fact(correction.id, "hijacked"),
        lambda: bob.undo_correction(correction.id),
        lambda: bob.confirm_fact(correction.id),
        lambda: bob.forget_conversation(cid),
    ]
    for call in calls:
        with pytest.raises(NotFoundError):
            call()
    assert node_counts(mem, "bob") == {}
    bob_alice = bob.upsert_entity("Alice", "person")
    assert bob_alice.id != alice.id
    assert bob_alice.mention_count == 1
    bob.forget_user()
    assert node_counts(mem) == alice_nodes
    assert mem.get_entity_info(alice.id).entity.mention_count == 1
    assert [f.id for f, _ in mem.search_facts("Alice worked at Acme")] == [correction.id]
    assert mem.get_goal(goal.id).status == "active"
    [stat] = mem.get_tool_stats()
    assert stat.usage_count == 1


def test_fulltext_search_matches_any_word_per_user(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    graph = mem._open_backends().graph
    kube = mem.learn_fact("The build server runs on Kubernetes", confidence=0.9, source="chat")
    lunch = mem.learn_fact("Lunch is served at noon", confidence=0.9, source="chat")
    mem.learn_fact("Nothing to see here", confidence=0.9, source="chat")
    acme = mem.upsert_entity("Acme Corp", "organization")
    hits = graph.fulltext_search(
        "Fact", ["kubernetes", "lunch"], user_id="alice", channels=["_global"], limit=5
    )
    # "any word" on every backend: each fact holding one of the words comes back, nothing else
    assert {row["item"]["id"] for row in hits} == {kube.id, lunch.id}
    [entity] = graph.fulltext_search("Entity", ["acme"], user_id="alice", channels=["_global"], limit=5)
    assert entity["item"]["id"] == acme.id
    assert graph.fulltext_search("Fact", ["kubernetes"], user_id="bob", channels=["_global"], limit=5) == []
    assert graph.fulltext_search("Fact", [], user_id="alice", channels=["_global"], limit=5) == []
    with pytest.raises(StoreError, match="no full-text search"):
        graph.fulltext_search("Turn", ["x"], user_id="alice", channels=["_global"], limit=5)  # type: ignore[arg-type]


def test_recall_candidates_every_graph_kind_in_one_call_per_user(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    graph = mem._open_backends().graph
    embed = mem._open_backends().embedder.embed_one
    kube = mem.learn_fact("The build server runs on Kubernetes", confidence=0.9, source="chat")
    old = mem.learn_fact("The build server ran on Jenkins", confidence=0.9, source="chat")
    mem.correct_fact(old.id, "The build server runs on Kubernetes now")  # old is no longer current
    acme = mem.upsert_entity("Acme Corp", "organization")
    strategy = mem.learn_strategy(
        "Deploy: build the image, push it, roll out", "deploy", ["docker"], None, True
    )
    goal = mem.add_goal("migrate the build server to Kubernetes", priority=2)
    done = mem.add_goal("retire the Jenkins box", priority=1)
    mem.complete_goal(done.id)
    mem.for_user("bob").learn_fact("Bob's build server runs on Kubernetes too", confidence=0.9, source="chat")
    vector = embed("kubernetes build server at acme")

    found = graph.recall_candidates(
        vector, ["kubernetes", "acme"], user_id="alice", channels=["_global"], limit=10
    )
    ids = {source: [row["item"]["id"] for row in rows] for source, rows in found.items()}
    assert kube.id in ids["Fact.vector"]
    assert kube.id in ids["Fact.fulltext"]
    assert old.id not in ids["Fact.vector"] + ids["Fact.fulltext"]  # superseded: not current
    assert ids["Entity.fulltext"] == [acme.id]
    assert acme.id in ids["Entity.vector"]
    assert ids["Strategy.vector"] == [strategy.id]
    assert ids["Goal.vector"] == [goal.id]  # the completed goal is not open
    assert all(-1.0 <= row["score"] <= 1.0 for row in found["Fact.vector"])
    assert found["Fact.vector"] == sorted(found["Fact.vector"], key=lambda row: -row["score"])
    # No full-text words: the vector branches alone, same shape.
    vector_only = graph.recall_candidates(vector, [], user_id="alice", channels=["_global"], limit=10)
    assert {row["item"]["id"] for row in vector_only["Fact.vector"]} == set(ids["Fact.vector"])
    assert "Fact.fulltext" not in vector_only
    # Another user and another channel see none of it.
    for user_id, channels in (("carol", ["_global"]), ("alice", ["elsewhere"])):
        other = graph.recall_candidates(vector, ["kubernetes"], user_id=user_id, channels=channels, limit=10)
        assert all(rows == [] for rows in other.values()), (user_id, channels)


def test_expand_entities_neighbours_and_current_facts(backend_memory: AgentMemory) -> None:
    mem = backend_memory
    acme = mem.upsert_entity("Acme Corp", "organization")
    paris = mem.upsert_entity("Paris", "location")
    maya = mem.upsert_entity("Maya", "person")
    mem.create_relationship(acme.id, paris.id, "LOCATED_IN")
    mem.create_relationship(maya.id, acme.id, "WORKS_FOR")
    cid = mem.new_conversation()
    turn = mem.store_turn(cid, "user", "Acme moved to Paris")
    fact = mem.learn_fact("Acme is based in Paris", confidence=0.9, source="chat", about=[acme.id, paris.id],
                          source_turn_id=turn.id)  # fmt: skip
    stale = mem.learn_fact("Acme is based in Lyon", confidence=0.9, source="chat", about=[acme.id])
    mem.correct_fact(stale.id, "Acme was based in Lyon")

    def expand(owner: AgentMemory, ids: list[str], channels: list[str]) -> tuple[dict, dict]:  # type: ignore[type-arg]
        neighbours, about, _ = owner._open_backends().entities.expand(owner.scope, ids, channels, 10)
        return neighbours, about

    neighbours, facts = expand(mem, [acme.id, maya.id], ["_global"])
    assert {entity.id for entity in neighbours[acme.id]} == {paris.id, maya.id}  # both directions
    assert [entity.id for entity in neighbours[maya.id]] == [acme.id]
    about_acme = {item.id: item for item in facts[acme.id]}
    assert fact.id in about_acme
    assert stale.id not in about_acme
    assert about_acme[fact.id].about == sorted([acme.id, paris.id])
    assert about_acme[fact.id].source_turn_id == turn.id
    assert expand(mem, [acme.id], ["elsewhere"]) == ({}, {})
    assert expand(mem.for_user("bob"), [acme.id], ["_global"]) == ({}, {})
    # Facts by id come whole (current or not), for this user only.
    entities = mem._open_backends().entities
    _, _, whole = entities.expand(mem.scope, [], ["_global"], 10, [fact.id, stale.id])
    assert set(whole) == {fact.id, stale.id}
    assert whole[fact.id].source_turn_id == turn.id
    assert whole[stale.id].valid_until is not None
    assert entities.expand(mem.for_user("bob").scope, [], ["_global"], 10, [fact.id]) == (
        {},
        {},
        {},
    )


def test_expand_entities_filters_facts_by_word_prefixes(backend_memory: AgentMemory) -> None:
    """An entity's facts come back only when their lowercased claim holds one of its prefixes (or a
    character whose case folding differs), once each however many expanded entities they are about,
    and as a bare id when also asked for whole."""
    mem = backend_memory
    acme = mem.upsert_entity("Acme Corp", "organization")
    maya = mem.upsert_entity("Maya", "person")
    painted = mem.learn_fact(
        "Maya PAINTED a sunset for Acme", confidence=0.9, source="chat", about=[maya.id, acme.id]
    )
    moved = mem.learn_fact("Maya moved to Lyon", confidence=0.9, source="chat", about=[maya.id])
    street = mem.learn_fact("Maya lives on the Hauptstraße", confidence=0.9, source="chat", about=[maya.id])
    entities = mem._open_backends().entities

    def about(
        words: dict[str, list[str]] | None, fact_ids: Sequence[str] = ()
    ) -> tuple[dict[str, set[str]], set[str]]:
        _, found, whole = entities.expand(mem.scope, [maya.id, acme.id], ["_global"], 10, fact_ids, words)
        return {key: {fact.id for fact in facts} for key, facts in found.items()}, set(whole)

    everything = {maya.id: {painted.id, moved.id, street.id}, acme.id: {painted.id}}
    assert about(None) == (everything, set())
    assert about({maya.id: [""], acme.id: [""]}) == (everything, set())
    # "pain" is in "painted" (after lowercasing), "lyon" in "Lyon"; "ß" keeps the street either way.
    assert about({maya.id: ["pain"], acme.id: []}) == ({maya.id: {painted.id, street.id}}, set())
    assert about({maya.id: ["lyon"], acme.id: ["pain"]}) == (
        {maya.id: {moved.id, street.id}, acme.id: {painted.id}},
        set(),
    )
    # A fact also asked for whole is listed under its entities and comes back whole once.
    listed, whole = about({maya.id: ["pain"], acme.id: ["pain"]}, [painted.id])
    assert listed == {maya.id: {painted.id, street.id}, acme.id: {painted.id}}
    assert whole == {painted.id}
    _, found, fetched = entities.expand(
        mem.scope, [maya.id], ["_global"], 10, [painted.id], {maya.id: ["pain"]}
    )
    assert {fact.id: fact for fact in found[maya.id]}[painted.id] == fetched[painted.id]


def test_recall_candidates_falls_back_to_exact_when_the_shared_index_hides_the_user(
    backend_memory: AgentMemory,
) -> None:
    mem = backend_memory
    embed = mem._open_backends().embedder.embed_one
    bob = mem.for_user("bob")
    for index in range(12):  # bob's facts are nearer the query than any of alice's
        bob.learn_fact(f"Invoice {index} for the espresso machine was paid", confidence=0.9, source="chat")
    mine = [
        mem.learn_fact(claim, confidence=0.9, source="chat")
        for claim in ("Maya likes hiking", "The cat is called Miso", "Rent is due on the first")
    ]
    vector = embed("espresso machine invoice paid")
    # No oversampling: the ANN's top-k is the limit, and bob's nodes fill it.
    retrieval = mem.settings.retrieval.model_copy(update={"oversample": 1})
    with AgentMemory("alice", settings=mem.settings.model_copy(update={"retrieval": retrieval})) as strict:
        found = strict._open_backends().graph.recall_candidates(
            vector, ["espresso"], user_id="alice", channels=["_global"], limit=5
        )
    assert {row["item"]["id"] for row in found["Fact.vector"]} == {fact.id for fact in mine}


def test_a_fact_updated_many_times_is_still_found_on_the_ann_path(backend_memory: AgentMemory) -> None:
    """Every write to a fact's node (a confirmation, a correction, a decay step; access counts no longer
    go there) re-indexes it. On FalkorDB 4.16 each such write leaves the old vector behind in the HNSW
    index (FalkorDB/FalkorDB#2197, fixed upstream after the 1.4.1 wheel's engine): 25 updates put 25
    stale copies of the fact's vector in the ANN's top-k, which then comes back with none of the user's
    facts (measured on 4.16: the ANN statement alone returns no row). Recall must still find the fact:
    the exact scan answers (and the vector_compaction job rebuilds the index)."""
    mem = backend_memory
    mine = {
        claim: mem.learn_fact(claim, confidence=0.9, source="chat")
        for claim in ("Maya likes hiking", "The cat is called Miso", "Rent is due on the first")
    }
    cat = mine["The cat is called Miso"]
    for _ in range(25):
        mem.confirm_fact(cat.id)
    vector = mem._open_backends().embedder.embed_one("what is the cat called?")
    # A fresh facade knows no label counts yet, so its first recall asks the ANN index.
    with AgentMemory("alice", settings=mem.settings) as fresh:
        found = fresh._open_backends().graph.recall_candidates(
            vector, [], user_id="alice", channels=["_global"], limit=3
        )
        searched = fresh.search_facts("what is the cat called?", top_k=3)
    ranked = [row["item"]["id"] for row in sorted(found["Fact.vector"], key=lambda row: -row["score"])]
    assert ranked[0] == cat.id
    assert set(ranked) == {fact.id for fact in mine.values()}
    assert searched[0][0].id == cat.id
    assert searched[0][0].access_count == 1  # this search's own access
