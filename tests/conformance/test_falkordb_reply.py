"""The compact-reply parser gives exactly what falkordb-py's parser gives, on a live FalkorDB."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from falkordb.graph import Graph
from falkordb.query_result import QueryResult

from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.errors import StoreError
from agentx_memory.stores.falkordb_reply import parse_compact

_EVERY_SCALAR = """
RETURN 'text' AS s, 'ünïcode ✓' AS u, 42 AS i, -7 AS neg, 2.5 AS d, true AS t, false AS f, null AS n,
       [1, 'two', 3.0, null, [true]] AS arr, {a: 1, b: {c: 'd', e: [1, 2]}, f: null} AS m, [] AS empty,
       vecf32([0.25, -1.5]) AS v
"""


def _run(client: redis.Redis, *command: str) -> list[Any]:
    reply: list[Any] = client.execute_command(*command)  # type: ignore[no-untyped-call]
    return reply


@pytest.fixture
def graph(endpoints: ResolvedEndpoints) -> Iterator[tuple[redis.Redis, Graph]]:
    client = redis.Redis.from_url(endpoints.falkordb_url or endpoints.redis_url, decode_responses=True)
    name = "agentx_reply_parser_test"
    try:
        yield client, Graph(client, name)
    finally:
        if client.exists(name):
            _run(client, "GRAPH.DELETE", name)
        client.close()


def test_scalars_lists_maps_and_vectors_parse_as_the_library_does(graph: tuple[redis.Redis, Graph]) -> None:
    client, library = graph
    response = _run(client, "GRAPH.QUERY", library.name, _EVERY_SCALAR, "--compact")
    names, rows = parse_compact(response)
    expected = QueryResult(library, response)
    assert names == [column[1] for column in expected.header]
    assert rows == expected.result_set
    # Same types too (a map is a dict; the library's OrderedDict is one).
    kinds = [dict if isinstance(value, dict) else type(value) for value in expected.result_set[0]]
    assert [type(value) for value in rows[0]] == kinds
    assert rows[0][names.index("m")] == {"a": 1, "b": {"c": "d", "e": [1, 2]}, "f": None}


def test_nodes_are_refused_and_server_errors_raised(graph: tuple[redis.Redis, Graph]) -> None:
    client, library = graph
    response = _run(client, "GRAPH.QUERY", library.name, "CREATE (n:Probe {x: 1}) RETURN n", "--compact")
    with pytest.raises(StoreError, match="returned a node: project nodes"):
        parse_compact(response)
    statistics_only = _run(client, "GRAPH.QUERY", library.name, "MATCH (n:Nothing) DELETE n", "--compact")
    assert parse_compact(statistics_only) == ([], [])
    with pytest.raises(redis.exceptions.ResponseError):
        parse_compact(_run(client, "GRAPH.QUERY", library.name, "RETURN toInteger({})", "--compact"))
