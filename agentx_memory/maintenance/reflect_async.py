"""The ``reflect`` job: a weekly reflection per user, written as a protected fact. Async source of
``reflect.py``.

Decisions (is the user due one, the rule-based digest, the LLM's prompt) live in :mod:`.reflect_rules`;
the job reads and writes through the facts subsystem. The reflection is stored in ``_global`` with
``source = 'reflection'``, ``decay_rate = 0`` (the decay job never touches it) and ``stated_at`` = the
job's clock, which the "once per ``reflect_min_days``" rule compares with.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from .._compat.aio import to_thread
from ..errors import LLMError
from ..models import Scope
from .reflect_rules import (
    MAX_FACTS,
    REFLECTION_SOURCE,
    REFLECTION_SYSTEM,
    ReflectionFact,
    digest,
    fit_reflection,
    not_due_reason,
    reflection_prompt,
)
from .runner_async import AsyncJobContext

__all__ = ["reflect"]

log = logging.getLogger(__name__)

#: The LLM's answer budget (the reflection is a paragraph of at most 80 words).
_LLM_MAX_TOKENS = 300


def _inputs(rows: list[dict[str, Any]]) -> list[ReflectionFact]:
    return [
        ReflectionFact(
            claim=str(row["claim"]),
            priority=str(row["priority"] or "medium"),
            confidence=float(row["confidence"] or 0.0),
            kind=row["fact_kind"],
        )
        for row in rows
    ]


async def reflect(context: AsyncJobContext) -> None:
    """Every user due a reflection (see :func:`.reflect_rules.not_due_reason`) gets one."""
    settings = context.settings.maintenance
    now = context.clock()
    facts = context.backends.facts
    for user_id in await context.users():
        scope = Scope(user_id=user_id, channel="_global")
        last = await facts.latest_reflection(scope)
        new_count, rows = await facts.new_since(
            scope, None if last is None else last[0].created_at, MAX_FACTS
        )
        reason = not_due_reason(
            None if last is None else last[1],
            new_count,
            now,
            settings.reflect_min_days,
            settings.reflect_min_facts,
        )
        if reason is not None:
            context.tally.count(reason)
            continue
        context.tally.count("reflections")
        if context.dry_run:
            context.tally.plan(f"reflect {user_id} on {new_count} new facts")
            continue
        text = await _write(context, _inputs(rows), new_count, now)
        await facts.create(
            scope,
            claim=text,
            confidence=1.0,
            source=REFLECTION_SOURCE,
            temporal="current",
            priority="high",
            embedding=await context.backends.embed_one(text),
            about=(),
            protected=True,
            stated_at=now,
        )


async def _write(
    context: AsyncJobContext, inputs: list[ReflectionFact], new_count: int, now: datetime
) -> str:
    """The LLM's reflection when one is configured and answers, else the rule-based digest."""
    llm = context.backends.llm
    if llm is not None:
        try:
            text = await to_thread(
                llm.complete,
                reflection_prompt(inputs, now),
                system=REFLECTION_SYSTEM,
                max_tokens=_LLM_MAX_TOKENS,
            )
            context.tally.count("by_llm")
            return fit_reflection(text)
        except LLMError as exc:  # the digest is always there to fall back on
            log.warning("LLM reflection failed, writing the rule-based digest: %s", exc)
            context.tally.count("llm_failed")
    return digest(inputs, new_count, now)
