# Generated from agentx_memory/api/portability_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods that export and import one user's memory. Generated from ``api/portability_async.py``: edit
that file.

The dump is a list of JSON-ready records (``memory/portability_pure.py`` documents the format); the
CLI writes it as JSON Lines (``agentx-memory export`` / ``import``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from .._compat.sync import drain
from ..backends import Backends
from ..errors import ConflictError, EmbeddingDimensionError
from ..memory.episodic_pure import turn_search_text
from ..memory.portability import Portability
from ..memory.portability_pure import (
    FORMAT,
    LEDGER_KINDS,
    VECTOR_KINDS,
    VERSION,
    Dump,
    embedding_text,
    parse_dump,
)
from ..stores.schema import VECTOR_LABELS
from ..validation import validate_flag
from .core import FacadeCore

__all__ = ["PortabilityApi"]

#: Texts embedded per model call when an import computes vectors.
_EMBED_BATCH = 64


class PortabilityApi(FacadeCore):
    def export_user(self, *, embeddings: bool = True) -> list[dict[str, Any]]:
        """Every memory of this user, in every channel and store, as dump records (header first).

        Conversations and turns (metadata, timestamps, vectors unless ``embeddings=False``), tool
        invocations, profile, access statistics, timeline rows, documents (the framework adapters'
        items, with their embedded texts and vectors), and every graph node (facts with their
        correction chains, entities, goals, strategies, tools …) and relationship. Redis working memory
        (a cache with a TTL) and the audit log (this installation's trail) are not part of a dump.
        """
        embeddings = validate_flag(embeddings, "embeddings")
        backends = self._open_backends()
        # Background steps of earlier calls (access counts of a recall) land first: a dump holds every
        # effect of the calls that returned before it (one landing mid-export made dumps differ).
        drain(backends.pending)
        port = Portability(backends.ledger, backends.graph, backends.ledger.codec.encryptor)
        user_id = self.scope.user_id
        ledger = port.export_ledger(user_id)
        nodes = port.export_nodes(user_id)
        edges = port.export_edges(user_id)
        records: list[dict[str, Any]] = [
            {
                "type": "header",
                "format": FORMAT,
                "version": VERSION,
                "user_id": user_id,
                "embedding_model": backends.embedder.model_id,
                "embedding_dimensions": backends.embedder.dimensions,
                "embeddings": embeddings,
                "exported_at": datetime.now(UTC).isoformat(),
            }
        ]
        for kind in LEDGER_KINDS:
            for row in ledger[kind]:
                if kind in VECTOR_KINDS and not embeddings:
                    row["embedding"] = None
                records.append({"type": kind, "data": row})
        for node in nodes:
            records.append({"type": "node", **node, "embedding": node["embedding"] if embeddings else None})
        records.extend({"type": "edge", **edge} for edge in edges)
        counts = {kind: len(rows) for kind, rows in ledger.items()} | {
            "nodes": len(nodes),
            "edges": len(edges),
        }
        backends.audit.log_read(self.scope, "export_user", counts)
        return records

    def import_user(self, records: Iterable[Mapping[str, Any]], *, re_embed: bool = False) -> dict[str, int]:
        """Restore a dump of this user made by :meth:`export_user`; returns what was written per kind.

        Ids are kept, and only what the stores lack is written: importing the same dump twice writes
        nothing the second time. Every record is checked first (a bad one raises
        :class:`InvalidInputError` and nothing is written). A dump whose vectors come from another
        embedding model or dimension raises :class:`EmbeddingDimensionError` unless ``re_embed``, which
        embeds every text again with the configured model; a dump without vectors is always embedded.
        A dump holding ids of another user's memories raises :class:`ConflictError` (nothing written).
        """
        re_embed = validate_flag(re_embed, "re_embed")
        dump = parse_dump(records, self.scope.user_id)
        backends = self._open_backends()
        header = dump.header
        same_model = (
            header["embedding_model"] == backends.embedder.model_id
            and int(header["embedding_dimensions"]) == backends.embedder.dimensions
        )
        if header["embeddings"] and not same_model and not re_embed:
            raise EmbeddingDimensionError(
                f"the dump's vectors come from {header['embedding_model']!r} "
                f"({header['embedding_dimensions']} dimensions) but this store uses "
                f"{backends.embedder.model_id!r} ({backends.embedder.dimensions}): import with "
                "re_embed=True (`agentx-memory import --re-embed`) to embed them again; nothing was imported"
            )
        port = Portability(backends.ledger, backends.graph, backends.ledger.codec.encryptor)
        if port.foreign_nodes(self.scope.user_id, dump.nodes):
            raise ConflictError(
                "the dump holds ids of memories that belong to another user; nothing was imported"
            )
        if re_embed or not header["embeddings"]:
            self._embed_dump(backends, dump)
        counts = port.import_ledger(self.scope.user_id, dump.ledger)
        counts["nodes"] = port.import_nodes(self.scope.user_id, dump.nodes)
        counts["edges"] = port.import_edges(self.scope.user_id, dump.edges)
        backends.audit.log_write(self.scope, "import_user", "user", self.scope.user_id, counts)
        return counts

    def _embed_dump(self, backends: Backends, dump: Dump) -> None:
        """Give every turn and vector-carrying node a vector of the configured model (in place)."""
        turns = dump.ledger["turn"]
        vectors = self._embed_all(
            backends,
            [
                turn_search_text(turn["content"], turn.get("metadata") or {}, turn.get("event_label"))
                for turn in turns
            ],
        )
        by_turn = {}
        for turn, vector in zip(turns, vectors, strict=True):
            turn["embedding"] = vector
            by_turn[turn["id"]] = vector
        pending = [node for node in dump.nodes if node["label"] in VECTOR_LABELS]
        needs_model = [
            node for node in pending if node["label"] != "Turn" or node["data"]["id"] not in by_turn
        ]
        texts = [embedding_text(node["label"], node["data"]) for node in needs_model]
        for node, vector in zip(needs_model, self._embed_all(backends, texts), strict=True):
            node["embedding"] = vector
        documents = dump.ledger["document_vector"]
        embedded = self._embed_all(backends, [str(row["text"]) for row in documents])
        for row, vector in zip(documents, embedded, strict=True):
            row["embedding"] = vector
        for node in pending:
            if node["label"] == "Turn" and node["data"]["id"] in by_turn:
                node["embedding"] = by_turn[node["data"]["id"]]

    def _embed_all(self, backends: Backends, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), _EMBED_BATCH):
            vectors.extend(backends.embed(texts[start : start + _EMBED_BATCH]))
        return vectors
