"""MemoryRetriever: candidates from every memory kind, fused, boosted and ranked. Async source of
``retrieval/retriever.py``.

Per kind it over-fetches (``candidate_factor`` × top_k), scores with the pure functions of
``retrieval/fusion.py`` and hands back one list. Turns: BM25 + vector (both in the ledger), fused, then
each turn inherits part of its best neighbour's score (the answer often follows the matching turn).
Facts and entities: vector + full-text; matched entities expand through the graph. Strategies and
open goals: vector. Kinds are put on one scale by their weights, anchored on how well each kind's
best candidate actually matches (its cosine), so a kind with nothing relevant cannot crowd out one
that has. Nothing here touches what it reads; the RecallLayer reinforces what is finally returned.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence

from .._compat.aio import alongside, finished, gather
from ..backends_async import AsyncBackends
from ..kinds import GRAPH_KINDS, KINDS, MemoryKind
from ..memory.episodic_pure import TurnHit
from ..memory.graph_hits import GraphHits, StaleTurn
from ..memory.procedural_pure import rank_strategies
from ..models import Entity, Fact, Goal, MemoryItem, Scope, Strategy, TechniqueMetric
from ..settings import RetrievalSettings
from .candidates import Candidate, KindCandidates, Retrieved, TechniqueTimer, TurnEntry, techniques_of
from .fusion import (
    EvidenceSignals,
    asking_discount,
    capped,
    collapse_sources,
    convex_fuse,
    diversify,
    evidence_lift,
    neighbour_smooth,
    overlap_prefixes,
    rank_by_sources,
    recency_score,
    rrf_fuse,
    said_by_named,
    session_lift,
    speaker_boost,
    term_overlap,
    token_set,
)
from .items import RecallPlan

__all__ = ["AsyncMemoryRetriever", "Nearest"]

#: Share of a matched entity's score its graph neighbours and facts start from.
_GRAPH_DECAY = 0.5
#: Weight factor of the kinds a query asks for by name (self-query).
_PREFERRED_FACTOR = 2.0
#: The head of the ranking whose turns are fetched, as a multiple of top_k.
_HEAD_FACTOR = 3
#: Matched entities expanded through the graph per recall.
_EXPANDED_ENTITIES = 3
#: Up to this top_k the candidate pools grow in proportion; past it, by half as much.
_FULL_BREADTH = 10


def breadth(top_k: int) -> int:
    """The top_k the candidate pools are sized for: top_k up to ``_FULL_BREADTH``, then half of
    each further item. A large top_k (get_context's 25) fills a budget from the ranking's tail, where
    a deeper pool changes little but costs CPU on every row parsed and scored."""
    return min(top_k, _FULL_BREADTH + (top_k - _FULL_BREADTH) // 2)


#: Each query vector's nearest turns with their cosine, by technique (``vector``, ``hyde``).
Nearest = Mapping[str, list[tuple[TurnHit, float]]]


class AsyncMemoryRetriever:
    """Runs a :class:`RecallPlan` against the stores of one memory instance."""

    def __init__(self, backends: AsyncBackends, settings: RetrievalSettings) -> None:
        self._b = backends
        self._s = settings

    def _pool(self, plan: RecallPlan) -> int:
        """Turn candidates per technique: fusion and neighbour smoothing need a deep pool."""
        return max(breadth(plan.top_k) * self._s.candidate_factor, self._s.min_candidates)

    def _kind_pool(self, plan: RecallPlan) -> int:
        """Candidates of the other kinds: one technique each (or two, fused), so 2 × top_k suffice."""
        return max(breadth(plan.top_k) * 2, 10)

    async def lexical_turns(
        self, scope: Scope, plan: RecallPlan, metrics: dict[str, TechniqueMetric], found: Retrieved
    ) -> list[tuple[TurnHit, float]]:
        """BM25 over the plan's text. It needs no vector, so the RecallLayer runs it while the query
        is being embedded, and hands the hits to :meth:`turns`. A plan that has the question's vector
        already also reads the hits' cosines (into ``found``), which :meth:`turns` then need not."""
        if not self._s.hybrid or "episodic" not in plan.kinds:
            return []
        timer = TechniqueTimer(metrics, "turns.fulltext")
        hits = await self._b.episodic.lexical_search(
            scope,
            plan.text,
            channels=plan.channels,
            limit=self._pool(plan),
            since=plan.since,
            k1=self._s.bm25_k1,
            b=self._s.bm25_b,
            max_df_ratio=self._s.max_df_ratio,
            metadata=plan.metadata,
            vector=plan.vectors.get("vector"),
            cosines=found.lexical_cosines,
        )
        timer.done(len(hits))
        return hits

    def prepare(self, plan: RecallPlan) -> Retrieved:
        """An empty retrieval for ``plan``: each kind's candidates, weighted, for :meth:`turns` and
        :meth:`graph` to fill (concurrently: neither reads the other's) and :meth:`rank` to order."""
        found = Retrieved()
        for spec in KINDS:
            found.kinds[spec.name] = KindCandidates(getattr(self._s, spec.weight), spec.dated)
        for name in plan.preferred:
            found.kinds[name].weight *= _PREFERRED_FACTOR
        return found

    async def nearest_turns(self, scope: Scope, plan: RecallPlan, found: Retrieved) -> Nearest:
        """Each query vector's nearest turns, without the full-text hits' cosines: the RecallLayer runs
        this while the full-text search is still out and hands the result to :meth:`turns`, which then
        reads only the cosines of the full-text hits these did not reach (one short statement)."""
        nearest: dict[str, list[tuple[TurnHit, float]]] = {}
        if "episodic" not in plan.kinds:
            return nearest

        async def search(technique: str, vector: Sequence[float]) -> None:
            timer = TechniqueTimer(found.metrics, f"turns.{technique}")
            hits, _ = await self._b.episodic.recall_by_vector(
                scope, vector, channels=plan.channels, limit=self._pool(plan), metadata=plan.metadata
            )
            timer.done(len(hits))
            nearest[technique] = hits

        await gather(*[search(name, vector) for name, vector in plan.vectors.items()])
        return nearest

    async def turns(
        self,
        scope: Scope,
        plan: RecallPlan,
        lexical: Sequence[tuple[TurnHit, float]],
        found: Retrieved,
        nearest: Nearest | None = None,
    ) -> None:
        """The turns' candidates; ``lexical`` are the :meth:`lexical_turns` hits, ``nearest`` what
        :meth:`nearest_turns` found beside them (None: the vector search is run here)."""
        if "episodic" in plan.kinds:
            await self._turns(scope, plan, (lexical, nearest), found.kinds["episodic"], found)

    async def graph(self, scope: Scope, plan: RecallPlan, found: Retrieved) -> None:
        """The graph kinds' candidates: they need the query's vector, not the full-text turn hits, so
        they can start as soon as the query is embedded."""
        if any(spec.name in plan.kinds for spec in GRAPH_KINDS):
            await self._graph_kinds(scope, plan, found.kinds, found)

    def rank(self, plan: RecallPlan, found: Retrieved) -> None:
        """Every kind's candidates into ``found.items``, best first."""
        kinds = found.kinds
        found.items = self._rank(
            plan, [kinds[name] for name in sorted(plan.kinds) if name in kinds], kinds["fact"], found.stale
        )

    # -- ranking -----------------------------------------------------------------------------------

    def _scores(self, plan: RecallPlan, kind: KindCandidates) -> list[tuple[float, str]]:
        """Each candidate's final score, (score, id), best first: its kind's weight × relevance on the
        kind's anchored scale, plus recency, boosted inside a time range the query names."""
        if not kind.relevance:
            return []
        top = max(kind.relevance.values())
        scale = kind.anchor / top if top > 0 else 0.0
        scored: list[tuple[float, str]] = []
        # Read once, not per candidate (a get_context scores ~500 candidates); the arithmetic is unchanged.
        items, weight, dated, now = kind.items, kind.weight, kind.dated, plan.now
        recency_weight, half_life = self._s.recency_weight, self._s.recency_half_life_days
        windowed = plan.since is not None
        preferring = plan.prefer_since is not None or plan.prefer_until is not None
        for item_id, relevance in kind.relevance.items():
            entry = items.get(item_id)
            if entry is None:  # a turn outside the head (see _turns)
                continue
            score = weight * relevance * scale
            moment = entry.timestamp
            if windowed and not plan.in_window(moment):
                continue
            if dated:
                score += recency_weight * recency_score(moment, now, half_life)
                # Said inside the window, or telling of it ("I went camping yesterday" for a question
                # about the day before it was said).
                if preferring and (plan.in_preferred(moment) or plan.overlaps_preferred(entry.event)):
                    score *= self._s.time_match_boost
            scored.append((round(score, 6), item_id))
        scored.sort(key=lambda ranked: (-ranked[0], ranked[1]))
        return scored

    def _rank(
        self,
        plan: RecallPlan,
        kinds: Sequence[KindCandidates],
        facts: KindCandidates,
        stale: Mapping[str, StaleTurn],
    ) -> list[MemoryItem]:
        scored = [
            (score, entry)
            for kind in kinds
            for score, item_id in self._scores(plan, kind)
            if isinstance(entry := kind.items[item_id], Candidate)
        ]
        fact_ids = set(facts.items)
        if stale:
            scored = self._present(plan, scored, stale, fact_ids)
        scored.sort(key=lambda ranked: (-ranked[0], ranked[1].id))
        # A learned fact stands for the turns it came from (it takes the place of the best-ranked one),
        # and rises above them only by its own closeness to the question.
        scored = rank_by_sources(
            scored, lambda item: item.sources, lambda item: item.id, self._s.fact_own_weight
        )
        if "fact" not in plan.preferred:
            # Facts stand for their source turns: past a share of the results they would only push
            # out the turns that hold the evidence (a question that asks for facts lifts the cap).
            allowed = math.ceil(plan.top_k * self._s.max_fact_share)
            scored = capped(scored, lambda pair: pair[1].id in fact_ids, allowed)
        scored = collapse_sources(scored, lambda pair: pair[1].id, lambda pair: pair[1].sources)
        cap = self._s.max_per_conversation or max(1, math.ceil(plan.top_k / 2))
        ranked = diversify(
            scored,
            group=lambda pair: pair[1].group,
            text=lambda pair: pair[1].text,
            per_group=cap,
            limit=plan.top_k,
        )
        return [candidate.build(score) for score, candidate in ranked]

    def _present(
        self,
        plan: RecallPlan,
        scored: list[tuple[float, Candidate]],
        stale: Mapping[str, StaleTurn],
        fact_ids: set[str],
    ) -> list[tuple[float, Candidate]]:
        """Recall shows the present: a stale turn's score × ``stale_turn_factor``, and the current facts
        that replaced what it said join (or rise) at its own score, so that they stand for it (as a
        learned fact stands for its source turns, :func:`rank_by_sources`) whatever their own cosine:
        the question matched what they replaced. ``fact_ids`` gains the facts that join."""
        factor = self._s.stale_turn_factor
        lift: dict[str, float] = {}
        joining: dict[str, Fact] = {}
        present: list[tuple[float, Candidate]] = []
        for score, entry in scored:
            if not entry.stale or entry.id not in stale:
                present.append((score, entry))
                continue
            present.append((round(score * factor, 6), entry))
            if "fact" not in plan.kinds:
                continue
            for fact in stale[entry.id].current:
                if fact.fact_kind == "statement" and not self._s.recall_statements:
                    # Not recalled itself ("Victor quit Victor's job"): the newer turn that said it
                    # stands for it instead.
                    for turn_id in fact.source_turn_ids:
                        if turn_id != entry.id:
                            lift[turn_id] = max(score, lift.get(turn_id, 0.0))
                    continue
                lift[fact.id] = max(score, lift.get(fact.id, 0.0))
                if fact.id not in fact_ids:
                    joining[fact.id] = fact
        present = [(max(score, lift.get(entry.id, 0.0)), entry) for score, entry in present]
        for fact_id, fact in joining.items():
            present.append((lift[fact_id], Candidate.of_fact(fact, ["supersedes"])))
            fact_ids.add(fact_id)
        return present

    def _scale(self, cosine: float) -> float:
        """A cosine of the embedder in the reference model's units (``retrieval.calibrated_scores``)."""
        return self._b.calibration.to_reference(cosine) if self._s.calibrated_scores else cosine

    def _fuse(self, dense: Mapping[str, float], lexical: Mapping[str, float]) -> dict[str, float]:
        s = self._s
        weights = {"dense": s.dense_weight, "lexical": s.lexical_weight}
        if s.fusion == "rrf":
            rankings = [
                sorted(dense, key=lambda key: -dense[key]),
                sorted(lexical, key=lambda key: -lexical[key]),
            ]
            return dict(rrf_fuse(rankings, s.rrf_k, [s.dense_weight, s.lexical_weight]))
        return convex_fuse({"dense": dense, "lexical": lexical}, weights)

    # -- turns -------------------------------------------------------------------------------------

    async def _turns(
        self,
        scope: Scope,
        plan: RecallPlan,
        searched: tuple[Sequence[tuple[TurnHit, float]], Nearest | None],
        kind: KindCandidates,
        found: Retrieved,
    ) -> None:
        """``searched``: the full-text hits, and the nearest turns if they were searched already."""
        episodic, metrics = self._b.episodic, found.metrics
        lexical_hits, nearest = searched
        pool = self._pool(plan)
        turns: dict[str, TurnHit] = {}
        dense: dict[str, float] = {}
        lexical: dict[str, float] = {}
        found_by: dict[str, list[str]] = {}
        scale = self._scale

        for turn, score in lexical_hits:
            turns[turn.id] = turn
            lexical[turn.id] = score
            found_by.setdefault(turn.id, []).append("fulltext")
        # The full-text candidates' own cosines come with the vector search, so that fusion weighs
        # each candidate on both signals: a turn just past the vector search's depth is not "dissimilar".
        also = sorted(lexical)

        async def by_vector(technique: str, vector: Sequence[float]) -> None:
            # the full-text hits' cosines the full-text search read itself (it had the question's vector)
            known = found.lexical_cosines if technique == "vector" else {}
            unknown = [key for key in also if key not in known]
            if nearest is None:
                timer = TechniqueTimer(metrics, f"turns.{technique}")
                hits, scored = await episodic.recall_by_vector(
                    scope, vector, channels=plan.channels, limit=pool, also=unknown, metadata=plan.metadata
                )
                timer.done(len(hits))
            else:  # searched beside the full-text search: the cosines of the hits it did not reach
                hits = nearest[technique]
                reached = {turn.id for turn, _ in hits}
                rest = [key for key in unknown if key not in reached]
                scored = []
                if rest:
                    _, scored = await episodic.recall_by_vector(
                        scope, vector, channels=plan.channels, limit=0, also=rest, metadata=plan.metadata
                    )
            if known:
                reached = {turn.id for turn, _ in hits}
                scored += [(turns[key], known[key]) for key in also if key in known and key not in reached]
            for turn, similarity in hits:
                turns[turn.id] = turn
                dense[turn.id] = max(scale(similarity), dense.get(turn.id, -1.0))
                found_by.setdefault(turn.id, []).append(technique)
            for turn, similarity in scored:
                dense[turn.id] = max(scale(similarity), dense.get(turn.id, -1.0))

        await gather(*[by_vector(name, vector) for name, vector in plan.vectors.items()])
        fused = self._fuse(dense, lexical)
        similarity = dict(dense)
        # Every known turn by its position, kept up to date as neighbours are fetched.
        at = {(turn.conversation_id, turn.index): turn.id for turn in turns.values()}
        if (self._s.neighbour_weight > 0 or self._s.next_turn_weight > 0) and fused:
            fused = await self._with_neighbours(scope, plan, turns, at, fused, found_by, similarity, metrics)
        if plan.entities and self._s.speaker_boost != 1.0:
            speakers = {key: turns[key].speaker for key in fused}
            fused = speaker_boost(fused, speakers, plan.entities, self._s.speaker_boost)
        if self._s.session_weight > 0:
            sessions = {key: turns[key].conversation_id for key in fused}
            fused = session_lift(fused, sessions, self._s.session_weight)
        kind.anchor = max(dense.values(), default=0.5 if lexical else 0.0)
        entries = {key: TurnEntry(turns[key], found_by.get(key, ["neighbour"])) for key in fused}
        kind.items.update(entries)
        kind.relevance.update(fused)
        # Only the head of the turns' ranking can be returned (diversity drops near-duplicates and
        # defers a conversation's turns past the cap, but from a head three times the pools' breadth,
        # at least twice the answer's size): its turns are fetched whole now, while the graph kinds are
        # still being searched.
        depth = max(breadth(plan.top_k) * _HEAD_FACTOR, 2 * plan.top_k)
        head = [key for _, key in self._scores(plan, kind)[:depth]]
        # The stale turns (graph) beside the turns' text (ledger) and what is computed from that text
        # (a worker thread in the sync API): only the candidates built below read them.
        stale_read = alongside(self._stale, scope, plan, head, found)
        try:
            whole = await episodic.get_turns(scope, head, plan.channels)
            # A turn that asks tells less than one that answers: read now that the head's text is here.
            texts = {key: turn.content for key, turn in whole.items()}
            relevance = {key: kind.relevance[key] for key in texts}
            discounted = asking_discount(relevance, texts, self._s.question_turn_factor)
            kind.relevance.update(self._lifted(plan, turns, at, similarity, relevance, discounted))
        finally:
            await finished(stale_read)
        # The rest stay in `relevance` (the kind's scale is its best relevance) but not in `items`.
        stale = found.stale
        kind.items = {
            key: Candidate.of_turn(
                whole[key],
                entries[key].found_by,
                entries[key].event,
                stale[key].superseded_by if key in stale else None,
                stale[key].whole if key in stale else True,
            )
            for key in head
            if key in whole
        }

    async def _stale(self, scope: Scope, plan: RecallPlan, head: Sequence[str], found: Retrieved) -> None:
        """The stale turns of the head into ``found.stale``: one statement, beside the turns' fetch."""
        if self._s.stale_turn_factor == 1.0 or not head:
            return
        timer = TechniqueTimer(found.metrics, "turns.stale")
        found.stale.update(await self._b.graph_recall.stale_turns(scope, head, channels=plan.channels))
        timer.done(len(found.stale))

    def _lifted(
        self,
        plan: RecallPlan,
        turns: Mapping[str, TurnHit],
        at: Mapping[tuple[str, int], str],
        similarity: Mapping[str, float],
        relevance: Mapping[str, float],
        discounted: Mapping[str, float],
    ) -> dict[str, float]:
        """The head's relevance with the evidence of its speaker, its reply and its session
        (``evidence_lift``), in units of the head's best relevance before the question discount."""
        s = self._s
        following = {
            key: after
            for key in discounted
            if (after := at.get((turns[key].conversation_id, turns[key].index + 1))) is not None
        }
        signals = EvidenceSignals(
            similarity=similarity,
            sessions={key: turns[key].conversation_id for key in similarity.keys() | discounted.keys()},
            following=following,
            said_by_named=said_by_named({key: turns[key].speaker for key in discounted}, plan.entities),
        )
        return evidence_lift(
            discounted,
            signals,
            top=max(relevance.values(), default=0.0),
            named_speaker=s.named_speaker_weight,
            next_turn=s.next_turn_weight,
            session_best=s.session_best_weight,
        )

    async def _with_neighbours(
        self,
        scope: Scope,
        plan: RecallPlan,
        turns: dict[str, TurnHit],
        at: dict[tuple[str, int], str],
        fused: dict[str, float],
        found_by: dict[str, list[str]],
        similarity: dict[str, float],
        metrics: dict[str, TechniqueMetric],
    ) -> dict[str, float]:
        """Each leading turn's neighbours, fetched (into ``turns`` and ``at``) with their cosine (into
        ``similarity``); with ``neighbour_weight``, each turn inherits part of its best neighbour's score."""
        timer = TechniqueTimer(metrics, "turns.neighbours")
        leaders = sorted(fused, key=lambda key: -fused[key])[: breadth(plan.top_k) * 3 + 10]
        wanted = {
            (turns[key].conversation_id, turns[key].index + step)
            for key in leaders
            for step in (-1, 1)
            if turns[key].index + step >= 0
        } - set(at)
        fetched = await self._b.episodic.neighbours(
            scope, sorted(wanted), plan.channels, plan.metadata, plan.vectors.get("vector")
        )
        for turn, cosine in fetched:
            turns[turn.id] = turn
            at[(turn.conversation_id, turn.index)] = turn.id
            if cosine is not None:
                similarity[turn.id] = self._scale(cosine)
        if self._s.neighbour_weight <= 0:
            timer.done(len(fetched))
            return fused
        # The turn after a match (its likely answer) inherits the full share, the turn before half.
        share = {1: self._s.neighbour_weight, -1: self._s.neighbour_weight / 2}
        adjacency: dict[str, list[tuple[str, float]]] = {}
        for key in leaders:
            turn = turns[key]
            for step in (-1, 1):
                other = at.get((turn.conversation_id, turn.index + step))
                if other is not None:
                    adjacency.setdefault(other, []).append((key, share[step]))
        smoothed = neighbour_smooth(fused, adjacency)
        for key in adjacency:
            if key not in found_by or smoothed[key] > 2 * fused.get(key, 0.0):
                found_by.setdefault(key, []).append("neighbour")
        timer.done(len(fetched))
        return {key: value for key, value in smoothed.items() if plan.in_window(turns[key].timestamp)}

    # -- facts, entities, strategies and goals ------------------------------------------------------

    async def _graph_kinds(
        self, scope: Scope, plan: RecallPlan, kinds: Mapping[MemoryKind, KindCandidates], result: Retrieved
    ) -> None:
        """Every graph kind from one candidate statement; then, concurrently, the graph expansion of
        the best entities and the details of the best facts. The kinds share the statement, so their
        metrics share its latency."""
        pool, metrics = self._kind_pool(plan), result.metrics
        started = time.perf_counter()
        hits = await self._b.graph_recall.candidates(
            scope, plan.vectors["vector"], plan.text, channels=plan.channels, limit=pool
        )
        elapsed = round((time.perf_counter() - started) * 1000, 3)
        for spec in GRAPH_KINDS:
            if spec.name in plan.kinds:
                metrics[spec.metric] = TechniqueMetric(latency_ms=elapsed, results=hits.count(spec.name))
        if "strategy" in plan.kinds:
            self._strategies(hits.strategies, pool, kinds["strategy"])
        if "goal" in plan.kinds:
            self._goals(hits.goals, kinds["goal"])
        if "fact" in plan.kinds or "entity" in plan.kinds:
            known = dict(hits.entities)
            for entity_id, score in hits.entity_vector.items():
                result.entity_matches[entity_id] = (known[entity_id], score)
            await self._semantic(scope, plan, hits, known, (kinds["fact"], kinds["entity"]), result)

    async def _semantic(
        self,
        scope: Scope,
        plan: RecallPlan,
        hits: GraphHits,
        known: dict[str, Entity],
        kinds: tuple[KindCandidates, KindCandidates],
        result: Retrieved,
    ) -> None:
        """Facts and entities: fused, expanded through the graph, boosted. ``known``: the entities
        found, by id (the expansion adds its own); ``kinds``: (facts', entities')."""
        facts_kind, entities_kind = kinds
        metrics = result.metrics
        floor = self._b.calibration.overridden(retrieval=self._s).fact_floor

        # Scores and anchors in the reference model's units; the floors are the model's own cosines.
        cosine = hits.fact_vector
        fact_dense = {key: self._scale(value) for key, value in cosine.items()}
        entity_dense = {key: self._scale(value) for key, value in hits.entity_vector.items()}
        fact_lexical, entity_lexical = hits.fact_fulltext, hits.entity_fulltext
        facts_kind.anchor = max(fact_dense.values(), default=0.0)
        entities_kind.anchor = max(entity_dense.values(), default=0.0)
        fact_scores = self._fuse(fact_dense, fact_lexical)
        fact_found = {key: techniques_of(key, fact_dense, fact_lexical) for key in fact_scores}
        entity_scores = self._fuse(entity_dense, entity_lexical)
        entity_found = {key: techniques_of(key, entity_dense, entity_lexical) for key in entity_scores}
        details: dict[str, Fact] = {}
        best_facts = sorted(fact_scores, key=lambda key: -fact_scores[key])[: self._kind_pool(plan)]
        # The best facts are fetched whole with the first hop of the expansion (one statement).
        found_by = (entity_found, fact_found)
        await self._expand(
            scope, plan, known, entity_scores, fact_scores, found_by, best_facts, details, metrics
        )
        for fact_id, fact in details.items():
            current = fact.valid_until is None and fact.channel in plan.channels
            if not current or fact_id not in fact_scores:
                continue
            if fact.fact_kind == "statement" and not self._s.recall_statements:
                continue  # a statement restates its source turn, which recall already ranks
            if fact_id in cosine:
                result.nearby_facts.append((fact, cosine[fact_id]))
            if fact.source_turn_ids and cosine.get(fact_id, 0.0) < floor:
                # A learned fact is an answer only when it is close to the question itself; below
                # that its source turns answer for it (a fact written by hand has no turn to stand for).
                continue
            facts_kind.items[fact_id] = Candidate.of_fact(fact, fact_found.get(fact_id, ["graph"]))
            facts_kind.relevance[fact_id] = fact_scores[fact_id] * self._fact_boost(fact)
        result.nearby_facts.sort(key=lambda pair: (-pair[1], pair[0].id))
        # The kind's scale is anchored on the best cosine among the facts that can be returned: a
        # statement (left out above) or a superseded fact must not lend its closeness to the others.
        facts_kind.anchor = max(
            (fact_dense[key] for key in facts_kind.items if key in fact_dense), default=0.0
        )
        for key, score in entity_scores.items():
            if key in known and known[key].channel in plan.channels:
                entities_kind.items[key] = Candidate.of_entity(known[key], entity_found.get(key, ["graph"]))
                entities_kind.relevance[key] = score

    async def _expand(
        self,
        scope: Scope,
        plan: RecallPlan,
        known: dict[str, Entity],
        entity_scores: dict[str, float],
        fact_scores: dict[str, float],
        found_by: tuple[dict[str, list[str]], dict[str, list[str]]],
        fact_ids: Sequence[str],
        details: dict[str, Fact],
        metrics: dict[str, TechniqueMetric],
    ) -> None:
        """The facts in ``fact_ids`` into ``details``; and the neighbours and facts of the best matched
        entities, which join with a share of their score. One statement per hop. ``found_by``:
        (entities', facts') techniques, extended here."""
        timer = TechniqueTimer(metrics, "graph")
        entity_found, fact_found = found_by
        entities = self._b.entities
        hops = self._s.graph_hops if entity_scores else 0
        frontier = (
            sorted(entity_scores, key=lambda key: -entity_scores[key])[:_EXPANDED_ENTITIES] if hops else []
        )
        added = 0
        for hop in range(max(hops, 1)):
            wanted = fact_ids if hop == 0 else ()
            if not frontier and not wanted:
                break
            words = {entity_id: self._words(plan, known.get(entity_id)) for entity_id in frontier}
            neighbours, about, whole = await entities.expand(
                scope,
                frontier,
                plan.channels,
                self._kind_pool(plan),
                wanted,
                words,
                # left out below: a statement restates its source turn
                statements=self._s.recall_statements,
            )
            details.update(whole)
            next_frontier: list[str] = []
            for entity_id in frontier:
                base = entity_scores[entity_id] * _GRAPH_DECAY
                for other in neighbours.get(entity_id, []):
                    if other.channel not in plan.channels or entity_scores.get(other.id, 0.0) >= base:
                        continue
                    known[other.id] = other
                    entity_scores[other.id] = base
                    entity_found.setdefault(other.id, []).append("graph")
                    next_frontier.append(other.id)
                    added += 1
                names = _names(known.get(entity_id))
                for fact in about.get(entity_id, []):
                    # An entity's facts join by what they share with the question: a person with
                    # hundreds of learned facts must not flood the ranking with all of them.
                    share = base * term_overlap(plan.text, fact.claim, names)
                    if share <= 0.0:
                        continue
                    details.setdefault(fact.id, fact)
                    if fact_scores.get(fact.id, 0.0) < share:
                        fact_scores[fact.id] = share
                        fact_found.setdefault(fact.id, []).append("graph")
                        added += 1
            frontier = next_frontier[:_EXPANDED_ENTITIES] if hop + 1 < hops else []
        timer.done(added)

    @staticmethod
    def _words(plan: RecallPlan, entity: Entity | None) -> list[str]:
        """What the store filters an entity's facts by: the prefixes :func:`term_overlap` will look
        for in them, or [""] (every fact) when one is not ASCII (the store only lowercases)."""
        prefixes = overlap_prefixes(plan.text, _names(entity))
        return sorted(prefixes) if all(prefix.isascii() for prefix in prefixes) else [""]

    def _fact_boost(self, fact: Fact) -> float:
        temporal = {"current": self._s.current_boost, "past": self._s.past_boost}.get(fact.temporal, 1.0)
        # salience 0.5 (the default) is neutral; 1.0 counts 1.25×, 0.0 counts 0.75×
        return temporal * (0.75 + 0.5 * fact.salience)

    def _strategies(self, hits: Sequence[tuple[Strategy, float]], pool: int, kind: KindCandidates) -> None:
        matches = rank_strategies(hits, pool)
        kind.anchor = max((match.similarity for match in matches), default=0.0)
        for match in matches:
            kind.items[match.strategy.id] = Candidate.of_strategy(match.strategy, match.success_rate)
            kind.relevance[match.strategy.id] = max(match.score, 0.0)

    def _goals(self, hits: Sequence[tuple[Goal, float]], kind: KindCandidates) -> None:
        kind.anchor = max((score for _, score in hits), default=0.0)
        for goal, score in hits:
            kind.items[goal.id] = Candidate.of_goal(goal)
            kind.relevance[goal.id] = max(score, 0.0)


def _names(entity: Entity | None) -> frozenset[str]:
    """The words of an entity's name: its facts name it, so they do not count as sharing a word."""
    return token_set(entity.name) if entity is not None else frozenset()
