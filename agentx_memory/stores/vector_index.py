"""What a graph's vector indexes hold, and how FalkorDB reports it. Pure.

FalkorDB 4.16 indexes a node again, under a new document id, on every write to it, and leaves the old
vector in the HNSW graph (FalkorDB#2197). Stale entries still take places in an ANN's top-k and are
filtered out afterwards, so a much-written node crowds its own neighbours out of the results. A label's
``entries`` are the document ids its index issued since it was built (``maxDocId`` in ``db.indexes()``):
every live and every stale vector is one of them; so is the vectorless first document of a node
created in two steps (``CREATE (n {id}) SET n.embedding = …``), which is not in the HNSW graph, so the
count is an upper bound, exact right after a rebuild. Rebuilding an index (drop and create) numbers
the live nodes afresh: entries = live.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .schema import VECTOR_LABELS, VectorLabel

__all__ = ["FalkorVectorIndex", "VectorIndexSize", "falkordb_vector_indexes"]


@dataclass(frozen=True)
class VectorIndexSize:
    """One label's vector index: ``entries`` it holds (live and stale) and ``live`` nodes with a vector;
    ``building`` while a rebuild is under way (searches then scan exactly)."""

    label: VectorLabel
    entries: int
    live: int
    building: bool = False

    @property
    def stale(self) -> int:
        return max(0, self.entries - self.live)


@dataclass(frozen=True)
class FalkorVectorIndex:
    """A FalkorDB label's vector index as ``db.indexes()`` reports it."""

    label: VectorLabel
    entries: int
    documents: int
    dimension: int
    building: bool


def _falkor_index(label: VectorLabel, row: Mapping[str, Any]) -> FalkorVectorIndex:
    info, options = row.get("info") or {}, (row.get("options") or {}).get("embedding") or {}
    return FalkorVectorIndex(
        label=label,
        entries=int(info.get("maxDocId", 0)),
        documents=int(info.get("numDocuments", 0)),
        dimension=int(options.get("dimension", 0)),
        building=row.get("status") != "OPERATIONAL",
    )


def falkordb_vector_indexes(rows: Iterable[Mapping[str, Any]]) -> dict[VectorLabel, FalkorVectorIndex]:
    """The vector indexes among ``CALL db.indexes()`` rows (``label``; ``types``, ``options`` and ``info``
    maps; ``status``), by label. While a label is re-indexed FalkorDB reports two rows, the one still serving
    and the one under construction: the label counts as building, with the serving row's numbers."""
    serving: dict[VectorLabel, FalkorVectorIndex] = {}
    building: dict[VectorLabel, FalkorVectorIndex] = {}
    for row in rows:
        label = next((known for known in VECTOR_LABELS if known == str(row["label"])), None)
        if label is None or "VECTOR" not in ((row.get("types") or {}).get("embedding") or []):
            continue
        index = _falkor_index(label, row)
        (building if index.building else serving)[label] = index
    return {
        label: replace(serving.get(label, index), building=label in building)
        for label, index in {**building, **serving}.items()
    }
