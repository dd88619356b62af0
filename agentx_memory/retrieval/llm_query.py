"""Pure prompts and answer parsing for the LLM-backed recall techniques (HyDE, expansion, self-query).

The LLM is optional: every function here has a rule-based counterpart, and an unusable answer is
reported as ``None`` so the caller falls back to rules instead of failing the recall.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel, ValidationError, field_validator

from ..kinds import ALL_KINDS, KINDS, MemoryKind
from ..models import QueryFilters, TimeRange
from ..timecodec import to_utc

__all__ = [
    "EXPANSION_SYSTEM",
    "HYDE_SYSTEM",
    "SELF_QUERY_SYSTEM",
    "expansion_prompt",
    "hyde_prompt",
    "parse_expansion",
    "parse_self_query",
    "self_query_prompt",
]

HYDE_SYSTEM = (
    "You write the single sentence that a person's own chat history would most likely contain if it "
    "answered the question. Invent plausible specifics. Answer with the sentence only."
)
EXPANSION_SYSTEM = (
    "Rewrite the question as the declarative statement that would answer it, keeping every name and "
    "keyword. Answer with the statement only."
)
SELF_QUERY_SYSTEM = (
    "Extract search filters from the user's question. Reply with JSON only: "
    '{"text": <the question without the filter phrases>, "start": <ISO-8601 UTC or null>, '
    '"end": <ISO-8601 UTC or null, exclusive>, "kinds": [subset of '
    + ",".join(f'"{spec.name}"' for spec in KINDS)
    + '], "entities": [names mentioned], "channels": [subset of the allowed channels], '
    '"parts": [one self-contained question per need when the question joins the needs of several '
    'people or things, as in "what do X and Y both like?"; else []]}'
)
#: Sub-questions kept from an LLM's decomposition at most (each is a whole recall).
_MAX_PARTS = 4

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


def hyde_prompt(query: str) -> str:
    return f"Question: {query}\nSentence:"


def expansion_prompt(query: str) -> str:
    return f"Question: {query}\nStatement:"


def self_query_prompt(query: str, now: datetime, channels: Sequence[str]) -> str:
    allowed = ", ".join(channels) or "(none)"
    return f"Now (UTC): {now.isoformat()}\nAllowed channels: {allowed}\nQuestion: {query}\nJSON:"


def parse_expansion(answer: str, max_chars: int = 500) -> str | None:
    """The first line of the answer, or None when it is empty or suspiciously long."""
    line = answer.strip().splitlines()[0].strip() if answer.strip() else ""
    return line if 0 < len(line) <= max_chars else None


class _SelfQueryAnswer(BaseModel):
    text: str = ""
    start: datetime | None = None
    end: datetime | None = None
    kinds: list[str] = []
    entities: list[str] = []
    channels: list[str] = []
    parts: list[str] = []

    @field_validator("start", "end")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else to_utc(value)


def parse_self_query(answer: str, query: str, channels: Sequence[str]) -> QueryFilters | None:
    """Validated filters from the LLM's JSON; unknown kinds and channels are dropped, bad JSON gives None."""
    try:
        parsed = _SelfQueryAnswer.model_validate(json.loads(_FENCE.sub("", answer.strip())))
    except (ValueError, ValidationError):
        return None
    time_range = None
    if parsed.start is not None or parsed.end is not None:
        if parsed.start is not None and parsed.end is not None and parsed.end <= parsed.start:
            return None
        time_range = TimeRange(start=parsed.start, end=parsed.end, phrase="llm")
    kinds: list[MemoryKind] = [kind for kind in parsed.kinds if kind in ALL_KINDS]
    return QueryFilters(
        text=parsed.text.strip() or query,
        time_range=time_range,
        kinds=kinds,
        entities=[name.strip() for name in parsed.entities if name.strip()][:10],
        channels=[channel for channel in parsed.channels if channel in channels],
        parts=_parts(parsed.parts, query),
        source="llm",
    )


def _parts(parts: Sequence[str], query: str) -> list[str]:
    """The LLM's sub-questions, when there are at least two distinct ones of sane length."""
    kept: list[str] = []
    for part in parts:
        text = " ".join(part.split())
        if 0 < len(text) <= max(2 * len(query), 200) and text.casefold() not in {k.casefold() for k in kept}:
            kept.append(text)
    return kept[:_MAX_PARTS] if len(kept) >= 2 else []
