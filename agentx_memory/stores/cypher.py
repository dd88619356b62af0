"""Load the named Cypher statements from ``cypher/`` and render them for a dialect. Pure, no I/O but
reading the packaged files (once).

File format: every statement is introduced by a header line ``// name: <query_name>``; the text up to the
next header (or the end of the file) is the statement. ``cypher/*.cypher`` are shared by every backend.
The few points where the dialects differ (the vector and full-text index procedures and how their score
becomes a cosine) are written in a shared statement as placeholders ``{{fragment Label [property]}}``
and filled from ``cypher/<dialect>/fragments.cypher`` (``// fragment: <name>`` blocks, in which
``{label}`` is the label and ``{index}`` the Neo4j-style index name ``<label>_<property>``);
``cypher/fragments.cypher`` holds the fragments every dialect shares (a node's projected fields).
``cypher/<dialect>/`` also holds the schema DDL, which differs throughout (FalkorDB creates unique
constraints by command, Neo4j by DDL; index syntax and names differ), and any ``admin_*`` statement the
adapter runs itself. A name may be defined once per dialect; an unknown or unused fragment, a label
outside the allow-list and an unfilled placeholder are load-time errors. The one other rewrite is
FalkorDB's vector constructor: ``vecf32(x)`` stays on FalkorDB and becomes plain ``x`` on Neo4j.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from ..resources import resource_dir
from .named import parse_named
from .schema import NODE_LABELS

__all__ = ["Dialect", "is_read_only", "load_queries", "render_fragments"]

Dialect = Literal["falkordb", "neo4j"]

_VECF32 = re.compile(r"vecf32\((\$[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_.]*)\)")
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)((?:\s+[A-Za-z_]+)*)\s*\}\}")
#: Clauses and index procedures that write; a statement with none of them is read-only.
_WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE|DROP)\b|\.(create|drop)\w*\s*\(", re.IGNORECASE)
_FRAGMENTS_FILE = "fragments.cypher"


def _code(text: str) -> str:
    """``text`` without its comment lines."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


@lru_cache(maxsize=512)
def is_read_only(statement: str) -> bool:
    """Whether a statement only reads (FalkorDB sends it as ``GRAPH.RO_QUERY``, Neo4j routes it to a
    reader): none of its clauses or index procedures writes."""
    return _WRITES.search(_code(statement)) is None


def render_fragments(body: str, fragments: dict[str, str], source: str, used: set[str]) -> str:
    """``body`` with every ``{{name Label [property]}}`` replaced by its dialect fragment; records the
    fragment names it used in ``used``."""

    def fill(match: re.Match[str]) -> str:
        name, args = match.group(1), match.group(2).split()
        if name not in fragments:
            raise ValueError(f"{source}: unknown fragment {name!r}")
        if len(args) > 2:
            raise ValueError(f"{source}: fragment {name!r} takes a label and a property at most")
        label = args[0] if args else ""
        if label and label not in NODE_LABELS:
            raise ValueError(f"{source}: label {label!r} of fragment {name!r} is not in the allow-list")
        prop = args[1] if len(args) > 1 else "embedding"
        used.add(name)
        return fragments[name].replace("{label}", label).replace("{index}", f"{label.lower()}_{prop}")

    rendered = _PLACEHOLDER.sub(fill, body)
    if "{{" in rendered:
        raise ValueError(f"{source}: a {{{{…}}}} placeholder is malformed")
    return rendered


def _fragments(folder: Path) -> dict[str, str]:
    path = folder / _FRAGMENTS_FILE
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8")
    parsed = parse_named(text, str(path), "//", keyword="fragment")
    # A fragment is inlined into an expression or a clause: its comments stay in the file.
    return {name: _code(body).strip() for name, body in parsed.items()}


def _load_folder(
    folder: Path, into: dict[str, str], fragments: dict[str, str], used: set[str], rewrite: bool
) -> None:
    for path in sorted(folder.glob("*.cypher")):
        if path.name == _FRAGMENTS_FILE:
            continue
        for name, body in parse_named(path.read_text(encoding="utf-8"), str(path), "//").items():
            if name in into:
                raise ValueError(f"{path}: statement {name!r} is already defined in another file")
            rendered = render_fragments(body, fragments, f"{path}: {name}", used)
            into[name] = _VECF32.sub(r"\1", rendered) if rewrite else rendered


@cache
def load_queries(dialect: Dialect) -> dict[str, str]:
    """All statements for ``dialect``, shared ones rendered for it. Cached: files are read once."""
    root = resource_dir("cypher")
    shared, own = _fragments(root), _fragments(root / dialect)
    if clash := sorted(set(shared) & set(own)):
        raise ValueError(
            f"cypher/{dialect}/{_FRAGMENTS_FILE}: redefines shared fragments: {', '.join(clash)}"
        )
    fragments = {**shared, **own}
    used: set[str] = set()
    queries: dict[str, str] = {}
    _load_folder(root, queries, fragments, used, rewrite=dialect == "neo4j")
    _load_folder(root / dialect, queries, fragments, used, rewrite=False)
    if unused := sorted(set(fragments) - used):
        raise ValueError(f"cypher fragments never used ({dialect}): {', '.join(unused)}")
    return queries
