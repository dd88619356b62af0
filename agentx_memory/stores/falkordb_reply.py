"""FalkorDB's compact reply (``GRAPH.QUERY … --compact``) parsed in plain loops.

falkordb-py parses every cell through an ``async def`` per value, so a 20-row result of maps costs about
a millisecond of coroutine overhead on the event loop. Our statements return scalars, lists and maps
only (nodes are projected as maps, which also keeps the embedding out of replies); those are parsed
here exactly as the library does, to the same Python values. A node, edge, path, point or temporal
value is a statement bug and raises :class:`StoreError` saying so.
"""

from __future__ import annotations

from typing import Any

from redis.exceptions import ResponseError

from ..errors import StoreError

__all__ = ["parse_compact"]

# ResultSetScalarTypes of falkordb-py
_NULL, _STRING, _INTEGER, _BOOLEAN, _DOUBLE, _ARRAY, _MAP, _VECTORF32 = 1, 2, 3, 4, 5, 6, 10, 12


#: The value types a statement must not return, by falkordb-py's type number.
_UNSUPPORTED = {7: "an edge", 8: "a node", 9: "a path", 11: "a point", 13: "a datetime", 14: "a date",
                15: "a time", 16: "a duration"}  # fmt: skip


def parse_compact(response: list[Any]) -> tuple[list[str], list[list[Any]]]:
    """Column names and rows of a compact reply; raises the server's error as the library does."""
    if response and isinstance(response[0], ResponseError):
        raise response[0]
    if response and isinstance(response[-1], ResponseError):
        raise response[-1]
    if len(response) < 3:  # statistics only (a statement that returns nothing)
        return [], []
    names = [_text(column[1]) for column in response[0]]
    return names, [[_value(cell) for cell in row] for row in response[1]]


def _text(value: bytes | str) -> str:
    return value if type(value) is str else value.decode() if isinstance(value, bytes) else str(value)


def _value(cell: list[Any]) -> Any:
    # Ordered by how often our statements return each type. Maps become plain dicts (ordered, and
    # equal to the library's OrderedDict).
    kind, value = cell
    if kind == _STRING:
        return _text(value)
    if kind == _INTEGER:
        return int(value)
    if kind == _MAP:
        return _map(value)
    if kind == _DOUBLE:
        return float(value)
    if kind == _NULL:
        return None
    if kind == _ARRAY:
        return [_value(item) for item in value]
    if kind == _BOOLEAN:
        return _text(value) == "true"
    if kind == _VECTORF32:
        return [float(item) for item in value]
    raise StoreError(
        f"a graph statement returned {_UNSUPPORTED.get(kind, f'a value of type {kind}')}: "
        "project nodes and relationships as maps (n {.id, .name}) and times as epoch numbers"
    )


def _map(flat: list[Any]) -> dict[str, Any]:
    """A map's alternating keys and cells. Most of a recall's ~1,700 values are entries of node maps,
    so strings, integers and nulls are taken here without a call per value (a third of the parse)."""
    result: dict[str, Any] = {}
    for position in range(0, len(flat), 2):
        key = flat[position]
        if type(key) is not str:
            key = _text(key)
        cell = flat[position + 1]
        kind, value = cell
        if (kind == _STRING and type(value) is str) or (kind == _INTEGER and type(value) is int):
            result[key] = value
        elif kind == _NULL:
            result[key] = None
        else:
            result[key] = _value(cell)
    return result
