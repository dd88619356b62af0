"""Chat spelling as written English, so one grammar reads both: "i'm" and "im" are "I'm", "My car's a
Clio" is "My car is a Clio", "my other half" is "my partner". Pure."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["normalise_first_person"]

_LOWER_I: Final = (
    (re.compile(r"\bi(?=(?:'m|'ve|'d|'ll)?\b)"), "I"),
    (re.compile(r"\bim\b(?=\s+[a-z])"), "I'm"),
    (re.compile(r"\bive\b(?=\s+[a-z])"), "I've"),
    (re.compile(r"(?<=\bI)['’](?=m|ve|d|ll)"), "'"),
    (re.compile(r"\bdont\b"), "don't"),
    (re.compile(r"\bcant\b"), "can't"),
    # "My car's a Renault Clio": a possessive never comes before "a"/"an", so this "'s" is "is" (the
    # parser reads it as a possessive and loses the clause); not before "now": "I'm at Sainsbury's now"
    (re.compile(r"(?<=[A-Za-z])['’]s(?=\s+(?:a|an)\b)"), " is"),
    # "my other half, Gareth": the partner, in the words the reader knows
    (re.compile(r"\b([Mm]y|[Oo]ur) (?:other|better) half\b"), r"\1 partner"),
)


def normalise_first_person(text: str) -> str:
    """Chat spelling of the first person ("i'm", "im", "i") as written English, so one grammar reads both."""
    for pattern, replacement in _LOWER_I:
        text = pattern.sub(replacement, text)
    return text
