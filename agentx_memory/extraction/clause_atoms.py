"""From a canonical clause to a fact atom: the turn it came from, its dates resolved against the
turn's time, its temporal reading. Pure functions shared by the typed patterns and the statements."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from ..retrieval.calendar_spans import next_occurrence
from ..retrieval.time_phrases import find_time_phrase
from .atoms import FactAtom
from .english import resolve_dates, with_date
from .tense import clause_pointing

__all__ = [
    "MIN_EXPERIENCE_WORDS",
    "UNKNOWN_SPEAKER",
    "Context",
    "TurnText",
    "build_atom",
    "dated_event",
    "statement_end",
    "trim",
    "without_dates",
]

UNKNOWN_SPEAKER: Final = "The user"
MIN_EXPERIENCE_WORDS: Final = 3
#: Where a value's clause ends; not at an initial's stop ("Ursula K. Le Guin", "the U.S. now").
VALUE_END: Final = re.compile(
    r"(?:,\s*(?:but|and|which|who|because|since|so|though|although|as|where|when|while)\b|"
    # "obsessed with his allotment and he's diabetic": a clause of its own about someone else (an "and I
    # …" clause stays: "left Tesco and I'm at Aldi now" says the new job)
    r"\s+and\s+(?:he|she|they)(?:['’](?:s|re|d|ll)\b|\s)|"
    r"\s+before\s+\w+ing\b|\s+(?:but|because|since|although|though|whereas|so that|which is|which was|"
    # not at a clock's colon ("on Thursday 15th 14:30")
    r"lol|haha|btw|tbh|imo)\b|[,;!?(]|:(?!\d\d)|(?<!\b(?-i:[A-HJ-Z]))\.(?:\s|$)|\s+-\s+).*$",
    re.IGNORECASE,
)
#: A date ahead: the shared time grammar, ordinals ("the 22nd", "june 3rd") and coming days.
_DATED: Final = re.compile(
    r"\bthe\s+\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}(?:st|nd|rd|th)\s+of\s+[a-z]+|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+"
    r"\d{1,2}(?:st|nd|rd|th)?\b|\b(?:on|this|next|coming)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\btomorrow\b|\btonight\b|"
    r"\bnext\s+(?:week|weekend|month|year|summer|spring|autumn|fall|winter)\b|\bin\s+(?:january|february|march|"
    r"april|june|july|august|september|october|november|december)\b",
    re.IGNORECASE,
)
#: "signed up for a 10k on November 9", "booked the vet for the 14th": done now, for a day to come; the
#: day is the thing's (a date the booking itself was made on reads "on" right after the verb, seldom)
_BOOKED: Final = re.compile(
    r"\b(?:signed up|registered|enrolled|entered|booked|reserved|bought tickets|got tickets|scheduled)\s+"
    r"(?:(?:for|in|on)\s+)?(?:a|an|the|my|our|us|me|him|her|them|\w+'s)\b[^.]*?\b(?:for|on)\s"
    # what tickets are for lies ahead: "got tickets to see Coldplay on 6/14"
    r"|\b(?:got|bought|booked|have|has|scored|snagged)\s+(?:\w+\s+)?tickets\s+(?:to|for)\b[^.]*?\b(?:on|for|in)\s",
    re.IGNORECASE,
)
#: An occasion moved, said of it or of what moved it: "my flight's been moved to the 3rd", "they pushed
#: my MRI to the 21st" (a new time, so ahead; "I moved to Leeds on the 3rd" moved the speaker, and is past).
_MOVED: Final = re.compile(
    r"\b(?:(?:been|got|gets|was|were|is|are)\s+(?:moved|pushed|rescheduled|postponed|bumped|rebooked)|"
    r"(?:moved|pushed|rescheduled|rebooked|postponed|bumped)\s+(?:my|our|the|it|him|her|them|us|me|\w+'s)\b"
    r"[^.]*?\b(?:to|till|until|for))\s",
    re.IGNORECASE,
)
_PAST_CUE: Final = re.compile(
    # "getting married" is ahead: a participle after "get" is no past ("got married" is).
    r"\b(?:was|were|did|went|had|ago|last|yesterday|used to)\b|(?<!getting )(?<!get )\b\w+ed\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class TurnText:
    """What the extractor reads of one turn."""

    id: str
    role: str
    text: str
    timestamp: datetime
    #: Whose first person "I" is: the turn's speaker name, or the user's name, or :data:`UNKNOWN_SPEAKER`.
    speaker: str


#: A value's most words; a longer one ends before its last phrase that starts within them.
_MAX_VALUE_WORDS: Final = 12
_PHRASE_START: Final = frozenset(
    ["and", "or", "but", "with", "in", "at", "for", "to", "of", "on", "from", "by", "who", "which", "that"]
)


#: "I like coffee now": the value is "coffee"; "now" tells that it changed (corrections.py).
_NOW_END: Final = re.compile(r"\s+(?:right |just )?now$", re.IGNORECASE)


def trim(value: str) -> str:
    words = _NOW_END.sub("", VALUE_END.sub("", value).strip(" .,!;:'\"")).split()
    if len(words) <= _MAX_VALUE_WORDS:
        return " ".join(words)
    # Cut where a phrase starts, not mid-phrase ("… with tatami rooms", not "… and a quiet").
    starts = [index for index in range(2, _MAX_VALUE_WORDS + 1) if words[index].casefold() in _PHRASE_START]
    return " ".join(words[: starts[-1] if starts else _MAX_VALUE_WORDS])


def statement_end(statement: str) -> str:
    return VALUE_END.sub("", statement).strip(" ,;:") or statement


@dataclass(frozen=True)
class Context:
    turn: TurnText
    subject: str
    correction: bool
    #: The subject is the one speaking (their name may have been learned in this very chunk).
    is_speaker: bool = False


def without_dates(value: str, now: datetime) -> str:
    found = find_time_phrase(value, now)
    if found is None or found.start == 0:
        return value
    return re.sub(r"\s+(?:in|on|at|during|since|from)$", "", value[: found.start].rstrip(" ,"))


def dated_event(canonical: str, ctx: Context, persons: Sequence[str]) -> FactAtom | None:
    """Something ahead with a date ("Sara is running the Leeds 10k on sunday"): an event."""
    if (
        not _DATED.search(canonical)
        or _PAST_CUE.search(canonical)
        or re.search(r"\bnot\b|\bnever\b", canonical)
    ):
        return None
    # "our holiday in Madeira starts Dec 27" (read as "their holiday …"): the speaker's household's
    # (not "their eldest, Chloe, …": a person named beside the noun is the one it is about)
    ours = re.match(r"their (?=[a-z])(?![\w-]+(?: [\w-]+)?,)", canonical)
    if ours is not None and ctx.is_speaker:
        canonical = f"{ctx.subject}'s {canonical[ours.end() :]}"
    rest = canonical[len(ctx.subject) :].strip()
    if len(rest.split()) < MIN_EXPERIENCE_WORDS or not canonical.startswith(ctx.subject):
        return None
    value = trim(rest.removeprefix("'s "))
    return build_atom("event", "plans", value, canonical, ctx, persons, False, "explicit")


def build_atom(
    kind: str,
    key: str,
    value: str,
    canonical: str,
    ctx: Context,
    persons: Sequence[str],
    negated: bool,
    certainty: str,
) -> FactAtom:
    statement, start, end = resolve_dates(statement_end(canonical), ctx.turn.timestamp)
    # A date without a year is read as the last one; a plan's is the next (a past keeps the last).
    ahead = (
        kind == "event"
        or clause_pointing(statement_end(canonical), ctx.subject) == "plan"
        or _BOOKED.search(statement_end(canonical)) is not None
        or _MOVED.search(statement_end(canonical)) is not None
    )
    if ahead and start is not None and start < ctx.turn.timestamp:
        found = find_time_phrase(statement_end(canonical), ctx.turn.timestamp)
        # The phrase, not the clause, says whether it looks back: "my last day is October 10th" is ahead.
        phrase = found.time_range.phrase if found is not None else canonical
        if end is not None:
            start, end = next_occurrence(start, end, phrase, ctx.turn.timestamp)
        if end is not None and found is not None and found.relative:
            statement = with_date(statement_end(canonical), found.end, start, end)
    if start is None and (day := _DAY_ALONE.search(statement)) is not None:
        # "flying to Lisbon on the 2nd": the next 2nd for a plan, the last for what was done
        past = not ahead and _PAST_CUE.search(statement_end(canonical)) is not None
        on_day = nth_day(int(day.group(1)), ctx.turn.timestamp, past=past) if ahead or past else None
        if on_day is not None:
            statement = statement.rstrip(".") + f" ({on_day.day} {on_day:%B %Y})"
            start, end = on_day, on_day + timedelta(days=1)
    if key == "lives_in" and re.search(r"\bmoved to\b|\bmoving to\b|relocated", canonical, re.IGNORECASE):
        when = _when(statement, value, ctx.turn.timestamp)
        statement = f"{ctx.subject} lives in {value} (moved there{when})"
    negated = negated or bool(re.search(r"\b(?:not|never|no longer|n't)\b", statement, re.IGNORECASE))
    temporal = "current"
    if (end is not None and end <= ctx.turn.timestamp) or kind == "experience":
        temporal = "past"
    if (start is not None and start > ctx.turn.timestamp) or kind == "goal":
        temporal = "future"
    if kind in {"identity", "constraint", "preference", "skill", "relationship"} and kind != "experience":
        temporal = "current" if start is None or key == "lives_in" else temporal
    named = [p for p in persons if p != ctx.subject and p.casefold() in statement.casefold()]
    return FactAtom.model_validate(
        {
            "fact_kind": kind,
            "subject": ctx.subject,
            "statement": statement.rstrip(".") + ".",
            "key": key,
            "value": value,
            "negated": negated,
            "certainty": certainty,
            "temporal": temporal,
            "event_time": start,
            "persons": named,
            "location": value if key in {"lives_in", "hometown"} else None,
            "correction": ctx.correction or (key == "lives_in" and "moved" in canonical.casefold()),
            "source_turn_ids": [ctx.turn.id],
        }
    )


#: A day of the month said alone: "on the 2nd" (not "the 2nd of March", which names its month).
_DAY_ALONE: Final = re.compile(r"\bon the (\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\b)", re.IGNORECASE)


def nth_day(day: int, now: datetime, *, past: bool = False) -> datetime | None:
    """The next ``day`` of a month on or after ``now`` (with ``past``, the last on or before it); None
    when no month within three has that day."""
    year, month = now.year, now.month
    for _ in range(3):
        try:
            when = now.replace(year=year, month=month, day=day, hour=0, minute=0, second=0, microsecond=0)
        except ValueError:  # no 31st this month
            when = None
        if when is not None and (when.date() <= now.date() if past else when.date() >= now.date()):
            return when
        month += -1 if past else 1
        year, month = (year + 1, 1) if month == 13 else (year - 1, 12) if month == 0 else (year, month)
    return None


def _when(statement: str, value: str, now: datetime) -> str:
    """When the move was: the date resolved in parentheses, or an absolute phrase as said ("in 2021")."""
    tail = statement.split(value, 1)[-1]
    if date := re.search(r"\(([^)]*\d{4})\)", tail):
        return f" in {date.group(1)}"
    found = find_time_phrase(tail, now)
    return f" {tail[found.start : found.end]}" if found is not None and not found.relative else ""
