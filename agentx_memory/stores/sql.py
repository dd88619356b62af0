"""Load the named SQL statements from ``agentx_memory/stores/sql/*.sql`` (``-- name: …`` headers)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from ..errors import StoreError
from .named import parse_named

__all__ = ["array_literal", "load_sql"]

_FOLDER = Path(__file__).resolve().parent / "sql"
#: What an element of :func:`array_literal` may hold: uuids and integers, nothing Postgres would parse
#: as array syntax (quotes, commas, braces, backslashes, spaces). ASCII only and case-sensitive: with
#: IGNORECASE the class is matched by Unicode case folding, ~7x slower over the ~150 ids a recall sends
#: (97 -> 14 us for 80 uuids, NULL check included), and it let the Kelvin sign and the long s through.
_PLAIN_ELEMENTS = re.compile(r"[0-9A-Za-z_.:+-]+(?:,[0-9A-Za-z_.:+-]+)*")


@cache
def load_sql() -> dict[str, str]:
    """Every named statement, without its comment lines; psycopg ``%(param)s`` placeholders carry all
    values."""
    statements: dict[str, str] = {}
    for path in sorted(_FOLDER.glob("*.sql")):
        for name, body in parse_named(path.read_text(encoding="utf-8"), str(path), "--").items():
            if name in statements:
                raise ValueError(f"{path}: statement {name!r} is already defined in another file")
            statements[name] = _code(body)
    return statements


def _code(body: str) -> str:
    """``body`` without its whole-line comments (no statement here spans a line inside a literal). The
    comments are for readers of the .sql files: psycopg converts and caches a statement's text only up
    to 4,096 bytes, and the full-text search's 6,642 (3,482 without them) were converted again on every
    recall (0.2-0.3 ms of client CPU)."""
    return "\n".join(line for line in body.splitlines() if not line.lstrip().startswith("--"))


def array_literal(values: Iterable[str | int]) -> str:
    """A Postgres array literal (``{a,b}``) of uuids or integers, for a ``%(x)s::uuid[]`` / ``::int[]``
    parameter. psycopg dumps a Python list element by element (a regex per string); a recall sends
    ~150 ids, and as one literal they cost half the client CPU (turn_neighbours: 1.0 -> 0.56 ms)."""
    text = ",".join(map(str, values))
    # no element may read as NULL: no uuid or integer contains the letters of "null"
    plain = text.isascii() and "null" not in text.lower() and _PLAIN_ELEMENTS.fullmatch(text) is not None
    if text and not plain:
        raise StoreError(f"not a list of plain ids or integers: {text[:80]!r}")
    return "{" + text + "}"
