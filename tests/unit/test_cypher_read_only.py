"""Which statements are reads: FalkorDB sends them as GRAPH.RO_QUERY (a write sent that way is refused),
Neo4j routes them to readers."""

from __future__ import annotations

import pytest

from agentx_memory.stores.cypher import Dialect, is_read_only, load_queries


@pytest.mark.parametrize(
    ("statement", "read_only"),
    [
        ("MATCH (n:Fact {user_id: $user_id}) RETURN n.id AS id", True),
        ("// a comment that says SET and CREATE\nMATCH (n) RETURN count(n) AS n", True),
        ("MATCH (n) SET n.access_count = 1 RETURN n.id AS id", False),
        ("MERGE (n:Tool {key: $key}) RETURN n.key AS key", False),
        ("MATCH (n) DETACH DELETE n", False),
        ("MATCH (n) REMOVE n.x RETURN 1 AS one", False),
        ("CALL db.idx.fulltext.createNodeIndex('Fact', 'claim')", False),
        (
            "CALL db.idx.vector.queryNodes('Fact', 'embedding', 5, vecf32($v)) YIELD node RETURN node.id",
            True,
        ),
    ],
)
def test_read_only_classification(statement: str, read_only: bool) -> None:
    assert is_read_only(statement) is read_only


@pytest.mark.parametrize("dialect", ["falkordb", "neo4j"])
def test_every_write_statement_is_sent_as_a_write(dialect: Dialect) -> None:
    queries = load_queries(dialect)
    writes = {name for name, text in queries.items() if not is_read_only(text)}
    for name in ("create_turn", "confirm_fact", "merge_entity", "delete_user_graph"):
        assert name in writes
    assert "recall_candidates" not in writes
    assert "expand_entities" not in writes


def test_the_neo4j_drop_statement_is_a_write() -> None:
    assert not is_read_only(load_queries("neo4j")["admin_drop_graph"])
