"""Pure decisions of the ``reflect`` job: is a user due a reflection, and the rule-based digest.

A reflection is a :class:`~agentx_memory.models.Fact` with ``source = 'reflection'``, stored protected
(``decay_rate = 0``) in ``_global``: it is recalled like any fact, never decays, and ``get_context``
shows the newest one in its own section. A user is due one when the last is at least
``maintenance.reflect_min_days`` (6) old by the job's clock and at least ``reflect_min_facts`` (3)
facts were learned since. With an LLM the reflection is its answer to :func:`reflection_prompt`;
without one (or when it fails) :func:`digest`: the most prominent new facts grouped by kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

__all__ = [
    "MAX_DIGEST_CHARS",
    "MAX_FACTS",
    "REFLECTION_SOURCE",
    "REFLECTION_SYSTEM",
    "ReflectionFact",
    "digest",
    "fit_reflection",
    "not_due_reason",
    "reflection_prompt",
]

#: The ``source`` of a reflection fact.
REFLECTION_SOURCE: Final = "reflection"
#: New facts a reflection is written from, most prominent first.
MAX_FACTS: Final = 12
#: A reflection's length; ``get_context`` shows up to 600 characters of it on its line.
MAX_DIGEST_CHARS: Final = 600

_PRIORITY_RANK: Final = {"critical": 0, "high": 1, "medium": 2, "low": 3}

REFLECTION_SYSTEM: Final = (
    "You keep a long-term memory for an assistant. Given facts recently learned about a user, write one "
    "short paragraph (at most 80 words) that reflects on what matters to them now: recurring themes, "
    "plans, preferences. State only what the facts support; no greeting, no list, no preamble."
)


@dataclass(frozen=True)
class ReflectionFact:
    """What a reflection needs of a new fact."""

    claim: str
    priority: str = "medium"
    confidence: float = 0.5
    kind: str | None = None


def not_due_reason(
    last_reflected_at: datetime | None,
    new_facts: int,
    now: datetime,
    min_days: float,
    min_facts: int,
) -> str | None:
    """Why the user gets no reflection now (``too_soon`` / ``too_few_facts``), or None: reflect."""
    if last_reflected_at is not None and now - last_reflected_at < timedelta(days=min_days):
        return "too_soon"
    if new_facts < min_facts:
        return "too_few_facts"
    return None


def _ranked(facts: Sequence[ReflectionFact]) -> list[ReflectionFact]:
    ranked = sorted(facts, key=lambda f: (_PRIORITY_RANK.get(f.priority, 2), -f.confidence))
    return ranked[:MAX_FACTS]


def _claim(text: str) -> str:
    return " ".join(text.split()).rstrip(".")


def _group_title(kind: str | None) -> str:
    return "Other notes" if kind is None else kind.replace("_", " ").capitalize()


def digest(facts: Sequence[ReflectionFact], new_facts: int, now: datetime) -> str:
    """The rule-based reflection: the most prominent new facts (priority, then confidence), grouped by
    kind (the largest group first), as one paragraph of at most :data:`MAX_DIGEST_CHARS`."""
    groups: dict[str | None, list[str]] = {}
    for fact in _ranked(facts):
        groups.setdefault(fact.kind, []).append(_claim(fact.claim))
    ordered = sorted(groups.items(), key=lambda item: (item[0] is None, -len(item[1])))
    parts = [f"{_group_title(kind)}: {'; '.join(claims)}." for kind, claims in ordered]
    head = f"Reflection of {now.date().isoformat()} on {new_facts} new memories."
    return fit_reflection(" ".join([head, *parts]))


def reflection_prompt(facts: Sequence[ReflectionFact], now: datetime) -> str:
    """The LLM's prompt: the date and the most prominent new facts, one per line."""
    lines = "\n".join(f"- {_claim(fact.claim)}" for fact in _ranked(facts))
    return f"Today is {now.date().isoformat()}. Facts learned since the last reflection:\n{lines}"


def fit_reflection(text: str) -> str:
    """``text`` on one line of at most :data:`MAX_DIGEST_CHARS`, cut at a word boundary with "…"."""
    collapsed = " ".join(text.split())
    if len(collapsed) <= MAX_DIGEST_CHARS:
        return collapsed
    cut = collapsed[: MAX_DIGEST_CHARS - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > MAX_DIGEST_CHARS // 2 else cut).rstrip(" ;,") + "…"
