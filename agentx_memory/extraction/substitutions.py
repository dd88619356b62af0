"""Corrections that say only the new word: "no wait, I meant Piranesi", "not Spiegel but Die Zeit",
"scratch that, the plan is Bolivia now". Pure.

Such a turn states no fact of its own, so the clause rules learn nothing from it; what it corrects is a
fact stored before, whose claim names the word taken back. That word is either said ("not Spiegel but
…") or only mentioned around the correction ("I meant Piranesi. Rebecca is my mom's favourite": the
stored favourite is Rebecca). The new fact is the stored claim with the word replaced, and it supersedes
the stored one (``FactAtom.replaces``). A stored fact that names neither is left alone, so "no, I meant
next year, not this year" changes nothing unless a fact says "this year".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .atoms import FactAtom
from .clause_atoms import TurnText
from .stored import StoredFact

__all__ = ["Substitution", "substituted", "substitutions"]

_PHRASE: Final = r"(?-i:an? |the )?(?P<{name}>[\w'’-]+(?: [\w'’-]+){{0,3}}?)"
#: The frames, each with the new word ("new") and, when said, the word taken back ("old").
_FRAMES: Final = (
    # "no wait, I meant Piranesi", "sorry, I meant to say fiddle"
    re.compile(r"\bI meant (?:to say )?" + _PHRASE.format(name="new") + r"(?=\s*(?:[,.;!?]|$))", re.I),
    # "not Spiegel but Die Zeit"
    re.compile(
        r"\bnot "
        + _PHRASE.format(name="old")
        + r",? but "
        + _PHRASE.format(name="new")
        + r"(?=\s*(?:[,.;!?]|$))",
        re.I,
    ),
    # "no, Costa da Caparica." (a name, and nothing else, after the "no")
    re.compile(
        r"^\s*no,? (?!I\b|I['’]m\b|It\b|It['’]s\b)"
        r"(?P<new>(?-i:[A-Z])[\w'’-]*(?: [\w'’-]+){0,3}?)(?=\s*[.!;]|$)"
    ),
    # "31 actually, my birthday already passed", "Lisbon actually": the new word alone, opening the turn
    re.compile(r"^\s*(?P<new>[\w'’-]+(?: [\w'’-]+){0,2}?),? actually\b", re.I),
    # "the plan is Bolivia now", "it's Lisbon now"
    re.compile(r"\b(?:the plan is|it's|it is) " + _PHRASE.format(name="new") + r" now\b", re.I),
)
#: Said with the word it replaces, which is a correction whatever opens the turn: "switched from
#: amlodipine to lisinopril".
_FROM_TO: Final = re.compile(
    r"\b(?:switched|changed|moved) (?:over )?from "
    + _PHRASE.format(name="old")
    + r" to "
    + _PHRASE.format(name="new")
    + r"(?=\s*(?:[,.;!?]|$| this| last| today| now))",
    re.I,
)
#: Corrections only: a frame said otherwise ("I meant it", "it's late now") replaces nothing.
_CUE: Final = re.compile(
    r"^\s*(?:no\b|nope\b|sorry\b|wait\b|oops\b|scratch that\b|correction\b|actually\b|not\b|my bad\b"
    r"|[\w'’-]+(?: [\w'’-]+){0,2}?,? actually\b)",
    re.IGNORECASE,
)
_WORD: Final = re.compile(r"[\w'’-]+")
#: Words a stored value and a correction share without naming the same thing.
_FUNCTION: Final = frozenset(
    [
        "a",
        "an",
        "the",
        "my",
        "our",
        "his",
        "her",
        "their",
        "your",
        "its",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "with",
        "and",
        "or",
        "is",
        "are",
        "was",
        "be",
        "it",
        "this",
        "that",
        "now",
        "not",
        "no",
        "just",
        "so",
        "too",
        "very",
        "really",
        "new",
        "old",
        "year",
        "years",
        "day",
        "days",
        "week",
        "weeks",
    ]
)
_NOT_NEW: Final = frozenset(
    {"it", "that", "this", "so", "well", "yes", "no", "you", "him", "her", "them", "i", "we", "they", "he",
     "she", "thanks", "thank", "ok", "okay", "oh", "yeah", "yep", "hmm", "um", "and", "but", "or", "there"}
)  # fmt: skip


@dataclass(frozen=True)
class Substitution:
    """A correction that puts ``new`` in the place of ``old`` (or of a word the turn mentions)."""

    turn_id: str
    speaker: str
    new: str
    old: str | None
    #: The turn's words, lower case: where an unsaid ``old`` is looked for.
    words: frozenset[str]


def substitutions(turn: TurnText) -> list[Substitution]:
    """The substitutions ``turn`` says, when it opens as a correction ("no", "sorry", "scratch that"…)."""
    frames = [*_FRAMES, _FROM_TO] if _CUE.match(turn.text) else [_FROM_TO]
    found: list[Substitution] = []
    words = frozenset(word.casefold() for word in _WORD.findall(turn.text))
    for frame in frames:
        for match in frame.finditer(turn.text):
            new = match.group("new").strip()
            old = match.groupdict().get("old")
            first = new.split()[0].casefold()
            if first in _NOT_NEW or (old is not None and old.casefold() == new.casefold()):
                continue
            found.append(Substitution(turn.id, turn.speaker, new, old.strip() if old else None, words))
    return found


def _span(claim: str, word: str) -> tuple[int, int] | None:
    """Where ``word`` stands in ``claim`` (whole words, any case), widened to the capitalised run it is
    part of when it is a name ("Spiegel" in "Der Spiegel")."""
    match = re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", claim, re.IGNORECASE)
    if match is None:
        return None
    start, end = match.span()
    if word[:1].isupper():
        before = re.search(r"(?:(?-i:[A-Z])[\w'’-]* )+$", claim[:start])
        after = re.match(r"(?: (?-i:[A-Z])[\w'’-]*)+", claim[end:])
        start = before.start() if before and before.start() > 0 else start
        end = end + after.end() if after else end
    return start, end


def _taken_back(sub: Substitution, stored: StoredFact) -> str | None:
    """The word of the stored fact the substitution replaces: the one it says, or else a word of the
    stored value that the turn mentions besides the new one."""
    if sub.old is not None:
        return sub.old if _span(stored.claim, sub.old) else None
    if sub.new.isdigit() and (stored.value or "").isdigit():
        return stored.value  # "31 actually": the number said before ("I'm 30"), however it was said
    new = {word.casefold() for word in _WORD.findall(sub.new)}
    subject = (stored.subject or "").casefold()
    for word in _WORD.findall(stored.value or ""):
        folded = word.casefold()
        if folded in sub.words and folded not in new | _FUNCTION and folded != subject:
            return str(word)
    return None


def substituted(sub: Substitution, candidates: Sequence[StoredFact]) -> FactAtom | None:
    """The stored fact of the speaker that ``sub`` corrects, said anew with the new word, replacing it;
    None when no candidate names what it takes back (or more than one does: which is unclear)."""
    found: list[tuple[StoredFact, str]] = []
    for stored in candidates:
        if (
            stored.subject is None
            or stored.subject.casefold() != sub.speaker.casefold()
            or stored.key is None
        ):
            continue
        if (old := _taken_back(sub, stored)) is not None:
            found.append((stored, old))
    if len(found) != 1:
        return None
    stored, old = found[0]
    span = _span(stored.claim, old)
    assert span is not None  # _taken_back found it there
    claim = stored.claim[: span[0]] + sub.new + stored.claim[span[1] :]
    value = stored.value or ""
    in_value = _span(value, old)
    if in_value is not None:
        value = value[: in_value[0]] + sub.new + value[in_value[1] :]
    kind = stored.fact_kind or "statement"
    return FactAtom.model_validate(
        {
            "fact_kind": kind,
            "subject": stored.subject,
            "statement": claim,
            "key": stored.key,
            "value": value,
            "negated": stored.negated,
            "temporal": _TEMPORAL.get(kind, "current"),
            "event_time": stored.event_time,
            "correction": True,
            "replaces": stored.id,
            "source_turn_ids": [sub.turn_id],
        }
    )


#: When a kind's facts hold (as the extractor sets it), for the fact said anew.
_TEMPORAL: Final = {"goal": "future", "experience": "past"}
