# Generated from agentx_memory/api/compaction_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade method ``compact``: fold a session's oldest turns into a summary. Generated from
``api/compaction_async.py``: edit that file.

The working memory (Redis) of a long session outgrows what an agent can put in its prompt; seed 001's
compaction keeps the newest turns within half the budget and replaces the rest with a summary (an LLM's
when one is configured, else extractive) that builds on the previous one. The ledger keeps every turn,
and the folded ones are returned as memory candidates so consolidation learns from them.
"""

from __future__ import annotations

import logging

from .._compat.sync import to_thread
from ..errors import InvalidInputError, LLMError
from ..memory.compaction import extractive_summary, fit_summary, split_for_compaction
from ..models import Turn
from ..models.learning import CompactionResult
from ..retrieval.tokens import default_token_counter
from ..validation import validate_uuid
from .core import FacadeCore

__all__ = ["CompactionApi"]

log = logging.getLogger(__name__)

#: Below this a summary cannot say anything useful.
MIN_COMPACT_TOKENS = 50
_SUMMARY_SYSTEM = (
    "Summarise the conversation excerpt for the assistant's working memory: keep facts, decisions, open "
    "questions and names; drop greetings. Plain lines, at most {budget} tokens. Never invent anything."
)


class CompactionApi(FacadeCore):
    """``compact`` of ``AgentMemory``: keep a long session's working memory within a budget."""

    def compact(self, conversation_id: str, max_tokens: int) -> CompactionResult:
        """When the session's turns exceed ``max_tokens``, fold the oldest ones (keeping the newest
        within ``max_tokens / 2``) into a summary of at most ``max_tokens / 4``, led by
        ``[context compacted]``; a later compaction builds on that summary."""
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < MIN_COMPACT_TOKENS:
            raise InvalidInputError(f"max_tokens must be an integer of at least {MIN_COMPACT_TOKENS}")
        counter = default_token_counter()
        session = self.working(conversation_id)  # type: ignore[attr-defined]
        turns: list[Turn] = session.all_turns()
        previous: str | None = session.summary()
        before = sum(counter.count(turn.content) for turn in turns) + (
            counter.count(previous) if previous else 0
        )
        if before <= max_tokens:
            return CompactionResult(
                compacted=False, summary=previous, tokens_before=before, tokens_after=before
            )
        folded, kept = split_for_compaction(turns, counter.count, max_tokens // 2)
        if not folded:
            return CompactionResult(
                compacted=False, summary=previous, tokens_before=before, tokens_after=before
            )
        summary = self._summarise(previous, folded, max_tokens // 4)
        session.fold_oldest(len(folded), summary)
        after = sum(counter.count(turn.content) for turn in kept) + counter.count(summary)
        backends = self._open_backends()
        backends.audit.log_write(
            self.scope,
            "compact",
            "conversation",
            conversation_id,
            {"folded": len(folded), "tokens_before": before, "tokens_after": after},
        )
        return CompactionResult(
            compacted=True,
            summary=summary,
            memory_candidates=[turn.id for turn in folded],
            tokens_before=before,
            tokens_after=after,
        )

    def _summarise(self, previous: str | None, folded: list[Turn], budget: int) -> str:
        counter = default_token_counter()
        backends = self._open_backends()
        if backends.llm is not None:
            excerpt = "\n".join(f"{turn.role}: {turn.content}" for turn in folded)
            prompt = (f"Previous summary:\n{previous}\n\n" if previous else "") + f"Excerpt:\n{excerpt}"
            try:
                text = to_thread(
                    backends.llm.complete,
                    prompt,
                    system=_SUMMARY_SYSTEM.format(budget=budget),
                    max_tokens=budget,
                )
                if text.strip():
                    return fit_summary(text, counter.count, budget)
                log.warning("LLM summary was empty, using the extractive one")
            except LLMError as exc:  # the extractive summary is always there to fall back on
                log.warning("LLM summary failed, using the extractive one: %s", exc)
        return extractive_summary(previous, folded, counter.count, budget)
