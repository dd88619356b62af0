"""PostgresStore against the session's real Postgres: migrations, the embedding lock, audit partitions."""

from __future__ import annotations

import hashlib
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from agentx_memory.embedding import Embedder
from agentx_memory.errors import (
    EmbeddingDimensionError,
    SchemaVersionError,
    StoreError,
    StoreUnavailableError,
)
from agentx_memory.settings import PostgresSettings, Settings
from agentx_memory.stores.migrations import MIGRATION_LOCK, latest_migration, migration_files
from agentx_memory.stores.postgres import PostgresStore
from agentx_memory.stores.sql import load_sql

DIM = 384
MODEL = "test-model"


@pytest.fixture
def pg_settings(settings: Settings) -> PostgresSettings:
    """The test's own (not yet created) schema; the ``settings`` fixture drops it afterwards."""
    return settings.postgres


@pytest.fixture
def store(pg_settings: PostgresSettings) -> Iterator[PostgresStore]:
    opened = PostgresStore.connect(
        pg_settings.url or "", pg_settings, embedding_dim=DIM, embedding_model=MODEL
    )
    yield opened
    opened.close()


def query(pg_settings: PostgresSettings, statement: str, *params: Any) -> list[dict[str, Any]]:
    """Raw SQL against the test's schema, for looking at what the store created."""
    with psycopg.connect(pg_settings.url or "", autocommit=True, row_factory=dict_row) as conn:
        conn.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(pg_settings.schema_name)))
        return [dict(row) for row in conn.execute(statement, params).fetchall()]


def partitions(pg_settings: PostgresSettings) -> dict[str, str]:
    """Partition name → bound expression of this schema's memory_audit_log."""
    rows = query(
        pg_settings,
        """
        SELECT child.relname AS name, pg_get_expr(child.relpartbound, child.oid) AS bound
        FROM pg_inherits
        JOIN pg_class parent ON parent.oid = pg_inherits.inhparent
        JOIN pg_class child ON child.oid = pg_inherits.inhrelid
        JOIN pg_namespace ns ON ns.oid = parent.relnamespace
        WHERE parent.relname = 'memory_audit_log' AND ns.nspname = %s
        """,
        pg_settings.schema_name,
    )
    return {str(row["name"]): str(row["bound"]) for row in rows}


def audit_row(stamp: datetime, operation: str = "probe") -> dict[str, Any]:
    return {
        "timestamp": stamp,
        "user_id": "alice",
        "channel": "_global",
        "operation": operation,
        "memory_type": None,
        "memory_id": None,
        "level": "writes",
        "details": Jsonb({"k": 1}),
        "payload": None,
        "config_snapshot": Jsonb({}),
    }


def test_migrations_are_recorded_in_schema_version(
    store: PostgresStore, pg_settings: PostgresSettings
) -> None:
    rows = query(pg_settings, "SELECT version, name, checksum FROM schema_version ORDER BY version")
    migrations = sorted((Path(__file__).resolve().parents[2] / "migrations").glob("*.sql"))
    assert [row["version"] for row in rows] == [int(path.name[:3]) for path in migrations]
    assert rows[0]["name"] == "core"
    assert (
        rows[0]["checksum"] == hashlib.sha256(migrations[0].read_text(encoding="utf-8").encode()).hexdigest()
    )
    metadata = query(pg_settings, "SELECT key, value FROM agentx_metadata ORDER BY key")
    assert {row["key"]: row["value"] for row in metadata} == {
        "embedding_dimensions": str(DIM),
        "embedding_model": MODEL,
    }
    column = query(
        pg_settings,
        "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute "
        "WHERE attrelid = 'conversation_logs'::regclass AND attname = 'embedding'",
    )
    assert column == [{"type": f"halfvec({DIM})"}]  # half precision since migration 015


def test_applying_migrations_again_is_a_no_op(store: PostgresStore, pg_settings: PostgresSettings) -> None:
    before = query(pg_settings, "SELECT version, checksum, applied_at FROM schema_version ORDER BY version")
    tables_before = query(
        pg_settings, "SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema()"
    )
    for _ in range(2):
        again = PostgresStore.connect(
            pg_settings.url or "", pg_settings, embedding_dim=DIM, embedding_model=MODEL
        )
        again.close()
    assert (
        query(pg_settings, "SELECT version, checksum, applied_at FROM schema_version ORDER BY version")
        == before
    )
    tables_after = query(
        pg_settings, "SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema()"
    )
    assert tables_after == tables_before


def test_audit_partitions_cover_the_coming_week_without_a_default(
    store: PostgresStore, pg_settings: PostgresSettings
) -> None:
    found = partitions(pg_settings)
    today = datetime.now(UTC).date()
    for offset in range(pg_settings.partitions_ahead_days + 1):
        day = today + timedelta(days=offset)
        name = f"memory_audit_log_{day:%Y%m%d}"
        assert name in found, f"no audit partition for {day}"
        assert day.isoformat() in found[name]
    assert not any("DEFAULT" in bound for bound in found.values())
    default = query(
        pg_settings,
        "SELECT partdefid FROM pg_partitioned_table WHERE partrelid = 'memory_audit_log'::regclass",
    )
    assert default == [{"partdefid": 0}]


def test_audit_row_for_a_far_day_creates_its_partition(
    store: PostgresStore, pg_settings: PostgresSettings
) -> None:
    stamp = datetime.now(UTC) + timedelta(days=30)
    name = f"memory_audit_log_{stamp.date():%Y%m%d}"
    assert name not in partitions(pg_settings)
    store.insert_audit(audit_row(stamp, "far-future"))
    assert name in partitions(pg_settings)
    rows = [
        row for row in store.fetch_all("list_audit", {"user_id": "alice"}) if row["operation"] == "far-future"
    ]
    assert len(rows) == 1
    assert rows[0]["timestamp"] == stamp
    assert rows[0]["details"] == {"k": 1}


def test_concurrent_audit_rows_for_a_new_day_are_never_lost(
    store: PostgresStore, pg_settings: PostgresSettings
) -> None:
    stamp = datetime.now(UTC) + timedelta(days=45)
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            for n in range(3):
                store.insert_audit(audit_row(stamp + timedelta(seconds=n), f"w{worker}"))
        except BaseException as exc:  # reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    rows = store.fetch_all("list_audit", {"user_id": "alice"})
    assert sorted(row["operation"] for row in rows) == sorted(f"w{w}" for w in range(4) for _ in range(3))


def test_ensure_partitions_is_idempotent(store: PostgresStore, pg_settings: PostgresSettings) -> None:
    before = partitions(pg_settings)
    ahead = pg_settings.partitions_ahead_days  # what opening the store already ensured
    names = store.ensure_partitions(ahead)
    assert names == [f"memory_audit_log_{day:%Y%m%d}" for day in _days(-1, ahead)]
    assert partitions(pg_settings) == before


def _days(first: int, last: int) -> list[date]:
    today = datetime.now(UTC).date()
    return [today + timedelta(days=offset) for offset in range(first, last + 1)]


def test_other_embedding_dimension_is_refused(store: PostgresStore, pg_settings: PostgresSettings) -> None:
    with pytest.raises(EmbeddingDimensionError) as caught:
        PostgresStore.connect(pg_settings.url or "", pg_settings, embedding_dim=768, embedding_model=MODEL)
    message = str(caught.value)
    assert "AGENTX_EMBEDDING__DIMENSIONS" in message
    assert "384" in message
    assert "768" in message
    metadata = query(pg_settings, "SELECT value FROM agentx_metadata WHERE key = 'embedding_dimensions'")
    assert metadata == [{"value": str(DIM)}]


def test_other_embedding_model_is_refused(store: PostgresStore, pg_settings: PostgresSettings) -> None:
    with pytest.raises(EmbeddingDimensionError, match="AGENTX_EMBEDDING__MODEL"):
        PostgresStore.connect(pg_settings.url or "", pg_settings, embedding_dim=DIM, embedding_model="other")


def test_facade_schema_locks_the_real_embedder(settings: Settings, embedder: Embedder) -> None:
    opened = PostgresStore.connect(
        settings.postgres.url or "", settings.postgres, embedding_dim=embedder.dimensions,
        embedding_model=embedder.model_id,
    )  # fmt: skip
    opened.close()
    with pytest.raises(EmbeddingDimensionError, match="AGENTX_EMBEDDING__DIMENSIONS"):
        PostgresStore.connect(
            settings.postgres.url or "",
            settings.postgres,
            embedding_dim=1536,
            embedding_model=embedder.model_id,
        )


def test_unreachable_postgres_fails_fast(pg_settings: PostgresSettings) -> None:
    unreachable = pg_settings.model_copy(update={"connect_timeout_s": 2.0})
    started = time.monotonic()
    with pytest.raises(StoreUnavailableError, match="AGENTX_POSTGRES__URL"):
        PostgresStore.connect(
            "postgresql://postgres@127.0.0.1:1/postgres",
            unreachable,
            embedding_dim=DIM,
            embedding_model=MODEL,
        )
    assert time.monotonic() - started < 5


@pytest.mark.parametrize(
    "timeout_s",
    [
        2.0,
        pytest.param(
            0.5,
        ),
    ],
)
def test_silent_postgres_times_out(pg_settings: PostgresSettings, timeout_s: float) -> None:
    """A server that accepts TCP but never answers must not hang the caller past the timeout."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    outcome: list[BaseException] = []

    def connect() -> None:
        try:
            PostgresStore.connect(
                f"postgresql://postgres@127.0.0.1:{port}/postgres",
                pg_settings.model_copy(update={"connect_timeout_s": timeout_s}),
                embedding_dim=DIM,
                embedding_model=MODEL,
            )
        except BaseException as exc:  # inspected below
            outcome.append(exc)

    started = time.monotonic()
    worker = threading.Thread(target=connect, daemon=True)
    worker.start()
    worker.join(timeout_s + 2.5)  # libpq rounds a timeout up to 2 s at least
    gave_up_in_time = bool(outcome)
    elapsed = time.monotonic() - started
    listener.close()  # resets a connection still waiting, so the worker never outlives the test
    worker.join(5)
    assert gave_up_in_time, f"still connecting after {elapsed:.1f} s with connect_timeout_s={timeout_s}"
    assert isinstance(outcome[0], StoreUnavailableError)
    assert "AGENTX_POSTGRES__URL" in str(outcome[0])


@pytest.mark.parametrize(("generic_plans", "mode"), [(True, "force_generic_plan"), (False, "auto")])
def test_pooled_connections_carry_the_session_settings(
    pg_settings: PostgresSettings, generic_plans: bool, mode: str
) -> None:
    tuned = pg_settings.model_copy(update={"generic_plans": generic_plans})
    opened = PostgresStore.connect(tuned.url or "", tuned, embedding_dim=DIM, embedding_model=MODEL)
    try:
        row = opened.fetch_one("session_settings", {})
    finally:
        opened.close()
    assert row is not None
    assert row["plan_cache_mode"] == mode
    assert row["hnsw_iterative_scan"] == "relaxed_order"
    assert row["search_path"].startswith(pg_settings.schema_name)


def _apply_first_migrations(pg_settings: PostgresSettings, upto: int) -> None:
    """Build the schema as an older agentx-memory left it: migrations 1..``upto`` only."""
    ident = sql.Identifier(pg_settings.schema_name)
    with psycopg.connect(pg_settings.url or "", autocommit=True) as conn, conn.transaction():
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public")
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(ident))
        conn.execute(sql.SQL("SET LOCAL search_path TO {}, public").format(ident))
        conn.execute(
            "CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL,"
            " checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for version, name, text in migration_files()[:upto]:
            conn.execute(text.replace("@EMBEDDING_DIM@", str(DIM)).encode())
            conn.execute(
                "INSERT INTO schema_version (version, name, checksum) VALUES (%s, %s, 'old')", (version, name)
            )
        conn.execute(
            "INSERT INTO agentx_metadata (key, value) VALUES ('embedding_dimensions', %s),"
            " ('embedding_model', %s)",
            (str(DIM), MODEL),
        )


def test_a_store_behind_is_refused_without_auto_migrate_and_changes_nothing(
    pg_settings: PostgresSettings,
) -> None:
    _apply_first_migrations(pg_settings, latest_migration() - 1)
    strict = pg_settings.model_copy(update={"auto_migrate": False})
    versions = "SELECT version FROM schema_version ORDER BY version"
    before = query(pg_settings, versions)
    with pytest.raises(SchemaVersionError, match="run `agentx-memory migrate`"):
        PostgresStore.connect(strict.url or "", strict, embedding_dim=DIM, embedding_model=MODEL)
    assert query(pg_settings, versions) == before
    applied = PostgresStore.migrate(strict.url or "", strict, embedding_dim=DIM, embedding_model=MODEL)
    assert applied == [f"{version:03d}_{name}" for version, name, _ in migration_files()[-1:]]
    assert [row["version"] for row in query(pg_settings, versions)][-1] == latest_migration()
    assert PostgresStore.migrate(strict.url or "", strict, embedding_dim=DIM, embedding_model=MODEL) == []
    PostgresStore.connect(strict.url or "", strict, embedding_dim=DIM, embedding_model=MODEL).close()


def test_a_store_behind_is_migrated_on_open_by_default(pg_settings: PostgresSettings) -> None:
    _apply_first_migrations(pg_settings, latest_migration() - 1)
    PostgresStore.connect(
        pg_settings.url or "", pg_settings, embedding_dim=DIM, embedding_model=MODEL
    ).close()
    rows = query(pg_settings, "SELECT max(version) AS version FROM schema_version")
    assert rows == [{"version": latest_migration()}]


def test_a_store_ahead_of_the_code_is_refused(store: PostgresStore, pg_settings: PostgresSettings) -> None:
    query(
        pg_settings,
        "INSERT INTO schema_version (version, name, checksum) VALUES (999, 'future', 'x') RETURNING version",
    )
    with pytest.raises(SchemaVersionError, match="upgrade agentx-memory"):
        PostgresStore.connect(pg_settings.url or "", pg_settings, embedding_dim=DIM, embedding_model=MODEL)


def test_opening_a_current_store_takes_no_migration_lock(
    store: PostgresStore, pg_settings: PostgresSettings
) -> None:
    # Another session holds the migration lock: an open that tried to migrate would wait for it.
    with psycopg.connect(pg_settings.url or "", autocommit=True) as holder, holder.transaction():
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        started = time.monotonic()
        quick = pg_settings.model_copy(update={"connect_timeout_s": 2.0})
        PostgresStore.connect(quick.url or "", quick, embedding_dim=DIM, embedding_model=MODEL).close()
        assert time.monotonic() - started < 2.0


def test_the_embedding_lock_is_checked_on_the_cheap_path(
    store: PostgresStore, pg_settings: PostgresSettings
) -> None:
    with pytest.raises(EmbeddingDimensionError, match="768"):
        PostgresStore.connect(pg_settings.url or "", pg_settings, embedding_dim=768, embedding_model=MODEL)


def test_turn_vectors_written_before_migration_015_are_kept_in_half_precision(
    pg_settings: PostgresSettings,
) -> None:
    _apply_first_migrations(pg_settings, 14)
    vector = [((i * 37) % 101 - 50) / 97.0 for i in range(DIM)]
    query(
        pg_settings,
        "WITH c AS (INSERT INTO conversations (id, user_id, channel) VALUES (gen_random_uuid(), 'u', 'c')"
        " RETURNING id) INSERT INTO conversation_logs (id, conversation_id, user_id, channel, turn_index,"
        " role, content, content_hash, embedding, \"timestamp\") SELECT gen_random_uuid(), c.id, 'u', 'c', 0,"
        " 'user', 'hello', 'h', %s::vector, now() FROM c RETURNING id",
        str(vector),
    )
    PostgresStore.connect(
        pg_settings.url or "", pg_settings, embedding_dim=DIM, embedding_model=MODEL
    ).close()
    [row] = query(
        pg_settings,
        "SELECT embedding::vector::text AS v, pg_column_size(embedding) AS size FROM conversation_logs",
    )
    kept = [float(x) for x in row["v"].strip("[]").split(",")]
    assert max(abs(a - b) for a, b in zip(kept, vector, strict=True)) < 1e-3  # half precision: ~3 digits
    assert row["size"] == 8 + 2 * DIM
    [index] = query(
        pg_settings,
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'conversation_logs_embedding'"
        " AND schemaname = %s",  # every test has its own schema, each with this index
        pg_settings.schema_name,
    )
    assert "hnsw (embedding halfvec_cosine_ops)" in index["indexdef"]


def test_turns_awaiting_their_graph_write_before_migration_016_stay_listed_for_reconcile(
    pg_settings: PostgresSettings,
) -> None:
    _apply_first_migrations(pg_settings, 15)
    [written] = query(
        pg_settings,
        "WITH c AS (INSERT INTO conversations (id, user_id, channel) VALUES (gen_random_uuid(), 'u', 'c')"
        " RETURNING id), t AS (INSERT INTO conversation_logs (id, conversation_id, user_id, channel,"
        ' turn_index, role, content, content_hash, "timestamp", graph_synced)'
        " SELECT gen_random_uuid(), c.id, 'u', 'c', i, 'user', 'hello ' || i, 'h' || i, now(), i = 0"
        " FROM c, generate_series(0, 1) AS i RETURNING id, conversation_id, turn_index)"
        " SELECT array_agg(id::text ORDER BY turn_index) AS ids, min(conversation_id::text) AS cid FROM t",
    )
    synced, waiting = written["ids"]
    store = PostgresStore.connect(
        pg_settings.url or "", pg_settings, embedding_dim=DIM, embedding_model=MODEL
    )
    try:
        assert [row["id"] for row in store.fetch_all("unsynced_turns", {"limit": 10})] == [waiting]
        listed = store.fetch_all("list_turns", {"conversation_id": written["cid"], "user_id": "u"})
        assert [(row["id"], row["graph_synced"]) for row in listed] == [(synced, True), (waiting, False)]
        assert store.execute("mark_turn_synced", {"id": waiting, "user_id": "u"}) == 1
        assert store.fetch_all("unsynced_turns", {"limit": 10}) == []
        assert store.execute("mark_turn_synced", {"id": waiting, "user_id": "someone else"}) == 0
    finally:
        store.close()
    # the flag left the row, and with it the partial index that made every mark a non-HOT update
    assert (
        query(
            pg_settings,
            "SELECT attname FROM pg_attribute WHERE attrelid = 'conversation_logs'::regclass"
            " AND attname = 'graph_synced' AND NOT attisdropped",
        )
        == []
    )
    assert (
        query(
            pg_settings,
            "SELECT indexname FROM pg_indexes WHERE indexname = 'conversation_logs_unsynced'"
            " AND schemaname = %s",
            pg_settings.schema_name,
        )
        == []
    )


def test_relaxed_statements_relax_their_own_commit_only(store: PostgresStore) -> None:
    """execute_relaxed runs one statement that sets synchronous_commit off for its own transaction: the
    next statement on the same connection commits as the server is configured."""
    relax = "set_config('synchronous_commit', 'off', true)"
    for name in ("mark_turn_synced", "mark_turns_synced", "mark_invocation_synced"):
        assert relax in load_sql()[name], name
    with store.session() as session:
        conn = session._conn
        configured = conn.execute("SHOW synchronous_commit").fetchone()
        assert configured == {"synchronous_commit": "on"}  # the server's default: durable commits
        with conn.transaction():
            conn.execute(f"SELECT {relax}")
            assert conn.execute("SHOW synchronous_commit").fetchone() == {"synchronous_commit": "off"}
        conn.execute(f"SELECT {relax}")  # autocommit: its own transaction, then back to the default
        assert conn.execute("SHOW synchronous_commit").fetchone() == configured


def test_lean_reads_come_as_tuples_and_sealed_columns_only_as_rows(store: PostgresStore) -> None:
    """fetch_tuples hands back the statement's columns in order; a statement returning a sealed column
    (which only fetch_all opens) is refused rather than returning it unopened."""
    with pytest.raises(StoreError, match="sealed column"):  # metadata, even with no row to open
        store.fetch_tuples("turns_by_id", {"user_id": "nobody", "channels": ["_global"], "ids": "{}"})
    position = {"user_id": "nobody", "channels": ["_global"], "metadata": None, "vector": None}
    rows = store.fetch_tuples("turn_neighbours", {**position, "conversation_ids": "{}", "turn_indexes": "{}"})
    assert rows == []
    assert store.fetch_tuples("ping", {}) == [(1,)]
