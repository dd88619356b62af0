"""The export record format of one user's memory, and its checks: pure, no I/O.

A dump is JSON Lines. The first record is the header::

    {"type": "header", "format": "agentx-memory", "version": 1, "user_id": "alice",
     "embedding_model": "…", "embedding_dimensions": 384, "embeddings": true, "exported_at": "…"}

then one record per ledger row (``conversation``, ``turn``, ``tool_invocation``, ``profile``,
``access``, ``timeline``, ``document``, ``document_vector``: ``{"type": …, "data": {column: value}}``,
a turn's and a document vector's ``data.embedding`` a list of floats or null, a document's value as its
JSON text in ``data.value_text``), per graph node (``{"type": "node", "label": …, "data": {property: value},
"embedding": [...] | null}``) and per relationship (``{"type": "edge", "rel": …, "source": [label,
key], "target": [label, key], "data": {property: value}}``), in that order and sorted, so two exports of
the same memory are identical but for the header's ``exported_at`` (:data:`VOLATILE_HEADER_FIELDS`).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import InvalidInputError
from ..stores.schema import NODE_LABELS, VECTOR_LABELS
from ..validation import is_one_of
from .episodic_pure import turn_search_text

__all__ = [
    "EDGE_TRIPLES",
    "FORMAT",
    "LEDGER_KINDS",
    "VECTOR_KINDS",
    "VERSION",
    "VOLATILE_HEADER_FIELDS",
    "Dump",
    "edge_identity",
    "edge_statement",
    "embedding_text",
    "move_dump",
    "node_key",
    "node_statement",
    "parse_dump",
    "vector_from_pg",
    "vector_to_pg",
]

FORMAT: Final = "agentx-memory"
VERSION: Final = 1
#: Header fields that differ between two exports of the same memory.
VOLATILE_HEADER_FIELDS: Final = frozenset({"exported_at"})
#: Ledger record types in import order (conversations before the rows that reference them).
LEDGER_KINDS: Final = (
    "conversation",
    "turn",
    "tool_invocation",
    "profile",
    "access",
    "timeline",
    "document",
    "document_vector",
)
#: Ledger kinds whose rows carry an ``embedding`` (a list of floats, or null in a dump without vectors).
VECTOR_KINDS: Final = ("turn", "document_vector")

#: Every (source label, type, target label) the subsystems write; each has an ``import_edges_…``
#: statement in ``cypher/portability.cypher``.
EDGE_TRIPLES: Final = frozenset(
    {
        ("User", "HAS_CONVERSATION", "Conversation"), ("User", "HAS_GOAL", "Goal"),
        ("Conversation", "HAS_TURN", "Turn"), ("Conversation", "USED_TOOL", "ToolInvocation"),
        ("Turn", "FOLLOWED_BY", "Turn"), ("Turn", "MENTIONS", "Entity"),
        ("ToolInvocation", "INVOKED", "Tool"), ("Fact", "ABOUT", "Entity"), ("Fact", "DERIVED_FROM", "Turn"),
        ("Fact", "SUPERSEDES", "Fact"), ("Fact", "CONTRADICTS", "Fact"), ("Fact", "PROMOTED_FROM", "Fact"),
        ("Goal", "SUBGOAL_OF", "Goal"), ("Goal", "BLOCKED_BY", "Goal"), ("Strategy", "USES_TOOL", "Tool"),
        ("Strategy", "SUCCEEDED_IN", "Conversation"),
        *(
            ("Entity", rel, "Entity")
            for rel in (
                "SAME_AS", "RELATED_TO", "PART_OF", "LOCATED_IN", "WORKS_FOR", "KNOWS", "CREATED_BY",
                "REFERENCES",
            )
        ),
    }
)  # fmt: skip


@dataclass
class Dump:
    """A checked dump: the header, ledger rows by kind, graph nodes and relationships."""

    header: dict[str, Any]
    ledger: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {k: [] for k in LEDGER_KINDS})
    nodes: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)


def node_key(label: str, props: Mapping[str, Any]) -> str:
    """A node's unique key: ``key`` for ``Tool`` (user id + name), ``id`` for every other label."""
    return str(props.get("key" if label == "Tool" else "id"))


def node_statement(label: str) -> str:
    return f"import_nodes_{label.lower()}"


def foreign_statement(label: str) -> str:
    """The statement counting nodes of ``label`` with given keys that belong to another user."""
    return f"foreign_nodes_{label.lower()}"


def edge_statement(source: str, rel: str, target: str) -> str:
    return f"import_edges_{source.lower()}_{rel.lower()}_{target.lower()}"


def edge_identity(record: Mapping[str, Any]) -> tuple[str, ...]:
    """What makes two relationships the same: endpoints and type, and ``position`` where it has one
    (a strategy may use one tool at several positions)."""
    position = record["data"].get("position")
    return (*record["source"], record["rel"], *record["target"], json.dumps(position))


def embedding_text(label: str, props: Mapping[str, Any]) -> str:
    """The text a node's vector embeds, as the subsystem that wrote it embedded it."""
    if label == "Turn":
        metadata = props.get("metadata") or {}
        if isinstance(metadata, str):
            metadata = json.loads(metadata)
        return turn_search_text(str(props.get("content", "")), metadata)
    if label == "Entity":
        name, description = str(props.get("name", "")), props.get("description")
        return f"{name}: {description}" if description else name
    if label == "Fact":
        return str(props.get("claim", ""))
    if label == "Strategy":
        return f"{props.get('description', '')}\n{props.get('context_pattern', '')}"
    if label == "Goal":
        return str(props.get("description", ""))
    raise ValueError(f"label {label!r} carries no vector")


def vector_from_pg(value: Any) -> list[float] | None:
    """A vector exported by ``to_jsonb`` (its text form ``"[x,y,…]"``) as a list of floats."""
    if value is None:
        return None
    parsed = json.loads(value) if isinstance(value, str) else value
    return [float(x) for x in parsed]


def vector_to_pg(value: list[float] | None) -> str | None:
    return None if value is None else json.dumps(value)


def _fail(line: int, why: str) -> InvalidInputError:
    return InvalidInputError(f"dump record {line}: {why}; nothing was imported")


def _check_header(record: Mapping[str, Any], user_id: str) -> dict[str, Any]:
    if record.get("type") != "header" or record.get("format") != FORMAT:
        raise _fail(1, f"the first record must be the {FORMAT!r} header")
    if record.get("version") != VERSION:
        raise _fail(
            1, f"format version {record.get('version')!r} is not supported (this build reads {VERSION})"
        )
    if record.get("user_id") != user_id:
        raise _fail(
            1, f"the dump holds user {record.get('user_id')!r}, not {user_id!r}: import it as that user"
        )
    for name, kind in (("embedding_model", str), ("embedding_dimensions", int), ("embeddings", bool)):
        if name not in record:
            raise _fail(1, f"the header lacks {name!r}")
        if not isinstance(record[name], kind):
            raise _fail(1, f"the header's {name!r} must be a {kind.__name__}")
    return dict(record)


def _check_node(line: int, record: Mapping[str, Any], user_id: str) -> dict[str, Any]:
    label, data = record.get("label"), record.get("data")
    if not is_one_of(label, NODE_LABELS) or not isinstance(data, dict):
        raise _fail(line, f"a node needs a known label and a data object (got label {label!r})")
    if data.get("user_id") != user_id or not node_key(label, data) or "embedding" in data:
        raise _fail(
            line, f"a {label} node must belong to {user_id!r}, have its key and keep its vector apart"
        )
    embedding = record.get("embedding")
    if label == "Turn":  # dumps of graphs whose turns still carried a vector: the ledger keeps it now
        embedding = None
    if embedding is not None and (label not in VECTOR_LABELS or not isinstance(embedding, list)):
        raise _fail(line, f"a {label} node cannot carry this embedding")
    return {"label": label, "data": data, "embedding": embedding}


def _check_edge(line: int, record: Mapping[str, Any]) -> dict[str, Any]:
    source, target, rel = record.get("source"), record.get("target"), record.get("rel")
    if not (isinstance(source, list) and isinstance(target, list) and len(source) == len(target) == 2):
        raise _fail(line, "an edge needs source and target as [label, key]")
    triple = (source[0], rel, target[0])
    if not all(isinstance(part, str) for part in triple) or triple not in EDGE_TRIPLES:
        raise _fail(line, f"({source[0]})-[{rel}]->({target[0]}) is not a relationship this store writes")
    data = record.get("data", {})
    if not isinstance(data, dict):
        raise _fail(line, "an edge's data must be an object")
    return {"source": [str(v) for v in source], "rel": rel, "target": [str(v) for v in target], "data": data}


def parse_dump(records: Iterable[Mapping[str, Any]], user_id: str) -> Dump:
    """Check every record of a dump for ``user_id`` before anything is written.

    Raises :class:`InvalidInputError` naming the first bad record (1-based, the header is record 1).
    """
    if isinstance(records, str | bytes | Mapping) or not isinstance(records, Iterable):
        raise InvalidInputError("a dump must be a list (or an iterable) of records")
    dump: Dump | None = None
    for line, record in enumerate(records, start=1):
        if not isinstance(record, Mapping):
            raise _fail(line, "a record must be a JSON object")
        if dump is None:
            dump = Dump(header=_check_header(record, user_id))
            continue
        kind = record.get("type")
        if kind in LEDGER_KINDS:
            data = record.get("data")
            if not isinstance(data, dict) or data.get("user_id") != user_id:
                raise _fail(line, f"a {kind} record must hold a row of user {user_id!r}")
            dump.ledger[str(kind)].append(data)
        elif kind == "node":
            dump.nodes.append(_check_node(line, record, user_id))
        elif kind == "edge":
            dump.edges.append(_check_edge(line, record))
        else:
            raise _fail(line, f"unknown record type {kind!r}")
    if dump is None:
        raise InvalidInputError("the dump is empty: its first record must be the header")
    return dump


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
#: The namespace of the ids a moved dump's memories take (uuid5 of the new user and the old id).
_MOVED_IDS: Final = uuid.UUID("5f0c7a4e-2d7b-4c61-9b43-7e1d0a6c9f21")


def move_dump(records: Iterable[Mapping[str, Any]], user_id: str) -> list[dict[str, Any]]:
    """A dump made for another user, rewritten to belong to ``user_id`` (``agentx-memory import
    --user``): every ``user_id``, the user's own node and tool keys, and every id, each id replaced by
    a uuid5 of the new user and the old id, everywhere it occurs (references, JSON-string properties).
    New ids, because the original may live in the same store (its ids would then be another user's);
    derived ids, because importing the moved dump twice must still write nothing the second time.
    Records already of ``user_id`` come back unchanged. Pure; :func:`parse_dump` checks the result."""
    listed = [dict(record) for record in records]
    header = listed[0] if listed else {}
    old = header.get("user_id")
    if not isinstance(old, str) or old == user_id or header.get("type") != "header":
        return listed

    def new_id(found: re.Match[str]) -> str:
        return str(uuid.uuid5(_MOVED_IDS, f"{user_id}/{found.group(0).lower()}"))

    def key(label: str, value: str) -> str:
        if label == "User" and value == old:
            return user_id
        if label == "Tool" and value.startswith(f"{old}:"):
            return f"{user_id}:{value[len(old) + 1 :]}"
        return value

    def walk(value: Any, field: str | None = None) -> Any:
        if isinstance(value, str):
            return user_id if field == "user_id" and value == old else _UUID.sub(new_id, value)
        if isinstance(value, list):
            return [walk(item) for item in value]
        if isinstance(value, dict):
            return {name: walk(item, name) for name, item in value.items()}
        return value

    moved = [walk(record) for record in listed]
    for record in moved:
        if record.get("type") == "node" and isinstance(record.get("data"), dict):
            data, label = record["data"], str(record.get("label"))
            field = "key" if label == "Tool" else "id"
            if isinstance(data.get(field), str):
                data[field] = key(label, data[field])
        elif record.get("type") == "edge":
            for end in ("source", "target"):
                if isinstance(record.get(end), list) and len(record[end]) == 2:
                    record[end] = [record[end][0], key(str(record[end][0]), str(record[end][1]))]
    return moved
