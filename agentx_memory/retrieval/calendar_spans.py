"""Calendar periods as half-open UTC spans ``[start, end)``: a day, an ISO week (Monday first), a weekend,
a month, a year, and month arithmetic that clamps the day. Pure; the time-phrase rules
(``time_phrases``) resolve every phrase to these."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Final

__all__ = [
    "ORDINALS",
    "Span",
    "day_span",
    "easter_day",
    "midnight",
    "minus_months",
    "month_span",
    "next_occurrence",
    "nth_weekday",
    "period",
    "shift_month",
    "week_span",
    "year_span",
]

Span = tuple[datetime, datetime]


def midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def day_span(day: date) -> Span:
    start = midnight(day)
    return start, start + timedelta(days=1)


def week_span(day: date) -> Span:
    # Weeks start on Monday (ISO 8601).
    start = midnight(day - timedelta(days=day.weekday()))
    return start, start + timedelta(days=7)


def shift_month(year: int, month: int, delta: int) -> tuple[int, int]:
    shifted_year, month_index = divmod(year * 12 + month - 1 + delta, 12)
    return shifted_year, month_index + 1


def month_span(year: int, month: int) -> Span:
    next_year, next_month = shift_month(year, month, 1)
    return datetime(year, month, 1, tzinfo=UTC), datetime(next_year, next_month, 1, tzinfo=UTC)


def year_span(year: int) -> Span:
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def period(unit: str, today: date, offset: int) -> Span:
    """The calendar ``unit`` (day, week, weekend, month, year) ``offset`` units away from ``today``'s."""
    if unit == "day":
        return day_span(today + timedelta(days=offset))
    if unit == "week":
        return week_span(today + timedelta(weeks=offset))
    if unit == "weekend":
        # Saturday 00:00 to Monday 00:00 of the ISO week ``offset`` weeks away. So "this weekend" is the
        # coming one from Monday to Friday and the one in progress on a Saturday or Sunday; "last weekend"
        # said on a Sunday is the one before. Tying weekends to weeks keeps "last weekend" in "last week".
        start = week_span(today + timedelta(weeks=offset))[0] + timedelta(days=5)
        return start, start + timedelta(days=2)
    if unit == "month":
        return month_span(*shift_month(today.year, today.month, offset))
    return year_span(today.year + offset)


def minus_months(moment: datetime, months: int) -> datetime:
    year, month = shift_month(moment.year, moment.month, -months)
    # Clamp the day: a month before 31 March is 28 (or 29) February, not an error.
    last_day = (month_span(year, month)[1] - timedelta(days=1)).day
    return moment.replace(year=year, month=month, day=min(moment.day, last_day))


_LOOKS_BACK = re.compile(r"\b\d{4}\b|\bago\b|\blast\b|\byesterday\b", re.IGNORECASE)
_WEEKDAY = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|\b(?:mon|tues?|weds|thu|thur|thurs|fri)\b", re.IGNORECASE
)
_FIGURES = re.compile(r"\d")


#: "the second Saturday in March", "the last Friday of October": a day that moves with the year.
_NTH_OF_MONTH = re.compile(
    r"\b(?P<nth>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"\s+(?:in|of)\s+[a-z]+",
    re.IGNORECASE,
)
#: The place of a weekday in its month: "the second Saturday", "the last Friday" (-1).
ORDINALS = {
    "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1
}  # fmt: skip


def nth_weekday(year: int, month: int, weekday: int, nth: int) -> date:
    """The ``nth`` (1–4, or -1 for the last) ``weekday`` (0 = Monday) of the month."""
    first = date(year, month, 1)
    days = [first + timedelta(days=offset) for offset in range(31)]
    matching = [day for day in days if day.month == month and day.weekday() == weekday]
    return matching[nth - 1] if nth > 0 else matching[-1]


#: Days counted from Easter Sunday: "Good Friday" is two before it.
_EASTER_OFFSETS: Final = {"good friday": -2, "easter saturday": -1, "easter monday": 1}
_EASTER = re.compile(r"\b(?:easter|good\s+friday)\b", re.IGNORECASE)
#: "Monday the 1st", "Friday 13th": a weekday with its day of the month and no month.
_WEEKDAY_AND_DAY = re.compile(
    r"\b(?P<wd>mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)\b",
    re.IGNORECASE,
)
_WEEKDAY_STEMS: Final = ("mon", "tues", "wednes", "thurs", "fri", "satur", "sun")
_MONTH_NAMED = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\d{1,2}[/.-]\d{1,2}", re.IGNORECASE
)


def _easter(year: int) -> date:
    """Easter Sunday of the Gregorian calendar (the anonymous algorithm of Meeus, Jones and Butcher; no
    dependency carries it here but python-dateutil, which is not one of ours)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    week = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * week) // 433
    month = (h + week - 7 * m + 90) // 25
    return date(year, month, (h + week - 7 * m + 33 * month + 19) % 32)


def easter_day(year: int, name: str) -> date:
    """The day of ``name`` ("easter", "easter monday", "good friday" …) in ``year``: moves with Easter."""
    said = re.sub(r"\s+", " ", name.casefold())
    return _easter(year) + timedelta(days=_EASTER_OFFSETS.get(said, 0))


def next_occurrence(start: datetime, end: datetime, phrase: str, now: datetime) -> Span:
    """``[start, end)``, a day, weekday or month named without a year and read as the last one, moved to
    the next one: "on June 3" or "on Saturday" said of a plan lies ahead. Unchanged when the span has
    not ended (said on June 3 itself, it is today) or ``phrase`` dates itself ("in 2021", "two days
    ago", "last May")."""
    if end <= now and (feast := _EASTER.search(phrase)) is not None:  # Easter moves with the year
        named = re.sub(r"\s+", " ", phrase.casefold())
        name = next((n for n in _EASTER_OFFSETS if n in named), feast.group(0))
        for years in (1, 2):
            later = midnight(easter_day(start.year + years, name))
            if later + (end - start) > now:
                return later, later + (end - start)
    weekday_day = _WEEKDAY_AND_DAY.search(phrase)
    if end <= now and weekday_day is not None and not _MONTH_NAMED.search(phrase):
        # "Monday the 1st": the next month whose day that is falls on that weekday
        wanted = _WEEKDAY_STEMS.index(weekday_day.group("wd").lower())
        for months in range(1, 25):
            year, month = shift_month(start.year, start.month, months)
            try:
                day = date(year, month, int(weekday_day.group("day")))
            except ValueError:
                continue
            if day.weekday() == wanted:
                return day_span(day)
    nth = _NTH_OF_MONTH.search(phrase)
    if nth is not None and end <= now:  # the same place in the same month of a later year
        ordinal = ORDINALS[nth.group("nth").lower()]
        for years in (1, 2):
            day = nth_weekday(start.year + years, start.month, start.weekday(), ordinal)
            later = datetime(day.year, day.month, day.day, tzinfo=start.tzinfo)
            if later + (end - start) > now:
                return later, later + (end - start)
    if end > now or nth is not None or _LOOKS_BACK.search(phrase):
        return start, end
    # a weekday by itself moves by weeks; one said with its date ("Friday 13/9") names the date, which
    # moves by years below
    if end - start <= timedelta(days=1) and _WEEKDAY.search(phrase) and not _FIGURES.search(phrase):
        weeks = (now - end).days // 7 + 1
        return start + timedelta(weeks=weeks), end + timedelta(weeks=weeks)
    for years in range(1, 9):  # 29 February comes back within eight years
        try:
            moved = start.replace(year=start.year + years), end.replace(year=end.year + years)
        except ValueError:
            continue
        if moved[1] > now:
            return moved
    return start, end
