"""Parse files of named statements (``.cypher`` and ``.sql``): pure text handling, no I/O.

Every statement is introduced by a header line ``// name: <name>`` (Cypher) or ``-- name: <name>`` (SQL);
the text up to the next header is the statement.
"""

from __future__ import annotations

import re

__all__ = ["parse_named"]

_MARKERS = ("//", "--")


def parse_named(text: str, source: str, marker: str, keyword: str = "name") -> dict[str, str]:
    """Split ``text`` into ``{name: statement}``; ``marker`` is the comment opener (``//`` or ``--``),
    ``keyword`` the header's word (``name``; Cypher fragments use ``fragment``)."""
    if marker not in _MARKERS or not keyword.isalpha():
        raise ValueError(f"unknown header {marker} {keyword}:")
    header = re.compile(rf"^{re.escape(marker)}\s*{keyword}:\s*([a-z][a-z0-9_]*)\s*$", re.MULTILINE)
    matches = list(header.finditer(text))
    if not matches and text.strip():
        raise ValueError(f"{source}: no '{marker} {keyword}: …' header before the first statement")
    preamble = text[: matches[0].start()] if matches else ""
    if any(line.strip() and not line.strip().startswith(marker) for line in preamble.splitlines()):
        raise ValueError(f"{source}: text before the first '{marker} {keyword}: …' header would be ignored")
    for line in text.splitlines():
        if re.match(rf"^{re.escape(marker)}\s*{keyword}:", line) and not header.match(line):
            raise ValueError(f"{source}: malformed header {line!r}: names are lowercase [a-z0-9_]")
    statements: dict[str, str] = {}
    for position, match in enumerate(matches):
        end = matches[position + 1].start() if position + 1 < len(matches) else len(text)
        body = text[match.end() : end].strip()
        name = match.group(1)
        if not body:
            raise ValueError(f"{source}: statement {name!r} is empty")
        if name in statements:
            raise ValueError(f"{source}: statement {name!r} is defined twice")
        statements[name] = body
    return statements
