"""Shared fixtures: one set of real embedded servers per test session, an isolated namespace per test.

Isolation: each test gets its own Postgres schema, FalkorDB graph and Redis key prefix on the session's
servers, dropped after it by a background thread. A test that opens a facade in setup gets them
migrated ahead by another, or a finished test's schema emptied back to exactly its migrated state and
renamed (tests/namespaces.py, tests/recycling.py). Nothing here fakes a store.
"""

from __future__ import annotations

import asyncio
import signal
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest

from agentx_memory import AgentMemory, AsyncAgentMemory, Settings
from agentx_memory.embedded import ResolvedEndpoints, resolve_endpoints
from agentx_memory.embedded._common import data_paths, read_pid, terminate
from agentx_memory.embedding import Embedder, LocalOnnxEmbedder
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.postgres import PostgresStore
from tests.embedding_stub import EmbeddingStub
from tests.flavours import FLAVOURS, EventLoopThread, as_sync, on_this_loop
from tests.llm_cases import PROVIDERS, Provider
from tests.llm_stub import LLMStub
from tests.namespaces import DeferredDrops, PreparedNamespaces, drop_graph_and_keys, drop_schema


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``make test``), the test files marked ``long`` come first. Each worker takes
    whole files in collection order (``--dist loadfile --no-loadscope-reorder``), so a long file handed
    out last keeps one worker busy while the others have nothing left: the 30 s soak did that. Every
    worker sorts its collection the same way (xdist checks they are identical); a serial run keeps
    pytest's order."""
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.fixture(scope="session")
def data_dir() -> Iterator[Path]:
    # A short path: unix socket paths are limited to 107 bytes.
    with tempfile.TemporaryDirectory(prefix="agx-", dir="/tmp") as directory:
        yield Path(directory)


@pytest.fixture(scope="session")
def endpoints(data_dir: Path) -> Iterator[ResolvedEndpoints]:
    """The session's embedded servers (started once, discarded at the end)."""
    settings = Settings(data_dir=data_dir)
    resolved = resolve_endpoints(settings)
    skip_fsync(resolved.postgres_url)
    yield resolved
    discard_servers(settings)


def skip_fsync(postgres_url: str) -> None:
    """``fsync = off`` on the session's Postgres: its data directory is deleted at the end, so it need not
    survive an OS crash, and a commit no longer waits for the disk (a one-row write took 1.7 ms with the
    wait, 0.1 ms without, on this 2-core VM). Each commit still writes its WAL to the kernel before it
    returns, so a killed server loses nothing it acknowledged (the fault tests run on servers of their
    own with the defaults anyway). ``ALTER SYSTEM`` keeps it across restarts of the same data dir."""
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET fsync = off")
        conn.execute("SELECT pg_reload_conf()")


def discard_servers(settings: Settings) -> None:
    """Stop throw-away servers without the work of a planned stop (``embedded.stop``): FalkorDB's
    append-only rewrite and Postgres's shutdown checkpoint only keep data that the removal of the
    temporary data directory deletes next, and after a whole suite the checkpoint took 3 s (serial)
    to 21 s (an xdist worker). SIGQUIT is Postgres's immediate shutdown (``pg_ctl stop -m immediate``);
    SIGTERM is FalkorDB's ordinary one, without the rewrite before it."""
    paths = data_paths(settings)
    for pidfile, name, sig in (
        (paths.pgdata / "postmaster.pid", "postgres", signal.SIGQUIT),
        (paths.falkordb_pidfile, "redis-server", signal.SIGTERM),
    ):
        pid = read_pid(pidfile)
        if pid is not None:
            assert terminate(pid, name, sig, timeout_s=30), f"{name} (pid {pid}) is still running"


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return LocalOnnxEmbedder(threads=2)


def isolated_settings(endpoints: ResolvedEndpoints, data_dir: Path, **overrides: object) -> Settings:
    """Settings pointing at the session servers with a fresh schema / graph / key prefix."""
    suffix = uuid.uuid4().hex[:12]
    values: dict[str, object] = {
        "data_dir": data_dir,
        # One audit partition ahead, not 7: each daily partition of the audit table (and its indexes)
        # was ~3 ms of a namespace's ~90 ms migration, paid by most tests; the partition tests read
        # the setting, and one day ahead takes the same code path as seven.
        "postgres": {
            "url": endpoints.postgres_url,
            "schema": f"t_{suffix}",
            "pool_max": 12,
            "partitions_ahead_days": 1,
        },
        "graph": {"falkordb_url": endpoints.falkordb_url, "name": f"g_{suffix}"},
        "redis": {"url": endpoints.redis_url, "key_prefix": f"t{suffix}"},
        # Off unless a test is about it: background runs would race the other tests' assertions.
        "learning": {"auto_consolidate": False},
    }
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(values.get(key), dict):
            values[key] = {**values[key], **value}  # type: ignore[dict-item]
        else:
            values[key] = value
    return Settings.model_validate(values)


@pytest.fixture(scope="session")
def namespaces(endpoints: ResolvedEndpoints, data_dir: Path) -> Iterator[PreparedNamespaces]:
    """Namespaces migrated ahead for the session embedder's shape (``LocalOnnxEmbedder``)."""
    shape = LocalOnnxEmbedder()  # no model is loaded for its id and dimension
    prepared = PreparedNamespaces(
        endpoints,
        lambda: isolated_settings(endpoints, data_dir),
        lambda chosen: cleanup(chosen, endpoints),
        dimensions=shape.dimensions,
        model_id=shape.model_id,
    )
    yield prepared
    prepared.close()


#: The fixtures that open a facade on ``settings`` in the test's setup, migrating its namespace there.
_OPENS_A_FACADE = frozenset({"memory", "amemory", "loose_amemory"})


@pytest.fixture
def settings(
    request: pytest.FixtureRequest, endpoints: ResolvedEndpoints, data_dir: Path, drops: DeferredDrops
) -> Iterator[Settings]:
    """A fresh namespace; migrated ahead (tests/namespaces.py) when the test's facade would migrate it in
    setup with an embedder of the same shape, since the facade then finds it as it would have left it.
    Such a namespace is given back after the test and may be emptied for a later one, under new names,
    only when it then reads exactly as after its migration (tests/recycling.py). Other tests get it
    untouched: they may migrate it themselves, with another embedder or the CLI."""
    if _OPENS_A_FACADE & set(request.fixturenames):
        prepared: PreparedNamespaces = request.getfixturevalue("namespaces")
        embedder: Embedder = request.getfixturevalue("embedder")
        if (embedder.dimensions, embedder.model_id) == (prepared.dimensions, prepared.model_id):
            taken = prepared.take()
            yield taken
            prepared.give_back(taken)
            return
    chosen = isolated_settings(endpoints, data_dir)
    yield chosen
    drops.drop(chosen)


@pytest.fixture(scope="session")
def drops(endpoints: ResolvedEndpoints) -> Iterator[DeferredDrops]:
    """Where ``settings`` leaves its namespace to be dropped (DROP SCHEMA alone took ~25 ms a test)."""
    deferred = DeferredDrops(lambda chosen: cleanup(chosen, endpoints))
    yield deferred
    deferred.close()


def cleanup(settings: Settings, endpoints: ResolvedEndpoints) -> None:
    """Drop the test's schema, graph and keys."""
    drop_graph_and_keys(settings, endpoints)
    with psycopg.connect(endpoints.postgres_url, autocommit=True) as conn:
        drop_schema(conn, settings.postgres.schema_name)


@pytest.fixture
def stub() -> Iterator[LLMStub]:
    """A local HTTP stub of the OpenAI and Anthropic APIs (the real SDKs talk to it)."""
    server = LLMStub()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def embedding_stub() -> Iterator[EmbeddingStub]:
    """A local HTTP stub of OpenAI's ``/v1/embeddings`` (the real SDK talks to it)."""
    server = EmbeddingStub()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=PROVIDERS, ids=lambda provider: provider.name)
def provider(request: pytest.FixtureRequest) -> Provider:
    """Each LLM provider in turn (tests/llm_cases.py): the port's contract holds for both."""
    chosen: Provider = request.param
    return chosen


@pytest.fixture
def llm_memory(
    request: pytest.FixtureRequest,
    stub: LLMStub,
    endpoints: ResolvedEndpoints,
    data_dir: Path,
    embedder: Embedder,
) -> Iterator[AgentMemory]:
    """A sync facade for ``alice`` with an LLM: the stub's OpenAI API, or its Anthropic one when
    parametrised ``indirect`` with ``"anthropic"``."""
    provider = getattr(request, "param", "openai")
    url = stub.openai_url if provider == "openai" else stub.anthropic_url
    llm = {"provider": provider, "api_key": "test", "base_url": url, "max_retries": 0, "timeout_s": 5}
    chosen = isolated_settings(endpoints, data_dir, llm=llm)
    try:
        with AgentMemory("alice", settings=chosen, embedder=embedder) as mem:
            yield mem
    finally:
        cleanup(chosen, endpoints)


@pytest.fixture(scope="session")
def event_loop_thread() -> Iterator[EventLoopThread]:
    """The loop the async flavour runs on (one for the session, like an application's)."""
    loop = EventLoopThread()
    yield loop
    loop.close()


@pytest.fixture(params=FLAVOURS)
def flavour(request: pytest.FixtureRequest) -> str:
    """``sync`` (the generated twins) or ``async`` (the async source, through tests/flavours.py)."""
    chosen: str = request.param
    return chosen


@pytest.fixture
def memory(
    settings: Settings, embedder: Embedder, flavour: str, event_loop_thread: EventLoopThread
) -> Iterator[AgentMemory]:
    """A facade for user ``alice`` in ``_global``, in both flavours: the sync ``AgentMemory``, and
    ``AsyncAgentMemory`` driven through the synchronous proxy (the same tests run the async source)."""
    if flavour == "async":
        source = AsyncAgentMemory(user_id="alice", settings=settings, embedder=embedder)
        with as_sync(source, event_loop_thread, AgentMemory) as proxied:
            yield proxied
        return
    with AgentMemory(user_id="alice", settings=settings, embedder=embedder) as mem:
        yield mem


@pytest.fixture
async def amemory(settings: Settings, embedder: Embedder) -> AsyncIterator[AsyncAgentMemory]:
    """An async facade for user ``alice`` in ``_global``, living on the test's loop (as on an
    application's one loop), so that a test may reach past it into its stores. (The ``memory``
    fixture's async flavour runs the facade on a thread of its own, as with ``asyncio.run``.)"""
    async with on_this_loop(AsyncAgentMemory(user_id="alice", settings=settings, embedder=embedder)) as mem:
        yield mem


@pytest.fixture
def loose_amemory(settings: Settings, embedder: Embedder) -> Iterator[AsyncAgentMemory]:
    """An async facade for ``alice`` that no loop owns (a plain test drives it from loops of its own,
    ``asyncio.run`` after ``asyncio.run``, as applications do)."""
    mem = AsyncAgentMemory(user_id="alice", settings=settings, embedder=embedder)
    yield mem
    asyncio.run(mem.close())


@pytest.fixture
def graph(settings: Settings, endpoints: ResolvedEndpoints, memory: AgentMemory) -> Iterator[FalkorDBStore]:
    """Direct access to the test's graph (after the facade created its schema)."""
    store = FalkorDBStore(endpoints.falkordb_url or "", settings.graph.name)
    yield store
    store.close()


@pytest.fixture
def ledger(settings: Settings, memory: AgentMemory) -> Iterator[PostgresStore]:
    """Direct access to the test's Postgres schema (after the facade migrated it)."""
    store = PostgresStore.connect(
        settings.postgres.url or "",
        settings.postgres,
        embedding_dim=384,
        embedding_model=LocalOnnxEmbedder().model_id,
    )
    yield store
    store.close()
