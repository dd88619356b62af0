"""The backfill of turns stored before migrations 011/012 (``maintenance/backfill_async.py``), against the
real servers: turns stored through the facade, then made to look as an older version left them (no
event date, no question context, a vector of the label-less text, derived_version 0); the backfill
gives them back exactly what ingest wrote, keeps the BM25 statistics exact, does nothing twice, stays
within the user asked for, and makes a date question find the turn that tells of that day again."""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row
from typer.testing import CliRunner

from agentx_memory import AgentMemory, AsyncAgentMemory, Settings, TurnSpec
from agentx_memory.cli import app
from agentx_memory.crypto import SEALED_KEY
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.maintenance.backfill import backfill
from agentx_memory.maintenance.backfill_async import backfill as abackfill
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.memory.episodic_pure import turn_search_text
from tests.integration.test_lexical_stats import assert_exact
from tests.settings_env import env_of

TOLD_AT = datetime(2026, 2, 11, 9, 30, tzinfo=UTC)
LATER = datetime(2026, 2, 20, 18, tzinfo=UTC)
QUESTION = "What did Ben cook on 10 February 2026?"
HISTORY = [
    ("Ana", "How was your weekend, Ben?", TOLD_AT),
    ("Ben", "Yesterday I cooked a mushroom risotto for the whole family", TOLD_AT),
    ("Ben", "Last week I adopted a puppy named Rex", TOLD_AT),
    ("Ana", "What breed is Rex?", TOLD_AT),
    ("Ben", "He is a beagle", TOLD_AT),
    ("Ben", "I cooked a mushroom soup for the whole family", LATER),
]
Row = dict[str, Any]
runner = CliRunner()


@pytest.fixture
def pg(settings: Settings, endpoints: ResolvedEndpoints) -> Iterator[psycopg.Connection[Row]]:
    with psycopg.connect(endpoints.postgres_url, autocommit=True, row_factory=dict_row) as conn:
        conn.execute(
            sql.SQL("SET search_path TO {}, public").format(sql.Identifier(settings.postgres.schema_name))
        )
        yield conn


@pytest.fixture
def plain(
    settings: Settings, endpoints: ResolvedEndpoints
) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    """A connection with tuple rows, as the lexical statistics checks read them."""
    with psycopg.connect(endpoints.postgres_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("SET search_path TO {}, public").format(sql.Identifier(settings.postgres.schema_name))
        )
        yield conn


@pytest.fixture
def root(settings: Settings, embedder: Embedder) -> Iterator[AgentMemory]:
    with AgentMemory(user_id="maintenance", settings=settings, embedder=embedder) as mem:
        yield mem


def _store(settings: Settings, embedder: Embedder, user_id: str) -> list[str]:
    """The history, one turn at a time for its first half and as a batch for the rest."""
    with AgentMemory(user_id=user_id, settings=settings, embedder=embedder) as mem:
        conversation = mem.new_conversation()
        ids = [
            mem.store_turn(conversation, "user", content, metadata={"speaker": who}, timestamp=at).id
            for who, content, at in HISTORY[:3]
        ]
        specs = [TurnSpec(role="user", content=c, speaker=who, timestamp=at) for who, c, at in HISTORY[3:]]
        return ids + mem.store_turns(conversation, specs)


def _derived(pg: psycopg.Connection[Row], user_id: str) -> dict[str, Row]:
    rows = pg.execute(
        "SELECT id::text AS id, event_start, event_end, event_label, context_text, derived_version,"
        " embedding::text AS embedding FROM conversation_logs WHERE user_id = %s",
        [user_id],
    ).fetchall()
    return {row["id"]: row for row in rows}


def _age(pg: psycopg.Connection[Row], embedder: Embedder, user_id: str) -> None:
    """Make the user's turns look as a version before migrations 011/012 stored them."""
    rows = pg.execute(
        "SELECT id::text AS id, content, metadata FROM conversation_logs WHERE user_id = %s", [user_id]
    ).fetchall()
    vectors = embedder.embed([turn_search_text(row["content"], row["metadata"]) for row in rows])
    for row, vector in zip(rows, vectors, strict=True):
        pg.execute(
            "UPDATE conversation_logs SET event_start = NULL, event_end = NULL, event_label = NULL,"
            " context_text = NULL, derived_version = 0, embedding = %s::vector WHERE id = %s",
            [str(list(vector)), row["id"]],
        )


def _assert_as_ingested(got: dict[str, Row], ingested: dict[str, Row]) -> None:
    assert got.keys() == ingested.keys()
    for turn_id, row in got.items():
        want = ingested[turn_id]
        fields = ("event_start", "event_end", "event_label", "context_text", "derived_version")
        assert {f: row[f] for f in fields} == {f: want[f] for f in fields}
        vector, expected = (np.array(json.loads(r["embedding"]), dtype=np.float32) for r in (row, want))
        assert np.allclose(vector, expected, atol=1e-5)


def _top(memory: AgentMemory) -> str:
    return memory.remember(QUESTION).episodic[0].id


def test_backfill_restores_what_ingest_wrote_once_and_for_one_user(
    settings: Settings,
    embedder: Embedder,
    pg: psycopg.Connection[Row],
    plain: psycopg.Connection[tuple[object, ...]],
    root: AgentMemory,
) -> None:
    ids = _store(settings, embedder, "alice")
    _store(settings, embedder, "bob")
    ingested = _derived(pg, "alice")
    assert {row["derived_version"] for row in ingested.values()} == {1}
    # What ingest derives: two event dates, two answers holding the other speaker's question.
    assert ingested[ids[1]]["event_label"] == "10 February 2026"
    assert ingested[ids[2]]["event_label"] == "the week of 2 February 2026"
    assert [ingested[i]["context_text"] for i in ids] == [
        None,
        "Ana How was your weekend, Ben?",
        None,
        None,
        "Ana What breed is Rex?",
        None,
    ]
    with AgentMemory(user_id="alice", settings=settings, embedder=embedder) as alice:
        assert _top(alice) == ids[1]
        for user_id in ("alice", "bob"):
            _age(pg, embedder, user_id)
        assert_exact(plain)
        # Without its event date the risotto turn (said the day after) loses to the soup.
        assert _top(alice) != ids[1]
        aged_bob = _derived(pg, "bob")

        report = backfill(root, user_id="alice", batch=4)

        assert (report.turns, report.embedded, report.remaining) == (6, 2, 0)
        _assert_as_ingested(_derived(pg, "alice"), ingested)
        assert _derived(pg, "bob") == aged_bob  # another user's turns are not touched
        assert_exact(plain)
        assert _top(alice) == ids[1]
    done = _derived(pg, "alice")
    again = backfill(root, user_id="alice")
    assert (again.turns, again.embedded) == (0, 0)
    assert _derived(pg, "alice") == done
    everyone = backfill(root)  # then every user: bob's turns
    assert (everyone.turns, everyone.embedded) == (6, 2)
    assert backfill(root).turns == 0


def test_a_bounded_run_stops_at_its_limit_and_the_next_continues(
    settings: Settings,
    embedder: Embedder,
    pg: psycopg.Connection[Row],
    plain: psycopg.Connection[tuple[object, ...]],
    root: AgentMemory,
) -> None:
    _store(settings, embedder, "alice")
    ingested = _derived(pg, "alice")
    _age(pg, embedder, "alice")
    first = backfill(root, batch=2, limit=3)
    assert (first.turns, first.remaining) == (3, 3)
    assert sum(row["derived_version"] for row in _derived(pg, "alice").values()) == 3
    second = backfill(root, batch=2, limit=3)
    assert (second.turns, second.remaining) == (3, 0)
    _assert_as_ingested(_derived(pg, "alice"), ingested)
    assert_exact(plain)


async def test_the_async_source_backfills_the_same(
    settings: Settings, embedder: Embedder, pg: psycopg.Connection[Row]
) -> None:
    _store(settings, embedder, "alice")
    ingested = _derived(pg, "alice")
    _age(pg, embedder, "alice")
    async with AsyncAgentMemory(user_id="maintenance", settings=settings, embedder=embedder) as root:
        report = await abackfill(root, batch=5)
    assert (report.turns, report.embedded) == (6, 2)
    _assert_as_ingested(_derived(pg, "alice"), ingested)


def test_cli_backfill_reports_throughput_and_doctor_says_what_to_run(
    settings: Settings, embedder: Embedder, pg: psycopg.Connection[Row]
) -> None:
    _store(settings, embedder, "alice")
    _age(pg, embedder, "alice")
    env = env_of(settings)
    checked = runner.invoke(app, ["doctor"], env=env)
    assert checked.exit_code == 0, checked.output  # waiting turns are not a violation
    assert "6 turns stored before" in checked.stdout
    assert "agentx-memory backfill" in checked.stdout
    done = runner.invoke(app, ["backfill", "--batch", "4"], env=env)
    assert done.exit_code == 0, done.output
    assert "Backfilled 6 turns (2 re-embedded)" in done.stdout
    assert "turns/s" in done.stdout
    again = runner.invoke(app, ["backfill"], env=env)
    assert again.exit_code == 0
    assert "Nothing to do" in again.stdout
    as_json = runner.invoke(app, ["doctor", "--json"], env=env)
    assert json.loads(as_json.stdout)["awaiting_backfill"] == 0


def test_the_job_does_a_bounded_batch_per_run(
    settings: Settings, embedder: Embedder, pg: psycopg.Connection[Row]
) -> None:
    _store(settings, embedder, "alice")
    _age(pg, embedder, "alice")
    bounded = settings.model_copy(
        update={"maintenance": settings.maintenance.model_copy(update={"backfill_turns_per_run": 4})}
    )
    with AgentMemory(user_id="maintenance", settings=bounded, embedder=embedder) as root:
        dry = run_job(root, JOBS["backfill"], dry_run=True)
        assert dry.counts == {"remaining": 6}
        first = run_job(root, JOBS["backfill"])
        assert (first.status, first.counts) == (
            "done",
            {"turns": 4, "embedded": first.counts["embedded"], "remaining": 2},
        )
        second = run_job(root, JOBS["backfill"])
        assert (second.counts["turns"], second.counts["remaining"]) == (2, 0)
        assert first.counts["embedded"] + second.counts["embedded"] == 2
        assert run_job(root, JOBS["backfill"]).counts["turns"] == 0


def test_sealed_metadata_is_opened_through_the_store(
    settings: Settings, embedder: Embedder, pg: psycopg.Connection[Row]
) -> None:
    key = base64.b64encode(os.urandom(32)).decode()
    sealed = Settings.model_validate(
        {**settings.model_dump(by_alias=True), "security": {"encryption_key": key}}
    )
    _store(sealed, embedder, "alice")
    raw = pg.execute("SELECT metadata FROM conversation_logs LIMIT 1").fetchone()
    assert raw is not None
    assert SEALED_KEY in raw["metadata"]  # the speaker stays plain beside it
    ingested = _derived(pg, "alice")
    _age(pg, embedder, "alice")
    with AgentMemory(user_id="maintenance", settings=sealed, embedder=embedder) as root:
        report = backfill(root)
    assert (report.turns, report.embedded) == (6, 2)
    _assert_as_ingested(_derived(pg, "alice"), ingested)


def test_a_dump_from_before_migration_013_is_imported_awaiting_the_backfill(
    settings: Settings, embedder: Embedder, pg: psycopg.Connection[Row], root: AgentMemory
) -> None:
    _store(settings, embedder, "alice")
    ingested = _derived(pg, "alice")
    with AgentMemory(user_id="alice", settings=settings, embedder=embedder) as alice:
        dump = alice.export_user()
        for record in dump:
            if record["type"] == "turn":  # what an export before migrations 011-013 holds
                for name in ("derived_version", "event_start", "event_end", "event_label", "context_text"):
                    record["data"].pop(name)
        alice.forget_user()
        assert alice.import_user(dump)["turn"] == 6
    assert {row["derived_version"] for row in _derived(pg, "alice").values()} == {0}
    assert backfill(root).turns == 6
    _assert_as_ingested(_derived(pg, "alice"), ingested)
