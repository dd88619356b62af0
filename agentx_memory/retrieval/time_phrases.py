"""Time phrases in a text → a UTC :class:`TimeRange`: the rule-based, pure half of self-query's time filter.

English only. The past ("yesterday", "last week", "3 days ago", "in the past 2 weeks", "in May 2023",
"since 2023-05-08", "before March", "last Monday"…), the future ("tomorrow", "next week", "next Friday",
"in 2 weeks", "three days from now", "later this month"), weekends ("this weekend", "two weekends ago"),
periods around a named day ("the week before 16 November 2023", "the day after May 3") and explicit ranges
("between August 11 and August 15 2023", "from March to May 2024"). Queries use it to prefer memories of the
range; ingest uses it against a turn's own time to date what the turn says, hence the future phrases.

No I/O and no clock: the caller passes ``now``, so the same text and the same ``now`` always give the same
range. Every range is half-open ``[start, end)`` in UTC and may lie in the future; :attr:`TimeMatch.relative`
says whether it depends on ``now`` at all.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from itertools import product
from typing import Final, NamedTuple

from ..models.retrieval import TimeRange
from .calendar_spans import (
    ORDINALS,
    Span,
    day_span,
    easter_day,
    midnight,
    minus_months,
    month_span,
    nth_weekday,
    period,
    shift_month,
    year_span,
)

__all__ = ["TimeMatch", "find_time_phrase", "names_its_date", "parse_time_phrase"]

_Bounds = tuple[datetime | None, datetime | None]
_PointResolver = Callable[[re.Match[str], datetime], Span]
_Resolver = Callable[[re.Match[str], datetime], _Bounds]

#: "Recently" and "lately" look back this far.
RECENT_DAYS: Final = 7
#: How many years back "on 29 Feb" (no year) may look for the most recent such day.
_MAX_YEARS_BACK: Final = 8

_MONTHS: Final = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1
    )
}
_WEEKDAYS: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBER_WORDS: Final = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    # Vague counts only make sense for rolling windows ("the past few days"), never for "… ago" or "in …".
    "few": 3,
    "a few": 3,
    "couple": 2,
    "a couple": 2,
    "several": 5,
}
#: "this", "last" and "next" week (month, year, weekend): how many periods away from the current one.
_OFFSETS: Final = {"last": -1, "this": 0, "next": 1}

_MONTH = (
    r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|december"
    r"|(?:jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?)"
)
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d{2})(?![-/]\d)"
_COUNT = r"(?P<n>\d{1,4}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_VAGUE_COUNT = r"(?P<n>\d{1,4}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve" + (
    r"|a\s+few|few|a\s+couple(?:\s+of)?|couple\s+of|several)"
)
_UNIT = r"(?P<unit>day|week|month|year)s?"
_ROLLING_UNIT = r"(?P<unit>minute|hour|day|week|month|year)s?"
_WINDOW_PREP = r"(?:(?:in|over|during|within|for)\s+)?"
_WEEKDAY = r"(?P<wd>" + "|".join(_WEEKDAYS) + ")"
#: The feasts named for a weekday, not that weekday: "Black Friday", "Good Friday", "Cyber Monday".
_NOT_A_FEAST = r"(?<!good\s)(?<!black\s)(?<!cyber\s)(?<!ash\s)(?<!palm\s)(?<!super\s)"
#: A weekday in short as well, only where a date goes with it ("tues 9th", "sat 13 sept"): alone "sat",
#: "sun" and "wed" are words.
_SHORT_WEEKDAY = r"(?P<wd>" + "|".join(_WEEKDAYS) + r"|(?:mon|tues?|weds?|thu|thur|thurs|fri|sat|sun)\.?)"

# The ways to name one day or month. "On …" uses them alone; "the week before …" and "between … and …" embed
# them, so they are kept apart from the prefixes.
_ISO_DATE = r"(?P<year>\d{4})[-/](?P<num>\d{1,2})[-/](?P<day>\d{1,2})"
_DAY_MONTH_YEAR = r"(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r",?\s+" + _YEAR
_MONTH_DAY_YEAR = _MONTH + r"\s+" + _DAY + r",?\s+" + _YEAR
_DAY_MONTH = r"(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?" + _MONTH
_MONTH_DAY = _MONTH + r"\s+" + _DAY
_MONTH_YEAR = _MONTH + r",?\s+(?:of\s+)?" + _YEAR
#: A day named without "on" ("my last day is January 6th", "we get married August 23"): the month in full
#: and no number or unit after the day, as "March"/"May" also march and may, those need an ordinal
#: ("May 5th"); a number first needs "the … of" ("the 23rd of August"), else "23 may come" would count.
_BARE_MONTH_DAY = (
    r"(?P<mon>january|february|april|june|july|august|september|october|november|december"
    # the short forms too ("flying to tokyo jan 5th", "starts Dec 27"); "Mar" and "Jan" (a name) with an
    # ordinal only, as "March" and "May"
    r"|(?:feb|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
    r"|(?:march|may|mar|jan)(?=\.?\s+\d{1,2}(?:st|nd|rd|th)))\.?\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?"
    r"(?![.,:/-]?\d|\s*%|\s+(?:minutes?|hours?|days?|weeks?|months?|years?|times?|points?|people|of)\b)"
)
_BARE_DAY_OF_MONTH = r"the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)\s+of\s+" + _MONTH
#: A day before its month without "on" ("moved it to 25th September", "the 6th oct"): with an ordinal …
_BARE_ORDINAL_DAY_MONTH = (
    r"(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)\s+(?:of\s+)?" + _MONTH + r"(?![.,:/-]?\d)"
)
#: … or in figures before a month no verb spells ("booked for 14 August"; "23 may come" is no date).
_BARE_DAY_FULL_MONTH = (
    r"(?P<day>\d{1,2})\s+(?P<mon>january|february|april|june|july|august|september|october|november|"
    r"december|(?:jan|feb|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?)(?![.,:/-]?\d)"
)

#: A month or a year named in a phrase: words that a turn about that time says too ("January 18th",
#: "2023-05-08"), unlike "yesterday" or "last week".
_NAMES_ITS_DATE: Final = re.compile(r"(?<!\w)(?:" + _MONTH + r"|(?:19|20)\d{2})(?!\w)", re.IGNORECASE)
#: Each day-naming form with whether it carries its year (then the day does not depend on ``now``).
_DAY_FORMS: Final = (
    (_ISO_DATE, True),
    (_DAY_MONTH_YEAR, True),
    (_MONTH_DAY_YEAR, True),
    (_DAY_MONTH, False),
    (_MONTH_DAY, False),
)


@dataclass(frozen=True)
class TimeMatch:
    """A time phrase found in a text: the range it means and where it sits (``text[start:end]``)."""

    time_range: TimeRange
    start: int
    end: int
    #: Whether the range depends on ``now`` ("yesterday", "next Friday", "in May", "on May 8"), as opposed
    #: to naming its dates outright ("on 8 May 2023", "in 2023", "the week before 16 November 2023").
    #: Ingest can resolve only relative phrases against a turn's time: an absolute one means the same
    #: whenever it is said.
    relative: bool = False


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    resolve: _Resolver
    relative: bool


def _count(match: re.Match[str]) -> int:
    text = " ".join(match.group("n").lower().split()).removesuffix(" of")
    return int(text) if text.isdigit() else _NUMBER_WORDS[text]


def _month_named(name: str) -> int:
    return _MONTHS[name.lower().rstrip(".")[:3]]


def _month_number(match: re.Match[str]) -> int:
    return _month_named(match.group("mon"))


class _Parts(NamedTuple):
    """What a phrase says of one day: a range's end may leave its year or month for the other end to give."""

    year: int | None
    month: int | None
    day: int


def _parts(match: re.Match[str], tag: str = "") -> _Parts:
    groups = match.groupdict()
    year, num, mon, day = (groups.get(name + tag) for name in ("year", "num", "mon", "day"))
    month = int(num) if num else _month_named(mon) if mon else None
    # A month named alone ("between March and May") stands for its first day.
    return _Parts(int(year) if year else None, month, int(day) if day else 1)


def _named_day(match: re.Match[str], now: datetime) -> date:
    year, month, day = _parts(match)
    if month is None:
        raise ValueError("a day without its month")
    if year is not None:
        return date(year, month, day)
    for candidate_year in range(now.year, now.year - _MAX_YEARS_BACK, -1):
        try:
            candidate = date(candidate_year, month, day)
        except ValueError:  # 29 February of a common year: look further back.
            continue
        if candidate <= now.date():
            return candidate
    raise ValueError(f"no {month}-{day} in the last {_MAX_YEARS_BACK} years")


#: Days of the year named by their feast, the same date every year ("on New Year's Eve").
_FEASTS: Final = {
    "new year's eve": (12, 31),
    "hogmanay": (12, 31),
    "new year's day": (1, 1),
    "christmas eve": (12, 24),
    "christmas day": (12, 25),
    "christmas": (12, 25),
    "boxing day": (12, 26),
    "valentine's day": (2, 14),
    "valentine's": (2, 14),
    "halloween": (10, 31),
    "bonfire night": (11, 5),
    "st patrick's day": (3, 17),
}
_FEAST = (
    r"(?P<feast>new\s+year['’]?s\s+(?:eve|day)|hogmanay|christmas(?:\s+(?:eve|day))?|boxing\s+day|"
    r"easter(?:\s+(?:sunday|monday|saturday|day|weekend))?|good\s+friday|"
    r"valentine['’]?s(?:\s+day)?|halloween|bonfire\s+night|st\.?\s+patrick['’]?s\s+day)"
)
_NTH_WEEKDAY = (
    r"(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+"
    + _WEEKDAY
    + r"\s+(?:in|of)\s+"
    + _MONTH
)


#: "the last Friday of this month", "the first Monday of next month".
_NTH_WEEKDAY_COMING = (
    r"(?:the\s+)?(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+"
    + _WEEKDAY
    + r"\s+(?:in|of)\s+(?P<rel>this|next)\s+month"
)


def _nth_weekday_coming(match: re.Match[str], now: datetime) -> Span:
    """ "the last Friday of this month": of the month said, counted from ``now``'s."""
    nth, weekday = ORDINALS[match.group("nth").lower()], _WEEKDAYS.index(match.group("wd").lower())
    month = now.month + (1 if match.group("rel").lower() == "next" else 0)
    year, month = now.year + (month - 1) // 12, (month - 1) % 12 + 1
    return day_span(nth_weekday(year, month, weekday, nth))


def _feast(match: re.Match[str], now: datetime) -> Span:
    """ "New Year's Eve", "Valentine's Day": the last such day that has begun (a plan's moves ahead)."""
    name = re.sub(r"\s+", " ", match.group("feast").lower().replace("’", "'")).replace("st. ", "st ")
    if name.startswith("easter") or name == "good friday":  # a feast that moves with the year
        this_year = easter_day(now.year, name)
        return day_span(this_year if this_year <= now.date() else easter_day(now.year - 1, name))
    month, day = _FEASTS[name]
    this_year = date(now.year, month, day)
    return day_span(this_year if this_year <= now.date() else date(now.year - 1, month, day))


def _nth_weekday(match: re.Match[str], now: datetime) -> Span:
    """ "the second Saturday in March", "the last Friday of October": of the nearest such month (the
    phrase says no year and seldom lies far behind or ahead; a plan's moves ahead, ``next_occurrence``)."""
    nth, month = ORDINALS[match.group("nth").lower()], _month_number(match)
    weekday = _WEEKDAYS.index(match.group("wd").lower())
    candidates = [nth_weekday(year, month, weekday, nth) for year in (now.year - 1, now.year, now.year + 1)]
    return day_span(min(candidates, key=lambda day: abs((day - now.date()).days)))


# --- points: phrases that name one calendar period ------------------------------------------------


def _fixed(unit: str, offset: int) -> _PointResolver:
    return lambda _match, now: period(unit, now.date(), offset)


def _this_last_next(match: re.Match[str], now: datetime) -> Span:
    return period(match.group("unit").lower(), now.date(), _OFFSETS[match.group("rel").lower()])


def _ago(match: re.Match[str], now: datetime) -> Span:
    return period(match.group("unit").lower(), now.date(), -_count(match))


#: A first or a superlative just before "in twelve years": a span looked back over ("my first bacon
#: sandwich in twelve years", "the best night out in years", "for the first time in a decade"), not a
#: time ahead; unless a verb between makes the "in" the thing's time ("my first shift is in two weeks").
_SPAN_BEFORE: Final = re.compile(
    r"\b(?:first|only|best|worst|longest|hottest|coldest|biggest|happiest|proudest|quietest|busiest)\b"
    r"(?P<gap>[^.!?;,]{0,40})$",
    re.IGNORECASE,
)
_TIME_OF: Final = re.compile(
    r"\b(?:is|are|was|were|be|will|starts?|begins?|comes?|due)\b|['’]s\b", re.IGNORECASE
)


def _ahead(match: re.Match[str], now: datetime) -> Span:
    if match.group(0)[:2].casefold() == "in":
        span = _SPAN_BEFORE.search(match.string, 0, match.start())
        if span is not None and not _TIME_OF.search(span["gap"]):
            raise ValueError("a span looked back over, no time ahead")
    # "In 2 weeks" is the calendar week holding the day two weeks from now, as "2 weeks ago" is behind.
    return period(match.group("unit").lower(), now.date(), _count(match))


def _before_last(match: re.Match[str], now: datetime) -> Span:
    return period(match.group("unit").lower(), now.date(), -2)


def _rest_of(match: re.Match[str], now: datetime) -> Span:
    # "Later this week" is what is left of it: from this moment, not from the start of tomorrow.
    unit = (match.group("unit") or "day").lower()
    return now, period(unit, now.date(), 0)[1]


def _numeric_day(match: re.Match[str], now: datetime) -> Span:
    """ "14/03" (day first: 14 is no month) or "10/18" (month first: 18 is none); both at most 12
    ("3/4") says neither which nor that it is a date at all, and is no match."""
    first, second = int(match.group("a")), int(match.group("b"))
    if first > 12 >= second:
        month, day = second, first
    elif second > 12 >= first:
        month, day = first, second
    else:
        raise ValueError("an ambiguous or impossible numeric date")
    for candidate_year in range(now.year, now.year - _MAX_YEARS_BACK, -1):
        try:
            candidate = date(candidate_year, month, day)
        except ValueError:
            continue
        if candidate <= now.date():
            return day_span(candidate)
    raise ValueError(f"no {month}-{day} in the last {_MAX_YEARS_BACK} years")


def _on_day(match: re.Match[str], now: datetime) -> Span:
    # Without a year, the most recent such day that has begun: "on May 8" asked in March means last year's.
    return day_span(_named_day(match, now))


def _around_day(match: re.Match[str], now: datetime) -> Span:
    day = _named_day(match, now)
    after = match.group("dir").lower() == "after"
    if match.group("unit").lower() == "day":
        return day_span(day + timedelta(days=1 if after else -1))
    # Seven days counted from the named day, which stays out: "the week before 16 November" ends where the
    # 16th begins. Not an ISO week: the phrase measures from the day, not from the calendar.
    start = midnight(day + timedelta(days=1 if after else -7))
    return start, start + timedelta(days=7)


def _month_year(match: re.Match[str], _now: datetime) -> Span:
    return month_span(int(match.group("year")), _month_number(match))


def _month_only(match: re.Match[str], now: datetime) -> Span:
    month = _month_number(match)
    # The most recent such month that has begun: "in May" asked in March means last year's May.
    return month_span(now.year if month <= now.month else now.year - 1, month)


def _last_named_month(match: re.Match[str], now: datetime) -> Span:
    month = _month_number(match)
    # "last May" asked in May means a year ago; otherwise the most recent May, as "in May".
    return month_span(now.year if month < now.month else now.year - 1, month)


def _year_only(match: re.Match[str], _now: datetime) -> Span:
    return year_span(int(match.group("year")))


def _weekday(match: re.Match[str], now: datetime) -> Span:
    wanted = _weekday_index(match.group("wd"))
    # Strictly before today: "on Friday" asked on a Friday means a week ago.
    back = (now.weekday() - wanted) % 7 or 7
    return day_span(now.date() - timedelta(days=back))


def _weekday_ahead(match: re.Match[str], now: datetime) -> Span:
    wanted = _weekday_index(match.group("wd"))
    if match.group("rel").lower() == "this":
        # The day of the current ISO week, even once it has passed: "this Monday" said on a Sunday was six
        # days ago. People say "this Friday" mostly before it; the week is the reading that never guesses.
        return day_span(now.date() + timedelta(days=wanted - now.weekday()))
    # "Next Friday" and "this coming Friday": the first Friday strictly after today, so two days ahead when
    # said on a Wednesday and a week ahead when said on a Friday. (Some mean the Friday of next week; the
    # first-after reading is the commoner one and does not depend on where the week starts.)
    return day_span(now.date() + timedelta(days=(wanted - now.weekday()) % 7 or 7))


#: "a week tomorrow", "a fortnight today": so many weeks after the day named.
_WEEKS_AFTER = r"(?P<n>a|one|two|three)\s+(?P<unit>week|fortnight)s?\s+(?P<ref>today|tomorrow)"
#: "a week on Friday", "Tuesday week", "next Tuesday week": a week after the coming weekday.
_WEEK_ON_DAY = r"(?P<n>a|one|two)\s+(?P<unit>week|fortnight)s?\s+(?:on|from)\s+" + _WEEKDAY
_DAY_WEEK = r"(?:next\s+|this\s+coming\s+)?" + _WEEKDAY + r"\s+week\b"


#: A weekday said with its date: "Thursday 13 March", "Fri, March 14th", "Tuesday the 18th" (the
#: weekday tells which month's 18th).
_WEEKDAY_DAY_MONTH = _SHORT_WEEKDAY + r",?\s+" + _DAY_MONTH
_WEEKDAY_MONTH_DAY = _SHORT_WEEKDAY + r",?\s+" + _MONTH_DAY
_WEEKDAY_THE_DAY = (
    _SHORT_WEEKDAY + r",?\s+(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\b)"
    # with the hour said after it ("thu 15th 14:30"), so that a date written in after the phrase does not
    # part the hour from the day
    r"(?:\s+(?:at\s+)?\d{1,2}(?:[:.]\d{2}\s*(?:am|pm)?|\s*(?:am|pm)))?"
)


def _dated_weekday(match: re.Match[str], now: datetime) -> Span:
    """The day a weekday and a date name together, the one nearest now whose weekday agrees ("Thursday
    13 March" said in 2025 is 13 March 2025, a Thursday); else the date as said alone."""
    wanted = _weekday_index(match.group("wd"))
    year, month, day = _parts(match)
    if month is None:  # "Tuesday the 18th": the month around now whose 18th is a Tuesday
        firsts = [
            date(now.year + (now.month - 1 + k) // 12, (now.month - 1 + k) % 12 + 1, 1) for k in range(-3, 4)
        ]
        candidates = [
            first.replace(day=day)
            for first in firsts
            if day <= calendar.monthrange(first.year, first.month)[1]
        ]
    else:
        years = [year] if year is not None else [now.year - 1, now.year, now.year + 1]
        candidates = [date(y, month, day) for y in years if day <= calendar.monthrange(y, month)[1]]
    agreeing = [c for c in candidates if c.weekday() == wanted]
    if not agreeing:
        if month is None:
            raise ValueError("no month around now whose day falls on that weekday")
        return day_span(_named_day(match, now))
    return day_span(min(agreeing, key=lambda c: (abs((c - now.date()).days), c < now.date())))


#: A weekday with its date in figures ("fri 13/9", "Sat 3/8", "mon 10.2.2025"): the weekday tells a day
#: first from a month first where both are at most 12.
_WEEKDAY_NUMERIC = (
    _SHORT_WEEKDAY + r",?\s+(?P<a>\d{1,2})[/.](?P<b>\d{1,2})(?:[/.](?P<year>(?:19|20)\d{2}))?(?![/.]?\d)"
)
#: A date in figures with its year ("25/12/2025", "3/14/2026", "25.09.2025").
_NUMERIC_WITH_YEAR = r"(?P<a>\d{1,2})[/.](?P<b>\d{1,2})[/.](?P<year>(?:19|20)\d{2})(?![/.]?\d)"
#: The short weekdays no word spells, alone after "on", "next" … ("on tues", "next thurs"): "sat" and
#: "sun" are words, "wed" a verb.
_SHORT_ONLY_WEEKDAY = r"(?P<wd>(?:mon|tues?|weds|thu|thur|thurs|fri)\.?)"


def _weekday_numeric(match: re.Match[str], now: datetime) -> Span:
    """The day a weekday and a date in figures name together, read day first or month first, whichever
    falls on that weekday, nearest now."""
    wanted = _weekday_index(match.group("wd"))
    a, b = int(match.group("a")), int(match.group("b"))
    years = [int(match.group("year"))] if match.group("year") else [now.year - 1, now.year, now.year + 1]
    candidates = [
        date(y, month, day)
        for month, day in {(b, a), (a, b)}
        for y in years
        if 1 <= month <= 12 and 1 <= day <= calendar.monthrange(y, month)[1]
    ]
    agreeing = [c for c in candidates if c.weekday() == wanted]
    if not agreeing:
        raise ValueError("no reading of the figures falls on that weekday")
    return day_span(min(agreeing, key=lambda c: (abs((c - now.date()).days), c < now.date())))


def _numeric_with_year(match: re.Match[str], _now: datetime) -> Span:
    """ "25/12/2025" (day first: 25 is no month), "3/14/2026" (month first); "3/4/2025" says neither."""
    a, b, year = int(match.group("a")), int(match.group("b")), int(match.group("year"))
    if a > 12 >= b or a == b:
        return day_span(date(year, b, a))
    if b > 12 >= a:
        return day_span(date(year, a, b))
    raise ValueError("an ambiguous or impossible numeric date")


#: A day of this month or the next said by its number: "the 14th of next month".
_DAY_OF_COMING_MONTH = r"the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+of\s+(?P<rel>this|next)\s+month"


def _day_of_coming_month(match: re.Match[str], now: datetime) -> Span:
    year, month = now.year, now.month + (1 if match.group("rel").lower() == "next" else 0)
    year, month = (year + 1, 1) if month == 13 else (year, month)
    return day_span(date(year, month, int(match.group("day"))))


def _weekday_index(name: str) -> int:
    return [day[:3] for day in _WEEKDAYS].index(name.lower()[:3])


def _weeks(match: re.Match[str]) -> int:
    return _NUMBER_WORDS[match.group("n").lower()] * (14 if match.group("unit").lower() == "fortnight" else 7)


def _weeks_after(match: re.Match[str], now: datetime) -> Span:
    start = now.date() + timedelta(days=1 if match.group("ref").lower() == "tomorrow" else 0)
    return day_span(start + timedelta(days=_weeks(match)))


def _week_on_day(match: re.Match[str], now: datetime) -> Span:
    wanted = _WEEKDAYS.index(match.group("wd").lower())
    coming = now.date() + timedelta(days=(wanted - now.weekday()) % 7 or 7)
    return day_span(coming + timedelta(days=_weeks(match) if match.groupdict().get("n") else 7))


# (source, prefix when standing alone, prefix after since/before/after/until or None for no bounded form,
#  resolver, whether the range depends on now)
_POINTS: Final[tuple[tuple[str, str, str | None, _PointResolver, bool], ...]] = (
    (r"(?:the\s+)?day\s+before\s+yesterday", "", "", _fixed("day", -2), True),
    (r"(?:the\s+)?day\s+after\s+tomorrow", "", "", _fixed("day", 2), True),
    (r"(?:today|tonight|this\s+(?:morning|afternoon|evening))", "", "", _fixed("day", 0), True),
    (r"(?:yesterday|last\s+night)", "", "", _fixed("day", -1), True),
    (r"tomorrow(?:\s+(?:morning|afternoon|evening|night))?", "", "", _fixed("day", 1), True),
    (_WEEKS_AFTER, "", "", _weeks_after, True),
    (_WEEKDAY_DAY_MONTH, r"(?:on\s+)?", "", _dated_weekday, True),
    (_WEEKDAY_MONTH_DAY, r"(?:on\s+)?", "", _dated_weekday, True),
    (_WEEKDAY_THE_DAY, r"(?:on\s+)?", "", _dated_weekday, True),
    (_WEEKDAY_NUMERIC, r"(?:on\s+)?", "", _weekday_numeric, True),
    (_DAY_OF_COMING_MONTH, r"(?:on\s+)?", "", _day_of_coming_month, True),
    (_WEEK_ON_DAY, "", "", _week_on_day, True),
    (_DAY_WEEK, r"(?:on\s+)?", "", _week_on_day, True),
    (_NTH_WEEKDAY_COMING, r"(?:on\s+)?", "", _nth_weekday_coming, True),
    (_NTH_WEEKDAY, r"(?:on\s+)?", "", _nth_weekday, True),
    # a feast as a day only when said as one ("on New Year's Eve"): "a Christmas card list" is no date
    (_FEAST, r"(?:on|at|for|over)\s+", "", _feast, True),
    (r"(?P<rel>this|last|next)\s+(?P<unit>weekend|week|month|year)", "", "", _this_last_next, True),
    # Only for weekends: "the past week" is a rolling window (below), "this past weekend" a calendar one.
    (r"(?:this|the)\s+past\s+weekend", "", "", _fixed("weekend", -1), True),
    (r"the\s+(?P<unit>weekend|week|month|year)\s+before\s+last", "", "", _before_last, True),
    (_COUNT + r"\s+(?P<unit>day|weekend|week|month|year)s?\s+ago", "", "", _ago, True),
    # Vague counts stay out, as for "ago": "in a few days" names no day.
    (r"in\s+" + _COUNT + r"\s+" + _UNIT + r"(?:['’]s?\s+time)?", "", None, _ahead, True),
    (_COUNT + r"\s+" + _UNIT + r"\s+from\s+(?:now|today)", "", "", _ahead, True),
    (r"later\s+(?:today|tonight|this\s+(?P<unit>week|month|year))", "", None, _rest_of, True),
    (_ISO_DATE, r"(?:on\s+)?", "", _on_day, False),
    (_DAY_MONTH_YEAR, r"(?:on\s+)?", "", _on_day, False),
    (_MONTH_DAY_YEAR, r"(?:on\s+)?", "", _on_day, False),
    (_DAY_MONTH, r"on\s+", "", _on_day, True),
    (_MONTH_DAY, r"on\s+", "", _on_day, True),
    (_BARE_MONTH_DAY, "", None, _on_day, True),
    # "it's on 14/03", "the shower is 10/18": a day and a month in figures, one of them above 12 (not
    # "24/7", "9/10", "50/50"), no year after them
    (r"(?!24/7)(?P<a>\d{1,2})/(?P<b>\d{1,2})(?![/\d])", r"(?:on\s+)?", None, _numeric_day, True),
    (_BARE_DAY_OF_MONTH, "", None, _on_day, True),
    (_BARE_ORDINAL_DAY_MONTH, "", None, _on_day, True),
    (_BARE_DAY_FULL_MONTH, "", None, _on_day, True),
    (_NUMERIC_WITH_YEAR, r"(?:on\s+)?", None, _numeric_with_year, False),
    *(
        (
            r"(?:the\s+)?(?P<unit>day|week)\s+(?P<dir>before|after)\s+" + form,
            r"(?:(?:on|in|during)\s+)?",
            "",
            _around_day,
            not dated,
        )
        for form, dated in _DAY_FORMS
    ),
    (_MONTH_YEAR, r"(?:(?:in|during|throughout)\s+)?", "", _month_year, False),
    (_MONTH, r"(?:in|during|throughout)\s+(?:the\s+month\s+of\s+)?", "", _month_only, True),
    (r"last\s+" + _MONTH, "", "", _last_named_month, True),
    (_YEAR, r"(?:in|during|throughout)\s+(?:the\s+year\s+)?", "", _year_only, False),
    (_WEEKDAY, r"(?:on\s+(?:last\s+)?|last\s+|this\s+past\s+)", r"(?:last\s+)?", _weekday, True),
    # a weekday said bare ("the vet Thursday morning", "the party is Saturday"): the last one, as "on
    # Saturday" (a plan's moves ahead); not a feast's ("Black Friday") nor a habit ("Mondays")
    (_NOT_A_FEAST + _WEEKDAY, "", None, _weekday, True),
    (r"(?P<rel>next|this(?:\s+coming)?)\s+" + _WEEKDAY, r"(?:on\s+)?", "", _weekday_ahead, True),
    (_SHORT_ONLY_WEEKDAY, r"(?:on\s+(?:last\s+)?|last\s+)", r"(?:last\s+)?", _weekday, True),
    (r"(?P<rel>next|this(?:\s+coming)?)\s+" + _SHORT_ONLY_WEEKDAY, r"(?:on\s+)?", "", _weekday_ahead, True),
)


def _bounded(point: _PointResolver) -> _Resolver:
    def resolve(match: re.Match[str], now: datetime) -> _Bounds:
        start, end = point(match, now)
        bound = match.group("bound").lower()
        if bound == "since":
            return start, None
        if bound == "after":
            return end, None
        if bound == "before":
            return None, start
        return None, end  # until / till: the named period is included.

    return resolve


# --- explicit ranges: "between August 11 and August 15 2023", "from March to May 2024" -------------------


def _ordered(first: _Parts, second: _Parts) -> tuple[date, date]:
    """The two ends of a range as days, each taking the year or month it leaves out from the other."""
    year1, year2 = first.year or second.year, second.year or first.year
    month1, month2 = first.month or second.month, second.month or first.month
    if year1 is None or year2 is None or month1 is None or month2 is None:
        raise ValueError("a range end names no year or no month")
    start, end = date(year1, month1, first.day), date(year2, month2, second.day)
    if start > end:
        # An end that borrowed a field moves by one of it, the finest first: "from the 28th to the 3rd of
        # March" starts in February, "between December 20 and January 5 2024" starts in 2023, "from
        # 28 December 2023 to 3 January" ends in 2024. A borrowed year moves only across New Year (the
        # first month named is the later one): "between August 15 and August 11" is reversed, not a year.
        if first.month is None:
            start = date(*shift_month(year1, month1, -1), first.day)
        elif second.month is None:
            end = date(*shift_month(year2, month2, 1), second.day)
        elif first.year is None and month1 > month2:
            start = date(year1 - 1, month1, first.day)
        elif second.year is None and month1 > month2:
            end = date(year2 + 1, month2, second.day)
    if start > end:
        # Reversed ends ("between 15 August 2023 and 11 August 2023"): a slip whose meaning would be a
        # guess, so no range at all.
        raise ValueError("the range ends before it starts")
    return start, end


def _between(period: Callable[[date], Span]) -> _Resolver:
    """A range resolver whose ends are the ``period`` (day or month) of each named day, both included."""

    def resolve(match: re.Match[str], now: datetime) -> _Bounds:
        first, second = _parts(match, "1"), _parts(match, "2")
        if first.year is not None or second.year is not None:
            start, end = _ordered(first, second)
            return period(start)[0], period(end)[1]
        # No year at all: the most recent such range that has begun, as "in May" reads (it may still be going
        # on). The end's year is tried from next year down, so a range across New Year can have begun.
        for year in range(now.year + 1, now.year - _MAX_YEARS_BACK, -1):
            try:
                start, end = _ordered(first, second._replace(year=year))
            except ValueError:  # 29 February of a common year, or reversed ends: look further back.
                continue
            if period(start)[0] <= now:
                return period(start)[0], period(end)[1]
        raise ValueError(f"no such range in the last {_MAX_YEARS_BACK} years")

    return resolve


def _between_years(match: re.Match[str], _now: datetime) -> _Bounds:
    first, last = int(match.group("year1")), int(match.group("year2"))
    if first > last:
        raise ValueError("the range ends before it starts")
    return year_span(first)[0], year_span(last)[1]


def _tagged(source: str, tag: str) -> str:
    # Both ends of a range use the same forms; their groups get the end's number so one pattern holds both.
    return re.sub(r"\(\?P<(\w+)>", lambda group: f"(?P<{group.group(1)}{tag}>", source)


def _range_source(first: str, second: str) -> str:
    # "between X and Y" or "from X to|until|till|through Y", never "between X to Y" nor "from X and Y".
    return (
        r"(?:(?P<btw>between)|from)\s+"
        + _tagged(first, "1")
        + r"\s+(?(btw)and|(?:to|until|till|through|thru))\s+"
        + _tagged(second, "2")
    )


def _range_rules() -> Iterable[tuple[str, _Resolver, bool]]:
    """(source, resolver, relative) for every explicit range: relative only when neither end has a year."""
    days = _between(day_span)
    months = _between(lambda day: month_span(day.year, day.month))
    word_days = _DAY_FORMS[1:]  # An ISO date pairs only with another ("from 2023-08-11 to 2023-08-15").
    day_only = r"(?:the\s+)?" + _DAY
    pairs = [
        ((_ISO_DATE, True), (_ISO_DATE, True)),
        *product(word_days, repeat=2),
        # "between the 11th and the 15th of August (2023)": the first end borrows the month.
        ((day_only, False), (_DAY_MONTH_YEAR, True)),
        ((day_only, False), (_DAY_MONTH, False)),
        # "from August 11 to 15(, 2023)": the second end borrows the month.
        ((_MONTH_DAY, False), (_DAY + r",?\s+" + _YEAR, True)),
        ((_MONTH_DAY, False), (_DAY, False)),
    ]
    for (first, dated1), (second, dated2) in pairs:
        yield _range_source(first, second), days, not (dated1 or dated2)
    for (first, dated1), (second, dated2) in product(((_MONTH, False), (_MONTH_YEAR, True)), repeat=2):
        yield _range_source(first, second), months, not (dated1 or dated2)
    yield _range_source(_YEAR, _YEAR), _between_years, False


# --- rolling windows: "the past 3 days", "recently" -----------------------------------------------


_UNIT_DELTAS: Final = {
    "minute": timedelta(minutes=1),
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
}


def _rolling(match: re.Match[str], now: datetime) -> _Bounds:
    count = _count(match) if match.group("n") else 1
    unit = match.group("unit").lower()
    if unit in ("month", "year"):
        start = minus_months(now, count * (12 if unit == "year" else 1))
    else:
        start = now - count * _UNIT_DELTAS[unit]
    # Open end: nothing is stored in the future, and an open end tolerates clock skew between writers.
    return start, None


def _recent(_match: re.Match[str], now: datetime) -> _Bounds:
    return now - timedelta(days=RECENT_DAYS), None


def _compile(source: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + source + r"(?!\w)", re.IGNORECASE)


def _build_rules() -> tuple[_Rule, ...]:
    rules: list[_Rule] = []
    for source, alone, after_bound, point, relative in _POINTS:
        rules.append(_Rule(_compile(alone + source), point, relative))
        if after_bound is not None:
            bound = r"(?P<bound>since|before|after|until|till)\s+"
            rules.append(_Rule(_compile(bound + after_bound + source), _bounded(point), relative))
    rules.extend(_Rule(_compile(source), resolve, relative) for source, resolve, relative in _range_rules())
    counted = _WINDOW_PREP + r"(?:the\s+)?(?:last|past)\s+" + _VAGUE_COUNT + r"\s+" + _ROLLING_UNIT
    uncounted = _WINDOW_PREP + r"(?:the\s+(?:last|past)|past)\s+(?P<n>)" + _ROLLING_UNIT
    rules.append(_Rule(_compile(counted), _rolling, True))
    rules.append(_Rule(_compile(uncounted), _rolling, True))
    rules.append(_Rule(_compile(r"(?:recently|lately)"), _recent, True))
    return tuple(rules)


_RULES: Final = _build_rules()


def find_time_phrase(text: str, now: datetime) -> TimeMatch | None:
    """The first time phrase in ``text`` (the longest one where several start at the same place), or ``None``.

    ``now`` must be timezone-aware; it is converted to UTC and every range is computed in UTC. A phrase that
    names no real day ("on 30 February 2023") or a reversed range ("between 15 and 11 August 2023") is
    skipped together with anything overlapping it.
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be a timezone-aware datetime")
    now = now.astimezone(UTC)
    rejected: list[tuple[int, int]] = []
    for start, _length, index, match in _phrases(text):
        if any(start < end and match.end() > begin for begin, end in rejected):
            continue
        rule = _RULES[index]
        try:
            lower, upper = rule.resolve(match, now)
        except (ValueError, OverflowError):  # An impossible date, or a count that leaves the calendar.
            rejected.append((start, match.end()))
            continue
        time_range = TimeRange(start=lower, end=upper, phrase=match.group(0))
        return TimeMatch(time_range=time_range, start=start, end=match.end(), relative=rule.relative)
    return None


#: Texts whose phrase matches are kept (they do not depend on ``now``).
_KEPT_TEXTS: Final = 1024


# The 102 rules' scans are ~0.4 ms a text, and a text is often read again: get_context after remember
# for the same prompt, a decomposed query's parts. The matches depend on the text alone.
@lru_cache(maxsize=_KEPT_TEXTS)
def _phrases(text: str) -> tuple[tuple[int, int, int, re.Match[str]], ...]:
    """Every rule's match in ``text`` as (start, -length, rule index, match), in that order."""
    return tuple(
        sorted(
            (
                (match.start(), -len(match.group(0)), index, match)
                for index, rule in enumerate(_RULES)
                for match in rule.pattern.finditer(text)
            ),
            key=lambda candidate: candidate[:3],
        )
    )


def names_its_date(phrase: str) -> bool:
    """Whether a time phrase names a month or a year ("on January 18th", "in 2023"), as the turns of
    that time may say it too; "yesterday" and "last week" name none."""
    return _NAMES_ITS_DATE.search(phrase) is not None


def parse_time_phrase(text: str, now: datetime) -> TimeRange | None:
    """The UTC range of the first time phrase in ``text`` (see :func:`find_time_phrase`), or ``None``."""
    found = find_time_phrase(text, now)
    return found.time_range if found is not None else None
