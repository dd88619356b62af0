"""The suite's namespace recycling (tests/recycling.py): a schema handed out again reads exactly like a
freshly migrated one, and one that cannot be made so (other definitions, a connection still open) is
refused, so no test sees another's data or its traces."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from agentx_memory import AgentMemory
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.settings import Settings
from tests.conftest import cleanup, isolated_settings
from tests.namespaces import drop_schema, migrate_namespace
from tests.recycling import SchemaState, read_state, reset_schema


@pytest.fixture
def conn(endpoints: ResolvedEndpoints) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    with psycopg.connect(endpoints.postgres_url, autocommit=True) as connection:
        yield connection


@pytest.fixture
def migrated(
    endpoints: ResolvedEndpoints,
    data_dir: Path,
    embedder: Embedder,
    conn: psycopg.Connection[tuple[object, ...]],
) -> Iterator[tuple[Settings, SchemaState]]:
    """A namespace migrated as the suite's are, with its state right after the migration."""
    chosen = isolated_settings(endpoints, data_dir)
    migrate_namespace(chosen, endpoints, embedder.dimensions, embedder.model_id)
    yield chosen, read_state(conn, chosen.postgres.schema_name)
    cleanup(chosen, endpoints)


def _use(chosen: Settings, embedder: Embedder) -> tuple[datetime, datetime]:
    """What a test does with a namespace: turns, a tool call, a fact, an access; returns when."""
    taken = datetime.now(UTC) - timedelta(seconds=1)
    with AgentMemory("alice", settings=chosen, embedder=embedder) as mem:
        cid = mem.new_conversation(title="camping")
        mem.store_turn(cid, "user", "I went camping in the Alps with my sister Maya")
        mem.store_turn(cid, "assistant", "Noted.")
        mem.record_invocation(cid, 1, "search", {"q": "alps"}, {"hits": 3}, True, 12.5)
        mem.learn_fact("Maya is alice's sister", confidence=0.9, source="user")
        mem.remember("where did I go camping?")
    return taken, datetime.now(UTC)


def _timeless(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> dict[str, object]:
    """The state, with the kept tables' rows read without when they were written (the two namespaces
    were migrated at different times)."""
    state: dict[str, object] = {
        k: v for k, v in read_state(conn, schema).items() if not k.startswith("data ")
    }
    for table, columns in (("schema_version", "version, name, checksum"), ("agentx_metadata", "key, value")):
        statement = sql.SQL("SELECT {} FROM {} ORDER BY 1").format(
            sql.SQL(columns), sql.Identifier(schema, table)
        )
        state[table] = conn.execute(statement).fetchall()
    return state


def test_a_used_schema_is_emptied_to_the_state_of_a_fresh_one(
    endpoints: ResolvedEndpoints,
    data_dir: Path,
    embedder: Embedder,
    conn: psycopg.Connection[tuple[object, ...]],
    migrated: tuple[Settings, SchemaState],
) -> None:
    chosen, pristine = migrated
    used = _use(chosen, embedder)
    assert read_state(conn, chosen.postgres.schema_name) != pristine  # the premise: the test left traces
    successor = isolated_settings(endpoints, data_dir)
    renamed = successor.postgres.schema_name
    try:
        assert reset_schema(conn, chosen.postgres.schema_name, renamed, pristine, used, ())
        # Not only its own state after migrating: that of another namespace migrated now.
        fresh = isolated_settings(endpoints, data_dir)
        migrate_namespace(fresh, endpoints, embedder.dimensions, embedder.model_id)
        try:
            assert _timeless(conn, renamed) == _timeless(conn, fresh.postgres.schema_name)
        finally:
            cleanup(fresh, endpoints)
        # And it works as a fresh one: nothing of alice's is there.
        with AgentMemory("alice", settings=successor, embedder=embedder) as mem:
            assert mem.get_recent_turns(hours=1) == []
    finally:
        drop_schema(conn, renamed)


def test_changed_definitions_are_refused(
    endpoints: ResolvedEndpoints,
    data_dir: Path,
    embedder: Embedder,
    conn: psycopg.Connection[tuple[object, ...]],
    migrated: tuple[Settings, SchemaState],
) -> None:
    chosen, pristine = migrated
    used = _use(chosen, embedder)
    table = sql.Identifier(chosen.postgres.schema_name, "conversations")
    conn.execute(sql.SQL("ALTER TABLE {} ADD COLUMN note text").format(table))
    renamed = isolated_settings(endpoints, data_dir).postgres.schema_name
    try:
        assert not reset_schema(conn, chosen.postgres.schema_name, renamed, pristine, used, ())
    finally:
        drop_schema(conn, renamed)


def test_a_connection_left_open_keeps_the_schema_from_reuse(
    endpoints: ResolvedEndpoints,
    data_dir: Path,
    embedder: Embedder,
    conn: psycopg.Connection[tuple[object, ...]],
    migrated: tuple[Settings, SchemaState],
) -> None:
    chosen, pristine = migrated
    taken = datetime.now(UTC) - timedelta(seconds=1)
    with psycopg.connect(endpoints.postgres_url, autocommit=True):  # still open when the test ends
        used = (taken, datetime.now(UTC))
        renamed = isolated_settings(endpoints, data_dir).postgres.schema_name
        assert not reset_schema(conn, chosen.postgres.schema_name, renamed, pristine, used, ())
    assert read_state(conn, chosen.postgres.schema_name) == pristine  # refused before touching it
