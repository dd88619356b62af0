"""Offline check of every Neo4j-dialect Cypher statement with Neo4j's own parser.

No Neo4j server runs on the build machines, so ``tools/cypher-lint/lint.mjs`` (``@neo4j-cypher/
language-support``) lints ``load_queries("neo4j")`` in one node process: syntax, semantic errors, unknown
procedures/functions and Cypher 25-only syntax (Neo4j 5.26 speaks Cypher 5). Probe statements prove the
harness can fail and that the constructs the adapter relies on pass: they are linted on every run.

A statement's result is kept in ``tools/cypher-lint/results.json`` (tracked, so a fresh clone does not
lint the ~210 statements again: 24-34 s of one worker) under a key made of the statement's exact text,
lint.mjs and the lock file: a new or changed statement, or another linter version, is linted again and
the file rewritten (commit it with the change).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
from pydantic import BaseModel, TypeAdapter

from agentx_memory.stores.cypher import load_queries

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)

_ROOT = Path(__file__).resolve().parents[2]
_TOOL = _ROOT / "tools" / "cypher-lint"
_LINT = _TOOL / "lint.mjs"
_PACKAGE = _TOOL / "node_modules" / "@neo4j-cypher" / "language-support" / "package.json"
_INSTALL = "npm ci --prefix tools/cypher-lint --no-audit --no-fund"
# Linting takes ~0.1 s of CPU a statement (Neo4j's parser and semantic analysis, compiled to JavaScript),
# so each statement's result is kept under a key that covers its text, lint.mjs and the lock file.
_RESULTS_FILE = _TOOL / "results.json"
#: Schema statements carry a ``{dimension}`` placeholder; any valid dimension will do for a syntax check.
_DIMENSION = "384"


class Problem(BaseModel):
    message: str
    line: int
    col: int


class LintResult(BaseModel):
    name: str
    errors: list[Problem]
    warnings: list[Problem]


class Kept(BaseModel):
    """A statement's errors, and the key (text, lint.mjs, lock file) they were found under."""

    key: str
    errors: list[Problem]


_RESULTS = TypeAdapter(list[LintResult])
_KEPT = TypeAdapter(dict[str, Kept])

# Probe names contain ':' so they can never clash with a statement name ([a-z][a-z0-9_]*).
_MUST_FAIL = {
    "probe:unclosed_node": "MATCH (n:Turn RETURN n",
    "probe:falkordb_vector": "CALL db.idx.vector.queryNodes('Turn', 'embedding', $k, vecf32($vector)) "
    "YIELD node RETURN node",
    "probe:apoc": "RETURN apoc.coll.sum([1, 2])",
    "probe:cypher25_only": "MATCH (t:Turn) FILTER t.user_id = $user_id RETURN t",
    "probe:two_statements": "MATCH (t:Turn) RETURN t; MATCH (e:Entity) RETURN e",
    "probe:unknown_yield": "CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node, similarity "
    "RETURN node",
}
_MUST_PASS = {
    "probe:vector_query": "CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node, score "
    "RETURN node, score",
    "probe:fulltext_query": "CALL db.index.fulltext.queryNodes($index, $text, {limit: $k}) YIELD node, score "
    "WHERE node.user_id = $user_id RETURN node, score",
    "probe:vector_index": "CREATE VECTOR INDEX probe_embedding IF NOT EXISTS FOR (t:Turn) ON (t.embedding) "
    "OPTIONS {indexConfig: {`vector.dimensions`: {dimension}, `vector.similarity_function`: 'cosine'}}",
    "probe:unique_constraint": "CREATE CONSTRAINT probe_id IF NOT EXISTS FOR (t:Turn) REQUIRE t.id IS UNIQUE",
    "probe:unwind_merge": "UNWIND $rows AS row MERGE (e:Entity {id: row.id}) "
    "ON CREATE SET e.name = row.name, e.created_at = row.created_at SET e.access_count = 0",
}


def _render(statement: str) -> str:
    # str.replace, not str.format: Cypher maps use braces too.
    return statement.replace("{dimension}", _DIMENSION)


def _neo4j_statements() -> dict[str, str]:
    return {name: _render(text) for name, text in sorted(load_queries("neo4j").items())}


_STATEMENTS = _neo4j_statements()


def _describe(problems: list[Problem]) -> str:
    return "\n".join(f"  {p.line}:{p.col}: {p.message}" for p in problems)


@pytest.fixture(scope="module")
def lint_errors() -> dict[str, list[Problem]]:
    """Errors per statement name, for the real statements and the probes: the probes and the statements
    without a kept result under their current key in one node process, the rest from results.json."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"node is not on PATH: install Node.js >= 18.18, then run `{_INSTALL}`")
    if not _PACKAGE.is_file():
        pytest.skip(f"{_TOOL.relative_to(_ROOT)}/node_modules is not installed: run `{_INSTALL}`")
    salt = _LINT.read_bytes() + (_TOOL / "package-lock.json").read_bytes()
    keys = {name: hashlib.sha256(salt + query.encode()).hexdigest() for name, query in _STATEMENTS.items()}
    kept = _read_kept()
    found = {name: kept[name].errors for name in _STATEMENTS if name in kept and kept[name].key == keys[name]}
    probes = {n: _render(q) for n, q in {**_MUST_FAIL, **_MUST_PASS}.items()}
    todo = {**{name: query for name, query in _STATEMENTS.items() if name not in found}, **probes}
    payload = json.dumps([{"name": name, "query": query} for name, query in todo.items()])
    completed = subprocess.run(
        [node, str(_LINT)],
        input=payload,
        capture_output=True,
        text=True,
        timeout=120 + 2 * len(todo),
        check=False,
    )
    if completed.returncode != 0:
        pytest.fail(f"lint.mjs exited with {completed.returncode}:\n{completed.stderr}")
    results = _RESULTS.validate_json(completed.stdout)
    assert [r.name for r in results] == list(todo)
    found.update({r.name: r.errors for r in results})
    current = {name: Kept(key=keys[name], errors=found[name]) for name in _STATEMENTS}
    if current != kept:
        _write_kept(current)
    return found


def _read_kept() -> dict[str, Kept]:
    try:
        return _KEPT.validate_json(_RESULTS_FILE.read_bytes())
    except (OSError, ValueError):  # absent or unreadable: lint everything
        return {}


def _write_kept(results: dict[str, Kept]) -> None:
    # One statement per line, in name order: a change shows as that statement's line in the diff.
    lines = [f"  {json.dumps(name)}: {kept.model_dump_json()}" for name, kept in sorted(results.items())]
    temporary = _RESULTS_FILE.with_name(f"{_RESULTS_FILE.name}.{uuid.uuid4().hex}")
    try:
        temporary.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
        temporary.replace(_RESULTS_FILE)  # atomic: a concurrent reader sees the old file or the new one
    except OSError:  # a read-only checkout: the statements were linted all the same
        temporary.unlink(missing_ok=True)


@pytest.mark.parametrize("name", list(_STATEMENTS))
def test_neo4j_statement_has_no_error(name: str, lint_errors: dict[str, list[Problem]]) -> None:
    errors = lint_errors[name]
    assert not errors, f"{name}:\n{_describe(errors)}\n--- statement ---\n{_STATEMENTS[name]}"


@pytest.mark.parametrize("name", list(_MUST_FAIL))
def test_bad_statement_is_reported(name: str, lint_errors: dict[str, list[Problem]]) -> None:
    assert lint_errors[name], f"the linter accepted {_MUST_FAIL[name]!r}"


def test_syntax_error_position(lint_errors: dict[str, list[Problem]]) -> None:
    [error] = lint_errors["probe:unclosed_node"]
    assert (error.line, error.col) == (1, 15)
    assert "Invalid input 'RETURN'" in error.message


@pytest.mark.parametrize("name", list(_MUST_PASS))
def test_good_statement_passes(name: str, lint_errors: dict[str, list[Problem]]) -> None:
    assert not lint_errors[name], _describe(lint_errors[name])


def test_no_falkordb_vector_constructor_in_neo4j_statements() -> None:
    offenders = sorted(name for name, text in _STATEMENTS.items() if "vecf32(" in text)
    assert not offenders, f"FalkorDB-only vecf32( left in the Neo4j dialect: {offenders}"
