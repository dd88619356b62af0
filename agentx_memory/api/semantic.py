# Generated from agentx_memory/api/semantic_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for semantic memory. Generated from ``api/semantic_async.py``: edit that file.

Writes land in the active channel; reads cover it and ``_global``. Every write gets a timeline row and
an audit row; ids of another user's nodes are indistinguishable from missing ones (``NotFoundError``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..backends import Backends
from ..errors import InvalidInputError, NotFoundError
from ..memory.channels import merge_channels
from ..memory.documents_pure import with_documents
from ..memory.entities import EntityMemory
from ..models.semantic import (
    ENTITY_RELATIONSHIPS,
    ENTITY_TYPES,
    FACT_PRIORITIES,
    FACT_TEMPORALS,
    Entity,
    EntityEdge,
    EntityGraph,
    EntityInfo,
    Fact,
    MemoryStats,
)
from ..settings import LimitSettings
from ..validation import (
    idempotent_id,
    is_one_of,
    validate_confidence,
    validate_content,
    validate_depth,
    validate_index,
    validate_metadata,
    validate_name,
    validate_strings,
    validate_top_k,
    validate_uuid,
)
from .core import FacadeCore

__all__ = ["SemanticApi"]

#: Facts and mentioning turns ``get_entity_info`` returns at most.
_INFO_LIMIT = 50


class SemanticApi(FacadeCore):
    """Semantic methods of ``AgentMemory``: entities, facts, relationships and their search."""

    # -- entities ----------------------------------------------------------------------------------

    def upsert_entity(
        self,
        name: str,
        type: str,
        aliases: Sequence[str] = (),
        description: str | None = None,
        properties: dict[str, Any] | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> Entity:
        """Create the entity or merge into the one it resolves to (same type only).

        Resolution: canonical name (casefolded, whitespace-collapsed), then aliases, then embedding
        similarity of ``"name: description"`` — ≥ 0.90 merges, 0.85–0.90 creates a new node linked
        ``SAME_AS {status: 'candidate', score}`` to the nearest one. A merge adds ``name`` and
        ``aliases`` as aliases, increments ``mention_count`` and ``access_count``, keeps the old
        description unless a new one is given, and merges ``properties`` key by key (new values win,
        no key is ever dropped). Look-ups cover the active channel and ``_global`` (the active one
        first); an entity found in ``_global`` is merged in place and stays global.

        With ``idempotency_key`` a retried call that created the entity returns it instead of
        mentioning it again; a retried merge adds nothing new (aliases, description and properties
        merge to the same), only the mention count moves once more.
        """
        name = self._check_name(name, "name")
        if not is_one_of(type, ENTITY_TYPES):
            raise InvalidInputError(
                f"entity type {type!r} is unknown: use one of {', '.join(sorted(ENTITY_TYPES))}"
            )
        checked_aliases = [
            self._check_name(alias, "alias")
            for alias in validate_strings(aliases, "aliases must be a sequence of strings")
        ]
        if description is not None:
            description = validate_content(description, self.settings.limits, "description")
        props = validate_metadata(properties, self.settings.limits)
        stable_id = idempotent_id(idempotency_key, self.settings.limits, self.scope.user_id, "entity")
        backends = self._open_backends()
        entities = backends.entities
        if stable_id is not None and (stored := entities.get_many(self.scope, [stable_id])):
            return stored[0]
        text = f"{name}: {description}" if description else name
        embedding = backends.embed_one(text)
        found, candidate, score = entities.resolve(self.scope, name, type, checked_aliases, embedding)
        if found is not None:
            entity = entities.merge(
                self.scope,
                found,
                name=name,
                aliases=checked_aliases,
                description=description,
                properties=props,
            )
            operation = "merge_entity"
        else:
            entity = entities.create(
                self.scope,
                name=name,
                entity_type=type,
                aliases=checked_aliases,
                description=description,
                properties=props,
                embedding=embedding,
                entity_id=stable_id,
            )
            operation = "create_entity"
            if candidate is not None:
                entities.link_candidate(self.scope, entity.id, candidate.id, score)
        backends.audit.log_write(
            self.scope, operation, "entity", entity.id, {"type": type, "score": score}, {"name": name}
        )
        return entity

    def create_relationship(
        self, source_id: str, target_id: str, rel_type: str, properties: dict[str, Any] | None = None
    ) -> EntityEdge:
        """Link two of this user's entities ``(source)-[rel_type]->(target)``; idempotent per type.

        ``rel_type`` must be one of RELATED_TO, PART_OF, LOCATED_IN, WORKS_FOR, KNOWS, CREATED_BY,
        REFERENCES; ``properties`` (JSON) replace the edge's previous ones.
        """
        source_id = validate_uuid(source_id, "source_id")
        target_id = validate_uuid(target_id, "target_id")
        if not is_one_of(rel_type, ENTITY_RELATIONSHIPS):
            raise InvalidInputError(
                f"relationship type {rel_type!r} is not allowed: "
                f"use one of {', '.join(sorted(ENTITY_RELATIONSHIPS))}"
            )
        props = validate_metadata(properties, self.settings.limits)
        backends = self._open_backends()
        edge = backends.entities.relate(self.scope, source_id, target_id, rel_type, props)
        backends.audit.log_write(
            self.scope, "create_relationship", "entity", source_id, {"type": rel_type, "target_id": target_id}
        )
        return edge

    def get_entity_graph(self, entity_ids: Sequence[str], depth: int = 2) -> EntityGraph:
        """Entities within ``depth`` hops (capped at 3) of ``entity_ids`` and the typed edges among them."""
        if isinstance(entity_ids, str):
            entity_ids = [entity_ids]
        if isinstance(entity_ids, bytes | bytearray | Mapping) or not isinstance(entity_ids, Iterable):
            raise InvalidInputError("entity_ids must be a list of entity ids")
        ids = [validate_uuid(entity_id, "entity_id") for entity_id in entity_ids]
        if not ids:
            raise InvalidInputError("entity_ids is empty")
        depth = validate_depth(depth)
        backends = self._open_backends()
        entities = backends.entities
        found = {entity.id for entity in entities.get_many(self.scope, ids)}
        if missing := [entity_id for entity_id in ids if entity_id not in found]:
            raise NotFoundError(f"entity {', '.join(missing)} does not exist for user {self.scope.user_id!r}")
        graph = entities.graph(self.scope, ids, depth)
        backends.audit.log_read(
            self.scope,
            "get_entity_graph",
            {"depth": depth, "nodes": len(graph.nodes), "edges": len(graph.edges)},
        )
        return graph

    def search_entities(self, query: str, top_k: int = 10) -> list[tuple[Entity, float]]:
        """This user's entities best matching ``query``: embedding similarity fused with a full-text match
        on names and aliases (reciprocal rank fusion), best first, with the fused score."""
        query = validate_content(query, self.settings.limits, "query")
        top_k = validate_top_k(top_k, self.settings.limits)
        backends = self._open_for_recall("search_entities")
        vector = backends.embed_query(query)
        hits = backends.entities.search(self.scope, query, vector, top_k, self.settings.retrieval.rrf_k)
        backends.audit.log_read(
            self.scope, "search_entities", {"top_k": top_k, "results": len(hits)}, {"query": query}
        )
        self._audit_cross_channel(backends, "entity", [(entity.id, entity.channel) for entity, _ in hits])
        return hits

    def get_entity_info(self, name_or_id: str) -> EntityInfo:
        """An entity (by id, name or alias) with its current facts, neighbours and mentioning turns."""
        if not isinstance(name_or_id, str):
            raise InvalidInputError(f"name_or_id must be a string, not {name_or_id!r}")
        backends = self._open_backends()
        entities = backends.entities
        entity = self._find_entity(entities, name_or_id)
        if entity is None:
            raise NotFoundError(f"no entity {name_or_id!r} for user {self.scope.user_id!r}")
        entities.touch(self.scope, entity.id)
        info = EntityInfo(
            entity=entity,
            facts=backends.facts.facts_about(self.scope, entity.id, _INFO_LIMIT),
            neighbours=entities.neighbours(self.scope, entity.id),
            turns=entities.mentioning_turns(self.scope, entity.id, _INFO_LIMIT),
        )
        backends.audit.log_read(self.scope, "get_entity_info", {"entity_id": entity.id})
        return info

    def _find_entity(self, entities: EntityMemory, name_or_id: str) -> Entity | None:
        try:
            entity_id = str(uuid.UUID(name_or_id))
        except ValueError:
            return entities.find_by_name(self.scope, self._check_name(name_or_id, "name"))
        found = entities.get_many(self.scope, [entity_id])
        return found[0] if found else None

    # -- facts -------------------------------------------------------------------------------------

    def learn_fact(
        self,
        claim: str,
        *,
        confidence: float,
        source: str,
        about: Sequence[str] = (),
        source_turn_id: str | None = None,
        temporal: str = "current",
        priority: str = "medium",
        idempotency_key: str | None = None,
    ) -> Fact:
        """Store a claim ``(:Fact)-[:ABOUT]->(:Entity)`` for each of ``about`` (ids, or names resolved
        like :meth:`upsert_entity` with type ``other`` when no entity of that name exists), and
        ``-[:DERIVED_FROM]->(:Turn)`` when ``source_turn_id`` is one of this user's turns. With
        ``idempotency_key`` a retried call returns the fact the first one stored (its timeline row
        written if the first call died before it) instead of storing the claim twice."""
        limits = self.settings.limits
        claim = validate_content(claim, limits, "claim")
        confidence = validate_confidence(confidence)
        source = self._check_name(source, "source")
        if not is_one_of(temporal, FACT_TEMPORALS):
            raise InvalidInputError(
                f"temporal {temporal!r} is unknown: use one of {', '.join(sorted(FACT_TEMPORALS))}"
            )
        if not is_one_of(priority, FACT_PRIORITIES):
            raise InvalidInputError(
                f"priority {priority!r} is unknown: use one of {', '.join(sorted(FACT_PRIORITIES))}"
            )
        about = validate_strings(about, "about must be a sequence of entity ids or names")
        turn_id = None if source_turn_id is None else validate_uuid(source_turn_id, "source_turn_id")
        stable_id = idempotent_id(idempotency_key, limits, self.scope.user_id)
        backends = self._open_backends()
        facts = backends.facts
        if stable_id is not None and (stored := facts.get_many(self.scope, [stable_id])):
            facts.ensure_timeline(self.scope, stored[0])
            return stored[0]
        if turn_id is not None and not facts.turn_exists(self.scope, turn_id):
            raise NotFoundError(f"turn {turn_id} does not exist for user {self.scope.user_id!r}")
        entity_ids = self._resolve_about(backends, about)
        fact = facts.create(
            self.scope,
            claim=claim,
            confidence=confidence,
            source=source,
            temporal=temporal,
            priority=priority,
            embedding=backends.embed_one(claim),
            about=entity_ids,
            source_turn_ids=() if turn_id is None else (turn_id,),
            fact_id=stable_id,
        )
        backends.audit.log_write(
            self.scope,
            "learn_fact",
            "fact",
            fact.id,
            {"confidence": confidence, "about": entity_ids},
            {"claim": claim},
        )
        return fact

    def _resolve_about(self, backends: Backends, about: Sequence[str]) -> list[str]:
        entities = backends.entities
        ids: dict[str, str] = {}
        names: list[str] = []
        for item in about:
            try:
                ids[item] = str(uuid.UUID(item))
            except ValueError:
                names.append(self._check_name(item, "about"))
        # Every id is checked (NotFoundError for another user's) before any name creates an entity.
        known = {entity.id for entity in entities.get_many(self.scope, list(ids.values()))}
        if missing := [entity_id for entity_id in ids.values() if entity_id not in known]:
            raise NotFoundError(f"entity {', '.join(missing)} does not exist for user {self.scope.user_id!r}")
        for name in names:
            found = entities.find_by_name(self.scope, name)
            ids[name] = found.id if found is not None else (self.upsert_entity(name, "other")).id
        return list(dict.fromkeys(ids[item] for item in about))

    def search_facts(
        self, query: str, top_k: int = 10, min_confidence: float = 0.0
    ) -> list[tuple[Fact, float]]:
        """Current facts nearest ``query``, best first, with cosine similarity; counts their access."""
        query = validate_content(query, self.settings.limits, "query")
        top_k = validate_top_k(top_k, self.settings.limits)
        min_confidence = validate_confidence(min_confidence, "min_confidence")
        backends = self._open_for_recall("search_facts")
        vector = backends.embed_query(query)
        # Twice as many candidates: a promoted fact can come back from both channels and is merged.
        wide = min(2 * top_k, self.settings.limits.max_top_k)
        found = backends.facts.search(self.scope, vector, wide, min_confidence)
        hits = merge_channels(
            found,
            active=self.scope.channel,
            channel_of=lambda fact: fact.channel,
            key_of=lambda fact: " ".join(fact.claim.casefold().split()),
            limit=top_k,
        )
        backends.audit.log_read(
            self.scope, "search_facts", {"top_k": top_k, "results": len(hits)}, {"query": query}
        )
        self._audit_cross_channel(backends, "fact", [(fact.id, fact.channel) for fact, _ in hits])
        return hits

    def list_facts(self, limit: int = 100, offset: int = 0, include_history: bool = False) -> list[Fact]:
        """This user's facts in the channels it reads, newest first: current ones, or with
        ``include_history`` the superseded ones too (``valid_until`` set). Counts no access."""
        limit = validate_top_k(limit, LimitSettings(max_top_k=10_000), "limit")
        offset = validate_index(offset, "offset")
        backends = self._open_backends()
        facts = backends.facts.listing(self.scope, limit, offset, bool(include_history))
        backends.audit.log_read(self.scope, "list_facts", {"limit": limit, "results": len(facts)})
        return facts

    def correct_fact(self, fact_id: str, new_claim: str) -> Fact:
        """Replace a current fact: the old one is soft-deleted and superseded by the returned one
        (same confidence, source, ABOUT links and source turns), reversible with :meth:`undo_correction`.

        Atomic: of two concurrent corrections of one fact exactly one wins; the other raises
        :class:`ConflictError` and leaves nothing behind."""
        fact_id = validate_uuid(fact_id, "fact_id")
        new_claim = validate_content(new_claim, self.settings.limits, "new_claim")
        backends = self._open_backends()
        facts = backends.facts
        old = facts.get(self.scope, fact_id)
        if not old.is_current:
            raise InvalidInputError(
                f"fact {fact_id} is no longer current (superseded by {old.superseded_by})"
            )
        new = facts.create(
            self.scope,
            claim=new_claim,
            confidence=old.confidence,
            source=old.source,
            temporal=old.temporal,
            priority=old.priority,
            embedding=backends.embed_one(new_claim),
            about=(),
            supersedes=old.id,
        )
        backends.audit.log_write(
            self.scope, "correct_fact", "fact", new.id, {"supersedes": old.id}, {"claim": new_claim}
        )
        return new

    def undo_correction(self, fact_id: str) -> Fact:
        """Reverse :meth:`correct_fact`: ``fact_id`` (the correction, or the fact it superseded) decides
        which correction; the correction is soft-deleted and the restored original is returned."""
        fact_id = validate_uuid(fact_id, "fact_id")
        backends = self._open_backends()
        facts = backends.facts
        fact = facts.get(self.scope, fact_id)
        correction_id = fact.superseded_by or fact.id
        restored = facts.undo_correction(self.scope, correction_id)
        backends.audit.log_write(
            self.scope, "undo_correction", "fact", restored.id, {"undone": correction_id}
        )
        return restored

    def confirm_fact(self, fact_id: str) -> Fact:
        """Mark a fact as confirmed: confidence 1.0 and decay rate 0 (it never fades)."""
        fact_id = validate_uuid(fact_id, "fact_id")
        backends = self._open_backends()
        fact = backends.facts.confirm(self.scope, fact_id)
        backends.audit.log_write(self.scope, "confirm_fact", "fact", fact.id)
        return fact

    def memory_stats(self) -> MemoryStats:
        """Counts by kind and channel over the channels this memory reads, and the latest write: graph
        nodes by label, and ``Document`` for the documents frameworks stored (a LangGraph store's
        items), which are memory too."""
        backends = self._open_backends()
        stats = with_documents(
            backends.facts.stats(self.scope),
            backends.documents.counts(self.scope, self.scope.read_channels),
        )
        backends.audit.log_read(self.scope, "memory_stats", {"total": stats.total})
        return stats

    # -- helpers -----------------------------------------------------------------------------------

    def _check_name(self, value: object, what: str) -> str:
        return validate_name(value, self.settings.limits, what)
