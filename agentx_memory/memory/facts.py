# Generated from agentx_memory/memory/facts_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Semantic memory, facts: claims, links, corrections and statistics. Generated from
``memory/facts_async.py``: edit that file.

A fact is never overwritten: a correction soft-deletes the old one (``valid_until``, ``superseded_by``)
and links the new one ``(:Fact new)-[:SUPERSEDES]->(:Fact old)``, so ``undo_correction`` can restore it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..errors import ConflictError, NotFoundError
from ..extraction.atoms import FactAtom
from ..models import Scope
from ..models.semantic import Fact, MemoryStats
from ..stores.graph import GraphStore
from ..timecodec import maybe_epoch_ms, maybe_from_epoch_ms, now_ms
from .access import AccessMemory
from .access_pure import overlay_facts
from .facts_pure import DEFAULT_DECAY_RATE, PRIORITY_SALIENCE, atom_params, fact_from_graph
from .scoping import scope_params
from .timeline import Timeline

__all__ = ["FactMemory"]


class FactMemory:
    """Facts of one user over the graph; a stateless view the facade builds per call. Access counts
    live in ``access`` (never on the fact's vector-indexed node) and are overlaid on every read."""

    def __init__(self, graph: GraphStore, timeline: Timeline, access: AccessMemory) -> None:
        self._graph = graph
        self._timeline = timeline
        self._access = access

    def turn_exists(self, scope: Scope, turn_id: str) -> bool:
        return bool(self._graph.run("find_turn", scope_params(scope, turn_id=turn_id)))

    def create(
        self,
        scope: Scope,
        *,
        claim: str,
        confidence: float,
        source: str,
        temporal: str,
        priority: str,
        embedding: Sequence[float],
        about: Sequence[str],
        source_turn_ids: Sequence[str] = (),
        atom: FactAtom | None = None,
        supersedes: str | None = None,
        protected: bool = False,
        stated_at: datetime | None = None,
        fact_id: str | None = None,
    ) -> Fact:
        """Create the fact, its ABOUT / DERIVED_FROM edges (ids already checked by the caller) and its
        timeline row. With ``supersedes`` the fact replaces that current fact in one atomic step
        (:class:`ConflictError` if it is no longer current) and inherits its links.
        A ``protected`` fact never decays (user-stated, confirmed). ``fact_id``: a caller's stable id
        (an idempotent write), else a new one."""
        fact_id = fact_id or str(uuid.uuid4())
        params = scope_params(
            scope,
            id=fact_id,
            claim=claim,
            confidence=confidence,
            source=source,
            temporal=temporal,
            priority=priority,
            salience=PRIORITY_SALIENCE[priority],
            decay_rate=0.0 if protected else DEFAULT_DECAY_RATE,
            now=now_ms(),
            embedding=list(embedding),
            stated_at=maybe_epoch_ms(stated_at),
            **atom_params(atom),
        )
        # The node and its edges in one statement (a crash between two would leave a fact about nothing).
        params["entity_ids"] = list(about)
        params["turn_ids"] = list(dict.fromkeys(source_turn_ids))
        if supersedes is None:
            self._graph.run("create_fact", params)
        elif not self._graph.run(
            "correct_fact", {**params, "old_id": supersedes, "ended_at": maybe_epoch_ms(stated_at)}
        ):
            raise ConflictError(f"fact {supersedes} is no longer current (it was corrected concurrently)")
        fact = self.get(scope, fact_id)
        self._timeline.record(
            scope, memory_type="fact", memory_id=fact.id, summary=claim, importance=fact.salience
        )
        return fact

    def ensure_timeline(self, scope: Scope, fact: Fact) -> None:
        """The fact's timeline row, written if missing (a write that died between graph and ledger)."""
        self._timeline.record(
            scope, memory_type="fact", memory_id=fact.id, summary=fact.claim, importance=fact.salience
        )

    def add_sources(self, scope: Scope, fact_id: str, turn_ids: Sequence[str]) -> None:
        """Record more turns the fact was learned from (a dedup UPDATE); edges only, so the fact's
        vector-indexed node is not rewritten."""
        self._graph.run(
            "link_fact_turns", scope_params(scope, fact_id=fact_id, turn_ids=list(dict.fromkeys(turn_ids)))
        )

    def in_slot(self, scope: Scope, subject: str, keys: Sequence[str]) -> list[Fact]:
        """The current facts about ``subject`` under ``keys`` (what a new value would contradict); a key
        ending in ``*`` is every key it begins."""
        exact = [key for key in keys if not key.endswith("*")]
        prefixes = [key[:-1] for key in keys if key.endswith("*")]
        params = scope_params(scope, subject=subject, keys=exact, prefixes=prefixes)
        rows = self._graph.run("facts_in_slot", params)
        return self.get_many(scope, [row["id"] for row in rows])

    def flag_contradiction(self, scope: Scope, new_id: str, old_id: str, reason: str) -> None:
        self._graph.run(
            "flag_contradiction",
            scope_params(scope, new_id=new_id, old_id=old_id, reason=reason, now=now_ms()),
        )

    def review_queue(self, scope: Scope, limit: int) -> list[tuple[str, str, str]]:
        """``(new fact id, old fact id, reason)`` of the contradictions waiting for review, oldest first."""
        rows = self._graph.run("review_queue", scope_params(scope, limit=limit))
        return [(row["new_id"], row["old_id"], row["reason"] or "") for row in rows]

    def close_contradiction(self, scope: Scope, new_id: str, old_id: str, status: str) -> bool:
        rows = self._graph.run(
            "close_contradiction",
            scope_params(scope, new_id=new_id, old_id=old_id, status=status, now=now_ms()),
        )
        return bool(rows)

    def get_many(self, scope: Scope, ids: Sequence[str], channels: Sequence[str] | None = None) -> list[Fact]:
        """The facts with these ids (current or not), in the order of ``ids``; ``channels`` overrides
        the scope's read channels."""
        params = scope_params(scope, ids=list(ids))
        if channels is not None:
            params["channels"] = list(channels)
        rows = self._graph.run("get_facts", params)
        by_id = {row["item"]["id"]: fact_from_graph(row["item"], row["about"], row["turns"]) for row in rows}
        found = [by_id[fact_id] for fact_id in ids if fact_id in by_id]
        return overlay_facts(found, self._access.get(scope, "fact", list(by_id)))

    def get(self, scope: Scope, fact_id: str) -> Fact:
        found = self.get_many(scope, [fact_id])
        if not found:
            raise NotFoundError(f"fact {fact_id} does not exist for user {scope.user_id!r}")
        return found[0]

    def search(
        self, scope: Scope, vector: Sequence[float], top_k: int, min_confidence: float
    ) -> list[tuple[Fact, float]]:
        """Current facts nearest ``vector`` with at least ``min_confidence``; their access is counted."""
        # Low-confidence facts are filtered after the ANN step, so fetch more when a filter applies.
        fetch = top_k if min_confidence <= 0 else top_k * 4
        rows = self._graph.vector_search(
            "Fact", vector, user_id=scope.user_id, channels=scope.read_channels, top_k=fetch
        )
        scores = {
            row["item"]["id"]: float(row["similarity"])
            for row in rows
            if float(row["item"]["confidence"]) >= min_confidence
        }
        ids = sorted(scores, key=lambda fact_id: -scores[fact_id])[:top_k]
        if not ids:
            return []
        self._access.touch(scope, "fact", ids)
        return [(fact, scores[fact.id]) for fact in self.get_many(scope, ids)]

    def nearest(self, scope: Scope, vector: Sequence[float], top_k: int) -> list[tuple[Fact, float]]:
        """Current facts nearest ``vector`` in the active channel, with cosine; no access is counted
        (dedup and contradiction checks are not recalls)."""
        rows = self._graph.vector_search(
            "Fact", vector, user_id=scope.user_id, channels=[scope.channel], top_k=top_k
        )
        scores = {row["item"]["id"]: float(row["similarity"]) for row in rows}
        found = self.get_many(scope, list(scores))
        return [(fact, scores[fact.id]) for fact in found if fact.is_current]

    def listing(self, scope: Scope, limit: int, offset: int, include_history: bool) -> list[Fact]:
        """The user's facts, newest first (current ones only unless ``include_history``)."""
        rows = self._graph.run(
            "list_facts",
            scope_params(scope, limit=limit, offset=offset, include_history=include_history),
        )
        return self.get_many(scope, [row["id"] for row in rows])

    def facts_about(
        self, scope: Scope, entity_id: str, limit: int, channels: Sequence[str] | None = None
    ) -> list[Fact]:
        params = scope_params(scope, id=entity_id, limit=limit)
        if channels is not None:
            params["channels"] = list(channels)
        rows = self._graph.run("entity_facts", params)
        return self.get_many(scope, [row["id"] for row in rows], channels)

    def retire(self, scope: Scope, fact_id: str, replaced_by: str, ended_at: datetime | None = None) -> None:
        """Make ``fact_id`` no longer current, superseded by the existing fact ``replaced_by``; it held
        until ``ended_at`` (when the replacement was said), else until now."""
        self._graph.run(
            "supersede_fact",
            scope_params(
                scope, old_id=fact_id, new_id=replaced_by, now=now_ms(), ended_at=maybe_epoch_ms(ended_at)
            ),
        )

    def undo_correction(self, scope: Scope, correction_id: str) -> Fact:
        rows = self._graph.run("undo_correction", scope_params(scope, id=correction_id, now=now_ms()))
        if not rows:
            raise ConflictError(f"fact {correction_id} is not a current correction of another fact")
        return self.get(scope, rows[0]["id"])

    def confirm(self, scope: Scope, fact_id: str) -> Fact:
        rows = self._graph.run("confirm_fact", scope_params(scope, id=fact_id, now=now_ms()))
        if not rows:
            raise NotFoundError(f"fact {fact_id} does not exist for user {scope.user_id!r}")
        return self.get(scope, fact_id)

    def latest_reflection(self, scope: Scope) -> tuple[Fact, datetime] | None:
        """The user's newest current reflection in the channels read, with when the reflect job wrote
        it by its own clock (``stated_at``); None before the first one."""
        rows = self._graph.run("latest_reflection", scope_params(scope))
        if not rows:
            return None
        found = self.get_many(scope, [rows[0]["id"]])
        reflected_at = maybe_from_epoch_ms(rows[0]["reflected_at"])
        return (found[0], reflected_at) if found and reflected_at is not None else None

    def new_since(self, scope: Scope, since: datetime | None, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many current facts of the user (any channel; reflections left out) were created after
        ``since`` (all when None), and the ``limit`` most salient of them (claim, priority, confidence,
        fact_kind, source)."""
        params = {"user_id": scope.user_id, "since": maybe_epoch_ms(since) or 0, "limit": limit}
        counted = self._graph.run("count_facts_for_reflection", params)
        rows = self._graph.run("facts_for_reflection", params)
        return int(counted[0]["n"]) if counted else 0, rows

    def stats(self, scope: Scope) -> MemoryStats:
        rows = self._graph.run("semantic_counts", scope_params(scope))
        counts: dict[str, dict[str, int]] = {}
        current = 0
        latest: int | float | None = None
        for row in rows:
            if not row["count"]:
                continue
            if row["label"] == "current_facts":
                current += int(row["count"])
                continue
            counts.setdefault(row["label"], {})[row["channel"]] = int(row["count"])
            if row["latest"] is not None and (latest is None or row["latest"] > latest):
                latest = row["latest"]
        return MemoryStats(counts=counts, current_facts=current, latest_write=maybe_from_epoch_ms(latest))
