"""Query decomposition by rules: a question that joins two people's needs becomes one question each.

"What do Jon and Gina both have in common?" asks for evidence about Jon *and* evidence about Gina,
usually said in different turns and sessions. Embedded whole, the question lands nearest the turns
that name both (mostly one addressing the other: "Go get 'em, Jon!"), which answer neither half.
Asked once per person, each half finds its own evidence; the RecallLayer interleaves the answers.

Pure and conservative: it fires only when two capitalised names are joined by "and" *and* the
question says the need is shared ("both", "each", "share", "in common", "similar", "same"). Without
that word a joint question is usually about one joint event ("When did X and Y go to the festival
together?"), which the whole question finds best.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["decompose"]

_WORD: Final = r"[A-Z][\w-]*"
#: "X and Y", "both X and Y", "X and Y's" (a joint possessive: each gets the "'s"); a name has one or
#: two capitalised words, and the word before X may be a capitalised question word ("Did Jon and …").
_PAIR: Final = re.compile(
    rf"(?P<x>{_WORD}(?:\s+{_WORD})?)\s+and\s+(?P<y>{_WORD}(?:\s+{_WORD})?)(?P<poss>['’]s\b)?"
)
_SHARED: Final = re.compile(r"\b(?:both|each|share[sd]?|sharing|in\s+common|similar|same)\b", re.I)
#: Words that open a question (capitalised there), so never part of the name that follows them.
_QUESTION_WORDS: Final = frozenset(
    re.findall(
        r"\w+",
        "what when where who whom whose which why how did do does is are was were has have had can could "
        "would should will the a an and or but if i",
    )
)
_SPACES: Final = re.compile(r"\s{2,}")


def _is_name(words: str) -> bool:
    return all(word.lower() not in _QUESTION_WORDS for word in words.split())


def decompose(query: str) -> list[str]:
    """One question per person when ``query`` asks what two people share, else ``[]``.

    "Which city have both Jean and John visited?" → ["Which city have Jean visited?", "Which city have
    John visited?"]: grammar is not repaired (embeddings and full-text search do not need it), and the
    shared-need words ("both", "in common") go, since each half is about one person only.
    """
    if _SHARED.search(query) is None:
        return []
    for match in _PAIR.finditer(query):
        start, x, y = match.start("x"), match.group("x"), match.group("y")
        first, _, rest = x.partition(" ")
        if rest and first.lower() in _QUESTION_WORDS:  # "Did Jon": the name is the second word
            start, x = match.start("x") + len(first) + 1, rest
        if not (_is_name(x) and _is_name(y)) or x.casefold() == y.casefold():
            continue
        possessive = match.group("poss") or ""
        parts = []
        for name in (x, y):
            text = query[:start] + name + possessive + query[match.end() :]
            text = re.sub(r"\b(?:both|each)\s+", "", text, flags=re.I)
            text = re.sub(r"\s+in\s+common\b", "", text, flags=re.I)
            parts.append(_SPACES.sub(" ", text).strip())
        return parts
    return []
