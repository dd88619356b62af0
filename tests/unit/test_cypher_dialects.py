"""The Cypher dialects without copies: shared statements, dialect fragments filled by the loader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentx_memory.stores.cypher import Dialect, load_queries, render_fragments
from agentx_memory.stores.named import parse_named

_CYPHER = Path(__file__).resolve().parents[2] / "cypher"
_DIALECTS: tuple[Dialect, ...] = ("falkordb", "neo4j")
_FRAGMENTS = {"vector_query": "CALL v('{label}', '{index}')", "ann_cosine": "1 - score"}


def test_a_placeholder_is_filled_with_label_and_index() -> None:
    used: set[str] = set()
    body = "{{vector_query Fact}} RETURN {{ann_cosine}} AS s, {{ vector_query Entity name }}"
    rendered = render_fragments(body, _FRAGMENTS, "test", used)
    assert (
        rendered == "CALL v('Fact', 'fact_embedding') RETURN 1 - score AS s, CALL v('Entity', 'entity_name')"
    )
    assert used == {"vector_query", "ann_cosine"}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("{{nope Fact}}", "unknown fragment 'nope'"),
        ("{{vector_query Person}}", "label 'Person' of fragment 'vector_query' is not in the allow-list"),
        ("{{vector_query Fact claim extra}}", "takes a label and a property at most"),
        ("{{vector_query Fact-1}}", "placeholder is malformed"),
        ("{{Vector_query}}", "placeholder is malformed"),
    ],
)
def test_a_bad_placeholder_is_a_load_error(body: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        render_fragments(body, _FRAGMENTS, "test", set())


def test_cypher_maps_are_not_placeholders() -> None:
    body = "OPTIONS {indexConfig: {`vector.dimensions`: {dimension}}} RETURN n {.id} AS item"
    assert render_fragments(body, _FRAGMENTS, "test", set()) == body


def test_fragment_files_parse_with_their_own_header() -> None:
    parsed = parse_named("// fragment: a\nX\n// fragment: b\nY", "f.cypher", "//", keyword="fragment")
    assert parsed == {"a": "X", "b": "Y"}
    with pytest.raises(ValueError, match="no '// fragment: …' header"):
        parse_named("// name: a\nX", "f.cypher", "//", keyword="fragment")


@pytest.mark.parametrize("dialect", _DIALECTS)
def test_dialect_folders_hold_only_fragments_schema_and_admin(dialect: Dialect) -> None:
    names: list[str] = []
    for path in sorted((_CYPHER / dialect).glob("*.cypher")):
        if path.name == "fragments.cypher":
            continue
        names += parse_named(path.read_text(encoding="utf-8"), str(path), "//")
    assert names
    assert [name for name in names if not name.startswith(("schema_", "admin_"))] == []


@pytest.mark.parametrize("dialect", _DIALECTS)
def test_every_fragment_of_each_dialect_is_defined_and_used(dialect: Dialect) -> None:
    path = _CYPHER / dialect / "fragments.cypher"
    fragments = parse_named(path.read_text(encoding="utf-8"), str(path), "//", keyword="fragment")
    assert sorted(fragments) == ["ann_cosine", "exact_cosine", "fulltext_query", "vector_query"]
    shared = "\n".join(p.read_text(encoding="utf-8") for p in sorted(_CYPHER.glob("*.cypher")))
    for name in fragments:
        assert "{{" + name in shared
    for statement in load_queries(dialect).values():
        assert "{{" not in statement


def _masked(dialect: Dialect, statement: str) -> str:
    """``statement`` with each of the dialect's fragments (as rendered) and FalkorDB's vecf32 masked,
    comments dropped: what must be the same text in both dialects."""
    path = _CYPHER / dialect / "fragments.cypher"
    fragments = parse_named(path.read_text(encoding="utf-8"), str(path), "//", keyword="fragment")
    code = "\n".join(line for line in statement.splitlines() if not line.lstrip().startswith("//"))
    for name, text in fragments.items():
        body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//")).strip()
        pattern = re.escape(body).replace(re.escape("{label}"), r"\w+").replace(re.escape("{index}"), r"\w+")
        code = re.sub(pattern, f"<{name}>", code)
    return re.sub(r"vecf32\(([$\w.]+)\)", r"\1", code)


def test_both_dialects_have_the_same_statement_bodies_but_for_the_fragments() -> None:
    falkordb, neo4j = load_queries("falkordb"), load_queries("neo4j")
    data = sorted(name for name in falkordb if not name.startswith(("schema_", "admin_")))
    assert data == sorted(name for name in neo4j if not name.startswith(("schema_", "admin_")))
    differing = [
        name for name in data if _masked("falkordb", falkordb[name]) != _masked("neo4j", neo4j[name])
    ]
    assert differing == []
    # the masking is not vacuous: the dialects' texts do differ where fragments are
    assert falkordb["recall_candidates"] != neo4j["recall_candidates"]
    assert "<vector_query>" in _masked("neo4j", neo4j["recall_candidates"])


@pytest.mark.parametrize("dialect", ["falkordb", "neo4j"])
def test_every_fact_projection_reads_every_field(dialect: Dialect) -> None:
    """A projection that leaves out a field returns a silently different fact (a statement not known as
    one was recalled as an answer, a learned fact was dated by its write): they share one fragment."""
    projections = [
        (name, text) for name, text in load_queries(dialect).items() if ".claim, .confidence" in text
    ]
    assert len(projections) >= 4
    for name, text in projections:
        for field in ("fact_kind", "stated_at", "event_time", "superseded_by"):
            assert f".{field}" in text, (name, field)
