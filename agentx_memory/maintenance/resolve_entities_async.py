"""The ``resolve_entities`` job: ``SAME_AS`` candidates are reviewed so they never pile up — merged when
the evidence has accumulated, kept, or dismissed. Async source of ``resolve_entities.py``.

Decisions in :mod:`.resolve_rules`; reads and writes through the entity-merge view of semantic memory
(:mod:`agentx_memory.memory.entity_merge_async`). The LLM, when configured, confirms each merge.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from .._compat.aio import to_thread
from ..errors import LLMError
from ..memory.entity_merge_async import AsyncEntityMerge
from ..memory.entity_merge_pure import EntitySide, SameAsCandidate
from ..models import Scope
from ..timecodec import epoch_ms, maybe_from_epoch_ms
from .resolve_rules import (
    CONFIRM_SYSTEM,
    Decision,
    Evidence,
    confirmation,
    confirmation_prompt,
    decide,
    evidence_of,
    evidence_score,
    winner_and_loser,
)
from .runner_async import AsyncJobContext

__all__ = ["resolve_entities"]

log = logging.getLogger(__name__)

#: Candidate links reviewed per user and run (the rest wait for the next run, oldest first).
_PER_USER = 500


async def resolve_entities(context: AsyncJobContext) -> None:
    """Every user's ``SAME_AS`` candidates → merged, kept or dismissed (see :mod:`.resolve_rules`)."""
    view = AsyncEntityMerge(context.backends.graph, context.backends.access)
    for user_id in await context.users():
        scope = Scope(user_id=user_id, channel="_global")
        gone: set[str] = set()  # merged away in this run: links to them are reviewed next run
        for candidate in await view.candidates(scope, _PER_USER):
            if {candidate.id, candidate.other_id} & gone:
                context.tally.count("deferred")
                continue
            a, b = await view.side(scope, candidate.id), await view.side(scope, candidate.other_id)
            if a is None or b is None:
                continue
            loser = await _review(context, view, scope, candidate, a, b)
            if loser is not None:
                gone.add(loser)


async def _review(
    context: AsyncJobContext,
    view: AsyncEntityMerge,
    scope: Scope,
    candidate: SameAsCandidate,
    a: EntitySide,
    b: EntitySide,
) -> str | None:
    """Review one link; returns the id of the entity merged away, if any."""
    settings = context.settings.maintenance
    now = context.clock()
    evidence = evidence_of(a, b, candidate.score)
    decision = decide(
        evidence,
        previous=candidate.evidence,
        linked_at=maybe_from_epoch_ms(candidate.created_at),
        now=now,
        merge_score=settings.resolve_merge_score,
        keep_score=settings.resolve_keep_score,
        dismiss_after=timedelta(days=settings.resolve_dismiss_days),
    )
    if decision == "merge" and not context.dry_run:
        decision = await _confirm(context, a, b, evidence)
    context.tally.count({"merge": "merged", "keep": "kept", "dismiss": "dismissed"}.get(decision, decision))
    pair = f"{scope.user_id}/{a.entity.name!r}~{b.entity.name!r}"
    winner, loser = winner_and_loser(a, b)
    if context.dry_run:
        if decision != "unchanged":
            into = f" into {winner.entity.id}" if decision == "merge" else ""
            context.tally.plan(f"{decision} {pair}{into} (score {evidence_score(evidence):.2f})")
        return None
    if decision == "merge":
        moved = await view.merge(scope, winner.entity, loser.entity)
        for name, count in moved.items():
            context.tally.count(name, count)
        return loser.entity.id
    if decision in ("keep", "dismiss"):
        status = "candidate" if decision == "keep" else "dismissed"
        score = evidence_score(evidence)
        await view.review(scope, candidate, status, evidence.fingerprint, score, epoch_ms(now))
    return None


async def _confirm(context: AsyncJobContext, a: EntitySide, b: EntitySide, evidence: Evidence) -> Decision:
    """The LLM's word on a merge when one is configured: yes merges, no dismisses; an unclear answer
    or a failure keeps the link unreviewed, so the next run asks again."""
    llm = context.backends.llm
    if llm is None:
        return "merge"
    try:
        prompt = confirmation_prompt(a, b, evidence)
        answer = await to_thread(llm.complete, prompt, system=CONFIRM_SYSTEM, max_tokens=60)
    except LLMError as exc:
        log.warning("LLM merge confirmation failed; the candidate waits for the next run: %s", exc)
        context.tally.count("llm_failed")
        return "unchanged"
    verdict = confirmation(answer)
    context.tally.count("llm_confirmed" if verdict else "llm_refused" if verdict is False else "llm_unclear")
    if verdict is None:
        return "unchanged"
    return "merge" if verdict else "dismiss"
