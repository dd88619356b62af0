"""Free statements that lean on a value which has since changed: after "I moved to Harrogate",
"The water pressure in Priyanka's Leeds flat is tragic" no longer holds; after the Skoda, "Dmitri's Ford
Fiesta needs new brake pads" neither. Time decides the typed slot (:mod:`.dedup`); these go with it.
Pure: the caller reads the subject's free statements and retires the ones returned."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Final

from .stored import StoredFact

__all__ = ["CASCADING_KEYS", "FREE_KEYS", "leaning_on"]

#: Slots one value at a time whose old value takes the statements that name it with it.
CASCADING_KEYS: Final = frozenset(["lives_in", "works_at", "works_as", "drives"])
#: The keys of statements no pattern typed ("said") and of things done ("did"): the only ones retired.
FREE_KEYS: Final = ("said", "did")
#: Words of a value that name nothing by themselves.
_PLAIN: Final = frozenset(["the", "a", "an", "my", "our", "of", "and", "new", "old", "in", "at", "for"])


def naming_words(value: str, subject: str) -> frozenset[str]:
    """The words of ``value`` that name it: capitalised or with a digit ("Ford Fiesta", "Peugeot 208",
    "Tata Steel"), three letters or more, not the subject's own name."""
    words = re.findall(r"[\w'-]+", value)
    named = {
        word.casefold()
        for word in words
        if (word[:1].isupper() or any(ch.isdigit() for ch in word))
        and len(word) >= 3
        and word.casefold() not in _PLAIN
        and word.casefold() != subject.casefold()
    }
    return frozenset(named)


def leaning_on(old: StoredFact, statements: Sequence[StoredFact], until: datetime | None) -> list[str]:
    """The ids of the current free statements about a state (not past events) that name ``old``'s value
    and were said no later than ``until`` (when the new value was said)."""
    if old.key not in CASCADING_KEYS or not old.value or old.subject is None:
        return []
    words = naming_words(old.value, old.subject)
    if not words:
        return []
    found = []
    for fact in statements:
        if fact.id == old.id or fact.key not in FREE_KEYS or fact.temporal == "past":
            continue
        if until is not None and fact.stated_at is not None and fact.stated_at > until:
            continue
        said = {word.casefold() for word in re.findall(r"[\w'-]+", fact.claim)}
        said |= {word.removesuffix("'s") for word in said}
        if said & words:
            found.append(fact.id)
    return found
