"""Event dates at ingest: a turn that tells of another day ("yesterday I …") is stored with that day, is
searchable by it, and a question about that day prefers it. Both write paths, both flavours."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row

from agentx_memory import AgentMemory, Settings, TurnSpec
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder

TOLD_AT = datetime(2026, 2, 11, 9, 30, tzinfo=UTC)
EVENT_DAY = (datetime(2026, 2, 10, tzinfo=UTC), datetime(2026, 2, 11, tzinfo=UTC))


@pytest.fixture
def pg(settings: Settings, endpoints: ResolvedEndpoints) -> Iterator[psycopg.Connection[dict[str, Any]]]:
    with psycopg.connect(endpoints.postgres_url, autocommit=True, row_factory=dict_row) as conn:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(settings.postgres.schema_name)))
        yield conn


def _event(pg: psycopg.Connection[dict[str, Any]], turn_id: str) -> tuple[Any, ...]:
    row = pg.execute(
        "SELECT event_start, event_end, event_label, search_tsv @@ to_tsquery('english', '10 & februari')"
        " AS searchable FROM conversation_logs WHERE id = %s",
        [turn_id],
    ).fetchone()
    assert row is not None
    return tuple(row.values())


def test_both_write_paths_store_the_event_date(
    memory: AgentMemory, pg: psycopg.Connection[dict[str, Any]]
) -> None:
    one = memory.store_turn(
        memory.new_conversation(), "user", "Yesterday I cooked a mushroom risotto", timestamp=TOLD_AT
    )
    plain = memory.store_turn(memory.new_conversation(), "user", "I cook on Sundays", timestamp=TOLD_AT)
    batch = memory.store_turns(
        memory.new_conversation(),
        [TurnSpec(role="user", content="Yesterday I cooked a mushroom risotto", timestamp=TOLD_AT)],
    )
    expected = (*EVENT_DAY, "10 February 2026", True)
    assert _event(pg, one.id) == expected
    assert _event(pg, batch[0]) == expected
    assert _event(pg, plain.id) == (None, None, None, False)


def test_a_question_about_a_day_prefers_the_turn_that_tells_of_it(
    memory: AgentMemory, settings: Settings, embedder: Embedder
) -> None:
    told = memory.store_turn(
        memory.new_conversation(), "user", "Yesterday I cooked a mushroom risotto", timestamp=TOLD_AT
    )
    other = memory.store_turn(
        memory.new_conversation(),
        "user",
        "I cooked a mushroom soup",
        timestamp=datetime(2026, 2, 20, 18, tzinfo=UTC),
    )
    question = "What did I cook on 10 February 2026?"
    bundle = memory.remember(question)
    assert bundle.filters is not None
    assert bundle.filters.time_range is not None
    assert (bundle.filters.time_range.start, bundle.filters.time_range.end) == EVENT_DAY
    scores = {item.id: item.score for item in bundle.episodic}
    assert bundle.episodic[0].id == told.id
    # The lift is the event date's: it was said the day after, so without the time boost it scores less.
    flat = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"time_match_boost": 1.0})}
    )
    with AgentMemory(user_id="alice", settings=flat, embedder=embedder) as unboosted:
        plain = {item.id: item.score for item in unboosted.remember(question).episodic}
    assert plain[told.id] < scores[told.id]
    assert plain[other.id] == pytest.approx(scores[other.id], abs=1e-6)
    # Another user asking the same question finds nothing of alice's.
    with AgentMemory(user_id="bob", settings=settings, embedder=embedder) as bob:
        assert bob.remember(question).items == []


# ------------------------------------------------------------------------- the turn before, in full text


def _context(pg: psycopg.Connection[dict[str, Any]], conversation_id: str) -> list[Any]:
    rows = pg.execute(
        "SELECT context_text FROM conversation_logs WHERE conversation_id = %s ORDER BY turn_index",
        [conversation_id],
    ).fetchall()
    return [row["context_text"] for row in rows]


EXCHANGE = [
    ("Ana", "How did the museum trip with the twins go?"),
    ("Ben", "They were thrilled by the dinosaur skeletons"),
    ("Ana", "Lovely! Did they like the gift shop?"),
    ("Ana", "Or was it too busy?"),
    ("Ben", "Too busy, sadly"),
]


def test_an_answer_holds_the_question_before_it_in_both_write_paths(
    memory: AgentMemory, pg: psycopg.Connection[dict[str, Any]]
) -> None:
    one_by_one = memory.new_conversation()
    for speaker, content in EXCHANGE:
        memory.store_turn(one_by_one, "user", content, metadata={"speaker": speaker})
    batched = memory.new_conversation()
    memory.store_turns(batched, [TurnSpec(role="user", content=c, speaker=s) for s, c in EXCHANGE[:3]])
    memory.store_turns(batched, [TurnSpec(role="user", content=c, speaker=s) for s, c in EXCHANGE[3:]])
    # Only a turn that answers another speaker's question holds it: not one after a statement ("Lovely!
    # …" follows Ben's news), nor a speaker's own follow-up ("Or was it too busy?").
    expected = [None, f"Ana {EXCHANGE[0][1]}", None, None, f"Ana {EXCHANGE[3][1]}"]
    assert _context(pg, one_by_one) == expected
    assert _context(pg, batched) == expected  # in the batch, and across batches from the ledger


def test_words_only_in_the_question_find_its_answer_and_forgetting_the_question_removes_them(
    memory: AgentMemory, pg: psycopg.Connection[dict[str, Any]]
) -> None:
    conversation = memory.new_conversation()
    turns = [
        memory.store_turn(conversation, "user", content, metadata={"speaker": speaker})
        for speaker, content in EXCHANGE
    ]
    answer = turns[1]
    found = {item.id: item.found_by for item in memory.remember("museum trip", top_k=5).episodic}
    assert "fulltext" in found[answer.id]  # "museum" and "trip" are only in the question before it
    memory.forget_turn(turns[0].id)
    assert _context(pg, conversation)[0] is None  # the answer's copy of the question is gone too
    gone = {item.id: item.found_by for item in memory.remember("museum trip", top_k=5).episodic}
    assert "fulltext" not in gone.get(answer.id, [])
