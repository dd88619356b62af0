"""``remember`` never crosses users, reads channels as documented, refuses bad input and survives hostile
queries — each checked against the real stores."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row

from agentx_memory import AgentMemory, AgentMemoryError, AsyncAgentMemory, InvalidInputError, Settings
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.stores.falkordb import FalkorDBStore
from tests.conftest import cleanup, isolated_settings
from tests.payloads import INJECTIONS

#: One query per retrieval path: exact token (BM25), paraphrase (vector), fact, entity-centric,
#: strategy, goal and a time phrase (self-query).
QUERIES = [
    "ZX-4471",
    "Do I enjoy mountain walks?",
    "Where does my sister live?",
    "Tell me about Acme Corp",
    "how do I deploy the website?",
    "what are my goals for the marathon?",
    "what did I say yesterday about hiking?",
]


@dataclass(frozen=True)
class World:
    ids: frozenset[str]


def populate(mem: AgentMemory) -> World:
    cid = mem.new_conversation(title="private")
    turns = [
        mem.store_turn(cid, "user", "My parcel with order number ZX-4471 still has not arrived"),
        mem.store_turn(cid, "user", "I adore hiking in the Alps with my dog every summer"),
    ]
    acme = mem.upsert_entity("Acme Corp", "organization", description="maker of rocket skates")
    osaka = mem.upsert_entity("Osaka", "location")
    mem.create_relationship(acme.id, osaka.id, "LOCATED_IN")
    fact = mem.learn_fact("My sister lives in Osaka", confidence=0.9, source="chat", about=[osaka.id])
    strategy = mem.learn_strategy(
        "Deploy the website with a blue-green switch", "website deployment", ["build", "deploy"], cid, True
    )
    goal = mem.add_goal("Run the Berlin marathon under four hours")
    return World(frozenset({*(turn.id for turn in turns), acme.id, osaka.id, fact.id, strategy.id, goal.id}))


def node_counts(graph: FalkorDBStore, user_id: str) -> dict[str, int]:
    return {
        str(row["label"]): int(row["count"]) for row in graph.run("count_user_nodes", {"user_id": user_id})
    }


def table_counts(settings: Settings) -> dict[str, int]:
    schema = sql.Identifier(settings.postgres.schema_name)
    tables = ("conversations", "conversation_logs", "memory_timeline", "memory_audit_log", "tool_invocations")
    with psycopg.connect(settings.postgres.url or "") as conn:
        counts: dict[str, int] = {}
        for table in tables:
            row = conn.execute(
                sql.SQL("SELECT count(*) FROM {}.{}").format(schema, sql.Identifier(table))
            ).fetchone()
            counts[table] = int(row[0]) if row is not None else -1
        return counts


def audit_rows(settings: Settings, operation: str) -> list[dict[str, Any]]:
    with psycopg.connect(settings.postgres.url or "", row_factory=dict_row) as conn:
        query = sql.SQL(
            "SELECT user_id, channel, memory_type, details FROM {}.memory_audit_log "
            "WHERE operation = %s ORDER BY id"
        ).format(sql.Identifier(settings.postgres.schema_name))
        return conn.execute(query, (operation,)).fetchall()


# --------------------------------------------------------------------------------------------- users


@pytest.mark.parametrize("other", ["bob", "Alice", "alice2"])
def test_other_users_recall_nothing_of_alice(memory: AgentMemory, graph: FalkorDBStore, other: str) -> None:
    alice = populate(memory)
    reader = memory.for_user(other)
    for query in QUERIES:
        assert reader.remember(query, top_k=200).items == [], query
        explicit = reader.remember(query, top_k=200, channels=["_global", "proj-a"])
        assert explicit.items == [], query
    # with memories of their own, only those come back
    theirs = populate(reader)
    for query in QUERIES[:-1]:  # (their memories are from today, not yesterday)
        found = {item.id for item in reader.remember(query, top_k=200).items}
        assert found, query
        assert found <= theirs.ids, query
    assert node_counts(graph, "alice")["Fact"] == 1
    # and alice still finds hers, none of theirs
    for query in QUERIES:
        assert {item.id for item in memory.remember(query, top_k=200).items} <= alice.ids


async def test_async_other_user_recalls_nothing(amemory: AsyncAgentMemory) -> None:
    cid = await amemory.new_conversation()
    turn = await amemory.store_turn(cid, "user", "The vault code is ZX-4471")
    fact = await amemory.learn_fact("The vault is behind the painting", confidence=0.9, source="chat")
    entity = await amemory.upsert_entity("Acme Corp", "organization")
    bob = await amemory.for_user("bob")
    for query in ("ZX-4471", "where is the vault?", "Tell me about Acme Corp"):
        assert (await bob.remember(query, top_k=50)).items == []
    found = {item.id for item in (await amemory.remember("vault ZX-4471 Acme Corp", top_k=50)).items}
    assert {turn.id, fact.id, entity.id} <= found


# ------------------------------------------------------------------------------------------- channels


@dataclass(frozen=True)
class Channels:
    a: AgentMemory
    shared: str
    in_a: str
    #: Turn, entity, strategy and goal of proj-b.
    in_b: frozenset[str]
    fact_b: str


@pytest.fixture
def channels(memory: AgentMemory) -> Channels:
    proj_a = memory.for_user("alice", channel="proj-a")
    proj_b = memory.for_user("alice", channel="proj-b")
    shared = memory.store_turn(memory.new_conversation(), "user", "Kiwi the parrot likes sunflower seeds")
    in_a = proj_a.store_turn(proj_a.new_conversation(), "user", "Kiwi the parrot needs a bigger cage")
    turn_b = proj_b.store_turn(proj_b.new_conversation(), "user", "Kiwi the parrot learned a new whistle")
    entity_b = proj_b.upsert_entity("Kiwi", "concept", description="a green parrot")
    strategy_b = proj_b.learn_strategy("Feed Kiwi the parrot seeds", "parrot care", ["bowl"], None, True)
    goal_b = proj_b.add_goal("Teach Kiwi the parrot to whistle")
    fact_b = proj_b.learn_fact("Kiwi the parrot is ten years old", confidence=0.9, source="chat")
    in_b = frozenset({turn_b.id, entity_b.id, strategy_b.id, goal_b.id})
    return Channels(proj_a, shared.id, in_a.id, in_b, fact_b.id)


def test_a_channel_reads_itself_and_global_only(memory: AgentMemory, channels: Channels) -> None:
    bundle = channels.a.remember("Kiwi the parrot", top_k=50)
    assert bundle.channels == ["proj-a", "_global"]
    found = {item.id: item.channel for item in bundle.items}
    assert found == {channels.in_a: "proj-a", channels.shared: "_global"}
    assert {item.id for item in memory.remember("Kiwi the parrot", top_k=50).items} == {channels.shared}


def test_explicit_channels_work_for_the_same_user_only(memory: AgentMemory, channels: Channels) -> None:
    bundle = channels.a.remember("Kiwi the parrot", top_k=50, channels=["proj-b"])
    assert bundle.channels == ["proj-b"]
    assert {item.id for item in bundle.items} >= channels.in_b
    assert {item.channel for item in bundle.items} == {"proj-b"}
    both = channels.a.remember("Kiwi the parrot", top_k=50, channels=["proj-b", "proj-b", "_global"])
    assert both.channels == ["proj-b", "_global"]
    assert {item.id for item in both.items} >= {*channels.in_b, channels.shared}
    for channel in ("proj-a", "proj-b", "_global"):
        bob = memory.for_user("bob", channel=channel)
        assert bob.remember("Kiwi the parrot", top_k=50, channels=["proj-b", "proj-a", "_global"]).items == []


def test_explicit_channels_return_that_channels_facts(channels: Channels) -> None:
    bundle = channels.a.remember("Kiwi the parrot", top_k=50, channels=["proj-b"])
    assert channels.fact_b in {item.id for item in bundle.items}


def test_entity_centric_in_the_entitys_own_channel(channels: Channels, memory: AgentMemory) -> None:
    proj_b = memory.for_user("alice", channel="proj-b")
    first = proj_b.remember("Tell me about Kiwi", top_k=5).items[0]
    assert (first.kind, first.channel, first.found_by) == ("entity", "proj-b", ["entity"])


def test_explicit_channels_entity_centric(channels: Channels) -> None:
    first = channels.a.remember("Tell me about Kiwi", top_k=5, channels=["proj-b"]).items[0]
    assert (first.kind, first.channel, first.found_by) == ("entity", "proj-b", ["entity"])


def test_cross_channel_matches_are_audited(memory: AgentMemory, channels: Channels) -> None:
    assert audit_rows(memory.settings, "cross_channel_recall") == []
    channels.a.remember("Kiwi the parrot", top_k=50)
    [row] = audit_rows(memory.settings, "cross_channel_recall")
    assert (row["user_id"], row["channel"], row["memory_type"]) == ("alice", "proj-a", "recall")
    assert row["details"] == {"channel": "proj-a", "matches": [{"id": channels.shared, "channel": "_global"}]}
    explicit = channels.a.remember("Kiwi the parrot", top_k=50, channels=["proj-b"])
    crossed = audit_rows(memory.settings, "cross_channel_recall")[1]["details"]["matches"]
    assert sorted(match["id"] for match in crossed) == sorted(item.id for item in explicit.items)
    assert {match["channel"] for match in crossed} == {"proj-b"}
    memory.remember("Kiwi the parrot", top_k=50)  # _global reading _global crosses nothing
    channels.a.remember("a bigger cage", top_k=50, include_semantic=False, channels=["proj-a"])
    assert len(audit_rows(memory.settings, "cross_channel_recall")) == 2


# ------------------------------------------------------------------------------------------- bad input


@pytest.fixture(scope="module")
def reads_memory(endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder) -> Iterator[AgentMemory]:
    """Audited at level ``reads``: a call that slipped past validation would leave an audit row."""
    chosen = isolated_settings(endpoints, data_dir, audit={"level": "reads"})
    try:
        with AgentMemory("alice", settings=chosen, embedder=embedder) as mem:
            populate(mem)
            yield mem
    finally:
        cleanup(chosen, endpoints)


Remember = Callable[[AgentMemory], object]
BAD: list[tuple[str, Remember, str]] = [
    ("empty", lambda m: m.remember(""), "query is empty"),
    ("whitespace", lambda m: m.remember(" \n\t "), "query is empty"),
    ("not-a-string", lambda m: m.remember(42), "query must be a string"),  # type: ignore[arg-type]
    ("nul", lambda m: m.remember("a\x00b"), "NUL"),
    ("top-k-zero", lambda m: m.remember("hiking", top_k=0), "top_k"),
    ("top-k-negative", lambda m: m.remember("hiking", top_k=-1), "top_k"),
    ("top-k-huge", lambda m: m.remember("hiking", top_k=m.settings.limits.max_top_k + 1), "top_k"),
    ("top-k-bool", lambda m: m.remember("hiking", top_k=True), "top_k"),
    ("top-k-str", lambda m: m.remember("hiking", top_k="5"), "top_k"),  # type: ignore[arg-type]
    ("top-k-float", lambda m: m.remember("hiking", top_k=2.5), "top_k"),  # type: ignore[arg-type]
    ("channels-str", lambda m: m.remember("hiking", channels="x"), "channels"),
    ("channels-empty", lambda m: m.remember("hiking", channels=[]), "channels"),
    ("channel-upper", lambda m: m.remember("hiking", channels=["Proj"]), "channel"),
    ("channel-space", lambda m: m.remember("hiking", channels=["proj-a", "a b"]), "channel"),
    ("channel-colon", lambda m: m.remember("hiking", channels=["a:b"]), "channel"),
    ("channel-quote", lambda m: m.remember("hiking", channels=["x') OR 1=1 --"]), "channel"),
    ("channel-none", lambda m: m.remember("hiking", channels=[None]), "channel"),  # type: ignore[list-item]
    ("window-zero", lambda m: m.remember("hiking", time_window_hours=0), "time_window_hours"),
    ("window-negative", lambda m: m.remember("hiking", time_window_hours=-3), "time_window_hours"),
    ("window-str", lambda m: m.remember("hiking", time_window_hours="1"), "time_window_hours"),  # type: ignore[arg-type]
    ("window-bool", lambda m: m.remember("hiking", time_window_hours=True), "time_window_hours"),
    ("window-nan", lambda m: m.remember("hiking", time_window_hours=float("nan")), "time_window_hours"),
    ("window-inf", lambda m: m.remember("hiking", time_window_hours=float("inf")), "time_window_hours"),
    (
        "no-kinds",
        lambda m: m.remember(
            "hiking", include_episodic=False, include_semantic=False, include_procedural=False
        ),
        "at least one",
    ),
]


@pytest.mark.parametrize(
    ("call", "expected"), [pytest.param(call, expected, id=name) for name, call, expected in BAD]
)
def test_bad_recall_input_is_refused_and_changes_nothing(
    reads_memory: AgentMemory, call: Remember, expected: str
) -> None:
    before = table_counts(reads_memory.settings)
    stats = reads_memory.recall_stats()
    with pytest.raises(InvalidInputError, match=expected) as caught:
        call(reads_memory)
    assert isinstance(caught.value, AgentMemoryError)
    assert table_counts(reads_memory.settings) == before
    assert reads_memory.recall_stats() == stats


def test_boundary_values_are_accepted(reads_memory: AgentMemory) -> None:
    limits = reads_memory.settings.limits
    before = table_counts(reads_memory.settings)["memory_audit_log"]
    assert reads_memory.remember("hiking", top_k=limits.max_top_k).items
    assert reads_memory.remember("hiking", top_k=1, time_window_hours=0.01).items
    assert reads_memory.remember("hiking", channels=("_global",), include_episodic=False) is not None
    assert table_counts(reads_memory.settings)["memory_audit_log"] == before + 3


# ------------------------------------------------------------------------------------------- injections


def test_injection_queries_return_and_change_nothing(memory: AgentMemory, graph: FalkorDBStore) -> None:
    world = populate(memory)
    tables, nodes = table_counts(memory.settings), node_counts(graph, "alice")
    for payload in INJECTIONS:
        for query in (payload, f"Tell me about {payload}", f"{payload} yesterday"):
            bundle = memory.remember(query, top_k=20)
            assert bundle.query == query
            assert {item.id for item in bundle.items} <= world.ids
    assert table_counts(memory.settings) == tables
    assert node_counts(graph, "alice") == nodes
    assert len(memory.remember("hiking Alps ZX-4471 Osaka marathon website", top_k=50).items) == len(
        world.ids
    )
