# Generated from agentx_memory/memory/portability_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Export and import of one user's memory, store by store. Generated from ``memory/portability_async.py``:
edit that file.

Export reads every ledger row of the user (conversations, turns, tool invocations, profile, access
statistics, timeline) and every graph node and relationship of the user, as plain values. Import
writes what the stores lack and nothing else: ledger rows by ``INSERT … ON CONFLICT DO NOTHING``,
graph nodes and relationships after a diff against what the graph already holds (the graph has no
multi-statement transactions to lean on). So a second import of the same dump writes nothing. The
record format and its checks are in ``portability_pure.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from psycopg.types.json import Jsonb

from ..crypto import Encryptor
from ..stores.graph import GraphStore
from ..stores.ports import Ledger
from ..stores.schema import VECTOR_TAGS
from ..stores.sealing import open_graph_props, seal_graph_props
from .portability_pure import (
    LEDGER_KINDS,
    VECTOR_KINDS,
    edge_identity,
    edge_statement,
    foreign_statement,
    node_key,
    node_statement,
    vector_from_pg,
    vector_to_pg,
)

__all__ = ["Portability"]

#: Graph rows read or written per statement.
PAGE = 500
_EXPORTS = {
    "conversation": "export_conversations",
    "turn": "export_turns",
    "tool_invocation": "export_tool_invocations",
    "profile": "export_profile",
    "access": "export_access",
    "timeline": "export_timeline",
    "document": "export_documents",
    "document_vector": "export_document_vectors",
}
_IMPORTS = {
    "conversation": "import_conversations",
    "turn": "import_turns",
    "tool_invocation": "import_tool_invocations",
    "profile": "import_profile",
    "access": "import_access",
    "timeline": "import_timeline",
    "document": "import_documents",
    "document_vector": "import_document_vectors",
}


class Portability:
    """A stateless view over the ledger and the graph for one user's export and import."""

    def __init__(self, ledger: Ledger, graph: GraphStore, encryptor: Encryptor | None = None) -> None:
        self._ledger = ledger
        self._graph = graph
        self._encryptor = encryptor  # the graph's sealed copies: opened on export, sealed on import

    def export_ledger(self, user_id: str) -> dict[str, list[dict[str, Any]]]:
        """The user's ledger rows by kind (a turn's ``embedding`` as a list of floats or ``None``)."""
        rows: dict[str, list[dict[str, Any]]] = {}
        for kind in LEDGER_KINDS:
            found = self._ledger.fetch_all(_EXPORTS[kind], {"user_id": user_id})
            rows[kind] = [dict(row["data"]) for row in found]
        for kind in VECTOR_KINDS:
            for row in rows[kind]:
                row["embedding"] = vector_from_pg(row.get("embedding"))
        return rows

    def _pages(self, name: str, user_id: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        while True:
            page = self._graph.run(name, {"user_id": user_id, "offset": len(found), "limit": PAGE})
            found.extend(page)
            if len(page) < PAGE:
                return found

    def export_nodes(self, user_id: str) -> list[dict[str, Any]]:
        """Every node of the user: ``{"label", "data", "embedding"}`` (the vector kept apart)."""
        nodes = []
        for row in self._pages("export_nodes", user_id):
            props = dict(row["props"])
            embedding = props.pop("embedding", None)
            for tag in VECTOR_TAGS:  # which model a reindex wrote: not true of a re-embedded import
                props.pop(tag, None)
            vector = None if embedding is None else [float(value) for value in embedding]
            open_graph_props(self._encryptor, str(row["label"]), props, user_id)
            nodes.append({"label": str(row["label"]), "data": props, "embedding": vector})
        return nodes

    def export_edges(self, user_id: str) -> list[dict[str, Any]]:
        """Every relationship between the user's nodes: ``{"source", "rel", "target", "data"}``."""
        return [
            {
                "source": [str(row["source_label"]), str(row["source_key"])],
                "rel": str(row["rel"]),
                "target": [str(row["target_label"]), str(row["target_key"])],
                "data": dict(row["props"] or {}),
            }
            for row in self._pages("export_edges", user_id)
        ]

    def import_ledger(self, user_id: str, rows: Mapping[str, Sequence[dict[str, Any]]]) -> dict[str, int]:
        """Insert the rows the ledger lacks, kind by kind; returns how many were inserted per kind."""
        counts: dict[str, int] = {}
        for kind in LEDGER_KINDS:
            batch = list(rows.get(kind, ()))
            if kind in VECTOR_KINDS:
                batch = [{**row, "embedding": vector_to_pg(row.get("embedding"))} for row in batch]
            inserted = 0
            for start in range(0, len(batch), PAGE):
                inserted += self._ledger.execute(
                    _IMPORTS[kind], {"user_id": user_id, "rows": Jsonb(batch[start : start + PAGE])}
                )
            counts[kind] = inserted
        if counts["document"]:  # new documents list after the imported ones, as they were
            self._ledger.execute("import_documents_sequence", {"user_id": user_id})
        return counts

    def foreign_nodes(self, user_id: str, nodes: Sequence[dict[str, Any]]) -> int:
        """How many of ``nodes`` have the key of another user's node (an import must not go on)."""
        by_label: dict[str, list[str]] = {}
        for node in nodes:
            by_label.setdefault(node["label"], []).append(node_key(node["label"], node["data"]))
        found = 0
        for label, keys in sorted(by_label.items()):
            for start in range(0, len(keys), PAGE):
                result = self._graph.run(
                    foreign_statement(label), {"user_id": user_id, "keys": keys[start : start + PAGE]}
                )
                found += int(result[0]["foreign"]) if result else 0
        return found

    def import_nodes(self, user_id: str, nodes: Sequence[dict[str, Any]]) -> int:
        """Create the nodes the graph lacks (by label and key); existing nodes are left as they are."""
        present = {(str(row["label"]), str(row["key"])) for row in self._pages("export_node_keys", user_id)}
        by_label: dict[str, list[dict[str, Any]]] = {}
        for node in nodes:
            key = (node["label"], node_key(node["label"], node["data"]))
            if key not in present:
                present.add(key)
                props = dict(node["data"])
                seal_graph_props(self._encryptor, node["label"], props, user_id)
                by_label.setdefault(node["label"], []).append(
                    {"props": props, "embedding": node["embedding"]}
                )
        created = 0
        for label, batch in sorted(by_label.items()):
            for start in range(0, len(batch), PAGE):
                result = self._graph.run(
                    node_statement(label), {"user_id": user_id, "rows": batch[start : start + PAGE]}
                )
                created += int(result[0]["created"]) if result else 0
        return created

    def import_edges(self, user_id: str, edges: Sequence[dict[str, Any]]) -> int:
        """Create the relationships the graph lacks (see ``edge_identity``)."""
        present = {edge_identity(edge) for edge in self.export_edges(user_id)}
        by_triple: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for edge in edges:
            identity = edge_identity(edge)
            if identity not in present:
                present.add(identity)
                triple = (edge["source"][0], edge["rel"], edge["target"][0])
                by_triple.setdefault(triple, []).append(
                    {"source": edge["source"][1], "target": edge["target"][1], "props": edge["data"]}
                )
        created = 0
        for triple, batch in sorted(by_triple.items()):
            for start in range(0, len(batch), PAGE):
                result = self._graph.run(
                    edge_statement(*triple), {"user_id": user_id, "rows": batch[start : start + PAGE]}
                )
                created += int(result[0]["created"]) if result else 0
        return created
