"""What the listener's reply says the user's turn meant: the reply of an assistant that understood is
evidence of what was said, whatever words the user said it in. A pet named in the user's turn that the
reply speaks of as an animal ("we're calling the puppy Pickle now" / "Pickle is adorable! Puppies learn
new names quickly") is the user's pet. The user's name greeted back is in :mod:`.introductions`. Pure."""

from __future__ import annotations

import re
from typing import Final

from .atoms import Extraction, FactAtom
from .clause_atoms import UNKNOWN_SPEAKER, TurnText
from .frame_pets import pet_said
from .introductions import addressed_as, introduces
from .lexicon import PET_KIND, RELATION_NOUNS

__all__ = ["pets_echoed", "pets_told_back"]

_WORDS: Final = re.compile(r"[A-Za-z][a-z'-]+")
#: Words of a loss said back: the name is of a pet gone, not a new one.
_LOSS: Final = re.compile(r"\b(?:sorry (?:about|for|to hear)|rip|miss|loss of|passed|rest in peace)\b", re.I)
#: Words that give an animal its name just before it: "called Saffron", "he's Pickle now", "meet Tova".
_NAMING: Final = re.compile(
    r"(?:\bcall(?:ed|ing)?(?: (?:him|her|it|them))?|\bnamed?(?: (?:him|her|it))?|\bname(?:'s| is)|"
    r"\b(?:he|she)(?:'s| is)|\bmeet|\bsay hi to|[,—–-])\s*$",
    re.IGNORECASE,
)
#: What someone else's pet is said with in the user's turn: "my sister's dog Rex", "Tom's cat".
_THEIRS: Final = re.compile(r"\b(?:his|her|their|\w+'s)\s+(?:\w+\s+)?(?P<kind>\w+)[\s,—–-]*$")


def _kind(word: str) -> str | None:
    """The kind of pet a word names, singular or plural ("Puppies", "collies")."""
    lower = word.casefold()
    for form in (lower, lower.removesuffix("s"), lower.removesuffix("ies") + "y"):
        if form in PET_KIND:
            return PET_KIND[form]
    return None


def pets_echoed(reply: str, said: str) -> list[tuple[str, str]]:
    """``(kind, name)`` of each pet of the user's that ``reply`` speaks of: a capitalised name the user's
    turn ``said`` and the reply share, where both speak of one kind of animal; not a name the reply
    mourns, one named as someone else's pet or as a person ("my friend Max")."""
    kinds = [kind for text in (said, reply) for w in _WORDS.findall(text) if (kind := _kind(w))]
    greeted = addressed_as(reply, said)
    if not kinds or len(set(kinds)) > 1:
        return []  # no animal spoken of, or several (which name is which?)
    found = []
    for match in re.finditer(r"\b([A-Z][a-z]{2,})\b", reply):
        name = match.group(1)
        if _kind(name) or name == greeted or not introduces(name, UNKNOWN_SPEAKER, surely=True):
            continue
        where = re.search(rf"\b{re.escape(name)}\b", said)
        lead = re.split(r"[.!?]\s", reply[: match.start()])[-1]  # the reply's words before it, its sentence
        if where is None or _LOSS.search(lead):
            continue
        before = said[max(0, where.start() - 30) : where.start()]
        if not _NAMING.search(before):
            continue  # "we took the dog to Paris": a name the turn gives no animal
        theirs = _THEIRS.search(before)
        if (theirs and _kind(theirs.group("kind"))) or any(
            r in before.casefold().split()[-2:] for r in RELATION_NOUNS
        ):
            continue  # "my sister's dog Rex", "my friend Max"
        if (kinds[0], name) not in found:
            found.append((kinds[0], name))
    return found[:1]


def pets_told_back(
    echoed: list[tuple[str, str]], extraction: Extraction, speaker: str, turn: TurnText
) -> list[FactAtom]:
    """The pets the reply spoke of that the turn's own readings did not name."""
    named = {fact.value for fact in extraction.facts}
    return [pet_said(speaker, kind, name, turn) for kind, name in echoed if name not in named]
