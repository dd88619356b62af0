"""The plans of recall's hot statements on a seeded store (several users' histories, analysed): each
reads through its index, as it must at any history size. Plans, not timings: a timing threshold would
fail on a busy machine, while a plan that leaves its index is a regression on any machine (issue 36:
``postgres.generic_plans`` once turned the vector search into 18-32 ms statements unnoticed)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import psycopg
import pytest
from numpy.typing import NDArray
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.rows import DictRow, dict_row

from agentx_memory import AgentMemory, Settings, TurnSpec
from agentx_memory.embedding import Embedder
from agentx_memory.memory.lexical import MAX_POSTINGS, MAX_PROBE
from agentx_memory.stores.postgres import PostgresStore
from agentx_memory.stores.sql import array_literal, load_sql

#: Turns per user: one long history (where the index walk beats sorting every turn of the user's) and
#: short ones beside it in the same table (where an exact sort of the user's few turns is right).
_HISTORIES = {"ana": 60, "ben": 1600, "cleo": 60, "dev": 60}
_TOPICS = ("the allotment", "my sister's wedding", "the new job", "our trip to Porto", "the choir", "the dog")


def _history(user: str, turns: int) -> list[TurnSpec]:
    start = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    return [
        TurnSpec(
            role="user" if index % 2 == 0 else "assistant",
            content=f"{user} talks about {_TOPICS[index % len(_TOPICS)]}, day {index // 2}: note {index}",
            timestamp=start + timedelta(minutes=index),
        )
        for index in range(turns)
    ]


@pytest.fixture
def seeded(settings: Settings, embedder: Embedder) -> Iterator[psycopg.Connection[DictRow]]:
    """Four users' histories through the facade, analysed; a connection configured as the pool's."""
    with AgentMemory(user_id="ana", settings=settings, embedder=embedder) as memory:
        for user, turns in _HISTORIES.items():
            mine = memory.for_user(user)
            mine.store_turns(mine.new_conversation(), _history(user, turns))
    with psycopg.connect(settings.postgres.url or "", autocommit=True, row_factory=dict_row) as conn:
        conn.execute(
            sql.SQL("SET search_path TO {}, public").format(sql.Identifier(settings.postgres.schema_name))
        )
        register_vector(conn)
        conn.execute("SET hnsw.iterative_scan = relaxed_order")  # as the store's pool sets it
        conn.execute("ANALYZE conversation_logs")
        conn.execute("ANALYZE lexical_df")
        yield conn


def _plan(conn: psycopg.Connection[DictRow], name: str, params: Mapping[str, Any]) -> str:
    rows = conn.execute("EXPLAIN (COSTS OFF) " + load_sql()[name], params).fetchall()
    return "\n".join(str(row["QUERY PLAN"]) for row in rows)


def _turns(conn: psycopg.Connection[DictRow], user: str) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT id::text AS id, conversation_id::text AS conversation_id, turn_index, embedding"
        " FROM conversation_logs WHERE user_id = %s ORDER BY turn_index",
        (user,),
    ).fetchall()


def _vector_params(conn: psycopg.Connection[DictRow], user: str, nearest_to: int = 7) -> dict[str, Any]:
    turns = _turns(conn, user)
    return {
        "user_id": user,
        "channels": ["_global"],
        "vector": np.asarray(turns[nearest_to]["embedding"].to_numpy(), dtype=np.float32),
        "limit": 50,
        "also": array_literal(turn["id"] for turn in turns[:40]),
        "metadata": None,
    }


def _lexical_params(user: str, text: str, vector: NDArray[np.float32] | None = None) -> dict[str, Any]:
    return {
        "user_id": user,
        "channels": ["_global"],
        "text": text,
        "max_df_ratio": 0.3,
        "max_probe": MAX_PROBE,
        "max_postings": MAX_POSTINGS,
        "k1": 1.2,
        "b": 0.75,
        "since": None,
        "until": None,
        "limit": 50,
        "metadata": None,
        "vector": vector,
    }


def _vector_search(conn: psycopg.Connection[DictRow], user: str) -> str:
    return _plan(conn, "recall_vector_turns", _vector_params(conn, user))


def test_recall_statements_read_through_their_indexes(seeded: psycopg.Connection[DictRow]) -> None:
    long = _vector_search(seeded, "ben")
    assert "Index Scan using conversation_logs_embedding" in long, long
    assert "conversation_logs_pkey" in long, long  # the full-text candidates' cosines, by id
    short = _vector_search(seeded, "cleo")  # 60 turns: sorted exactly, but only hers
    assert "Seq Scan" not in short, short

    turns = _turns(seeded, "ben")[100:130]
    key = {"user_id": "ben", "channels": ["_global"]}
    neighbours = _plan(
        seeded,
        "turn_neighbours",
        {
            **key,
            "conversation_ids": array_literal(turn["conversation_id"] for turn in turns),
            "turn_indexes": array_literal(turn["turn_index"] for turn in turns),
            "metadata": None,
            "vector": None,
        },
    )
    assert "conversation_logs_conversation_id_turn_index_key" in neighbours, neighbours
    by_id = _plan(seeded, "turns_by_id", {**key, "ids": array_literal(turn["id"] for turn in turns)})
    assert "conversation_logs_pkey" in by_id, by_id
    lexical = _plan(
        seeded, "lexical_search_turns", _lexical_params("ben", "the choir and the wedding in Porto")
    )
    assert "lexical_df_pkey" in lexical, lexical
    # the candidates through the full-text indexes, whatever the words (the probe is a run-time value)
    assert "Bitmap Index Scan on conversation_logs_search" in lexical, lexical
    assert "Seq Scan on conversation_logs" not in lexical, lexical
    # with the question's vector, the hits' cosines by primary key
    vector = _vector_params(seeded, "ben")["vector"]
    scored = _plan(
        seeded, "lexical_search_turns", _lexical_params("ben", "the choir and the wedding", vector)
    )
    assert "conversation_logs_pkey" in scored, scored
    assert "Seq Scan on conversation_logs" not in scored, scored


def test_the_vector_turn_search_is_planned_for_every_call(
    seeded: psycopg.Connection[DictRow], settings: Settings, embedder: Embedder
) -> None:
    """Never prepared: Postgres would give a prepared one its generic plan after the fifth run, a
    sequential scan of every user's turns (the LIMIT unknown); the full-text search stays prepared."""
    store = PostgresStore.connect(
        settings.postgres.url or "",
        settings.postgres,
        embedding_dim=embedder.dimensions,
        embedding_model=embedder.model_id,
    )
    try:
        with store.session() as session:
            words = ["choir", "the wedding in Porto", "my sister's new job", "the dog", "allotment day"]
            # psycopg prepares a statement on its sixth run; Postgres plans its first five runs for their
            # values, then chooses between that and the generic plan
            vector = _vector_params(seeded, "ben")["vector"]
            # with and without the question's vector: two prepared statements (their parameter types)
            for turn in range(24):
                session.fetch_all("recall_vector_turns", _vector_params(seeded, "ben", turn % 12))
                with_vector = vector if turn % 2 else None
                params = _lexical_params("ben", words[turn % len(words)], with_vector)
                session.fetch_all("lexical_search_turns", params)
            prepared = session._conn.execute(
                "SELECT statement, generic_plans FROM pg_prepared_statements"
            ).fetchall()
    finally:
        store.close()
    statements = [str(row["statement"]) for row in prepared]
    assert any("lexical_corpus" in statement for statement in statements), statements
    # and it keeps its generic plan: planned for each call instead, it spent ~0.4 ms planning
    lexical = [row for row in prepared if "lexical_corpus" in str(row["statement"])]
    assert len(lexical) == 2, lexical
    assert all(int(row["generic_plans"]) > 0 for row in lexical), lexical
    assert not any("nearest AS MATERIALIZED" in statement for statement in statements), statements


def test_the_turn_sync_statements_read_through_their_indexes(seeded: psycopg.Connection[DictRow]) -> None:
    """store_turn's confirmation and the readers of a turn's sync state (migration 016) look a turn up
    by id, however long the history and the list of turns awaiting their graph write (an outage)."""
    turns = _turns(seeded, "ben")
    seeded.execute(
        "INSERT INTO turn_sync_pending (turn_id) SELECT id FROM conversation_logs WHERE user_id = 'ben'"
        " AND turn_index % 2 = 0"
    )
    seeded.execute("ANALYZE turn_sync_pending")
    one = {"id": turns[10]["id"], "user_id": "ben"}
    ids = array_literal(turn["id"] for turn in turns[:30])
    for name, params in (
        ("mark_turn_synced", one),
        ("mark_turns_synced", {"ids": ids, "user_id": "ben"}),
        ("turns_by_id", {"ids": ids, "user_id": "ben", "channels": ["_global"]}),
        (
            "get_turn_at",
            {"conversation_id": turns[10]["conversation_id"], "turn_index": 10, "user_id": "ben"},
        ),
    ):
        plan = _plan(seeded, name, params)
        assert "Seq Scan on conversation_logs" not in plan, (name, plan)
        assert "conversation_logs_" in plan, (name, plan)  # its primary key or (conversation, index)
    # the per-turn confirmation: both tables by primary key (a batch's may scan a short pending list)
    mark = _plan(seeded, "mark_turn_synced", one)
    assert "Seq Scan" not in mark, mark
    assert "turn_sync_pending_pkey" in mark, mark
    assert "conversation_logs_pkey" in mark, mark
