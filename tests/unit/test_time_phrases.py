"""Time phrases → UTC ranges: calendar periods, rolling windows, open bounds, year and month boundaries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from agentx_memory.retrieval.time_phrases import RECENT_DAYS, find_time_phrase, parse_time_phrase

#: A Saturday, three days into a year: "last week" and "last month" both fall in the previous year.
NOW = datetime(2026, 1, 3, 15, 30, tzinfo=UTC)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("today", utc(2026, 1, 3), utc(2026, 1, 4)),
        ("this morning", utc(2026, 1, 3), utc(2026, 1, 4)),
        ("tonight", utc(2026, 1, 3), utc(2026, 1, 4)),
        ("yesterday", utc(2026, 1, 2), utc(2026, 1, 3)),
        ("last night", utc(2026, 1, 2), utc(2026, 1, 3)),
        ("the day before yesterday", utc(2026, 1, 1), utc(2026, 1, 2)),
        ("this week", utc(2025, 12, 29), utc(2026, 1, 5)),
        ("last week", utc(2025, 12, 22), utc(2025, 12, 29)),
        ("this month", utc(2026, 1, 1), utc(2026, 2, 1)),
        ("last month", utc(2025, 12, 1), utc(2026, 1, 1)),
        ("this year", utc(2026, 1, 1), utc(2027, 1, 1)),
        ("last year", utc(2025, 1, 1), utc(2026, 1, 1)),
        ("3 days ago", utc(2025, 12, 31), utc(2026, 1, 1)),
        ("a day ago", utc(2026, 1, 2), utc(2026, 1, 3)),
        ("two weeks ago", utc(2025, 12, 15), utc(2025, 12, 22)),
        ("a month ago", utc(2025, 12, 1), utc(2026, 1, 1)),
        ("13 months ago", utc(2024, 12, 1), utc(2025, 1, 1)),
        ("twelve months ago", utc(2025, 1, 1), utc(2025, 2, 1)),
        ("one year ago", utc(2025, 1, 1), utc(2026, 1, 1)),
        ("in May 2023", utc(2023, 5, 1), utc(2023, 6, 1)),
        ("during May of 2023", utc(2023, 5, 1), utc(2023, 6, 1)),
        ("Jan. 2024", utc(2024, 1, 1), utc(2024, 2, 1)),
        ("in May", utc(2025, 5, 1), utc(2025, 6, 1)),
        ("in December", utc(2025, 12, 1), utc(2026, 1, 1)),
        ("in January", utc(2026, 1, 1), utc(2026, 2, 1)),
        ("in sept", utc(2025, 9, 1), utc(2025, 10, 1)),
        ("last May", utc(2025, 5, 1), utc(2025, 6, 1)),
        ("in 2023", utc(2023, 1, 1), utc(2024, 1, 1)),
        ("during the year 2019", utc(2019, 1, 1), utc(2020, 1, 1)),
        ("on 8 May 2023", utc(2023, 5, 8), utc(2023, 5, 9)),
        ("on May 8, 2023", utc(2023, 5, 8), utc(2023, 5, 9)),
        ("on 2023-05-08", utc(2023, 5, 8), utc(2023, 5, 9)),
        ("2023/5/8", utc(2023, 5, 8), utc(2023, 5, 9)),
        ("the 3rd of June, 2021", utc(2021, 6, 3), utc(2021, 6, 4)),
        ("on the 8th of May", utc(2025, 5, 8), utc(2025, 5, 9)),
        ("on May 8", utc(2025, 5, 8), utc(2025, 5, 9)),
        ("on January 2", utc(2026, 1, 2), utc(2026, 1, 3)),
        ("last Monday", utc(2025, 12, 29), utc(2025, 12, 30)),
        ("on Friday", utc(2026, 1, 2), utc(2026, 1, 3)),
        ("on Saturday", utc(2025, 12, 27), utc(2025, 12, 28)),
    ],
)
def test_calendar_periods(phrase: str, start: datetime, end: datetime) -> None:
    found = parse_time_phrase(f"what happened {phrase} with Bob", NOW)
    assert found is not None
    assert (found.start, found.end, found.phrase) == (start, end, phrase)


@pytest.mark.parametrize(
    ("phrase", "start"),
    [
        ("in the last 24 hours", utc(2026, 1, 2, 15, 30)),
        ("in the last 30 minutes", utc(2026, 1, 3, 15, 0)),
        ("in the past two weeks", utc(2025, 12, 20, 15, 30)),
        ("over the past 3 days", utc(2025, 12, 31, 15, 30)),
        ("the past few days", utc(2025, 12, 31, 15, 30)),
        ("in the last couple of days", utc(2026, 1, 1, 15, 30)),
        ("last 10 days", utc(2025, 12, 24, 15, 30)),
        ("in the last month", utc(2025, 12, 3, 15, 30)),
        ("in the past 2 months", utc(2025, 11, 3, 15, 30)),
        ("past year", utc(2025, 1, 3, 15, 30)),
        ("recently", NOW - timedelta(days=RECENT_DAYS)),
        ("lately", NOW - timedelta(days=RECENT_DAYS)),
    ],
)
def test_rolling_windows_end_open(phrase: str, start: datetime) -> None:
    found = parse_time_phrase(f"what did I read {phrase}?", NOW)
    assert found is not None
    assert (found.start, found.end, found.phrase) == (start, None, phrase)


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("since May 2023", utc(2023, 5, 1), None),
        ("since 2023-05-08", utc(2023, 5, 8), None),
        ("since 2020", utc(2020, 1, 1), None),
        ("since last week", utc(2025, 12, 22), None),
        ("since Monday", utc(2025, 12, 29), None),
        ("since last March", utc(2025, 3, 1), None),
        ("after yesterday", utc(2026, 1, 3), None),
        ("before March 2024", None, utc(2024, 3, 1)),
        ("before 8 May 2023", None, utc(2023, 5, 8)),
        ("before 2020", None, utc(2020, 1, 1)),
        ("until last week", None, utc(2025, 12, 29)),
    ],
)
def test_open_bounds(phrase: str, start: datetime | None, end: datetime | None) -> None:
    found = parse_time_phrase(f"list the tickets {phrase}", NOW)
    assert found is not None
    assert (found.start, found.end, found.phrase) == (start, end, phrase)


@pytest.mark.parametrize(
    ("now", "text", "start", "end"),
    [
        # Calendar weeks start on Monday, also across New Year.
        (utc(2026, 1, 1, 9), "last week", utc(2025, 12, 22), utc(2025, 12, 29)),
        (utc(2026, 1, 1, 9), "this week", utc(2025, 12, 29), utc(2026, 1, 5)),
        (utc(2026, 1, 5), "last week", utc(2025, 12, 29), utc(2026, 1, 5)),
        (utc(2026, 1, 1), "yesterday", utc(2025, 12, 31), utc(2026, 1, 1)),
        # Leap years.
        (utc(2024, 3, 1, 12), "yesterday", utc(2024, 2, 29), utc(2024, 3, 1)),
        (utc(2024, 3, 5), "in February", utc(2024, 2, 1), utc(2024, 3, 1)),
        (utc(2023, 3, 5), "in February", utc(2023, 2, 1), utc(2023, 3, 1)),
        (utc(2024, 3, 31, 8), "in the past month", utc(2024, 2, 29, 8), None),
        (utc(2023, 3, 31, 8), "in the past month", utc(2023, 2, 28, 8), None),
        (utc(2024, 2, 29, 8), "in the last year", utc(2023, 2, 28, 8), None),
        (utc(2026, 1, 3), "on 29 Feb", utc(2024, 2, 29), utc(2024, 3, 1)),
        (utc(2024, 2, 29), "on 29 February 2024", utc(2024, 2, 29), utc(2024, 3, 1)),
        # "in May" is the most recent May that has begun.
        (utc(2026, 3, 10), "in May", utc(2025, 5, 1), utc(2025, 6, 1)),
        (utc(2026, 5, 20), "in May", utc(2026, 5, 1), utc(2026, 6, 1)),
        (utc(2026, 5, 20), "last May", utc(2025, 5, 1), utc(2025, 6, 1)),
        (utc(2026, 6, 2), "last May", utc(2026, 5, 1), utc(2026, 6, 1)),
        (utc(2026, 3, 10), "a month ago", utc(2026, 2, 1), utc(2026, 3, 1)),
    ],
)
def test_year_and_month_boundaries(now: datetime, text: str, start: datetime, end: datetime | None) -> None:
    found = parse_time_phrase(text, now)
    assert found is not None
    assert (found.start, found.end) == (start, end)


@pytest.mark.parametrize(
    "text",
    ["LAST WEEK", "Last Week", "last week", "lAsT wEeK"],
)
def test_case_insensitive_and_phrase_as_written(text: str) -> None:
    found = parse_time_phrase(f"notes from {text}", NOW)
    assert found is not None
    assert (found.start, found.end, found.phrase) == (utc(2025, 12, 22), utc(2025, 12, 29), text)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Yesterday I met Bob", "Yesterday"),
        ("I met Bob yesterday at the café", "yesterday"),
        ("I met Bob yesterday", "yesterday"),
        ("yesterday or last week?", "yesterday"),
        ("last week or yesterday?", "last week"),
        ("in May 2023 and in 2024", "in May 2023"),
        ("since May 2023", "since May 2023"),
        ("on 8 May 2023", "on 8 May 2023"),
    ],
)
def test_first_and_longest_phrase_wins_with_its_span(text: str, phrase: str) -> None:
    found = find_time_phrase(text, NOW)
    assert found is not None
    assert found.time_range.phrase == phrase
    assert text[found.start : found.end] == phrase


@pytest.mark.parametrize(
    "text",
    [
        "",
        "what is my name?",
        "May I ask something?",
        "the march was long",
        "I have 2023 ideas",
        "Who is John Smith?",
        "week month year day",
        "on 30 February 2023",
        "on 2023-13-40",
        "9999 years ago",
        "in the last 9999 years",
        "MATCH (n) DETACH DELETE n",
        '"}) RETURN n //',
    ],
)
def test_no_time_phrase(text: str) -> None:
    assert find_time_phrase(text, NOW) is None


def test_now_is_converted_to_utc() -> None:
    # 01:00 in UTC+5 is still the previous day in UTC.
    found = parse_time_phrase("today", datetime(2026, 1, 3, 1, 0, tzinfo=timezone(timedelta(hours=5))))
    assert found is not None
    assert (found.start, found.end) == (utc(2026, 1, 2), utc(2026, 1, 3))
    assert found.start is not None
    assert found.start.tzinfo is UTC


def test_naive_now_is_rejected() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        parse_time_phrase("today", datetime(2026, 1, 3))


def test_very_long_input_finds_the_first_phrase() -> None:
    text = "MATCH (n) DETACH DELETE n; " * 5_000 + "what happened last week " * 1_000
    found = find_time_phrase(text, NOW)
    assert found is not None
    assert found.start == len("MATCH (n) DETACH DELETE n; ") * 5_000 + len("what happened ")
    assert found.time_range.start == utc(2025, 12, 22)
