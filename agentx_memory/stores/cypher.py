"""Load the named Cypher statements from ``cypher/``.

File format: every statement is introduced by a header line ``// name: <query_name>``; the text up to the
next header (or the end of the file) is the statement. ``cypher/*.cypher`` are shared by every backend;
``cypher/<dialect>/*.cypher`` hold the statements that differ (schema, index procedures). A name may be
defined once per dialect. The one rewrite applied to shared statements is FalkorDB's vector constructor:
``vecf32(x)`` stays on FalkorDB and becomes plain ``x`` on Neo4j (``LIST<FLOAT>`` there).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Literal

from ..resources import resource_dir
from .named import parse_named

__all__ = ["Dialect", "load_queries"]

Dialect = Literal["falkordb", "neo4j"]

_VECF32 = re.compile(r"vecf32\((\$[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_.]*)\)")


def _load_folder(folder: Path, into: dict[str, str], rewrite: bool) -> None:
    for path in sorted(folder.glob("*.cypher")):
        for name, body in parse_named(path.read_text(encoding="utf-8"), str(path), "//").items():
            if name in into:
                raise ValueError(f"{path}: statement {name!r} is already defined in another file")
            into[name] = _VECF32.sub(r"\1", body) if rewrite else body


@cache
def load_queries(dialect: Dialect) -> dict[str, str]:
    """All statements for ``dialect``, shared ones rendered for it. Cached: files are read once."""
    root = resource_dir("cypher")
    queries: dict[str, str] = {}
    _load_folder(root, queries, rewrite=dialect == "neo4j")
    _load_folder(root / dialect, queries, rewrite=False)
    return queries
