# Generated from agentx_memory/memory/entities_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Semantic memory, entities: resolution, relationships, neighbourhoods. Generated from
``memory/entities_async.py``: edit that file.

Resolution keeps one real-world thing one node, always within one entity type: the canonical name first,
then the aliases, then embedding similarity (:func:`resolution_band`). The decisions are pure functions
at the top of this module; the I/O below only runs named statements from ``cypher/entities.cypher``.
Two concurrent upserts of a brand-new name may still create two nodes; the candidate ``SAME_AS`` review
(and a later merge job) is the remedy, not a lock.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ..crypto import Encryptor
from ..embedding.calibration import DEFAULT_MODEL_ID, Calibration, load_profile
from ..errors import InvalidInputError, NotFoundError, StoreError
from ..models import Scope, Turn
from ..models.semantic import Entity, EntityEdge, EntityGraph, Fact, Neighbour
from ..retrieval.fusion import FOLDS_TO_ASCII, rrf_fuse
from ..stores.graph import GraphStore
from ..timecodec import epoch_ms, now_ms
from .access import AccessMemory
from .access_pure import overlay_entities
from .entities_pure import (
    MAX_GRAPH_DEPTH,
    RELATIONSHIP_STATEMENTS,
    SIMILAR_CANDIDATES,
    TRAVERSAL_LIMIT,
    alias_keys,
    canonical_name,
    edge_from_row,
    entity_from_graph,
    fulltext_terms,
    merge_aliases,
    merged_entity,
    resolution_band,
)
from .episodic_pure import turn_from_graph
from .facts_pure import fact_from_graph
from .scoping import scope_params
from .timeline import Timeline

__all__ = ["EntityMemory"]


class EntityMemory:
    """Entities of one user over the graph; a stateless view the facade builds per call. Access and
    mention counts and salience live in ``access`` (never on the entity's vector-indexed node) and are
    overlaid on what this returns to callers; recall's hot path reads them only for its results."""

    def __init__(
        self,
        graph: GraphStore,
        timeline: Timeline,
        access: AccessMemory,
        encryptor: Encryptor | None = None,
        calibration: Calibration | None = None,
    ) -> None:
        self._graph = graph
        # Entity resolution's merge and candidate cosines: the embedder's (MiniLM's when not given).
        self._calibration = calibration or load_profile(DEFAULT_MODEL_ID)
        self._timeline = timeline
        self._access = access
        self._encryptor = encryptor  # opens the graph's copy of turn metadata (mentioning_turns)

    def _one(self, name: str, params: Mapping[str, Any]) -> Entity | None:
        rows = self._graph.run(name, params)
        return entity_from_graph(rows[0]["item"]) if rows else None

    def _overlaid(self, scope: Scope, entities: Sequence[Entity]) -> list[Entity]:
        records = self._access.get(scope, "entity", [entity.id for entity in entities])
        return overlay_entities(entities, records)

    def resolve(
        self, scope: Scope, name: str, entity_type: str, aliases: Sequence[str], embedding: Sequence[float]
    ) -> tuple[Entity | None, Entity | None, float]:
        """The entity to merge into (if any), else the nearest ``SAME_AS`` candidate and its similarity."""
        key = canonical_name(name)
        found = self._one("find_entity_by_name", scope_params(scope, type=entity_type, canonical=key))
        if found is None:
            keys = alias_keys(name, aliases)
            found = self._one("find_entity_by_alias", scope_params(scope, type=entity_type, keys=keys))
        if found is not None:
            return found, None, 1.0
        rows = self._graph.vector_search(
            "Entity",
            embedding,
            user_id=scope.user_id,
            channels=scope.read_channels,
            top_k=SIMILAR_CANDIDATES,
        )
        same_type = [row for row in rows if row["item"]["type"] == entity_type]
        if not same_type:
            return None, None, 0.0
        nearest, similarity = entity_from_graph(same_type[0]["item"]), float(same_type[0]["similarity"])
        band = resolution_band(similarity, self._calibration)
        if band == "merge":
            return nearest, None, similarity
        return None, (nearest if band == "candidate" else None), similarity

    def create(
        self,
        scope: Scope,
        *,
        name: str,
        entity_type: str,
        aliases: Sequence[str],
        description: str | None,
        properties: Mapping[str, Any],
        embedding: Sequence[float],
        entity_id: str | None = None,
    ) -> Entity:
        known = merge_aliases(name, [], name, aliases)
        params = scope_params(
            scope,
            id=entity_id or str(uuid.uuid4()),
            name=name,
            type=entity_type,
            canonical=canonical_name(name),
            aliases=known,
            alias_keys=alias_keys(name, known),
            aliases_text=" ".join(known),
            description=description,
            properties=json.dumps(dict(properties), ensure_ascii=False),
            now=now_ms(),
            embedding=list(embedding),
        )
        entity = self._one("create_entity", params)
        if entity is None:  # CREATE always returns its row; no row means the store misbehaved
            raise StoreError(f"entity {name!r} was not created")
        self._timeline.record(
            scope, memory_type="entity", memory_id=entity.id, summary=f"{entity_type}: {name}"
        )
        return entity

    def merge(
        self,
        scope: Scope,
        entity: Entity,
        *,
        name: str,
        aliases: Sequence[str],
        description: str | None,
        properties: Mapping[str, Any],
    ) -> Entity:
        """Merge a new mention into ``entity``: one more mention and access (in ``access``); the node
        is written only when the mention adds an alias, a description or a property."""
        merged = merged_entity(entity, name, aliases, description, properties)
        if merged is not None:
            params = scope_params(
                scope,
                id=entity.id,
                aliases=merged.aliases,
                alias_keys=alias_keys(entity.name, merged.aliases),
                aliases_text=" ".join(merged.aliases),
                description=merged.description,
                properties=json.dumps(merged.properties, ensure_ascii=False),
                now=now_ms(),
            )
            written = self._one("merge_entity", params)
            if written is None:
                raise NotFoundError(f"entity {entity.id} vanished while merging")
            entity = written
        self._access.mention(scope, "entity", [entity.id])
        return (self._overlaid(scope, [entity]))[0]

    def link_candidate(self, scope: Scope, entity_id: str, other_id: str, score: float) -> None:
        self._graph.run(
            "link_same_as_candidate",
            scope_params(scope, id=entity_id, other_id=other_id, score=score, now=now_ms()),
        )

    def same_as_candidates(self, scope: Scope, entity_id: str) -> list[tuple[str, float]]:
        rows = self._graph.run("same_as_candidates", scope_params(scope, id=entity_id, limit=TRAVERSAL_LIMIT))
        return [(row["id"], float(row["score"])) for row in rows if row["status"] == "candidate"]

    def get_many(self, scope: Scope, ids: Sequence[str]) -> list[Entity]:
        rows = self._graph.run("get_entities", scope_params(scope, ids=list(ids)))
        return self._overlaid(scope, [entity_from_graph(row["item"]) for row in rows])

    def get(self, scope: Scope, entity_id: str) -> Entity:
        found = self.get_many(scope, [entity_id])
        if not found:
            raise NotFoundError(f"entity {entity_id} does not exist for user {scope.user_id!r}")
        return found[0]

    def find_by_name(self, scope: Scope, name: str, channels: Sequence[str] | None = None) -> Entity | None:
        """The entity named (or aliased) ``name`` of any type: exact names first, then the active
        channel, then the most mentioned (mentions are counted in ``access``), then the oldest."""
        params = scope_params(scope, key=canonical_name(name), limit=SIMILAR_CANDIDATES)
        if channels is not None:
            params["channels"] = list(channels)
        rows = self._graph.run("find_entity_any_type", params)
        found = self._overlaid(scope, [entity_from_graph(row["item"]) for row in rows])
        ranks = {row["item"]["id"]: (row["exact"], row["here"]) for row in rows}
        found.sort(key=lambda e: (*ranks[e.id], -e.mention_count, e.created_at))
        return found[0] if found else None

    def first_seen(self, scope: Scope, seen: Mapping[str, datetime]) -> None:
        """Record when each entity (id → time) was said: its ``first_seen`` becomes the earliest time
        it has been given, whatever the order of the calls."""
        if seen:
            rows = [{"id": entity_id, "at": epoch_ms(at)} for entity_id, at in seen.items()]
            self._graph.run("entities_first_seen", scope_params(scope, seen=rows))

    def touch(self, scope: Scope, entity_id: str) -> None:
        """Count one more access of the entity; its node is not written."""
        self._access.touch(scope, "entity", [entity_id])

    def relate(
        self, scope: Scope, source_id: str, target_id: str, rel_type: str, properties: Mapping[str, Any]
    ) -> EntityEdge:
        statement = RELATIONSHIP_STATEMENTS.get(rel_type)
        if statement is None:  # every caller checks first; a type is a statement's name, never Cypher text
            raise InvalidInputError(f"relationship type {rel_type!r} is not in the allow-list")
        params = scope_params(
            scope,
            source_id=source_id,
            target_id=target_id,
            properties=json.dumps(dict(properties), ensure_ascii=False),
            now=now_ms(),
        )
        if not self._graph.run(statement, params):
            missing = [i for i in (source_id, target_id) if not self.get_many(scope, [i])]
            raise NotFoundError(f"entity {', '.join(missing)} does not exist for user {scope.user_id!r}")
        return EntityEdge(
            source_id=source_id, target_id=target_id, type=rel_type, properties=dict(properties)
        )

    def graph(self, scope: Scope, ids: Sequence[str], depth: int) -> EntityGraph:
        """Entities within ``depth`` (≤ 3) hops of ``ids`` and the edges among them, both bounded."""
        depth = max(1, min(depth, MAX_GRAPH_DEPTH))
        rows = self._graph.run(
            f"entity_graph_depth_{depth}", scope_params(scope, ids=list(ids), limit=TRAVERSAL_LIMIT)
        )
        nodes = self._overlaid(scope, [entity_from_graph(row["item"]) for row in rows])
        edge_rows = self._graph.run(
            "entity_graph_edges", scope_params(scope, ids=[node.id for node in nodes], limit=TRAVERSAL_LIMIT)
        )
        edges = [edge_from_row(row) for row in edge_rows]
        return EntityGraph(nodes=nodes, edges=edges)

    def neighbours(self, scope: Scope, entity_id: str) -> list[Neighbour]:
        found: list[tuple[Entity, str, bool]] = []
        for statement, outgoing in (("entity_neighbours_out", True), ("entity_neighbours_in", False)):
            rows = self._graph.run(statement, scope_params(scope, id=entity_id, limit=TRAVERSAL_LIMIT))
            found += [(entity_from_graph(row["item"]), row["type"], outgoing) for row in rows]
        entities = self._overlaid(scope, [entity for entity, _, _ in found])
        return [
            Neighbour(entity=entity, type=rel_type, outgoing=outgoing)
            for entity, (_, rel_type, outgoing) in zip(entities, found, strict=True)
        ]

    def expand(
        self,
        scope: Scope,
        ids: Sequence[str],
        channels: Sequence[str],
        limit: int,
        fact_ids: Sequence[str] = (),
        words: Mapping[str, Sequence[str]] | None = None,
        *,
        statements: bool = True,
    ) -> tuple[dict[str, list[Entity]], dict[str, list[Fact]], dict[str, Fact]]:
        """The neighbours (either direction) and current facts of each entity in ``ids``, at most
        ``limit`` of each per entity, by entity id; and the facts in ``fact_ids`` (current or not), by
        id (free statements may be left out without ``statements``). One statement for all of them.

        ``words`` (None: every fact) maps each id in ``ids`` to lowercase ASCII prefixes: of that
        entity's ``limit`` newest facts only those whose lowercased claim contains one come back, and
        those holding a character of :data:`~agentx_memory.retrieval.fusion.FOLDS_TO_ASCII` — a
        superset of the facts :func:`~agentx_memory.retrieval.fusion.term_overlap` finds one of them
        in. An empty prefix keeps every fact of its entity."""
        if not ids and not fact_ids:
            return {}, {}, {}
        params = scope_params(
            scope,
            ids=list(ids),
            channels=list(channels),
            limit=limit,
            fact_ids=list(fact_ids),
            words=None if words is None else {key: list(value) for key, value in words.items()},
            folding=list(FOLDS_TO_ASCII),
            statements=statements,
        )
        neighbours: dict[str, list[Entity]] = {}
        facts: dict[str, Fact] = {}
        # An entity's fact that is also in `fact_ids` comes back as its id alone (and whole, once).
        owners: list[tuple[list[str], str]] = []
        for row in self._graph.run("expand_entities", params):
            if row["source"] == "neighbour":
                neighbours.setdefault(row["from_ids"][0], []).append(entity_from_graph(row["item"]))
                continue
            item = row["item"]
            if len(item) > 1:  # more than the id: the fact's properties
                facts.setdefault(item["id"], fact_from_graph(item, row["about"], row["turns"]))
            if row["from_ids"]:
                owners.append((row["from_ids"], item["id"]))
        about: dict[str, list[Fact]] = {}
        for from_ids, fact_id in owners:
            for entity_id in from_ids:
                about.setdefault(entity_id, []).append(facts[fact_id])
        for listed in about.values():  # newest first, as each entity's facts were chosen
            listed.sort(key=lambda fact: fact.created_at, reverse=True)
        whole = {fact_id: facts[fact_id] for fact_id in fact_ids if fact_id in facts}
        return neighbours, about, whole

    def mentioning_turns(self, scope: Scope, entity_id: str, limit: int) -> list[Turn]:
        """The turns that mention the entity (``MENTIONS``), newest first."""
        rows = self._graph.run("entity_turns", scope_params(scope, id=entity_id, limit=limit))
        return [turn_from_graph(dict(row["item"]), self._encryptor) for row in rows]

    def recall_candidates(
        self, scope: Scope, vector: Sequence[float], text: str, channels: Sequence[str], limit: int
    ) -> tuple[dict[str, Entity], dict[str, float], dict[str, float]]:
        """Entities near ``vector`` and matching ``text`` by name or alias: (by id, id → cosine, id → score).

        Nothing is touched: the caller reinforces only what it finally returns.
        """
        rows = self._graph.vector_search(
            "Entity", vector, user_id=scope.user_id, channels=channels, top_k=limit
        )
        text_rows = self._graph.fulltext_search(
            "Entity", fulltext_terms(text).split(), user_id=scope.user_id, channels=channels, limit=limit
        )
        found = {row["item"]["id"]: entity_from_graph(row["item"]) for row in [*rows, *text_rows]}
        dense = {row["item"]["id"]: float(row["similarity"]) for row in rows}
        lexical = {row["item"]["id"]: float(row["score"]) for row in text_rows}
        return found, dense, lexical

    def search(
        self, scope: Scope, query: str, vector: Sequence[float], top_k: int, rrf_k: int
    ) -> list[tuple[Entity, float]]:
        """Vector and full-text (name, aliases) rankings fused by RRF; scores are RRF scores."""
        found, dense, lexical = self.recall_candidates(scope, vector, query, scope.read_channels, top_k)
        fused = rrf_fuse(
            [sorted(dense, key=lambda key: -dense[key]), sorted(lexical, key=lambda key: -lexical[key])],
            rrf_k,
        )
        best = fused[:top_k]
        entities = self._overlaid(scope, [found[entity_id] for entity_id, _ in best])
        return [(entity, score) for entity, (_, score) in zip(entities, best, strict=True)]

    def names(self, scope: Scope, limit: int = 2000) -> dict[str, str]:
        """Every name and alias of the user's entities (casefolded) → the entity id."""
        rows = self._graph.run("entity_names", scope_params(scope, limit=limit))
        found: dict[str, str] = {}
        for row in rows:
            for name in [row["name"], *(row["aliases"] or [])]:
                if isinstance(name, str) and name:
                    found.setdefault(name.casefold(), row["id"])
        return found

    def link_mentions(self, scope: Scope, turn_id: str, entity_ids: Sequence[str]) -> None:
        """``(:Turn)-[:MENTIONS]->(:Entity)`` for each entity the turn names."""
        if entity_ids:
            self._graph.run(
                "link_turn_mentions", scope_params(scope, turn_id=turn_id, entity_ids=list(entity_ids))
            )
