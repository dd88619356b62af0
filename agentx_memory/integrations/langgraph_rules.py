"""LangGraph store semantics as pure functions: search filters, namespace matching, result paging.

Ported from LangGraph's reference ``InMemoryStore`` (``langgraph/store/memory/__init__.py`` of
langgraph 1.2: ``_compare_values``, ``_apply_operator``, ``_does_match``, ``_batch_search`` and
``_handle_list_namespaces``), so that :class:`~agentx_memory.integrations.langgraph_store.AgentMemoryStore`
answers exactly as the reference does; the differential test holds them to it. One addition, from the
SQL stores: a dotted filter key reaches a nested value (``{"u.a": 1}`` matches ``{"u": {"a": 1}}``), as
the SQLite store's ``json_extract(value, '$.u.a')`` does, unless the value has a top-level field of
that very name, which is read as the reference and the Postgres store read it (``value->'u.a'``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ..models.documents import Document

__all__ = ["field_at", "matches_filter", "matches_namespace", "page_namespaces", "page_search"]


def _apply_operator(value: Any, operator: str, operand: Any) -> bool:
    if operator == "$eq":
        return bool(value == operand)
    if operator == "$ne":
        return bool(value != operand)
    if operator in ("$gt", "$gte", "$lt", "$lte"):
        left, right = float(value), float(operand)
        return {"$gt": left > right, "$gte": left >= right, "$lt": left < right, "$lte": left <= right}[
            operator
        ]
    raise ValueError(f"Unsupported operator: {operator}")


def _compare(item_value: Any, filter_value: Any) -> bool:
    if isinstance(filter_value, dict):
        if any(key.startswith("$") for key in filter_value):
            return all(_apply_operator(item_value, op, operand) for op, operand in filter_value.items())
        if not isinstance(item_value, dict):
            return False
        return all(_compare(item_value.get(key), value) for key, value in filter_value.items())
    if isinstance(filter_value, list | tuple):
        return (
            isinstance(item_value, list | tuple)
            and len(item_value) == len(filter_value)
            and all(_compare(iv, fv) for iv, fv in zip(item_value, filter_value, strict=False))
        )
    return bool(item_value == filter_value)


def field_at(value: Mapping[str, Any], key: str) -> Any:
    """The field a filter key names: the top-level field of that name, else, for a dotted key, the
    nested field along its path (``None`` when there is none, as for a missing top-level field)."""
    if key in value or "." not in key:
        return value.get(key)
    found: Any = value
    for part in key.split("."):
        if not isinstance(found, Mapping) or part not in found:
            return None
        found = found[part]
    return found


def matches_filter(value: Mapping[str, Any], conditions: Mapping[str, Any] | None) -> bool:
    """Whether a value satisfies every ``key: condition`` (equality, nested, or ``$eq $ne $gt $gte $lt
    $lte``; a dotted key reaches into nested fields)."""
    return not conditions or all(_compare(field_at(value, key), want) for key, want in conditions.items())


def matches_namespace(
    kind: Literal["prefix", "suffix"], path: Sequence[str], namespace: tuple[str, ...]
) -> bool:
    """A prefix / suffix condition, ``"*"`` matching any one label."""
    if len(namespace) < len(path):
        return False
    pairs = (
        zip(namespace, path, strict=False)
        if kind == "prefix"
        else zip(reversed(namespace), reversed(path), strict=False)
    )
    return all(want == "*" or label == want for label, want in pairs)


def page_namespaces(
    namespaces: Sequence[tuple[str, ...]],
    conditions: Sequence[tuple[Literal["prefix", "suffix"], Sequence[str]]],
    max_depth: int | None,
    limit: int,
    offset: int,
) -> list[tuple[str, ...]]:
    """The namespaces matching every condition, truncated to ``max_depth`` (deduplicated), sorted, paged."""
    found = [ns for ns in namespaces if all(matches_namespace(kind, path, ns) for kind, path in conditions)]
    found = sorted({ns[:max_depth] for ns in found}) if max_depth is not None else sorted(found)
    return found[offset : offset + limit]


def page_search(
    documents: Sequence[Document], conditions: Mapping[str, Any] | None, ranked: bool, limit: int, offset: int
) -> list[Document]:
    """Filter, then page: in listing order without a query; with one, the scored documents best first
    (``offset``, ``limit``), topped up to ``limit`` with unscored ones (not indexed), as the reference
    does."""
    candidates = [doc for doc in documents if matches_filter(doc.value, conditions)]
    if not ranked:
        return candidates[offset : offset + limit]
    scored = sorted(
        (doc for doc in candidates if doc.score is not None), key=lambda doc: doc.score or 0.0, reverse=True
    )
    kept = scored[offset : offset + limit]
    scoreless = [doc for doc in candidates if doc.score is None]
    if scoreless and len(kept) < limit:
        kept += scoreless[: limit - len(kept)]
    return kept
