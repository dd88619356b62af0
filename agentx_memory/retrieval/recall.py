# Generated from agentx_memory/retrieval/recall_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""RecallLayer: query understanding around the MemoryRetriever. Generated from ``retrieval/recall_async.py``:
edit that file.

One recall: self-query (time range, kinds, channels, entities — rules, or the LLM when configured),
query expansion (the question as a statement, added to the full-text query), HyDE (a hypothetical
answer; LLM only), one batched embedding of every text, the retriever, then entity-centric recall
for "tell me about X". Each technique is switchable in settings and reports its latency and result
count (or why it was skipped) in the bundle's metrics. A time range read from the query ranks
memories inside it higher but filters nothing (only ``time_window_hours`` filters). An LLM failure
never fails a recall: the rules answer instead.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from .._compat.sync import alongside, finished, gather, to_thread
from ..backends import Backends
from ..errors import LLMError
from ..memory.access_pure import with_last_seen
from ..metrics import RECALL_SECONDS
from ..models import (
    Entity,
    Fact,
    MemoryBundle,
    MemoryItem,
    MemoryKind,
    QueryFilters,
    Scope,
    TechniqueMetric,
    Turn,
)
from ..settings import RetrievalSettings
from .candidates import Retrieved, TechniqueTimer, technique_metric
from .document_recall import recall_documents
from .focus import EntityProfile, closest_entity
from .fusion import diversify, interleave
from .items import RecallPlan, RecallRequest, entity_item, fact_item, reinforcement_targets, turn_item
from .llm_query import (
    EXPANSION_SYSTEM,
    HYDE_SYSTEM,
    SELF_QUERY_SYSTEM,
    expansion_prompt,
    hyde_prompt,
    parse_expansion,
    parse_self_query,
    self_query_prompt,
)
from .query_rules import is_entity_query, parse_filters, rewrite_as_statement
from .retriever import MemoryRetriever
from .slots import answer_first, asked_slots

__all__ = ["RecallLayer"]

log = logging.getLogger(__name__)

#: Facts about the focused entity returned by entity-centric recall at most.
_FOCUS_FACTS = 10


#: At most this many current facts answer a question about one of the user's slots first.
_SLOT_FACTS = 3


class RecallLayer:
    """Runs one recall for one scope over open backends."""

    def __init__(self, backends: Backends, settings: RetrievalSettings) -> None:
        self._b = backends
        self._s = settings

    def recall(
        self, scope: Scope, request: RecallRequest, nearby: list[tuple[Fact, float]] | None = None
    ) -> MemoryBundle:
        """One recall. ``nearby``, when given, receives the current facts the retrieval saw with their
        cosine to the query, whether or not they ranked (``get_context``'s facts section)."""
        started = time.perf_counter()
        now = datetime.now(UTC)
        metrics: dict[str, TechniqueMetric] = {}
        filters = self._self_query(request, now, metrics)
        if filters is None or not filters.parts or not self._s.query_decomposition:
            metrics["decomposition"] = TechniqueMetric(
                skipped="switched off" if not self._s.query_decomposition else "one need"
            )
            bundle = self._recall(scope, request, filters, now, metrics, nearby)
        else:
            bundle = self._decomposed(scope, request, filters, now, metrics, nearby)
        total_ms = (time.perf_counter() - started) * 1000
        RECALL_SECONDS.observe(total_ms / 1000)
        return bundle.model_copy(update={"timings_ms": {**bundle.timings_ms, "total": round(total_ms, 3)}})

    def _decomposed(
        self,
        scope: Scope,
        request: RecallRequest,
        filters: QueryFilters,
        now: datetime,
        metrics: dict[str, TechniqueMetric],
        nearby: list[tuple[Fact, float]] | None,
    ) -> MemoryBundle:
        """Each of ``filters.parts`` recalled on its own (filters by rules: a part keeps the query's
        time phrase), the answers interleaved rank by rank, so each need gets its share of the results.
        The bundle reports the whole query's filters."""
        started = time.perf_counter()
        parts = filters.parts
        answers: dict[int, MemoryBundle] = {}

        def recall_part(index: int, part: str) -> None:
            filters = parse_filters(part, now, channels=request.channels) if self._s.self_query else None
            answers[index] = self._recall(
                scope, replace(request, query=part), filters, now, dict(metrics), nearby
            )

        gather(*[recall_part(index, part) for index, part in enumerate(parts)])
        bundles = [answers[index] for index in range(len(parts))]
        merged = diversify(
            interleave([bundle.items for bundle in bundles], key=lambda item: item.id),
            group=lambda _item: None,
            text=lambda item: item.content,
            per_group=None,
            limit=request.top_k,
        )
        first = bundles[0]
        combined = {**first.metrics, **metrics}
        combined["decomposition"] = technique_metric(started, len(parts))
        embed_ms = sum(bundle.timings_ms.get("embed", 0.0) for bundle in bundles)
        return first.model_copy(
            update={
                "query": request.query,
                "filters": filters,
                "items": merged,
                "metrics": combined,
                "timings_ms": {"embed": round(embed_ms, 3)},
            }
        )

    def _recall(
        self,
        scope: Scope,
        request: RecallRequest,
        filters: QueryFilters | None,
        now: datetime,
        metrics: dict[str, TechniqueMetric],
        nearby: list[tuple[Fact, float]] | None = None,
    ) -> MemoryBundle:
        """One need: expansion, HyDE, embedding, retrieval and entity-centric recall."""
        texts = {"vector": filters.text if filters is not None else request.query}
        # The rewrite joins the full-text query only: its words ("went", "painted") are what a stored
        # statement says, while its embedding added nothing over the question's on LoCoMo-style data.
        expansion = self._expand(request.query, metrics)
        hyde = self._hyde(request.query, metrics)
        if hyde is not None:
            texts["hyde"] = hyde
        plan = self._plan(request, filters, now, {}, expansion)
        retriever = MemoryRetriever(self._b, self._s)
        focus = is_entity_query(request.query) if self._s.entity_centric else None
        found = retriever.prepare(plan)
        embed_ms: list[float] = []

        def embed() -> RecallPlan:
            embed_started = time.perf_counter()
            vectors = self._b.embed_queries(list(texts.values()), shared=False)
            embed_ms.append((time.perf_counter() - embed_started) * 1000)
            return replace(plan, vectors=dict(zip(texts, vectors, strict=True)))

        # Each step starts as soon as its own inputs are there: BM25 beside the query's embedding; the
        # graph kinds (they need no full-text turn hits) and the documents beside the turns' searches,
        # once the query is embedded. ``alongside`` steps run on worker threads in the sync API, the
        # rest one after the other: the graph's round trips overlap Postgres' and the embedding.
        # A question asked lately (get_context after remember for the same prompt, a retry, another
        # process) has its vector in a cache: the full-text search then reads its hits' cosines as well,
        # and the turns' vector search beside it needs no second statement for them. One Redis round trip
        # at most, which the embedding of a new question made before it anyway.
        known = self._b.cached_query_vectors(list(texts.values()))
        searched = plan if known is None else replace(plan, vectors=dict(zip(texts, known, strict=True)))
        lexical = alongside(retriever.lexical_turns, scope, searched, metrics, found)
        ready = embed()  # the plan with its vectors (the steps below read `plan` unchanged)
        graph = alongside(retriever.graph, scope, ready, found)
        documents = alongside(recall_documents, self._b, self._s, scope, ready, found)
        profiles: list[EntityProfile] = []
        named: list[Entity] = []

        def turns() -> None:
            # The vector search goes out beside a full-text search still running (the hits' own cosines
            # are read after it): with the query's vector cached, the full-text search is the slower
            # and the turns' searches ran one after the other (get_context: ~3 of its 15 ms).
            nearest = None if lexical.done() else retriever.nearest_turns(scope, ready, found)
            hits = finished(lexical)
            retriever.turns(scope, ready, hits, found, nearest)

        def focus_entity() -> None:
            entity = self._b.entities.find_by_name(scope, focus, plan.channels) if focus else None
            if entity is not None:  # an entity found by name is profiled beside the retrieval
                named.append(entity)
                profiles.append(self._profile(scope, ready, entity))

        slotted: list[Fact] = []
        asked = asked_slots(request.query) if self._s.slot_answers and "fact" in plan.kinds else None

        def slot() -> None:
            if not asked:
                metrics["slot"] = TechniqueMetric(skipped="no slot of the user's asked about")
                return
            timer = TechniqueTimer(metrics, "slot")
            slotted.extend(
                self._b.graph_recall.slot_facts(
                    scope,
                    asked.keys,
                    asked.things,
                    channels=plan.channels,
                    limit=_SLOT_FACTS,
                    names=asked.names,
                    mine=asked.mine,
                )
            )
            timer.done(len(slotted))

        try:
            gather(turns(), focus_entity(), slot())
        finally:  # nothing may still write into `found` once this recall has returned (or failed)
            finished(graph)
            finished(documents)
        # The candidates' last accesses are read while they are ranked (one round trip off the path).
        candidates = _accessed(found, slotted) if request.last_seen else []
        seen = alongside(self._last_seen, scope, candidates) if candidates else None
        try:
            retriever.rank(ready, found)
            if nearby is not None:
                nearby.extend(found.nearby_facts)
            metrics.update(found.metrics)
            items = found.items
            if focus is None:
                metrics["entity_centric"] = TechniqueMetric(skipped="not an entity question")
            else:
                calibration = self._b.calibration
                entity = None if named else closest_entity(found.entity_matches, calibration.focus)
                if entity is not None:
                    profiles.append(self._profile(scope, ready, entity))
                items = self._entity_centric(ready, profiles[0] if profiles else None, items, metrics)
            items = answer_first(items, slotted, plan.top_k, asked)
        finally:
            last = finished(seen) if seen is not None else {}
        if request.last_seen:
            items = self._with_last_seen(scope, items, set(candidates), last)
        return MemoryBundle(
            query=request.query,
            items=items,
            timings_ms={"embed": round(embed_ms[0], 3)},
            metrics=metrics,
            channels=list(ready.channels),
            filters=filters,
        )

    def _last_seen(self, scope: Scope, ids: list[str]) -> dict[str, datetime]:
        return self._b.access.last_seen(scope, ids)

    def _with_last_seen(
        self, scope: Scope, items: list[MemoryItem], asked: set[str], seen: dict[str, datetime]
    ) -> list[MemoryItem]:
        """``items`` with each fact's and entity's last access: ``seen`` holds those of the ``asked``
        candidates; what joined after they were read (an entity's profile, a superseding fact) is
        read now."""
        facts, entities = reinforcement_targets(items)
        missing = [item_id for item_id in [*facts, *entities] if item_id not in asked]
        if missing:
            seen = {**seen, **self._last_seen(scope, missing)}
        return with_last_seen(items, seen) if seen else items

    # -- query understanding -----------------------------------------------------------------------

    def _self_query(
        self, request: RecallRequest, now: datetime, metrics: dict[str, TechniqueMetric]
    ) -> QueryFilters | None:
        if not self._s.self_query:
            metrics["self_query"] = TechniqueMetric(skipped="switched off")
            return None
        started = time.perf_counter()
        filters: QueryFilters | None = None
        if self._b.llm is not None:
            answer = self._ask(SELF_QUERY_SYSTEM, self_query_prompt(request.query, now, request.channels))
            if answer is not None:
                filters = parse_self_query(answer, request.query, request.channels)
        if filters is None:
            filters = parse_filters(request.query, now, channels=request.channels)
        found = int(filters.time_range is not None) + len(filters.kinds) + len(filters.entities)
        metrics["self_query"] = technique_metric(started, found + len(filters.channels))
        return filters

    def _expand(self, query: str, metrics: dict[str, TechniqueMetric]) -> str | None:
        if not self._s.query_expansion:
            metrics["expansion"] = TechniqueMetric(skipped="switched off")
            return None
        started = time.perf_counter()
        statement: str | None = None
        if self._b.llm is not None:
            answer = self._ask(EXPANSION_SYSTEM, expansion_prompt(query))
            statement = parse_expansion(answer) if answer is not None else None
        if statement is None:
            statement = rewrite_as_statement(query)
        if statement is None:
            metrics["expansion"] = TechniqueMetric(skipped="not a question")
            return None
        metrics["expansion"] = technique_metric(started, 1)
        return statement

    def _hyde(self, query: str, metrics: dict[str, TechniqueMetric]) -> str | None:
        if not self._s.hyde:
            metrics["hyde"] = TechniqueMetric(skipped="switched off")
            return None
        if self._b.llm is None:
            metrics["hyde"] = TechniqueMetric(skipped="no LLM configured")
            return None
        started = time.perf_counter()
        answer = self._ask(HYDE_SYSTEM, hyde_prompt(query))
        hypothesis = parse_expansion(answer) if answer is not None else None
        if hypothesis is None:
            metrics["hyde"] = TechniqueMetric(skipped="LLM gave no usable answer")
            return None
        metrics["hyde"] = technique_metric(started, 1)
        return hypothesis

    def _ask(self, system: str, prompt: str) -> str | None:
        llm = self._b.llm
        if llm is None:
            return None
        try:
            return to_thread(llm.complete, prompt, system=system, max_tokens=200)
        except LLMError as exc:
            log.warning("LLM recall step failed, falling back to rules: %s", exc)
            return None

    def _plan(
        self,
        request: RecallRequest,
        filters: QueryFilters | None,
        now: datetime,
        vectors: dict[str, list[float]],
        expansion: str | None,
    ) -> RecallPlan:
        since: datetime | None = None
        prefer_since: datetime | None = None
        prefer_until: datetime | None = None
        if request.time_window_hours is not None:
            since = now - timedelta(hours=request.time_window_hours)
        kinds = request.kinds
        preferred: frozenset[MemoryKind] = frozenset()
        channels = request.channels
        text = filters.text if filters is not None else request.query
        entities: tuple[str, ...] = ()
        if filters is not None:
            if filters.time_range is not None:
                prefer_since, prefer_until = filters.time_range.start, filters.time_range.end
            preferred = kinds & frozenset(filters.kinds)
            if filters.channels:
                channels = tuple(channel for channel in channels if channel in filters.channels) or channels
            entities = tuple(filters.entities)
        if expansion is not None:
            text = f"{text} {expansion}"
        return RecallPlan(
            text=text,
            vectors=vectors,
            channels=channels,
            top_k=request.top_k,
            now=now,
            kinds=kinds,
            preferred=preferred,
            since=since,
            prefer_since=prefer_since,
            prefer_until=prefer_until,
            entities=entities,
            metadata=request.metadata,
        )

    # -- entity-centric ----------------------------------------------------------------------------

    def _profile(self, scope: Scope, plan: RecallPlan, entity: Entity) -> EntityProfile:
        """X's facts, neighbours and the turns that mention it (MENTIONS, written by extraction)."""
        started = time.perf_counter()
        entities = self._b.entities
        around: list[tuple[dict[str, list[Entity]], dict[str, list[Fact]], dict[str, Fact]]] = []
        mentions: list[Turn] = []

        def expand() -> None:
            around.append(entities.expand(scope, [entity.id], plan.channels, _FOCUS_FACTS))

        def mentioning() -> None:
            mentions.extend(entities.mentioning_turns(scope, entity.id, _FOCUS_FACTS))

        gather(expand(), mentioning())
        neighbours, facts, _ = around[0]
        return EntityProfile(
            entity=entity,
            facts=facts.get(entity.id, []),
            neighbours=neighbours.get(entity.id, []),
            turns=[turn for turn in mentions if turn.channel in plan.channels],
            latency_ms=(time.perf_counter() - started) * 1000,
        )

    def _entity_centric(
        self,
        plan: RecallPlan,
        profile: EntityProfile | None,
        items: list[MemoryItem],
        metrics: dict[str, TechniqueMetric],
    ) -> list[MemoryItem]:
        """ "Tell me about X": X's profile, its facts and its neighbours first, then the rest."""
        if profile is None:
            metrics["entity_centric"] = TechniqueMetric(latency_ms=0.0, results=0)
            return items
        top = max((item.score for item in items), default=0.0) + 1.0
        focused = [entity_item(profile.entity, top, ["entity"])]
        focused += [fact_item(fact, top * 0.9, ["entity"]) for fact in profile.facts]
        focused += [entity_item(other, top * 0.8, ["entity", "graph"]) for other in profile.neighbours]
        focused += [turn_item(turn, top * 0.7, ["entity"]) for turn in profile.turns]
        # The caller's hard window holds here too: X, its facts and turns only from that far back.
        focused = [item for item in focused if plan.in_window(item.timestamp)]
        metrics["entity_centric"] = TechniqueMetric(
            latency_ms=round(profile.latency_ms, 3), results=len(focused)
        )
        seen = {item.id for item in focused}
        merged = focused + [item for item in items if item.id not in seen]
        return diversify(
            merged, group=lambda _item: None, text=lambda item: item.content, per_group=None, limit=plan.top_k
        )


def _accessed(found: Retrieved, slotted: list[Fact]) -> list[str]:
    """The ids whose last access a recall may return: its fact and entity candidates."""
    ids = [*found.kinds["fact"].items, *found.kinds["entity"].items, *(fact.id for fact in slotted)]
    return list(dict.fromkeys(ids))
