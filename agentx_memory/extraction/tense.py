"""Which way a clause points in time, read from its verb group: the tense and aspect of its finite verb.

A date said without a year points the way its clause does (DESIGN §8, "dates point the right way"): a
plan ("will fly", "is flying", "is going to", "plans to", "has a meeting", "exam is on") is the next
occurrence after the turn, a past or a present perfect ("ran", "went", "has finished") the last one
on or before it. The verb group is told by spelling (:mod:`.verbs`), as the rest of the offline reader
is, so the dates do not depend on whether spaCy is installed. Pure.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from .english import ADVERBS
from .verbs import ing_form, past_form

__all__ = ["Pointing", "clause_pointing"]

#: ``plan``: ahead of the turn; ``past``: behind it; ``other``: the verb does not say (a copula with an
#: adjective, "is tired after the party on Saturday", where the date is the party's).
Pointing = Literal["plan", "past", "other"]

_WORD: Final = re.compile(r"[a-z]+(?:'[a-z]+)?")
_BE_PRESENT: Final = frozenset(["is", "are", "am"])
_HAVE_PRESENT: Final = frozenset(["has", "have"])
#: The finite verb in the past: the clause tells what was, whatever follows ("was going to").
_PAST_AUXILIARIES: Final = frozenset(["was", "were", "did", "had", "used"])
#: A future or a modal: what follows is ahead.
_MODALS: Final = frozenset(
    ["will", "shall", "gonna", "wanna", "gotta", "would", "could", "can", "may", "might", "must", "should"]
)
_AUXILIARIES: Final = _BE_PRESENT | _HAVE_PRESENT | _PAST_AUXILIARIES | _MODALS | {"do", "does"}
#: After a present "be", what makes it a plan: a progressive ("is flying"), "going to", "about to", or
#: an arrangement ("is due", "is scheduled", "is set to").
_ARRANGED: Final = frozenset(
    ["going", "about", "due", "scheduled", "set", "supposed", "booked", "planned", "off", "leaving", "headed"]
)
#: A copula whose complement is the date itself: "the exam is on the 12th", "the wedding is next May".
_DATE_START: Final = frozenset(["on", "in", "at", "next", "this", "tomorrow", "tonight", "coming"])
#: The date is of something already done when one of these stands between the verb and it ("is still
#: sore after the run on Sunday", "has been tired since Monday").
_BEFORE_DONE: Final = re.compile(r"\b(?:after|since|ago)\b", re.IGNORECASE)
#: Words between a possessive subject and its verb ("Dana's new job starts"): at most this many.
_NOUN_PHRASE_WORDS: Final = 4


def _is_adverb(word: str) -> bool:
    return word in ADVERBS or (word.endswith("ly") and len(word) > 4)


def _finite(words: list[str], possessive: bool) -> int | None:
    """The index of the clause's finite verb: the first word after the subject that is no adverb or,
    after a possessive subject ("Dana's exam is …"), the first auxiliary or past in its first few
    words, else the first in -s after the noun ("Dana's new job starts")."""
    words = words[: _NOUN_PHRASE_WORDS + 1] if possessive else words
    for index, word in enumerate(words):
        if _is_adverb(word):
            continue
        if not possessive or word in _AUXILIARIES or past_form(word):
            return index
    return next(
        (at for at, word in enumerate(words) if at and word.endswith("s") and not word.endswith("ss")), None
    )


def clause_pointing(clause: str, subject: str) -> Pointing:
    """Whether ``clause`` (third person, starting with ``subject``) is a plan, a past or neither.

    Past or present perfect: "Dana ran a half marathon on October 2nd", "Dana has finished the thesis".
    A plan: a future or a modal ("Dana will fly", "Dana is going to"), a present progressive or an
    arrangement ("Dana is flying to Tokyo on January 5th"), a present ("Dana starts on Monday", "Dana
    has an exam on Friday"), a copula whose complement is the date ("Dana's exam is on the 12th"), and
    a date something is arranged *for* ("Dana has booked a table for Friday": the booking is past, the
    date is the table's)."""
    rest = clause[len(subject) :] if clause.startswith(subject) else clause
    # "Dana and others", "Dana and Tom", "Dana and Dana's wife": the verb follows the whole subject
    rest = re.sub(r"^\s+and (?:others|[A-Z][\w-]*(?:'s [a-z]+)?)\b", "", rest.replace("’", "'"))
    possessive = rest.startswith("'s ")
    words = _WORD.findall(rest.casefold()[2 if possessive else 0 :])
    at = _finite(words, possessive)
    if at is None:
        return "other"
    verb, later = words[at], [word for word in words[at + 1 :] if not _is_adverb(word)]
    after = later[0] if later else ""
    if verb in _PAST_AUXILIARIES:
        return "plan" if _MOVED_TO_DATE.search(rest) else "past"  # "was pushed back to the 14th"
    if verb in _MODALS:
        return "plan"
    if verb in _HAVE_PRESENT:
        # "has finished", "has been": the present perfect looks back; "has to", "has an exam" ahead.
        if after == "been" or (past_form(after) and not ing_form(after)):
            return "plan" if _arranged_for(rest) else "past"
        return "other" if _BEFORE_DONE.search(rest) else "plan"
    if verb in _BE_PRESENT:
        if _BEFORE_DONE.search(rest):
            return "other"
        if ing_form(after) or after in _ARRANGED or after in _DATE_START or _DATED_COPULA.search(rest):
            return "plan"
        return "other"
    if past_form(verb):
        return "plan" if _arranged_for(rest) else "past"
    return "other" if _BEFORE_DONE.search(rest) else "plan"


#: A day named by its weekday, its ordinal or its month and number: "Friday", "the 12th", "Oct. 9".
_A_DAY: Final = (
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\d{1,2}(?:st|nd|rd|th)\b|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d)"
)
#: "is October 18", "is 10/18", "is the 18th", "is Friday": the copula's complement is the date.
_DATED_COPULA: Final = re.compile(
    rf"\b(?:is|are|'s)\s+(?:the\s+)?(?:{_A_DAY}|\d{{1,2}}/\d{{1,2}}\b)", re.IGNORECASE
)
_FOR_DATE: Final = re.compile(rf"\bfor\s+(?:the\s+)?(?:(?:next|this|coming)\s+)?{_A_DAY}", re.IGNORECASE)


#: "got moved to November 4th", "pushed back to the 14th", "rescheduled for Friday": the date an
#: appointment was moved to is ahead, whatever the tense of the moving
_MOVED_TO_DATE: Final = re.compile(
    r"\b(?:moved|pushed|put|rescheduled|changed|postponed|brought|bumped|shifted|delayed)"
    rf"(?:\s+(?:back|forward|up|out))?\s+(?:to|until|till)\s+(?:the\s+)?(?:(?:next|this|coming)\s+)?{_A_DAY}",
    re.IGNORECASE,
)


def _arranged_for(said: str) -> bool:
    """A date something was booked, planned or set *for* ("a table for Friday", "for January 5th"), or
    moved *to* ("my physical got moved to November 4th")."""
    return bool(_FOR_DATE.search(said) or _MOVED_TO_DATE.search(said))
