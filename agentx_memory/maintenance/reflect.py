# Generated from agentx_memory/maintenance/reflect_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The ``reflect`` job: a weekly reflection per user, written as a protected fact. Generated from
``maintenance/reflect_async.py``: edit that file.

Decisions (is the user due one, the rule-based digest, the LLM's prompt) live in :mod:`.reflect_rules`;
the job reads and writes through the facts subsystem. The reflection is stored in ``_global`` with
``source = 'reflection'``, ``decay_rate = 0`` (the decay job never touches it) and ``stated_at`` = the
job's clock, which the "once per ``reflect_min_days``" rule compares with.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from .._compat.sync import to_thread
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
from .runner import JobContext

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


def reflect(context: JobContext) -> None:
    """Every user due a reflection (see :func:`.reflect_rules.not_due_reason`) gets one."""
    settings = context.settings.maintenance
    now = context.clock()
    facts = context.backends.facts
    for user_id in context.users():
        scope = Scope(user_id=user_id, channel="_global")
        last = facts.latest_reflection(scope)
        new_count, rows = facts.new_since(scope, None if last is None else last[0].created_at, MAX_FACTS)
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
        text = _write(context, _inputs(rows), new_count, now)
        facts.create(
            scope,
            claim=text,
            confidence=1.0,
            source=REFLECTION_SOURCE,
            temporal="current",
            priority="high",
            embedding=context.backends.embed_one(text),
            about=(),
            protected=True,
            stated_at=now,
        )


def _write(context: JobContext, inputs: list[ReflectionFact], new_count: int, now: datetime) -> str:
    """The LLM's reflection when one is configured and answers, else the rule-based digest."""
    llm = context.backends.llm
    if llm is not None:
        try:
            text = to_thread(
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
