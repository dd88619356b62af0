"""Free statements that lean on a value which has since changed: after "I moved to Harrogate",
"The water pressure in Priyanka's Leeds flat is tragic" no longer holds; after the Skoda, "Dmitri's Ford
Fiesta needs new brake pads" neither. Time decides the typed slot (:mod:`.dedup`); these go with it.
A partner or a pet that is no longer the user's takes what was learned of them with it: "Callum is a
chef" after "Callum and I are done" was remembered as the user's boyfriend's job, and offered as the
present it keeps the ex in the user's life (history keeps it, with what ended it).
Pure: the caller reads the subject's free statements and retires the ones returned."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Final

from .atoms import FactAtom
from .lexicon import PARTNER_NOUNS, PET_KINDS
from .stored import StoredFact, value_tokens

__all__ = [
    "CASCADING_KEYS",
    "COMPANION_KEYS",
    "FREE_KEYS",
    "cascades",
    "former_names",
    "leaning_on",
    "of_the_former",
]

#: Slots one value at a time whose old value takes the statements that name it with it.
CASCADING_KEYS: Final = frozenset(["lives_in", "works_at", "works_as", "drives"])
#: Relations whose value is someone in the user's life by that relation: a partner, a pet.
COMPANION_KEYS: Final = PARTNER_NOUNS | PET_KINDS
#: The keys of statements no pattern typed ("said") and of things done ("did"): the only ones retired.
FREE_KEYS: Final = ("said", "did")
#: Words of a value that name nothing by themselves.
_PLAIN: Final = frozenset(["the", "a", "an", "my", "our", "of", "and", "new", "old", "in", "at", "for"])


def cascades(old: StoredFact, new: FactAtom) -> bool:
    """Whether superseding ``old`` by ``new`` takes others with it: a changed home, job, car; a partner
    or a pet that is gone. Not the same one under a new name ("my fiancé Marco" after "my boyfriend
    Marco"); an ending names what it ends ("Rob is done with Steph")."""
    if old.subject is None or not old.value:
        return False
    if not (new.ends or new.key == "ended") and value_tokens(old.value) == value_tokens(new.value):
        return False
    return old.key in CASCADING_KEYS or (old.fact_kind == "relationship" and old.key in COMPANION_KEYS)


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
    if not old.value or old.subject is None:
        return []
    words = naming_words(old.value, old.subject)
    if not words:
        return []
    called = _called_by_the_relation(old)
    found = []
    for fact in statements:
        if fact.id == old.id or fact.key not in FREE_KEYS:
            continue
        if fact.temporal == "past" and not (called is not None and called.search(fact.claim)):
            continue
        if until is not None and fact.stated_at is not None and fact.stated_at > until:
            continue
        said = {word.casefold() for word in re.findall(r"[\w'-]+", fact.claim)}
        said |= {word.removesuffix("'s") for word in said}
        if said & words:
            found.append(fact.id)
    return found


def former_names(old: StoredFact) -> list[str]:
    """The subjects what was learned of ``old``'s former partner or pet is filed under: their name, and
    the user's relation to them when a sentence named them by it ("Sofia's boyfriend Álvaro forgot
    Valentine's again" is filed under "Sofia's boyfriend"); none for any other value."""
    if old.fact_kind != "relationship" or old.key not in COMPANION_KEYS or not old.value or not old.subject:
        return []
    return [old.value, f"{old.subject}'s {old.key}"]


def of_the_former(old: StoredFact, facts: Sequence[StoredFact], until: datetime | None) -> list[str]:
    """The ids of the current facts about ``old``'s value, the former partner or pet ("Haruka loves
    hiking"), said no later than ``until`` (when the relation ended): what was learned of them while
    the relation held. What is said of them afterwards is news of someone the user knows."""
    if old.fact_kind != "relationship" or old.key not in COMPANION_KEYS or not old.value:
        return []
    names = {who.casefold() for who in former_names(old)}
    called = _called_by_the_relation(old)
    return [
        fact.id
        for fact in facts
        if fact.id != old.id
        and (fact.subject or "").casefold() in names
        and (fact.temporal != "past" or (called is not None and called.search(fact.claim) is not None))
        and not (until is not None and fact.stated_at is not None and fact.stated_at > until)
    ]


def _called_by_the_relation(old: StoredFact) -> re.Pattern[str] | None:
    """For a former partner or pet, their name after the relation ("boyfriend Álvaro"): a statement that
    calls them so says the relation holds, even in a past event's words ("Sofia's boyfriend Álvaro forgot
    Valentine's again"), and goes with it."""
    if old.fact_kind != "relationship" or old.key not in COMPANION_KEYS or not old.value:
        return None
    return re.compile(rf"\b{re.escape(old.key)}\s+{re.escape(old.value)}\b", re.IGNORECASE)
