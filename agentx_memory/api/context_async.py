"""Facade method ``get_context``: the memory block an agent prepends to its system prompt. Async source
of ``api/context.py``.

It recalls for the prompt (the RecallLayer, all kinds), adds the user's open goals, drops the current
conversation's own turns (the agent already has them), renders by section within the token budget
(``retrieval/context_render.py``) and records the injected ids in the conversation's working memory,
so that extraction never learns back what was only recalled (recall echo). The injected facts and
entities count one more access, as ``remember``'s results do. Every line carries a
``[mem:<id>]`` tag: traceable to its memory, and recognisable if the agent repeats it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime

from .._compat.aio import alongside, finished, gather
from ..backends_async import AsyncBackends
from ..errors import AgentMemoryError
from ..kinds import KINDS, kind_spec
from ..models import Fact, Goal, MemoryBundle, MemoryItem, UserProfile
from ..retrieval.context_render import (
    MIN_BUDGET_TOKENS,
    ContextSections,
    at_present,
    nearby_facts,
    profile_line,
    render_context,
    worth_injecting,
)
from ..retrieval.items import RecallRequest, fact_item, goal_item
from ..retrieval.recall_async import AsyncRecallLayer
from ..retrieval.tokens import default_token_counter
from ..validation import validate_budget, validate_content, validate_uuid
from .core_async import AsyncFacadeCore

__all__ = ["AsyncContextApi"]

log = logging.getLogger(__name__)

#: The largest budget accepted (tokens); far beyond any useful memory block.
MAX_BUDGET_TOKENS = 32_000
#: Memories recalled per call before the budget decides what fits.
_RECALL_TOP_K = 25
#: Open goals always offered to the renderer (highest priority first).
_ACTIVE_GOALS = 5


class AsyncContextApi(AsyncFacadeCore):
    """``get_context`` of ``AsyncAgentMemory``."""

    async def get_context(
        self, prompt: str, *, budget_tokens: int = 1500, conversation_id: str | None = None
    ) -> str:
        """Markdown memory for ``prompt`` within ``budget_tokens`` (WordPiece-counted), or "" if none.

        Sections: known facts, relevant past conversation, strategies that worked, active goals, the
        latest reflection (the ``reflect`` job's), people and things. ``conversation_id`` names the
        conversation in progress: its own turns are
        left out, and the injected memory ids are recorded in its working memory (recall echo).
        """
        prompt = validate_content(prompt, self.settings.limits, "prompt")
        budget_tokens = validate_budget(budget_tokens, MIN_BUDGET_TOKENS, MAX_BUDGET_TOKENS)
        if conversation_id is not None:
            conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = await self._open_for_recall("get_context")
        with backends.callers.call():  # background learning waits meanwhile
            request = RecallRequest(
                query=prompt, top_k=_RECALL_TOP_K, channels=tuple(self.scope.read_channels)
            )
            recalled: list[MemoryBundle] = []
            goals: list[Goal] = []
            profiles: list[UserProfile] = []
            reflections: list[Fact] = []
            nearby: list[tuple[Fact, float]] = []

            async def recall() -> None:
                layer = AsyncRecallLayer(backends, self.settings.retrieval)
                recalled.append(await layer.recall(self.scope, request, nearby))

            async def open_goals() -> None:  # independent of the recall: fetched beside it
                goals.extend(await backends.goals.active(self.scope, _ACTIVE_GOALS))

            async def profile() -> None:
                profiles.append(await backends.profile.get(self.scope))

            async def reflection() -> None:  # the newest weekly reflection, shown whatever the prompt
                found = await backends.facts.latest_reflection(self.scope)
                if found is not None:
                    reflections.append(found[0])

            async def beside() -> None:
                await gather(open_goals(), profile(), reflection())

            # The goals, the profile and the reflection beside the recall (on a worker thread in the sync
            # API, where `gather` runs its steps one after the other): three round trips off the path.
            others = alongside(beside)
            try:
                await recall()
            finally:
                await finished(others)
            bundle = recalled[0]
            backends.recall_monitor.record(bundle.metrics)
            items = [
                item
                for item in bundle.items
                if not (
                    item.kind == "episodic" and conversation_id and item.conversation_id == conversation_id
                )
            ]
            retrieval = self.settings.retrieval
            # The current facts near the prompt get the facts section even when none ranked: recall ranks
            # turns first, and "recommend a restaurant" matches no turn that says where the user lives.
            close = nearby_facts(
                nearby,
                {item.id for item in items},
                backends.calibration.overridden(retrieval=retrieval).context_fact_floor,
                retrieval.context_facts,
            )
            if conversation_id is not None:  # nor what was learned from it: the agent has its turns
                kept = await self._without_own_facts(backends, conversation_id, items + close)
                near = {item.id for item in close}
                items = [item for item in kept if item.id not in near]
                close = [item for item in kept if item.id in near]
            # They take up to half of the cap on memories, the rest is the recall's best.
            close = close[: retrieval.context_max_items // 2]
            items = worth_injecting(
                at_present(items), retrieval.context_floor, retrieval.context_max_items - len(close)
            )
            # Scored as the weakest recalled memory: the facts section's own share of the budget (the
            # renderer's first two passes) is what brings them in, not a score on another scale.
            weakest = min((item.score for item in items), default=1.0)
            items += [item.model_copy(update={"score": weakest}) for item in close]
            recalled_goals = {item.id for item in items if item.kind == "goal"}
            goal_items = [item for item in items if item.kind == "goal"] + [
                goal_item(goal, 0.0) for goal in goals if goal.id not in recalled_goals
            ]
            by_section: dict[str, list[MemoryItem]] = {spec.section: [] for spec in KINDS}
            for item in items:
                by_section[kind_spec(item.kind).section].append(item)
            by_section["goals"] = goal_items  # the recalled goals and every other open one
            sections = ContextSections.of(by_section)
            if reflections:  # in its own section, not also among the facts
                reflected = fact_item(reflections[0], 1.0, ("reflection",))
                facts = [item for item in sections.facts if item.id != reflected.id]
                sections = replace(sections, facts=facts, reflection=reflected)
            about = profile_line(profiles[0].preferences, profiles[0].expertise_areas)
            rendered = render_context(
                sections, budget_tokens, default_token_counter(), now=datetime.now(UTC), profile=about
            )
            if conversation_id is not None and rendered.memory_ids:
                await self._mark_recalled(backends, conversation_id, list(rendered.memory_ids))
            # What reached the agent was accessed: the injected facts and entities, not what did not fit.
            injected = set(rendered.memory_ids)
            self._reinforce_later(backends, [item for item in items if item.id in injected])
            await backends.audit.log_read(
                self.scope,
                "get_context",
                {
                    "budget_tokens": budget_tokens,
                    "tokens": rendered.tokens,
                    "injected": len(rendered.memory_ids),
                    "dropped": rendered.dropped,
                    "conversation_id": conversation_id,
                },
                {"prompt": prompt, "memory_ids": list(rendered.memory_ids)},
            )
            return rendered.text

    async def _without_own_facts(
        self, backends: AsyncBackends, conversation_id: str, items: list[MemoryItem]
    ) -> list[MemoryItem]:
        """The items less the facts learned only from this conversation's turns."""
        sources = [turn for item in items if item.kind == "fact" for turn in item.source_turn_ids]
        if not sources:
            return items
        own = await backends.episodic.turns_of_conversation(self.scope, conversation_id, sources)
        return [
            item
            for item in items
            if not (item.kind == "fact" and item.source_turn_ids and own.issuperset(item.source_turn_ids))
        ]

    async def _mark_recalled(self, backends: AsyncBackends, conversation_id: str, ids: list[str]) -> None:
        session = backends.session(self.scope, conversation_id)
        try:
            await session.mark_recalled(ids)
        except AgentMemoryError as exc:  # the block is still valid; only the echo guard is weaker
            log.warning("could not record recalled memories for conversation %s: %s", conversation_id, exc)
