"""Secrets never leave the library: a session with a recognisable LLM key, embedding key, Neo4j password
and Postgres URL password (store, recall, context, consolidation with the LLM stub, an LLM failure, bad
input, unreachable stores, a maintenance job) writes none of them to the logs, the audit rows, the job
runs, Redis, an exception message or a ``repr``. With an encryption key, a sensitive metadata or tool
value is in none of the stores' files on disk."""

from __future__ import annotations

import base64
import json
import logging
import os
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from agentx_memory import AgentMemory, Settings
from agentx_memory.audit_policy import config_snapshot
from agentx_memory.embedded import ResolvedEndpoints, resolve_endpoints, stop
from agentx_memory.embedded._common import data_paths
from agentx_memory.embedding import Embedder
from agentx_memory.errors import AgentMemoryError
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.redact import redact_text
from agentx_memory.stores.redis import RedisStore
from tests.conftest import cleanup, isolated_settings
from tests.integration.test_learning import ANSWER as EXTRACTION
from tests.llm_stub import LLMStub

LLM_KEY = "sk-agentx-SECRET-llm-7f3a9c1e5b"
EMBED_KEY = "sk-agentx-SECRET-embed-0a1b2c3d"
PG_PASSWORD = "pgSECRET91d2"
NEO4J_PASSWORD = "neo4jSECRET44"
REDIS_PASSWORD = "redisSECRET77"
SECRETS = (LLM_KEY, EMBED_KEY, PG_PASSWORD, NEO4J_PASSWORD, REDIS_PASSWORD)


def with_password(url: str, password: str) -> str:
    """``postgresql://postgres@/…`` with ``password`` added (the embedded server trusts local users)."""
    return url.replace("postgresql://postgres@", f"postgresql://postgres:{password}@", 1)


@pytest.fixture
def secret_settings(stub: LLMStub, endpoints: ResolvedEndpoints, data_dir: Path) -> Iterator[Settings]:
    llm = {"provider": "openai", "api_key": LLM_KEY, "base_url": stub.openai_url, "max_retries": 0}
    chosen = isolated_settings(
        endpoints,
        data_dir,
        llm={**llm, "timeout_s": 5},
        postgres={"url": with_password(endpoints.postgres_url, PG_PASSWORD)},
        graph={"neo4j_password": NEO4J_PASSWORD, "neo4j_uri": f"bolt://neo4j:{NEO4J_PASSWORD}@nowhere:1"},
        embedding={"openai_api_key": EMBED_KEY},
        audit={"level": "verbose"},
    )
    yield chosen
    cleanup(chosen, endpoints)


def session(mem: AgentMemory, stub: LLMStub) -> list[str]:
    """Every kind of call, good and bad; returns the failures' messages."""
    failures: list[str] = []
    conversation = mem.new_conversation(title="secrets")
    for text in ("My friend Leo loves jazz.", "He plays the saxophone every Sunday."):
        mem.store_turn(conversation, "user", text)
    mem.learn_fact("Leo loves jazz", confidence=0.9, source="user")
    mem.remember("what does Leo like?")
    mem.get_context("what does Leo like?", conversation_id=conversation)
    stub.script(EXTRACTION)
    mem.consolidate_conversation(conversation)
    other = mem.new_conversation()
    mem.store_turn(other, "user", "My sister Maya lives in Osaka and loves kaiseki.")
    stub.fail(401)
    stub.fail(500, times=2)
    failures.append(mem.consolidate_conversation(other).model_dump_json())
    for bad in (lambda: mem.store_turn("not-a-uuid", "user", "x"), lambda: mem.remember("")):
        try:
            bad()
        except AgentMemoryError as exc:
            failures.append(f"{exc!r} {exc}")
    failures.append(run_job(mem, JOBS["decay"]).model_dump_json())
    failures.append(run_job(mem, JOBS["consolidate"]).model_dump_json())
    return failures


def unreachable(settings: Settings, embedder: Embedder) -> list[str]:
    """Stores that cannot be reached, their URLs carrying passwords."""
    messages: list[str] = []
    dead_pg = f"postgresql://app:{PG_PASSWORD}@127.0.0.1:1/agentx?connect_timeout=1"
    dead_redis = f"redis://:{REDIS_PASSWORD}@127.0.0.1:1/0"
    for update in ({"postgres": settings.postgres.model_copy(update={"url": dead_pg})},
                   {"redis": settings.redis.model_copy(update={"url": dead_redis})}):  # fmt: skip
        broken = settings.model_copy(update=update)
        messages.append(repr(broken))
        try:
            with AgentMemory("alice", settings=broken, embedder=embedder) as mem:
                mem.new_conversation()
        except AgentMemoryError as exc:
            messages.append(f"{exc!r} {exc} {exc.__cause__}")
    return messages


def stored_rows(settings: Settings) -> list[str]:
    """Every row of the audit log and of the job runs, as JSON."""
    rows: list[str] = []
    with psycopg.connect(settings.postgres.url or "", autocommit=True) as conn:
        for table in ("memory_audit_log", "maintenance_runs"):
            query = sql.SQL("SELECT row_to_json(t)::text FROM {}.{} t").format(
                sql.Identifier(settings.postgres.schema_name), sql.Identifier(table)
            )
            rows.extend(row[0] for row in conn.execute(query))
    return rows


def redis_values(settings: Settings, endpoints: ResolvedEndpoints) -> list[str]:
    """Every key under the test's prefix with its value, whatever its type."""
    store = RedisStore(endpoints.redis_url)
    try:
        client = store._client  # reading raw values is the point here
        dumped: list[str] = []
        for key in client.scan_iter(f"{settings.redis.key_prefix}:*"):
            kind = str(client.type(key))
            value: object = None
            if kind == "string":
                value = client.get(key)
            elif kind == "list":
                value = client.lrange(key, 0, -1)
            elif kind == "hash":
                value = client.hgetall(key)
            elif kind == "set":
                value = client.smembers(key)
            elif kind == "zset":
                value = client.zrange(key, 0, -1)
            dumped.append(f"{key} {value!r}")
        return dumped
    finally:
        store.close()


def test_no_secret_is_written_anywhere(
    secret_settings: Settings,
    stub: LLMStub,
    endpoints: ResolvedEndpoints,
    embedder: Embedder,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    with AgentMemory("alice", settings=secret_settings, embedder=embedder) as mem:
        messages = session(mem, stub)
        messages += [repr(mem), repr(mem.settings), str(mem.settings), repr(mem._backends)]
    messages += unreachable(secret_settings, embedder)
    rows = stored_rows(secret_settings)
    written = {
        "logs": caplog.text,
        "audit and job rows": "\n".join(rows),
        "config_snapshot": json.dumps(config_snapshot(secret_settings)),
        "redis": "\n".join(redis_values(secret_settings, endpoints)),
        "errors and reprs": "\n".join(messages),
    }
    assert len(rows) > 10, "the session wrote audit rows and job runs"
    assert any(request.authorization == f"Bearer {LLM_KEY}" for request in stub.requests)
    for where, text in written.items():
        for secret in SECRETS:
            assert secret not in text, f"{secret} found in {where}"


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("postgresql://app:s3cret@db:5432/agentx", "s3cret"),
        ("redis://:s3cret@cache:6379/0", "s3cret"),
        ("rediss://default:s3cret@cache/0", "s3cret"),
        ("bolt+s://neo4j:s3cret@graph:7687", "s3cret"),
        ("host=db password=s3cret dbname=agentx", "s3cret"),
        ("postgresql:///agentx?host=/tmp&password=s3cret", "s3cret"),
        ("https://proxy/v1?api_key=s3cret&x=1", "s3cret"),
        ("Authorization: Bearer s3cret-token", "s3cret-token"),
        ("Incorrect API key provided: sk-proj-abcdefghijklmnop", "sk-proj-abcdefghijklmnop"),
    ],
)
def test_redact_text_hides_passwords_and_keys(text: str, hidden: str) -> None:
    assert hidden not in redact_text(text)
    assert "***" in redact_text(text)


def _files_holding(root: Path, needle: bytes) -> list[str]:
    """Every regular file under ``root`` whose bytes contain ``needle`` (the servers' own files)."""
    found: list[str] = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            try:
                if needle in path.read_bytes():
                    found.append(str(path.relative_to(root)))
            except OSError:  # a file the server removed meanwhile (a rotated WAL segment)
                continue
    return found


@pytest.fixture
def own_servers() -> Iterator[Path]:
    """Embedded servers of this test alone: their files hold nothing but what it wrote."""
    with tempfile.TemporaryDirectory(prefix="agx-disk-", dir="/tmp") as directory:
        yield Path(directory)
        stop(Settings(data_dir=Path(directory)))


def test_with_a_key_no_store_file_on_disk_holds_a_sensitive_value(
    own_servers: Path, embedder: Embedder
) -> None:
    """Turn and conversation metadata, tool inputs and outputs and audit payloads: each copy in Postgres
    (heap and WAL), the graph and Redis (FalkorDB's append-only file) is sealed, so the value is in no
    file. Turn content is plain by design: finding it in both servers' files shows the files were read
    after the writes reached them."""
    sensitive = f"SENSITIVE-{uuid.uuid4().hex}"
    content = f"CONTENT-{uuid.uuid4().hex}"
    key = base64.b64encode(os.urandom(32)).decode()
    settings = Settings(
        data_dir=own_servers,
        audit={"level": "verbose"},
        security={"encryption_key": key},
        learning={"auto_consolidate": False},
    )
    with AgentMemory("alice", settings=settings, embedder=embedder) as mem:
        conversation = mem.new_conversation(metadata={"ticket": sensitive})
        mem.store_turn(conversation, "user", content, metadata={"speaker": "Ann", "token": sensitive})
        mem.store_turns(conversation, [{"role": "assistant", "content": "ok", "metadata": {"n": sensitive}}])
        mem.record_invocation(
            conversation, 1, "deploy", {"password": sensitive}, {"echo": sensitive}, True, 2
        )
        assert mem.get_conversation(conversation)[0].metadata["token"] == sensitive  # the API opens it
        assert mem.working(conversation).get_recent_turns(1)[0].metadata == {"n": sensitive}
    with psycopg.connect(_postgres_url(settings), autocommit=True) as conn:
        conn.execute("CHECKPOINT")  # heap pages to disk too, not only the WAL
    paths = data_paths(settings)
    for root in (paths.pgdata, paths.falkordb_dir):
        deadline = time.monotonic() + 10
        while not _files_holding(root, content.encode()) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _files_holding(root, content.encode()), f"the written turn never reached {root}"
        assert _files_holding(root, sensitive.encode()) == [], f"{sensitive} found under {root}"


def _postgres_url(settings: Settings) -> str:
    return resolve_endpoints(settings).postgres_url
