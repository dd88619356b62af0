"""Named-statement parsing, array literals and the async→sync transform (pure text handling)."""

from __future__ import annotations

import ast
import textwrap

import pytest
from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH

from agentx_memory.errors import StoreError
from agentx_memory.stores.cypher import load_queries
from agentx_memory.stores.named import parse_named
from agentx_memory.stores.sql import array_literal, load_sql
from tests.payloads import INJECTIONS
from tools.async_to_sync import pairs, unasync_source

# ------------------------------------------------------------------------------------------ parse_named


def test_parses_cypher_statements_in_order() -> None:
    text = textwrap.dedent(
        """\
        // A file comment before the first header is fine.

        // name: first
        MATCH (n {user_id: $user_id})
        RETURN n

        //name:second
        RETURN 1
        """
    )
    assert parse_named(text, "x.cypher", "//") == {
        "first": "MATCH (n {user_id: $user_id})\nRETURN n",
        "second": "RETURN 1",
    }


def test_parses_sql_statements() -> None:
    text = "-- name: one\nSELECT 1\n-- name: two_2\nSELECT %(x)s\n"
    assert parse_named(text, "x.sql", "--") == {"one": "SELECT 1", "two_2": "SELECT %(x)s"}


def test_empty_text_has_no_statements() -> None:
    assert parse_named("", "x.cypher", "//") == {}
    assert parse_named("  \n\n", "x.sql", "--") == {}


def test_duplicate_names_raise() -> None:
    with pytest.raises(ValueError, match=r"x\.cypher: statement 'a' is defined twice"):
        parse_named("// name: a\nRETURN 1\n// name: a\nRETURN 2\n", "x.cypher", "//")


def test_text_without_any_header_raises() -> None:
    with pytest.raises(ValueError, match=r"x\.sql: no '-- name: …' header"):
        parse_named("SELECT 1\n", "x.sql", "--")


def test_statement_before_the_first_header_raises() -> None:
    with pytest.raises(ValueError, match="header"):
        parse_named("MATCH (n) DETACH DELETE n\n// name: a\nRETURN 1\n", "x.cypher", "//")


def test_empty_statement_raises() -> None:
    with pytest.raises(ValueError, match="statement 'a' is empty"):
        parse_named("// name: a\n\n   \n// name: b\nRETURN 1\n", "x.cypher", "//")
    with pytest.raises(ValueError, match="statement 'last' is empty"):
        parse_named("-- name: last\n", "x.sql", "--")


def test_the_other_dialects_marker_is_not_a_header() -> None:
    with pytest.raises(ValueError, match="no '// name: …' header"):
        parse_named("-- name: a\nRETURN 1\n", "x.cypher", "//")


def test_shipped_statement_files_parse() -> None:
    for dialect in ("falkordb", "neo4j"):
        queries = load_queries(dialect)
        assert {"create_turn", "create_turns", "ensure_conversation", "vector_search_fact"} <= set(queries)
        assert "vector_search_turn" not in queries  # turns are searched in the ledger
    assert {"append_turn", "append_turns", "get_turn_at", "list_turns", "insert_audit"} <= set(load_sql())


def test_statements_go_without_their_comment_lines() -> None:
    """psycopg converts a statement's text once and caches it only up to MAX_CACHED_STATEMENT_LENGTH
    bytes: the statements of every recall fit without their comments, which stay in the .sql files."""
    statements = load_sql()
    assert not any(
        line.lstrip().startswith("--") for body in statements.values() for line in body.splitlines()
    )
    recall = (
        "lexical_search_turns",
        "recall_vector_turns",
        "turn_neighbours",
        "turns_by_id",
        "document_recall",
    )
    assert all(len(statements[name].encode()) <= MAX_CACHED_STATEMENT_LENGTH for name in recall)
    assert "set_config('synchronous_commit', 'off', true)" in statements["mark_turn_synced"]


# ------------------------------------------------------------------------------------------ unasync


SNIPPET = textwrap.dedent(
    '''\
    """AsyncThing docs: see AsyncThing.run and AsyncioFoo."""
    import asyncio
    import redis.asyncio
    from falkordb.asyncio import FalkorDB
    from contextlib import asynccontextmanager
    from ._compat.aio import Lock, to_thread
    from .stores.graph_async import AsyncGraphStore
    from .memory import working_async


    class AsyncThing:
        # AsyncThing wraps an AsyncGraphStore
        def __init__(self, graph: AsyncGraphStore) -> None:
            self.graph = graph

        async def __aenter__(self) -> "AsyncThing":
            return self

        async def __aexit__(self, *args: object) -> None:
            await self.graph.aclose()

        @asynccontextmanager
        async def run_async(self, client: redis.asyncio.Redis) -> None:
            async with self.graph.lock() as held:
                async for row in held:
                    await asyncio.sleep(0)
            value = await to_thread(len, "await async")
            yield "AsyncThing: async with"
    '''
)


def _converted() -> str:
    return unasync_source(SNIPPET, "pkg/thing_async.py")


def test_unasync_header_names_the_source() -> None:
    lines = _converted().splitlines()
    assert lines[0] == "# Generated from pkg/thing_async.py by tools/async_to_sync.py."
    assert lines[1] == "# Edit the source, not this file."


def test_unasync_rewrites_code() -> None:
    out = _converted()
    tree = ast.parse(out)  # still valid Python, and none of it async
    async_nodes = (ast.AsyncFunctionDef, ast.AsyncWith, ast.AsyncFor, ast.Await)
    assert [type(node).__name__ for node in ast.walk(tree) if isinstance(node, async_nodes)] == []
    assert len([node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]) == 4
    assert '    def __enter__(self) -> "Thing":' in out
    assert "    def __exit__(self, *args: object) -> None:" in out
    assert "self.graph.close()" in out
    assert "class Thing:" in out
    assert "def run(self, client: redis.Redis) -> None:" in out
    assert "with self.graph.lock() as held:" in out
    assert "for row in held:" in out
    assert "asyncio.sleep(0)" in out  # the stdlib module keeps its name
    assert "import asyncio\n" in out
    assert "import redis\n" in out
    assert "from falkordb import FalkorDB" in out
    assert "from contextlib import contextmanager" in out
    assert "@contextmanager" in out
    assert "from ._compat.sync import Lock, to_thread" in out
    assert "from .stores.graph import GraphStore" in out
    assert "from .memory import working\n" in out
    assert "def __init__(self, graph: GraphStore) -> None:" in out


def test_unasync_renames_in_strings_and_comments_only_async_names() -> None:
    out = _converted()
    assert "Thing docs: see Thing.run and AsyncioFoo. Generated from ``pkg/thing_async.py``" in out
    assert "# Thing wraps an GraphStore" in out
    assert '"await async"' in out  # plain words inside strings are data, not syntax
    assert '"Thing: async with"' in out


def test_unasync_renames_in_multi_line_docstrings() -> None:
    out = unasync_source('"""AsyncThing is the facade.\n\nUse AsyncThing.open().\n"""\n', "m_async.py")
    assert "AsyncThing" not in out
    assert "Thing is the facade." in out


def test_unasync_keeps_line_count_and_unrelated_code() -> None:
    source = "x = 1  # plain\nasync def f() -> int:\n    return await g()\n"
    out = unasync_source(source, "m_async.py")
    assert out.splitlines()[2:] == ["x = 1  # plain", "def f() -> int:", "    return g()"]


@pytest.mark.parametrize(
    ("values", "literal"),
    [
        ([], "{}"),
        ([3, 0, 12], "{3,0,12}"),
        (["0450d480-59d2-4d38-8d5f-9ea38ebf6072"], "{0450d480-59d2-4d38-8d5f-9ea38ebf6072}"),
    ],
)
def test_array_literal_of_plain_ids(values: list[str | int], literal: str) -> None:
    assert array_literal(values) == literal


@pytest.mark.parametrize(
    "bad", [*INJECTIONS, "a b", "a}b", "a{b", '"a"', "a\\b", "", "NULL", "null", "xNuLlx", "\u212a", "\u017f"]
)
def test_array_literal_refuses_anything_postgres_would_read_as_array_syntax(bad: str) -> None:
    with pytest.raises(StoreError, match="plain ids"):
        array_literal(["0450d480-59d2-4d38-8d5f-9ea38ebf6072", bad])


@pytest.mark.parametrize(
    "docstring",
    [
        '"""Facts over the graph. Async source of ``memory/facts.py``.\n\nMore text.\n"""',
        '"""Facts over the graph. Source of ``memory/facts.py`` (``Facts``).\n\nMore text.\n"""',
        '"""Facts over the graph.\n\nThis file is the async source; ``memory/facts.py`` is generated '
        "from it by\n"
        '``tools/async_to_sync.py``. More text.\n"""',
        '"""Facts over the graph.\n\nMore text.\n"""',
    ],
)
def test_the_twin_docstring_says_it_is_generated(docstring: str) -> None:
    out = unasync_source(docstring + "\n\nX = 1\n", "agentx_memory/memory/facts_async.py")
    text = ast.get_docstring(ast.parse(out)) or ""
    assert "Generated from ``memory/facts_async.py``: edit that file." in " ".join(text.split())
    assert "source of" not in text.lower()
    assert "async source" not in text.lower()
    assert "More text." in text


def test_every_generated_module_says_it_is_generated() -> None:
    for _source, target in pairs():
        text = ast.get_docstring(ast.parse(target.read_text(encoding="utf-8"))) or ""
        assert "Generated from ``" in " ".join(text.split()), target
        assert "async source" not in text.lower(), target
