"""Time phrases in a query → a UTC :class:`TimeRange`: the rule-based, pure half of self-query's time filter.

English only ("yesterday", "last week", "3 days ago", "in the past 2 weeks", "in May 2023",
"since 2023-05-08", "before March", "last Monday"…). No I/O and no clock: the caller passes ``now``, so the
same text and the same ``now`` always give the same range. Every range is half-open ``[start, end)`` in UTC.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Final

from ..models.retrieval import TimeRange

__all__ = ["TimeMatch", "find_time_phrase", "parse_time_phrase"]

_Span = tuple[datetime, datetime]
_Bounds = tuple[datetime | None, datetime | None]
_PointResolver = Callable[[re.Match[str], datetime], _Span]
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
    # Vague counts only make sense for rolling windows ("the past few days"), never for "… ago".
    "few": 3,
    "a few": 3,
    "couple": 2,
    "a couple": 2,
    "several": 5,
}

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


@dataclass(frozen=True)
class TimeMatch:
    """A time phrase found in a text: the range it means and where it sits (``text[start:end]``)."""

    time_range: TimeRange
    start: int
    end: int


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    resolve: _Resolver


# --- calendar arithmetic --------------------------------------------------------------------------


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _day_span(day: date) -> _Span:
    start = _midnight(day)
    return start, start + timedelta(days=1)


def _week_span(day: date) -> _Span:
    # Weeks start on Monday (ISO 8601).
    start = _midnight(day - timedelta(days=day.weekday()))
    return start, start + timedelta(days=7)


def _shift_month(year: int, month: int, delta: int) -> tuple[int, int]:
    shifted_year, month_index = divmod(year * 12 + month - 1 + delta, 12)
    return shifted_year, month_index + 1


def _month_span(year: int, month: int) -> _Span:
    next_year, next_month = _shift_month(year, month, 1)
    return datetime(year, month, 1, tzinfo=UTC), datetime(next_year, next_month, 1, tzinfo=UTC)


def _year_span(year: int) -> _Span:
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def _minus_months(moment: datetime, months: int) -> datetime:
    year, month = _shift_month(moment.year, moment.month, -months)
    # Clamp the day: a month before 31 March is 28 (or 29) February, not an error.
    last_day = (_month_span(year, month)[1] - timedelta(days=1)).day
    return moment.replace(year=year, month=month, day=min(moment.day, last_day))


def _count(match: re.Match[str]) -> int:
    text = " ".join(match.group("n").lower().split()).removesuffix(" of")
    return int(text) if text.isdigit() else _NUMBER_WORDS[text]


def _month_number(match: re.Match[str]) -> int:
    return _MONTHS[match.group("mon").lower().rstrip(".")[:3]]


# --- points: phrases that name one calendar period ------------------------------------------------


def _days_back(days: int) -> _PointResolver:
    return lambda _match, now: _day_span(now.date() - timedelta(days=days))


def _this_or_last(match: re.Match[str], now: datetime) -> _Span:
    back = 1 if match.group("rel").lower() == "last" else 0
    unit = match.group("unit").lower()
    if unit == "week":
        return _week_span(now.date() - timedelta(weeks=back))
    if unit == "month":
        return _month_span(*_shift_month(now.year, now.month, -back))
    return _year_span(now.year - back)


def _ago(match: re.Match[str], now: datetime) -> _Span:
    count, unit = _count(match), match.group("unit").lower()
    if unit == "day":
        return _day_span(now.date() - timedelta(days=count))
    if unit == "week":
        return _week_span(now.date() - timedelta(weeks=count))
    if unit == "month":
        return _month_span(*_shift_month(now.year, now.month, -count))
    return _year_span(now.year - count)


def _full_date(match: re.Match[str], _now: datetime) -> _Span:
    month = int(match.group("num")) if "num" in match.groupdict() else _month_number(match)
    return _day_span(date(int(match.group("year")), month, int(match.group("day"))))


def _day_without_year(match: re.Match[str], now: datetime) -> _Span:
    month, day = _month_number(match), int(match.group("day"))
    for year in range(now.year, now.year - _MAX_YEARS_BACK, -1):
        try:
            candidate = date(year, month, day)
        except ValueError:  # 29 February of a common year: look further back.
            continue
        if candidate <= now.date():
            return _day_span(candidate)
    raise ValueError(f"no {month}-{day} in the last {_MAX_YEARS_BACK} years")


def _month_year(match: re.Match[str], _now: datetime) -> _Span:
    return _month_span(int(match.group("year")), _month_number(match))


def _month_only(match: re.Match[str], now: datetime) -> _Span:
    month = _month_number(match)
    # The most recent such month that has begun: "in May" asked in March means last year's May.
    return _month_span(now.year if month <= now.month else now.year - 1, month)


def _last_named_month(match: re.Match[str], now: datetime) -> _Span:
    month = _month_number(match)
    # "last May" asked in May means a year ago; otherwise the most recent May, as "in May".
    return _month_span(now.year if month < now.month else now.year - 1, month)


def _year_only(match: re.Match[str], _now: datetime) -> _Span:
    return _year_span(int(match.group("year")))


def _weekday(match: re.Match[str], now: datetime) -> _Span:
    wanted = _WEEKDAYS.index(match.group("wd").lower())
    # Strictly before today: "on Friday" asked on a Friday means a week ago.
    back = (now.weekday() - wanted) % 7 or 7
    return _day_span(now.date() - timedelta(days=back))


# (source, prefix when standing alone, prefix after since/before/after/until, resolver)
_POINTS: Final[tuple[tuple[str, str, str, _PointResolver], ...]] = (
    (r"(?:the\s+)?day\s+before\s+yesterday", "", "", _days_back(2)),
    (r"(?:today|tonight|this\s+(?:morning|afternoon|evening))", "", "", _days_back(0)),
    (r"(?:yesterday|last\s+night)", "", "", _days_back(1)),
    (r"(?P<rel>this|last)\s+(?P<unit>week|month|year)", "", "", _this_or_last),
    (_COUNT + r"\s+" + _UNIT + r"\s+ago", "", "", _ago),
    (r"(?P<year>\d{4})[-/](?P<num>\d{1,2})[-/](?P<day>\d{1,2})", r"(?:on\s+)?", "", _full_date),
    (r"(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?" + _MONTH + r",?\s+" + _YEAR, r"(?:on\s+)?", "", _full_date),
    (_MONTH + r"\s+" + _DAY + r",?\s+" + _YEAR, r"(?:on\s+)?", "", _full_date),
    (r"(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?" + _MONTH, r"on\s+", "", _day_without_year),
    (_MONTH + r"\s+" + _DAY, r"on\s+", "", _day_without_year),
    (_MONTH + r",?\s+(?:of\s+)?" + _YEAR, r"(?:(?:in|during|throughout)\s+)?", "", _month_year),
    (_MONTH, r"(?:in|during|throughout)\s+(?:the\s+month\s+of\s+)?", "", _month_only),
    (r"last\s+" + _MONTH, "", "", _last_named_month),
    (_YEAR, r"(?:in|during|throughout)\s+(?:the\s+year\s+)?", "", _year_only),
    (
        r"(?P<wd>" + "|".join(_WEEKDAYS) + ")",
        r"(?:on\s+(?:last\s+)?|last\s+|this\s+past\s+)",
        r"(?:last\s+)?",
        _weekday,
    ),
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
        start = _minus_months(now, count * (12 if unit == "year" else 1))
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
    for source, alone, after_bound, point in _POINTS:
        rules.append(_Rule(_compile(alone + source), point))
        bound = r"(?P<bound>since|before|after|until|till)\s+"
        rules.append(_Rule(_compile(bound + after_bound + source), _bounded(point)))
    counted = _WINDOW_PREP + r"(?:the\s+)?(?:last|past)\s+" + _VAGUE_COUNT + r"\s+" + _ROLLING_UNIT
    uncounted = _WINDOW_PREP + r"(?:the\s+(?:last|past)|past)\s+(?P<n>)" + _ROLLING_UNIT
    rules.append(_Rule(_compile(counted), _rolling))
    rules.append(_Rule(_compile(uncounted), _rolling))
    rules.append(_Rule(_compile(r"(?:recently|lately)"), _recent))
    return tuple(rules)


_RULES: Final = _build_rules()


def find_time_phrase(text: str, now: datetime) -> TimeMatch | None:
    """The first time phrase in ``text`` (the longest one where several start at the same place), or ``None``.

    ``now`` must be timezone-aware; it is converted to UTC and every range is computed in UTC. A phrase that
    names no real day ("on 30 February 2023") is skipped together with anything overlapping it.
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be a timezone-aware datetime")
    now = now.astimezone(UTC)
    candidates = sorted(
        (
            (match.start(), -len(match.group(0)), index, match)
            for index, rule in enumerate(_RULES)
            for match in rule.pattern.finditer(text)
        ),
        key=lambda candidate: candidate[:3],
    )
    rejected: list[tuple[int, int]] = []
    for start, _length, index, match in candidates:
        if any(start < end and match.end() > begin for begin, end in rejected):
            continue
        try:
            lower, upper = _RULES[index].resolve(match, now)
        except (ValueError, OverflowError):  # An impossible date, or a count that leaves the calendar.
            rejected.append((start, match.end()))
            continue
        time_range = TimeRange(start=lower, end=upper, phrase=match.group(0))
        return TimeMatch(time_range=time_range, start=start, end=match.end())
    return None


def parse_time_phrase(text: str, now: datetime) -> TimeRange | None:
    """The UTC range of the first time phrase in ``text`` (see :func:`find_time_phrase`), or ``None``."""
    found = find_time_phrase(text, now)
    return found.time_range if found is not None else None
