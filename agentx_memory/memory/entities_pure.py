"""Entities memory's pure functions and constants, shared by the async source and its generated twin."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal

from ..embedding.calibration import Calibration
from ..models.semantic import Entity, EntityEdge
from ..timecodec import from_epoch_ms, maybe_from_epoch_ms

__all__ = [
    "MAX_GRAPH_DEPTH",
    "RELATIONSHIP_STATEMENTS",
    "SIMILAR_CANDIDATES",
    "TRAVERSAL_LIMIT",
    "ResolutionBand",
    "alias_keys",
    "canonical_name",
    "edge_from_row",
    "entity_from_graph",
    "fulltext_terms",
    "merge_aliases",
    "merge_properties",
    "merged_entity",
    "resolution_band",
]


MAX_GRAPH_DEPTH: Final = 3
#: Upper bound on the rows of any traversal (nodes of a neighbourhood, edges, neighbours).
TRAVERSAL_LIMIT: Final = 200
#: Nearest entities fetched for the similarity step (then filtered by type).
SIMILAR_CANDIDATES: Final = 10

ResolutionBand = Literal["merge", "candidate", "new"]

#: The statement that creates each allowed relationship type (types are never built from input).
RELATIONSHIP_STATEMENTS: Final = {
    "RELATED_TO": "relate_related_to",
    "PART_OF": "relate_part_of",
    "LOCATED_IN": "relate_located_in",
    "WORKS_FOR": "relate_works_for",
    "KNOWS": "relate_knows",
    "CREATED_BY": "relate_created_by",
    "REFERENCES": "relate_references",
}


def canonical_name(name: str) -> str:
    """The key two spellings of one name share: casefolded, whitespace collapsed."""
    return " ".join(name.casefold().split())


def resolution_band(similarity: float, calibration: Calibration) -> ResolutionBand:
    """What a new mention with this similarity to the nearest same-type entity becomes: merged from the
    embedder's ``entity_merge`` cosine, a ``SAME_AS`` candidate from its ``entity_candidate``."""
    if similarity >= calibration.entity_merge:
        return "merge"
    if similarity >= calibration.entity_candidate:
        return "candidate"
    return "new"


def merge_aliases(name: str, aliases: Sequence[str], new_name: str, new_aliases: Iterable[str]) -> list[str]:
    """``aliases`` plus every new spelling (``new_name`` included) not already known, in first-seen order."""
    seen = {canonical_name(name)}
    merged: list[str] = []
    for alias in [*aliases, new_name, *new_aliases]:
        key = canonical_name(alias)
        if key and key not in seen:
            seen.add(key)
            merged.append(alias)
    return merged


def merge_properties(existing: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """Shallow JSON merge: keys are never dropped; a key given again takes the new value."""
    return {**existing, **new}


def merged_entity(
    entity: Entity,
    name: str,
    aliases: Sequence[str],
    description: str | None,
    properties: Mapping[str, Any],
) -> Entity | None:
    """``entity`` with a new mention merged in (new spellings as aliases, a new description, properties
    key by key), or ``None`` when the mention brings nothing new: then its node is not written at all,
    since every write re-indexes the node's vector (a stale HNSW entry on FalkorDB 4.16)."""
    merged = entity.model_copy(
        update={
            "aliases": merge_aliases(entity.name, entity.aliases, name, aliases),
            "description": entity.description if description is None else description,
            "properties": merge_properties(entity.properties, properties),
        }
    )
    return None if merged == entity else merged


_WORD = re.compile(r"\w+")


def fulltext_terms(query: str, max_terms: int = 16) -> str:
    """``query`` as lowercase words only: no RediSearch or Lucene operator can survive (``AND``, ``|``,
    ``@field:``, quotes, wildcards), so the text is safe to hand to either full-text engine."""
    return " ".join(_WORD.findall(query.casefold())[:max_terms])


def alias_keys(name: str, aliases: Iterable[str]) -> list[str]:
    return sorted({canonical_name(name), *(canonical_name(alias) for alias in aliases)})


def entity_from_graph(item: Mapping[str, Any]) -> Entity:
    return Entity(
        id=item["id"],
        user_id=item["user_id"],
        channel=item["channel"],
        name=item["name"],
        type=item["type"],
        aliases=list(item.get("aliases") or []),
        description=item.get("description"),
        properties=json.loads(item["properties"]) if item.get("properties") else {},
        mention_count=item.get("mention_count") or 0,
        access_count=item.get("access_count") or 0,
        created_at=from_epoch_ms(item["created_at"]),
        updated_at=from_epoch_ms(item["updated_at"]),
        first_seen=maybe_from_epoch_ms(item.get("first_seen")),
    )


def edge_from_row(row: Mapping[str, Any]) -> EntityEdge:
    properties: dict[str, Any] = json.loads(row["properties"]) if row.get("properties") else {}
    if row.get("status") is not None:  # SAME_AS candidates carry their review state, not JSON properties
        properties = {**properties, "status": row["status"], "score": row["score"]}
    return EntityEdge(
        source_id=row["source_id"], target_id=row["target_id"], type=row["type"], properties=properties
    )
