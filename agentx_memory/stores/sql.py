"""Load the named SQL statements from ``agentx_memory/stores/sql/*.sql`` (``-- name: …`` headers)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .named import parse_named

__all__ = ["load_sql"]

_FOLDER = Path(__file__).resolve().parent / "sql"


@cache
def load_sql() -> dict[str, str]:
    """Every named statement; psycopg ``%(param)s`` placeholders carry all values."""
    statements: dict[str, str] = {}
    for path in sorted(_FOLDER.glob("*.sql")):
        for name, body in parse_named(path.read_text(encoding="utf-8"), str(path), "--").items():
            if name in statements:
                raise ValueError(f"{path}: statement {name!r} is already defined in another file")
            statements[name] = body
    return statements
