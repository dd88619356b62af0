"""Reusing a finished test's migrated Postgres schema for a later test, only when it is provably as fresh.

A fresh namespace costs ~70 ms of Postgres CPU to migrate and ~20 ms to drop (~130 relations created
and removed), most of the Postgres CPU of the suite. A test writes to a few tables; emptying those
(TRUNCATE builds their files and indexes anew) costs ~10 ms. But an emptied schema differs from a fresh
one in more than its rows: index statistics, sequences, the counters autovacuum and ``stats`` read.
So the schema's whole observable state (tests/namespace_state.sql: definitions of every relation,
column, index, constraint, trigger, function and sequence, each relation's size per fork and planner
statistics, column statistics, table counters, and the rows of ``schema_version`` and
``agentx_metadata``) is read right after the migration, and a finished test's schema is handed out again
only when, once emptied, it reads back identical; anything else (a reindex changed a column, a test
added a partition or ran ANALYZE) is dropped as before. The schema is renamed to the next test's name,
and the graph and Redis keys are never reused (new names; the old ones are deleted), so a connection
left over from the previous test cannot reach the next test's data; and every connection opened while
the test held the schema must have ended (its late statistics could land after the check; one that
never ends keeps its schema from reuse).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from datetime import datetime
from functools import cache
from pathlib import Path

import psycopg
from psycopg import sql

__all__ = ["SchemaState", "read_state", "reset_schema"]

#: key -> value, the schema's name replaced by ``@`` (it is renamed between tests).
SchemaState = Mapping[str, str]

#: The two tables whose rows the migration writes; they are compared row by row, never emptied.
_KEPT = ("schema_version", "agentx_metadata")
#: How long a recycle waits for the previous test's connections to end before giving up on the schema.
_BACKENDS_TIMEOUT_S = 2.0


@cache
def _queries() -> dict[str, str]:
    """The named queries of tests/namespace_state.sql (``-- name: x`` starts one)."""
    text = Path(__file__).with_name("namespace_state.sql").read_text(encoding="utf-8")
    return {block.split("\n", 1)[0].strip(): block.split("\n", 1)[1] for block in text.split("-- name: ")[1:]}


def _read(conn: psycopg.Connection[tuple[object, ...]], query: str, schema: str) -> dict[str, str]:
    rows = conn.execute(_queries()[query], {"schema": schema}).fetchall()
    return {str(key).replace(schema, "@"): str(value).replace(schema, "@") for key, value in rows}


def read_state(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> SchemaState:
    """The schema's whole observable state: storage, definitions and the rows of the kept tables."""
    state = {**_read(conn, "storage", schema), **_read(conn, "definitions", schema)}
    for table, order in zip(_KEPT, ("version", "key"), strict=True):
        statement = sql.SQL("SELECT * FROM {} ORDER BY {}")
        kept = conn.execute(statement.format(sql.Identifier(schema, table), sql.Identifier(order))).fetchall()
        state[f"data {table}"] = repr(kept)
    return state


def _dirty_tables(storage: SchemaState, pristine: SchemaState) -> list[str]:
    """The tables (partitions included) whose storage, indexes, sequences or counters changed."""
    tables = {key[4:] for key in pristine if key.startswith("rel ") and pristine[key].startswith("r |")}
    changed = {key.split(" ", 1)[1] for key, value in storage.items() if value != pristine.get(key)}
    # An index or sequence belongs to the table whose name prefixes its own (the migrations' naming).
    dirty = {table for table in tables for name in changed if name == table or name.startswith(f"{table}_")}
    return sorted(dirty - set(_KEPT))


def _wait_for_backends(
    conn: psycopg.Connection[tuple[object, ...]], used: tuple[datetime, datetime], helpers: Collection[int]
) -> bool:
    """Wait for every connection opened while the test held the schema (other than the session's own
    helpers) to end. One that outlives the test (a facade never closed) keeps its schema from reuse."""
    deadline = time.monotonic() + _BACKENDS_TIMEOUT_S
    while True:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
            " AND pid <> pg_backend_pid() AND pid <> ALL(%s) AND backend_start BETWEEN %s AND %s",
            (list(helpers), *used),
        ).fetchone()
        if row is not None and row[0] == 0:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)


def reset_schema(
    conn: psycopg.Connection[tuple[object, ...]],
    schema: str,
    new_name: str,
    pristine: SchemaState,
    used: tuple[datetime, datetime],
    helpers: Collection[int],
) -> bool:
    """Empty ``schema`` back to ``pristine`` and rename it ``new_name``; False when it cannot be made
    identical, and the caller drops it (under either name). ``used``: when its test took it and gave it
    back; ``helpers``: the backends of the session's own long-lived connections, not the test's."""
    if not _wait_for_backends(conn, used, helpers):
        return False
    storage = _read(conn, "storage", schema)
    dirty = _dirty_tables(storage, pristine)
    ident = sql.Identifier(schema)
    with conn.transaction():
        conn.execute("SET LOCAL lock_timeout = '2s'")
        if dirty:
            tables = sql.SQL(", ").join(sql.Identifier(schema, table) for table in dirty)
            conn.execute(sql.SQL("TRUNCATE {} RESTART IDENTITY CASCADE").format(tables))
        for key, value in storage.items():
            if key.startswith("seq ") and value != pristine.get(key):
                conn.execute(sql.SQL("ALTER SEQUENCE {} RESTART").format(sql.Identifier(schema, key[4:])))
        conn.execute(sql.SQL("ALTER SCHEMA {} RENAME TO {}").format(ident, sql.Identifier(new_name)))
        _repoint_functions(conn, new_name)
    conn.execute("SELECT pg_stat_force_next_flush()")  # the TRUNCATE's counters, before they are reset
    _restore_statistics(conn, new_name, pristine)
    # The proof: whatever the test did (DDL included), the schema now reads as it did after migrating.
    return read_state(conn, new_name) == pristine


def _repoint_functions(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> None:
    """Functions created with ``SET search_path FROM CURRENT`` name their schema: as the migration did,
    with the search path set to the schema (renamed now) and public."""
    conn.execute(sql.SQL("SET LOCAL search_path TO {}, public").format(sql.Identifier(schema)))
    functions = conn.execute(
        "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.pronamespace = %s::text::regnamespace"
        " AND EXISTS (SELECT FROM unnest(p.proconfig) AS c WHERE c LIKE 'search\\_path=%%')",
        (schema,),
    ).fetchall()
    for (signature,) in functions:
        conn.execute(
            sql.SQL("ALTER FUNCTION {} SET search_path FROM CURRENT").format(sql.SQL(str(signature)))
        )


def _restore_statistics(
    conn: psycopg.Connection[tuple[object, ...]], schema: str, pristine: SchemaState
) -> None:
    """Put back the planner statistics (relpages, reltuples, relallvisible, relallfrozen) a TRUNCATE
    reset, and zero the counters of the emptied tables: both read as they did after the migration."""
    for key, value in _read(conn, "storage", schema).items():
        if pristine.get(key) == value:
            continue
        name = key.split(" ", 1)[1]
        if key.startswith("plan "):
            pages, tuples, visible, frozen = pristine[key].split(" | ")
            conn.execute(
                "SELECT pg_restore_relation_stats('schemaname', %s::text, 'relname', %s::text,"
                " 'relpages', %s::integer, 'reltuples', %s::real, 'relallvisible', %s::integer,"
                " 'relallfrozen', %s::integer)",
                (schema, name, int(pages), float(tuples), int(visible), int(frozen)),
            )
        elif key.startswith("stat "):
            conn.execute(
                "SELECT pg_stat_reset_single_table_counters(%s::regclass)",
                (sql.Identifier(schema, name).as_string(conn),),
            )
