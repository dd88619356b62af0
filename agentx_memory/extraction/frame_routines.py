"""A pastime told by when it recurs: chat's verbless "parkrun every Saturday morning now", "pottery class
every Monday evening now", and a present progressive with how often ("I'm surfing most weekends
instead"), which the habit reader (present simple: "I run every morning") leaves alone because "I'm
running" alone is as often a plan. The "now" / "instead" / "these days" is what makes it a routine taken
up rather than one day's. Pure functions over a spaCy parse and its sentence's words."""

from __future__ import annotations

import re
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_fits import SUBJECTS

__all__ = ["routines"]

_WHEN: Final = (
    r"(?:every|each)\s+(?:other\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|morning|"
    r"evening|night|weekend|week|day|lunchtime)s?(?:\s+(?:morning|evening|night|afternoon|lunchtime))?"
)
#: "parkrun every Saturday morning now": one to three words (no pronoun, article or possessive before
#: them: "my sister every Sunday now" is no pastime), when, and "now" / "these days".
_VERBLESS: Final = re.compile(
    rf"^(?:and\s+|so\s+|also\s+)?(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,2}})\s+(?P<when>{_WHEN})"
    r"\s+(?:now|these\s+days|nowadays)\b",
    re.IGNORECASE,
)
_NOT_PASTIMES: Final = frozenset(
    ["i", "we", "you", "he", "she", "they", "it", "my", "our", "the", "a", "an", "his", "her", "their",
     "this", "that", "work", "school", "meetings", "meeting", "shifts", "therapy", "physio", "dialysis"]
)  # fmt: skip
#: Words of how often a present progressive is kept up: "most weekends", "every morning".
_OFTEN: Final = frozenset(["most", "every", "each"])
_LATELY: Final = frozenset(["now", "instead", "nowadays", "days", "lately"])
_TIMES: Final = frozenset(["weekend", "morning", "evening", "night", "day", "week", "lunchtime"])


def routines(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The pastime the speaker keeps up now, told by when it recurs."""
    found = _VERBLESS.match(sentence.text.strip())
    if found is not None:
        thing = found["thing"]
        if not set(thing.casefold().split()) & _NOT_PASTIMES:
            return [_atom(thing, f"{speaker} does {thing} {found['when']} now", speaker, turn)]
    for verb in sentence:
        if verb.tag_ != "VBG" or not any(
            c.dep_ == "aux" and c.lemma_ == "be" and c.tag_ == "VBP" for c in verb.children
        ):
            continue
        if not any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in verb.children):
            continue
        said = [
            c
            for c in verb.children
            if c.lemma_.casefold() in _TIMES and any(a.lower_ in _OFTEN for a in c.children)
        ]
        lately = any(c.lower_ in _LATELY for c in verb.subtree)
        if said and lately and not any(c.dep_ in {"neg", "prep"} or c.tag_ == "MD" for c in verb.children):
            doing = verb.text.casefold()
            when = " ".join(t.text for t in said[0].subtree)
            return [_atom(doing, f"{speaker} is {doing} {when} now", speaker, turn)]
    return []


def _atom(thing: str, statement: str, speaker: str, turn: TurnText) -> FactAtom:
    ctx = Context(turn=turn, subject=speaker, correction=False, is_speaker=True)
    atom = build_atom("preference", "habit", thing, statement, ctx, [], False, "explicit")
    return atom.model_copy(update={"temporal": "current"})
