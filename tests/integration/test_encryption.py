"""Sensitive data at rest on the real servers: with a key, the raw Postgres rows hold no secret while the
API returns it intact; user binding; rotation; no key behaves as before; a missing key fails clearly."""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from agentx_memory import AgentMemory, Settings
from agentx_memory.crypto import Encryptor, key_id, parse_key
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.errors import DecryptionError, EncryptionKeyError, InvalidInputError
from agentx_memory.maintenance.rekey import rekey
from agentx_memory.stores.postgres import PostgresStore
from tests.conftest import cleanup, isolated_settings

SECRET = "hunter2-Zq9xSECRET"
KEY_A = base64.b64encode(os.urandom(32)).decode()
KEY_B = base64.b64encode(os.urandom(32)).decode()
TABLES = ("conversations", "conversation_logs", "tool_invocations", "memory_audit_log")


def with_keys(settings: Settings, current: str | None, old: list[str] | None = None) -> Settings:
    security = {"encryption_key": current, "old_encryption_keys": old or []}
    return Settings.model_validate({**settings.model_dump(by_alias=True), "security": security})


@pytest.fixture
def base(endpoints: ResolvedEndpoints, data_dir: Path) -> Iterator[Settings]:
    chosen = isolated_settings(endpoints, data_dir, audit={"level": "verbose"})
    yield chosen
    cleanup(chosen, endpoints)


def raw_rows(settings: Settings) -> str:
    """Every row of the sensitive tables, straight from Postgres, as one text."""
    assert settings.postgres.url is not None
    schema = sql.Identifier(settings.postgres.schema_name)
    texts: list[str] = []
    with psycopg.connect(settings.postgres.url, autocommit=True) as conn:
        for table in TABLES:
            query = sql.SQL("SELECT to_jsonb(t)::text FROM {}.{} t").format(schema, sql.Identifier(table))
            texts.extend(str(row[0]) for row in conn.execute(query).fetchall())
    return "\n".join(texts)


def populate(memory: AgentMemory) -> str:
    conversation = memory.new_conversation(title="deploy", metadata={"ticket": SECRET})
    memory.store_turn(
        conversation, "user", "please deploy the service", metadata={"speaker": "Ann", "token": SECRET}
    )
    memory.store_turns(
        conversation, [{"role": "assistant", "content": "deploying now", "metadata": {"note": SECRET}}]
    )
    memory.record_invocation(conversation, 1, "deploy", {"password": SECRET}, {"echo": SECRET}, True, 3.0)
    return conversation


def check_api(memory: AgentMemory, conversation: str) -> None:
    turns = memory.get_conversation(conversation)
    assert turns[0].metadata == {"speaker": "Ann", "token": SECRET}
    assert turns[1].metadata == {"note": SECRET}
    records = memory.export_user(embeddings=False)
    calls = [r for r in records if r.get("type") == "tool_invocation"]
    assert calls
    assert calls[0]["data"]["tool_input"] == {"password": SECRET}
    assert calls[0]["data"]["tool_output"] == {"echo": SECRET}
    conversations = [r for r in records if r.get("type") == "conversation"]
    assert conversations[0]["data"]["metadata"] == {"ticket": SECRET}


def audit_payloads(settings: Settings, key: str | None) -> list[Any]:
    encryptor = None if key is None else Encryptor(parse_key(key))
    assert settings.postgres.url is not None
    store = PostgresStore.attach(settings.postgres.url, settings.postgres, encryptor)
    try:
        rows = store.fetch_all("list_audit", {"user_id": "alice"})
    finally:
        store.close()
    return [row["payload"] for row in rows if row["payload"] is not None]


def test_key_hides_every_secret_in_postgres_and_the_api_returns_them(
    base: Settings, embedder: Embedder
) -> None:
    keyed = with_keys(base, KEY_A)
    with AgentMemory("alice", settings=keyed, embedder=embedder) as memory:
        conversation = populate(memory)
        check_api(memory, conversation)
        # the speaker is part of the searchable text, so it stays plain and recall still finds it
        assert memory.remember("what did Ann ask?").items
        assert memory.remember("deploy", metadata={"speaker": "Ann"}).items
        with pytest.raises(InvalidInputError, match="encrypted at rest"):
            memory.remember("deploy", metadata={"token": SECRET})
    raw = raw_rows(keyed)
    assert SECRET not in raw
    assert "please deploy the service" in raw  # turn content stays plain: full-text and vectors
    assert f"agx1:{key_id(parse_key(KEY_A))}:" in raw
    payloads = audit_payloads(keyed, KEY_A)
    assert {"content": "please deploy the service"} in payloads
    with pytest.raises(EncryptionKeyError, match="AGENTX_SECURITY__ENCRYPTION_KEY"):
        audit_payloads(keyed, None)


def test_without_a_key_rows_are_plain_and_keyed_rows_then_fail_clearly(
    base: Settings, embedder: Embedder
) -> None:
    with AgentMemory("alice", settings=base, embedder=embedder) as memory:
        plain_conversation = populate(memory)
        check_api(memory, plain_conversation)
    assert SECRET in raw_rows(base)
    assert "agx_sealed" not in raw_rows(base)
    with AgentMemory("alice", settings=with_keys(base, KEY_A), embedder=embedder) as memory:
        check_api(memory, plain_conversation)  # plain rows still read with a key
        sealed_conversation = populate(memory)
    with (
        AgentMemory("alice", settings=base, embedder=embedder) as memory,
        pytest.raises(EncryptionKeyError, match="no key is configured"),
    ):
        memory.get_conversation(sealed_conversation)
    with (
        AgentMemory("alice", settings=with_keys(base, KEY_B), embedder=embedder) as memory,
        pytest.raises(EncryptionKeyError, match=key_id(parse_key(KEY_A))),
    ):
        memory.get_conversation(sealed_conversation)


def test_a_value_copied_to_another_user_does_not_decrypt(base: Settings, embedder: Embedder) -> None:
    keyed = with_keys(base, KEY_A)
    with AgentMemory("alice", settings=keyed, embedder=embedder) as alice:
        source = alice.new_conversation()
        alice.store_turn(source, "user", "hello", metadata={"token": SECRET})
    with AgentMemory("bob", settings=keyed, embedder=embedder) as bob:
        target = bob.new_conversation()
        bob.store_turn(target, "user", "hi", metadata={"token": "bob's own"})
        assert keyed.postgres.url is not None
        schema = sql.Identifier(keyed.postgres.schema_name)
        with psycopg.connect(keyed.postgres.url, autocommit=True) as conn:
            conn.execute(
                sql.SQL(
                    "UPDATE {s}.conversation_logs SET metadata = "
                    "(SELECT metadata FROM {s}.conversation_logs WHERE user_id = 'alice') "
                    "WHERE user_id = 'bob'"
                ).format(s=schema)
            )
        with pytest.raises(DecryptionError, match="another user"):
            bob.get_conversation(target)


class Counted:
    def __init__(self) -> None:
        self.totals: dict[str, int] = {}
        self.done: dict[str, int] = {}

    def start(self, task: str, total: int) -> None:
        self.totals[task] = total
        self.done[task] = 0

    def advance(self, task: str, done: int) -> None:
        self.done[task] += done


def test_rotation_reencrypts_every_row_and_the_old_key_alone_then_fails(
    base: Settings, embedder: Embedder
) -> None:
    with AgentMemory("alice", settings=base, embedder=embedder) as memory:
        plain_conversation = populate(memory)  # written before encryption was switched on
    with AgentMemory("alice", settings=with_keys(base, KEY_A), embedder=embedder) as memory:
        conversation = populate(memory)
    rotated = with_keys(base, KEY_B, [KEY_A])
    progress = Counted()
    report = rekey(rotated, batch=2, progress=progress)
    assert {f"ledger {table}": rows for table, rows in report.rows.items()} == progress.done
    assert progress.done == progress.totals
    assert report.rows["tool_invocations"] == 2
    raw = raw_rows(rotated)
    assert SECRET not in raw
    assert key_id(parse_key(KEY_A)) not in raw
    # The graph's and Redis' copies: both conversations' turns and tool calls, plain ones too.
    assert report.copies == {"graph Turn": 4, "graph ToolInvocation": 2, "redis turns": 4}
    again = rekey(rotated, batch=2)
    assert set(again.rows.values()) == set(again.copies.values()) == {0}  # a rerun finds nothing left
    with AgentMemory("alice", settings=with_keys(base, KEY_B), embedder=embedder) as memory:
        check_api(memory, conversation)
        cached = memory.working(conversation).get_recent_turns(2)
        assert [turn.metadata for turn in cached] == [{"speaker": "Ann", "token": SECRET}, {"note": SECRET}]
        assert memory.get_conversation(plain_conversation)[0].metadata["token"] == SECRET
    with (
        AgentMemory("alice", settings=with_keys(base, KEY_A), embedder=embedder) as memory,
        pytest.raises(EncryptionKeyError, match="rotate-key"),
    ):
        memory.get_conversation(conversation)


def test_export_import_round_trips_into_an_encrypted_store(
    base: Settings, endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> None:
    with AgentMemory("alice", settings=with_keys(base, KEY_A), embedder=embedder) as memory:
        conversation = populate(memory)
        dump = memory.export_user()
    assert SECRET in json.dumps(dump, default=str)  # the owner's export is plain
    target = with_keys(isolated_settings(endpoints, data_dir), KEY_B)
    try:
        with AgentMemory("alice", settings=target, embedder=embedder) as memory:
            memory.import_user(dump)
            check_api(memory, conversation)
        assert SECRET not in raw_rows(target)
    finally:
        cleanup(target, endpoints)


def test_settings_refuse_a_malformed_key(base: Settings) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        with_keys(base, base64.b64encode(b"short").decode())
    with pytest.raises(ValueError, match="base64"):
        with_keys(base, "not base64 at all!")


def test_rotate_key_command_reports_and_refuses_without_a_key(base: Settings, embedder: Embedder) -> None:
    from typer.testing import CliRunner

    from agentx_memory.cli import app
    from tests.settings_env import env_of

    with AgentMemory("alice", settings=with_keys(base, KEY_A), embedder=embedder) as memory:
        populate(memory)
    runner = CliRunner()
    refused = runner.invoke(app, ["rotate-key"], env=env_of(base))
    assert refused.exit_code != 0
    assert "AGENTX_SECURITY__ENCRYPTION_KEY" in refused.output
    env = {
        **env_of(base),
        "AGENTX_SECURITY__ENCRYPTION_KEY": KEY_B,
        "AGENTX_SECURITY__OLD_ENCRYPTION_KEYS": json.dumps([KEY_A]),
    }
    done = runner.invoke(app, ["rotate-key", "--batch", "3"], env=env)
    assert done.exit_code == 0, done.output
    assert f"under key {key_id(parse_key(KEY_B))}" in done.stdout
    assert key_id(parse_key(KEY_A)) not in raw_rows(base)
