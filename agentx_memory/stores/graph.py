# Generated from agentx_memory/stores/graph_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The graph port and the Cypher logic both backends share.

Generated from ``stores/graph_async.py``: edit that file. A backend adapter only supplies ``_execute`` (run
one statement, rows as dicts), schema creation and its error translation; named statements, the per-user guard
and vector-search strategy live here once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ..errors import StoreError
from ..kinds import GRAPH_KINDS
from .cypher import Dialect, load_queries
from .driver_errors import VectorIndexBuildingError
from .label_counts import LabelCounts
from .schema import FULLTEXT_LABELS, VECTOR_LABELS, FulltextLabel, VectorLabel
from .vector_index import VectorIndexSize

__all__ = ["CypherGraphStore", "GraphStore"]

#: Statements that are not about one user's data: schema DDL, and census counts across users (numbers
#: only, for the metrics); everything else must filter by user.
_UNSCOPED_PREFIX = ("schema_", "census_")
#: Statements about the whole database that only an adapter runs itself (never through ``run``).
_ADMIN_PREFIX = "admin_"
#: How a backend says the index it was asked to drop does not exist.
_INDEX_GONE = ("no such index", "unable to drop")
#: The labels ``recall_candidates`` searches by vector (see ``cypher/recall_candidates.cypher``).
_RECALL_LABELS: tuple[VectorLabel, ...] = tuple(spec.label for spec in GRAPH_KINDS if spec.label is not None)


class GraphStore(Protocol):
    """What the subsystems need from a property graph. Conformance: ``tests/conformance``."""

    dialect: Dialect

    def apply_schema(self, dimensions: int) -> None:
        """Create constraints and range/vector/full-text indexes; idempotent."""

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Run the named statement; ``params`` must carry ``user_id``. Rows come back as dicts."""

    def vector_search(
        self,
        label: VectorLabel,
        vector: Sequence[float],
        *,
        user_id: str,
        channels: Sequence[str],
        top_k: int,
    ) -> list[dict[str, Any]]:
        """Nearest ``label`` nodes of this user in ``channels``: rows ``{item, similarity}`` (cosine)."""

    def fulltext_search(
        self,
        label: FulltextLabel,
        words: Sequence[str],
        *,
        user_id: str,
        channels: Sequence[str],
        limit: int,
    ) -> list[dict[str, Any]]:
        """``label`` nodes of this user in ``channels`` matching any of ``words`` (plain word characters,
        see ``fulltext_terms``): rows ``{item, score}``, best first."""

    def recall_candidates(
        self,
        vector: Sequence[float],
        words: Sequence[str],
        *,
        user_id: str,
        channels: Sequence[str],
        limit: int,
    ) -> dict[str, list[dict[str, Any]]]:
        """Every graph kind a recall searches, in one round trip where the backend allows: rows
        ``{item, score}`` by source ``"<Label>.vector"`` (Fact, Entity, Strategy, Goal; cosine) and
        ``"<Label>.fulltext"`` (Fact, Entity; any of ``words``), best first. Fact items carry only
        their id; current facts and open goals only."""

    def vector_index_sizes(self) -> dict[VectorLabel, VectorIndexSize]:
        """Every vector index of the graph (all users): entries it holds, live and stale, and the live
        nodes with a vector. Numbers only."""

    def compact_vector_indexes(self, labels: Sequence[VectorLabel], timeout_s: float) -> list[VectorLabel]:
        """Rebuild these labels' vector indexes from their live nodes where the backend leaves stale
        entries behind, waiting up to ``timeout_s`` for them to serve again; returns the labels
        rebuilt. Searches keep working meanwhile (by exact scan where no index answers)."""

    def drop_vector_indexes(self) -> None:
        """Drop every label's vector index, whatever its dimension (a reindex to another dimension;
        ``apply_schema`` creates them again). Idempotent."""

    def ping(self) -> None: ...

    def drop(self) -> None:
        """Delete the whole graph (tests, ``reset``)."""

    def close(self) -> None: ...


class CypherGraphStore:
    """Shared behaviour of the Cypher backends; subclasses implement ``_execute`` and the schema step."""

    dialect: Dialect
    #: How the backend's full-text syntax says "or" (RediSearch ``|``, Lucene ``OR``).
    fulltext_or: str = " | "

    def __init__(self, oversample: int = 8) -> None:
        self._queries = load_queries(self.dialect)
        self._oversample = oversample
        # recall_candidates counts the user's nodes now and then; the counts choose each label's path.
        self._label_counts = LabelCounts(_RECALL_LABELS)

    def statement(self, name: str) -> str:
        try:
            return self._queries[name]
        except KeyError:
            raise StoreError(f"no Cypher statement named {name!r} for {self.dialect}") from None

    def fulltext_search(
        self,
        label: FulltextLabel,
        words: Sequence[str],
        *,
        user_id: str,
        channels: Sequence[str],
        limit: int,
    ) -> list[dict[str, Any]]:
        if label not in FULLTEXT_LABELS:
            raise StoreError(f"no full-text search on {label!r}")
        if not words:
            return []
        # Oversampled like the vector search: the index is shared by every user and filtered after.
        params = {
            "text": self.fulltext_or.join(words),
            "user_id": user_id,
            "channels": list(channels),
            "k": limit * self._oversample,
            "limit": limit,
        }
        return self.run(f"fulltext_search_{label.lower()}", params)

    def recall_candidates(
        self,
        vector: Sequence[float],
        words: Sequence[str],
        *,
        user_id: str,
        channels: Sequence[str],
        limit: int,
    ) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {f"{label}.vector": [] for label in _RECALL_LABELS}
        plan = self._label_counts.plan(user_id, channels)
        ann = plan.ann
        params = {
            "vector": list(vector),
            "text": self.fulltext_or.join(words),
            "user_id": user_id,
            "channels": list(channels),
            "k": limit * self._oversample,
            "limit": limit,
            "exact": plan.exact,
            "ann": ann,
            "count": plan.count,
        }
        try:
            rows = self.run("recall_candidates", params)
        except VectorIndexBuildingError:  # an index being rebuilt (vector_compaction): scan exactly
            rows = self.run("recall_candidates", {**params, "exact": list(_RECALL_LABELS), "ann": []})
            ann = []
        seen: dict[str, int] = {}
        for row in rows:
            label, _, technique = row["source"].partition(".")
            if technique == "seen":
                seen[label] = int(row["score"])
            else:
                found.setdefault(row["source"], []).append({"item": row["item"], "score": row["score"]})
        counts = self._label_counts.record(user_id, channels, seen)
        # An ANN can come back short (its top-k holds other users' nodes and index tombstones): then
        # the exact scan, bounded by the user's own nodes, answers instead.
        for label in ann:
            rows = found[f"{label}.vector"]
            if len(rows) < min(limit, counts.get(label, 0)):
                exact_rows = self.run(f"exact_search_{label.lower()}", params)
                found[f"{label}.vector"] = [{"item": r["item"], "score": r["similarity"]} for r in exact_rows]
        return found

    def _execute(self, statement: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        raise NotImplementedError

    def vector_index_sizes(self) -> dict[VectorLabel, VectorIndexSize]:
        live = {str(row["label"]): int(row["count"]) for row in self.run("census_vector_nodes", {})}
        held = self._index_entries()
        sizes: dict[VectorLabel, VectorIndexSize] = {}
        for label in VECTOR_LABELS:
            entries, building = held.get(label, (live.get(label, 0), False))
            sizes[label] = VectorIndexSize(label, entries, live.get(label, 0), building)
        return sizes

    def _index_entries(self) -> dict[VectorLabel, tuple[int, bool]]:
        """``(entries, building)`` of the labels whose index may hold more entries than live nodes; a
        label left out holds one entry per live node (Neo4j maintains its indexes)."""
        return {}

    def compact_vector_indexes(self, labels: Sequence[VectorLabel], timeout_s: float) -> list[VectorLabel]:
        return []

    def drop_vector_indexes(self) -> None:
        for label in VECTOR_LABELS:
            try:
                self._execute(self.statement(f"admin_drop_vector_{label.lower()}"), {})
            except StoreError as exc:  # FalkorDB has no IF EXISTS: an index already gone is fine
                if not any(marker in str(exc).lower() for marker in _INDEX_GONE):
                    raise

    def run(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        # The one per-user guard: a data statement without a user_id is a bug, never a global read.
        if name.startswith(_ADMIN_PREFIX):
            raise StoreError(f"graph statement {name!r} is not run by name")
        if not name.startswith(_UNSCOPED_PREFIX) and not params.get("user_id"):
            raise StoreError(f"graph statement {name!r} called without user_id")
        return self._execute(self.statement(name), params)

    def vector_search(
        self,
        label: VectorLabel,
        vector: Sequence[float],
        *,
        user_id: str,
        channels: Sequence[str],
        top_k: int,
    ) -> list[dict[str, Any]]:
        if label not in VECTOR_LABELS:
            raise StoreError(f"no vector index on {label!r}")
        suffix = label.lower()
        params = {"vector": list(vector), "user_id": user_id, "channels": list(channels), "limit": top_k}
        # ANN first, oversampled because other users' nodes share the index; the exact scan (bounded
        # by this user's own nodes) covers the case where the filter leaves fewer than top_k rows.
        try:
            rows = self.run(f"vector_search_{suffix}", {**params, "k": top_k * self._oversample})
        except VectorIndexBuildingError:  # the index is being rebuilt (vector_compaction)
            rows = []
        if len(rows) < top_k:
            rows = self.run(f"exact_search_{suffix}", params)
        return rows
