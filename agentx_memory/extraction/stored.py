"""What dedup compares: a stored fact as a decision sees it, the decision, and the words of a value.

Shared by :mod:`.dedup` (the decisions), :mod:`.frames` and :mod:`.rules` (which read values the way
dedup compares them). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from ..models.semantic import Fact
from .atoms import FactAtom

__all__ = ["TOKEN", "Action", "Decision", "StoredFact", "fact_signature", "jaccard", "stem", "value_tokens"]

TOKEN: Final = re.compile(r"[a-z0-9]+")
_STOP: Final = frozenset(
    [
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "and",
        "or",
        "with",
        "his",
        "her",
        "their",
        "its",
        "it",
        "this",
        "that",
        "really",
        "very",
        "just",
        "also",
        "so",
    ]
)

Action = Literal["add", "update", "noop", "supersede", "conflict", "past"]


@dataclass(frozen=True)
class StoredFact:
    """What dedup needs to know of a stored current fact."""

    id: str
    claim: str
    subject: str | None
    key: str | None
    value: str | None
    negated: bool
    source_turn_ids: tuple[str, ...]
    fact_kind: str | None
    #: Cosine similarity between the stored fact's and the new atom's statements.
    similarity: float
    #: The day an event is on, when its statement named one.
    event_time: datetime | None = None
    #: When it was said (its latest source turn's time), for a learned fact.
    stated_at: datetime | None = None
    #: For a stored ending: the slots it ended and the words naming what it ended.
    ends: tuple[str, ...] = ()
    ends_words: tuple[str, ...] = ()
    #: "current" for a state, "past" for an event (a statement's), as learned.
    temporal: str | None = None

    @classmethod
    def of(cls, fact: Fact, similarity: float) -> StoredFact:
        return cls(
            id=fact.id,
            claim=fact.claim,
            subject=fact.subject,
            key=fact.key,
            value=fact.value,
            negated=fact.negated,
            source_turn_ids=tuple(fact.source_turn_ids),
            fact_kind=fact.fact_kind,
            similarity=similarity,
            event_time=fact.event_time,
            stated_at=fact.stated_at,
            ends=tuple(fact.ends),
            ends_words=tuple(fact.ends_words),
            temporal=fact.temporal,
        )


@dataclass(frozen=True)
class Decision:
    action: Action
    #: The stored fact the action applies to (None for ADD).
    target: StoredFact | None = None
    reason: str = ""
    #: More stored facts a SUPERSEDE ends ("I quit my job" ends the employer and the occupation).
    also: tuple[StoredFact, ...] = ()


def stem(token: str) -> str:
    for suffix in ("ing", "es", "s", "ed"):
        if len(token) > len(suffix) + 2 and token.endswith(suffix):
            return token[: -len(suffix)]
    return token


_POSSESSIVE: Final = re.compile(r"['’]s\b")


def value_tokens(text: str) -> frozenset[str]:
    # A possessive's "s" is no word: as one, every "Dana's …" shared it with every other.
    words = TOKEN.findall(_POSSESSIVE.sub("", text.casefold()))
    return frozenset(stem(token) for token in words if token not in _STOP)


def jaccard(left: str, right: str) -> float:
    a, b = value_tokens(left), value_tokens(right)
    return len(a & b) / len(a | b) if a or b else 1.0


def fact_signature(atom: FactAtom) -> tuple[str, str, str, bool]:
    """Subject, key, value and polarity, normalised: two atoms with one signature state one fact."""
    value = " ".join(sorted(value_tokens(atom.value)))
    return atom.subject.casefold(), atom.key.casefold(), value, atom.negated


def in_slots(key: str | None, slots: Sequence[str]) -> bool:
    """``key`` is one of ``slots``, where a slot ending in ``*`` is every key it begins ("favourite_*":
    a new favourite told against an old one of a category it does not name)."""
    return key is not None and any(key == s or (s.endswith("*") and key.startswith(s[:-1])) for s in slots)
