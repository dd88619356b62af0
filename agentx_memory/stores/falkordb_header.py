"""FalkorDB's query-parameter header (``CYPHER k=v …``), built with a fast path for float vectors.

falkordb-py stringifies every parameter element by element through a chain of ``isinstance`` checks:
about 1 ms for one 384-float embedding, paid by every vector statement (a recall runs a dozen). A list
of plain floats is formatted here in one ``join`` with the same ``str()`` the library uses; every
other value goes through the library's own function, so the header text is identical.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from falkordb.helpers import stringify_param_value

__all__ = ["params_header"]


def params_header(params: Mapping[str, Any] | None) -> str:
    if not params:
        return ""
    parts = ["CYPHER "]
    for key, value in params.items():
        if not key or "`" in key:
            raise ValueError(f"Cypher parameter name {key!r} must be non-empty and without backticks")
        parts.append(f"`{key}`={_value(value)} ")
    return "".join(parts)


def _value(value: Any) -> str:
    if isinstance(value, list) and value and all(type(item) is float for item in value):
        return "[" + ",".join(map(str, value)) + "]"
    text: str = stringify_param_value(value)
    return text
