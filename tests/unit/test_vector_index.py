"""Reading FalkorDB's ``db.indexes()`` rows: vector indexes only, their entries and dimension, and the
two rows of a label being rebuilt."""

from __future__ import annotations

from typing import Any

from agentx_memory.stores.vector_index import VectorIndexSize, falkordb_vector_indexes


def _row(label: str, status: str = "OPERATIONAL", vector: bool = True, **info: int) -> dict[str, Any]:
    types: dict[str, list[str]] = {"id": ["RANGE"], **({"embedding": ["VECTOR"]} if vector else {})}
    options = {
        "id": {},
        **({"embedding": {"dimension": 384, "similarityFunction": "cosine"}} if vector else {}),
    }
    return {"label": label, "types": types, "options": options, "info": info, "status": status}


def test_vector_indexes_with_their_entries_and_dimension() -> None:
    found = falkordb_vector_indexes(
        [
            _row("Fact", maxDocId=70, numDocuments=50),
            _row("Conversation", vector=False, maxDocId=9, numDocuments=9),  # a range index only
            _row("Tool", maxDocId=3, numDocuments=3),  # not a vector label of ours
        ]
    )
    assert list(found) == ["Fact"]
    fact = found["Fact"]
    assert (fact.entries, fact.documents, fact.dimension, fact.building) == (70, 50, 384, False)


def test_a_label_being_rebuilt_is_building_with_the_serving_rows_numbers() -> None:
    serving = _row("Entity", maxDocId=900, numDocuments=300)
    fresh = _row("Entity", "[Indexing] 20/300: UNDER CONSTRUCTION", maxDocId=20, numDocuments=20)
    for rows in ([serving, fresh], [fresh, serving]):
        entity = falkordb_vector_indexes(rows)["Entity"]
        assert (entity.entries, entity.building) == (900, True)
    # Dropped and not yet serving again (a small index): only the row under construction.
    assert falkordb_vector_indexes([fresh])["Entity"].building


def test_stale_entries_are_never_negative() -> None:
    assert VectorIndexSize("Fact", entries=70, live=50).stale == 20
    assert VectorIndexSize("Fact", entries=3, live=5).stale == 0
