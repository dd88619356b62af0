"""``store_turns`` against ``store_turn`` as the oracle: a batch writes exactly what the same turns stored one
by one write (ledger, audit, timeline, graph nodes and chain, working memory), is idempotent, checks the
whole batch first, and keeps one user's batch away from every other user."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row

from agentx_memory import AgentMemory, ConflictError, InvalidInputError, NotFoundError, Settings, TurnSpec
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.stores.falkordb import FalkorDBStore

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)
SPECS = [
    TurnSpec(role="user", content="I'm flying to Lisbon on May 3rd", timestamp=T0, speaker="Maya"),
    TurnSpec(role="assistant", content="Noted: Lisbon on May 3rd.", timestamp=T0 + timedelta(seconds=5)),
    TurnSpec(role="user", content="My cat is called Whiskers", timestamp=T0 + timedelta(seconds=9),
             metadata={"source": "chat", "speaker": "Maya"}),
    TurnSpec(role="tool", content='{"weather": "sunny"}', timestamp=T0 + timedelta(seconds=12)),
]  # fmt: skip


@pytest.fixture
def pg(settings: Settings, endpoints: ResolvedEndpoints) -> Iterator[psycopg.Connection[dict[str, Any]]]:
    with psycopg.connect(endpoints.postgres_url, autocommit=True, row_factory=dict_row) as conn:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(settings.postgres.schema_name)))
        yield conn


def _ledger(pg: psycopg.Connection[dict[str, Any]], cid: str) -> dict[str, list[tuple[Any, ...]]]:
    """What the ledger holds for a conversation, without ids (they differ between the two writes)."""
    turns = pg.execute(
        "SELECT turn_index, role, content, content_hash, metadata, timestamp, token_count,"
        " NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id) AS graph_synced,"
        " context_text, event_label, embedding::text AS embedding, channel, user_id FROM conversation_logs l"
        " WHERE conversation_id = %s ORDER BY turn_index",
        [cid],
    ).fetchall()
    timeline = pg.execute(
        "SELECT t.memory_type, t.channel, t.event_time, t.summary, t.importance, l.turn_index"
        " FROM memory_timeline t JOIN conversation_logs l ON l.id::text = t.memory_id"
        " WHERE t.conversation_id = %s ORDER BY l.turn_index",
        [cid],
    ).fetchall()
    audit = pg.execute(
        "SELECT operation, memory_type, level, details - 'conversation_id' AS details, payload, success"
        " FROM memory_audit_log"
        " WHERE conversation_id = %s AND operation = 'store_turn' ORDER BY details->>'turn_index'",
        [cid],
    ).fetchall()
    return {
        "turns": [tuple(row.values()) for row in turns],
        "timeline": [tuple(row.values()) for row in timeline],
        "audit": [tuple(row.values()) for row in audit],
    }


def _graph(graph: FalkorDBStore, cid: str, user_id: str = "alice") -> dict[str, Any]:
    params = {"conversation_id": cid, "user_id": user_id}
    nodes = [dict(row["item"]) for row in graph.run("get_conversation_turns", params)]
    chain = [(row["source"], row["target"]) for row in graph.run("get_turn_chain", params)]
    labels = graph.run("count_user_nodes", {"user_id": user_id})  # every node of the user, by label
    return {
        "nodes": [{k: v for k, v in node.items() if k not in ("id", "conversation_id")} for node in nodes],
        "chain": chain,
        "labels": {row["label"]: row["count"] for row in labels},
    }


def _working(memory: AgentMemory, cid: str) -> list[tuple[Any, ...]]:
    return [
        (turn.index, turn.role, turn.content, turn.timestamp, turn.metadata, turn.synced, turn.token_count)
        for turn in memory.working(cid).all_turns()
    ]


def test_store_turns_writes_what_store_turn_writes(
    memory: AgentMemory, graph: FalkorDBStore, pg: psycopg.Connection[dict[str, Any]]
) -> None:
    one_by_one = memory.new_conversation(title="a")
    for spec in SPECS:
        meta = {**(spec.metadata or {}), **({"speaker": spec.speaker} if spec.speaker else {})}
        memory.store_turn(one_by_one, spec.role, spec.content, timestamp=spec.timestamp, metadata=meta)
    before = _graph(graph, one_by_one)
    batched = memory.new_conversation(title="a")
    ids = memory.store_turns(batched, SPECS)
    assert [turn.id for turn in memory.get_conversation(batched)] == ids
    assert _ledger(pg, batched) == _ledger(pg, one_by_one)
    assert len(_ledger(pg, batched)["audit"]) == len(SPECS)
    assert _graph(graph, batched)["nodes"] == before["nodes"]
    assert _graph(graph, batched)["chain"] == before["chain"] == [(0, 1), (1, 2), (2, 3)]
    counts = _graph(graph, batched)["labels"]
    assert counts["Turn"] == 2 * before["labels"]["Turn"] == 2 * len(SPECS)
    assert _working(memory, batched) == _working(memory, one_by_one)
    # appending a second batch continues the indexes and the chain
    more = memory.store_turns(batched, [{"role": "user", "content": "And one more thing"}])
    assert [turn.index for turn in memory.get_conversation(batched)][-1] == len(SPECS)
    assert memory.get_conversation(batched)[-1].id == more[0]
    assert _graph(graph, batched)["chain"][-1] == (len(SPECS) - 1, len(SPECS))


def test_store_turns_is_idempotent_with_indexes(
    memory: AgentMemory, graph: FalkorDBStore, pg: psycopg.Connection[dict[str, Any]]
) -> None:
    cid = memory.new_conversation()
    batch = [spec.model_copy(update={"turn_index": index}) for index, spec in enumerate(SPECS)]
    first = memory.store_turns(cid, batch)
    ledger, nodes = _ledger(pg, cid), _graph(graph, cid)
    working = _working(memory, cid)
    assert memory.store_turns(cid, batch) == first  # the same batch again: the stored turns
    assert memory.store_turns(cid, batch[1:3]) == first[1:3]
    assert _ledger(pg, cid) == ledger
    assert _graph(graph, cid) == nodes
    assert _working(memory, cid) == working
    # a later batch fills a gap and links both ways
    memory.store_turns(cid, [TurnSpec(role="user", content="later", turn_index=6)])
    memory.store_turns(cid, [TurnSpec(role="user", content="gap", turn_index=5)])
    memory.store_turns(cid, [TurnSpec(role="user", content="gap 2", turn_index=4)])
    assert _graph(graph, cid)["chain"] == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]
    with pytest.raises(ConflictError, match="different turn at index 2"):
        memory.store_turns(cid, [TurnSpec(role="user", content="new", turn_index=9), batch[0],
                                 TurnSpec(role="user", content="not the same", turn_index=2)])  # fmt: skip
    assert len(memory.get_conversation(cid)) == 7  # nothing of the clashing batch, not even index 9
    assert len(_graph(graph, cid)["nodes"]) == 7


@pytest.mark.parametrize(
    ("turns", "message"),
    [
        ([], "empty"),
        ([{"role": "user", "content": "fine"}, {"role": "robot", "content": "hi"}], "turn 1: role 'robot'"),
        (
            [{"role": "user", "content": "fine"}, {"role": "user", "content": "  "}],
            "turn 1: content is empty",
        ),
        ([{"role": "user", "content": "x", "turn_index": -1}], "turn 0: turn_index"),
        ([{"role": "user", "content": "x", "turn_index": 0}, {"role": "user", "content": "y"}], "every turn"),
        ([{"role": "user", "content": "x", "turn_index": 0}] * 2, "appears twice"),
        ([{"role": "user", "content": "x", "colour": "red"}], "turn 0: colour"),
        ([{"role": "user", "content": "x", "speaker": "A", "metadata": {"speaker": "B"}}], "speaker"),
        ([{"role": "user", "content": "x", "metadata": {"blob": "y" * 20_000}}], "turn 0: metadata"),
        ("just text", "list of turns"),
    ],
)
def test_a_bad_turn_stores_nothing_of_the_batch(
    memory: AgentMemory, graph: FalkorDBStore, turns: Any, message: str
) -> None:
    cid = memory.new_conversation()
    with pytest.raises(InvalidInputError, match=message):
        memory.store_turns(cid, turns)
    assert memory.get_conversation(cid) == []
    assert _graph(graph, cid)["nodes"] == []
    assert memory.working(cid).all_turns() == []


def test_another_user_can_neither_write_nor_see_a_batch(memory: AgentMemory, graph: FalkorDBStore) -> None:
    cid = memory.new_conversation()
    ids = memory.store_turns(cid, SPECS)
    bob = memory.for_user("bob")
    with pytest.raises(NotFoundError):
        bob.store_turns(cid, SPECS)
    assert bob.get_conversation(cid) == []
    assert bob.get_recent_turns(hours=24 * 3650) == []
    assert bob.working(cid).all_turns() == []
    assert _graph(graph, cid, "bob")["nodes"] == []
    assert [turn.id for turn in memory.get_conversation(cid)] == ids


def test_new_conversation_with_a_chosen_id_is_idempotent_and_per_user(
    memory: AgentMemory, graph: FalkorDBStore
) -> None:
    chosen = "6f1d2c3b-0000-4000-8000-00000000abcd"
    assert memory.new_conversation("import", conversation_id=chosen) == chosen
    memory.store_turns(chosen, SPECS[:2])
    assert memory.new_conversation("import again", conversation_id=chosen) == chosen  # kept as it is
    assert len(memory.get_conversation(chosen)) == 2
    with pytest.raises(ConflictError, match="is taken"):
        memory.for_user("bob").new_conversation(conversation_id=chosen)
    assert _graph(graph, chosen, "bob")["labels"] == {}
    with pytest.raises(InvalidInputError, match="not a UUID"):
        memory.new_conversation(conversation_id="nope")


def test_apply_schema_drops_the_turn_indexes_of_an_older_graph(
    memory: AgentMemory, graph: FalkorDBStore
) -> None:
    """Graphs made before turns were searched in the ledger lose their Turn vector and full-text indexes
    (nothing reads them; they cost about half of each turn's graph write); the range index stays."""
    raw = graph._graph  # the adapter's own client: the old DDL is no statement of ours any more
    raw.query(
        "CREATE VECTOR INDEX FOR (n:Turn) ON (n.embedding)"
        " OPTIONS {dimension: 384, similarityFunction: 'cosine'}"
    )
    raw.query("CALL db.idx.fulltext.createNodeIndex('Turn', 'content')")

    def turn_index_types() -> set[str]:
        rows = raw.query("CALL db.indexes() YIELD label, types RETURN label, types").result_set
        return {
            kind for label, types in rows if label == "Turn" for kinds in types.values() for kind in kinds
        }

    assert {"VECTOR", "FULLTEXT", "RANGE"} <= turn_index_types()
    # FalkorDB builds an index in the background; an old graph's were built long ago. Dropping one still
    # under construction answers "no such index" (which apply_schema rightly takes for nothing to drop),
    # and on a loaded machine the test then raced the build: wait until they serve, as they would.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        rows = raw.query("CALL db.indexes() YIELD label, status RETURN label, status").result_set
        if all(str(status).upper() == "OPERATIONAL" for label, status in rows if label == "Turn"):
            break
        time.sleep(0.05)
    graph.apply_schema(384)
    graph.apply_schema(384)  # and again: nothing left to drop is no error
    # a dropped index may be listed for a moment while FalkorDB lets it go: look again, bounded
    deadline = time.monotonic() + 30
    while turn_index_types() != {"RANGE"} and time.monotonic() < deadline:
        time.sleep(0.05)
    assert turn_index_types() == {"RANGE"}
    cid = memory.new_conversation()
    memory.store_turns(cid, SPECS)
    assert [node["turn_index"] for node in _graph(graph, cid)["nodes"]] == [0, 1, 2, 3]
