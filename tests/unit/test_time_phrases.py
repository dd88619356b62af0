"""Time phrases → UTC ranges: calendar periods, rolling windows, open bounds, year and month boundaries."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from agentx_memory.retrieval.calendar_spans import day_span, month_span, next_occurrence
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
        # Without "on": the month in full, or an ordinal ("May 8th"), or "the … of".
        ("January 2", utc(2026, 1, 2), utc(2026, 1, 3)),
        ("September 14th", utc(2025, 9, 14), utc(2025, 9, 15)),
        ("May 8th", utc(2025, 5, 8), utc(2025, 5, 9)),
        ("the 8th of May", utc(2025, 5, 8), utc(2025, 5, 9)),
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
        "May 5 people join us?",
        "we march 20 miles a day",
        "the 3 of us went",
        "interest rose by June 3.5 percent",
        "Section 5 of August's report",
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


# --- future phrases, weekends, periods around a named day, explicit ranges -----------------------------

#: A Wednesday morning: "next Friday" is two days ahead, "this weekend" still to come.
WEDNESDAY = datetime(2026, 3, 11, 9, 15, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "phrase", "start", "end"),
    [
        ("Can you remind me tomorrow to call the dentist?", "tomorrow", utc(2026, 3, 12), utc(2026, 3, 13)),
        (
            "We're having pizza tomorrow night with the kids",
            "tomorrow night",
            utc(2026, 3, 12),
            utc(2026, 3, 13),
        ),
        (
            "Tomorrow morning I drop the car at the garage",
            "Tomorrow morning",
            utc(2026, 3, 12),
            utc(2026, 3, 13),
        ),
        (
            "The plumber comes the day after tomorrow",
            "the day after tomorrow",
            utc(2026, 3, 13),
            utc(2026, 3, 14),
        ),
        (
            "Day after tomorrow is Grandma's birthday",
            "Day after tomorrow",
            utc(2026, 3, 13),
            utc(2026, 3, 14),
        ),
        ("I'm on call next week", "next week", utc(2026, 3, 16), utc(2026, 3, 23)),
        ("Our lease renews next month", "next month", utc(2026, 4, 1), utc(2026, 5, 1)),
        ("We want to repaint the kitchen next year", "next year", utc(2027, 1, 1), utc(2028, 1, 1)),
        # The first such day strictly after today: Friday is two days off, Wednesday a week off.
        ("The sprint review is next Friday", "next Friday", utc(2026, 3, 13), utc(2026, 3, 14)),
        ("Book the village hall for next Wednesday", "next Wednesday", utc(2026, 3, 18), utc(2026, 3, 19)),
        (
            "The boiler service is this coming Monday",
            "this coming Monday",
            utc(2026, 3, 16),
            utc(2026, 3, 17),
        ),
        # "This <weekday>" is the day of the current ISO week, ahead or already gone.
        ("Are we still on for this Friday?", "this Friday", utc(2026, 3, 13), utc(2026, 3, 14)),
        ("The invoice went out this Monday", "this Monday", utc(2026, 3, 9), utc(2026, 3, 10)),
        ("The parcel should arrive in 3 days", "in 3 days", utc(2026, 3, 14), utc(2026, 3, 15)),
        ("Mum lands in two weeks", "in two weeks", utc(2026, 3, 23), utc(2026, 3, 30)),
        ("Grandpa visits in a week's time", "in a week's time", utc(2026, 3, 16), utc(2026, 3, 23)),
        ("My contract ends in a month", "in a month", utc(2026, 4, 1), utc(2026, 5, 1)),
        ("We'll move house in 2 years", "in 2 years", utc(2028, 1, 1), utc(2029, 1, 1)),
        ("Payday is four days from now", "four days from now", utc(2026, 3, 15), utc(2026, 3, 16)),
        ("The results are due a week from today", "a week from today", utc(2026, 3, 16), utc(2026, 3, 23)),
        # "Later this …" is the rest of the period, from this very moment.
        ("Let's catch up later this week", "later this week", WEDNESDAY, utc(2026, 3, 16)),
        ("The new hire starts later this month", "later this month", WEDNESDAY, utc(2026, 4, 1)),
        ("We might adopt a dog later this year", "later this year", WEDNESDAY, utc(2027, 1, 1)),
        ("I'll send the slides later today", "later today", WEDNESDAY, utc(2026, 3, 12)),
    ],
)
def test_future_points(text: str, phrase: str, start: datetime, end: datetime) -> None:
    found = find_time_phrase(text, WEDNESDAY)
    assert found is not None
    assert (found.time_range.start, found.time_range.end, found.time_range.phrase) == (start, end, phrase)
    assert text[found.start : found.end] == phrase
    assert found.relative


@pytest.mark.parametrize(
    ("now", "phrase", "start"),
    [
        # On a weekday, "this weekend" is the coming one and "last weekend" the one just gone.
        (WEDNESDAY, "this weekend", utc(2026, 3, 14)),
        (WEDNESDAY, "last weekend", utc(2026, 3, 7)),
        (WEDNESDAY, "this past weekend", utc(2026, 3, 7)),
        (WEDNESDAY, "the past weekend", utc(2026, 3, 7)),
        (WEDNESDAY, "next weekend", utc(2026, 3, 21)),
        (WEDNESDAY, "a weekend ago", utc(2026, 3, 7)),
        (WEDNESDAY, "two weekends ago", utc(2026, 2, 28)),
        (WEDNESDAY, "the weekend before last", utc(2026, 2, 28)),
        # On a Saturday or Sunday, "this weekend" is the one in progress and "last weekend" the one before.
        (utc(2026, 3, 14, 10), "this weekend", utc(2026, 3, 14)),
        (utc(2026, 3, 14, 10), "last weekend", utc(2026, 3, 7)),
        (utc(2026, 3, 14, 10), "next weekend", utc(2026, 3, 21)),
        (utc(2026, 3, 15, 23, 30), "this weekend", utc(2026, 3, 14)),
        (utc(2026, 3, 15, 23, 30), "this past weekend", utc(2026, 3, 7)),
        (utc(2026, 3, 15, 23, 30), "two weekends ago", utc(2026, 2, 28)),
        # On the Monday after, that weekend is "last weekend".
        (utc(2026, 3, 16, 8), "last weekend", utc(2026, 3, 14)),
        (utc(2026, 3, 16, 8), "this weekend", utc(2026, 3, 21)),
        # Across New Year.
        (utc(2026, 1, 2, 18), "last weekend", utc(2025, 12, 27)),
        (utc(2026, 1, 2, 18), "this weekend", utc(2026, 1, 3)),
        (utc(2025, 12, 29), "next weekend", utc(2026, 1, 10)),
    ],
)
def test_weekends_run_from_saturday_to_monday(now: datetime, phrase: str, start: datetime) -> None:
    found = find_time_phrase(f"We went to the lake {phrase} with the twins", now)
    assert found is not None
    assert found.time_range.phrase == phrase
    assert (found.time_range.start, found.time_range.end) == (start, start + timedelta(days=2))
    assert start.weekday() == 5
    assert found.relative


@pytest.mark.parametrize(
    ("now", "text", "start", "end"),
    [
        (utc(2025, 12, 15), "next month", utc(2026, 1, 1), utc(2026, 2, 1)),
        (utc(2025, 12, 15), "next year", utc(2026, 1, 1), utc(2027, 1, 1)),
        (utc(2025, 11, 20), "in 3 months", utc(2026, 2, 1), utc(2026, 3, 1)),
        (utc(2026, 1, 31), "in a month", utc(2026, 2, 1), utc(2026, 3, 1)),
        # Wednesday 24 December + 14 days = Wednesday 7 January, in the week of Monday 5 January.
        (utc(2025, 12, 24), "in 2 weeks", utc(2026, 1, 5), utc(2026, 1, 12)),
        (utc(2025, 12, 29), "in a week", utc(2026, 1, 5), utc(2026, 1, 12)),
        (utc(2025, 12, 28), "next week", utc(2025, 12, 29), utc(2026, 1, 5)),
        (utc(2025, 12, 31, 22), "tomorrow", utc(2026, 1, 1), utc(2026, 1, 2)),
        (utc(2024, 2, 27), "the day after tomorrow", utc(2024, 2, 29), utc(2024, 3, 1)),
        (utc(2025, 12, 31, 23), "later this year", utc(2025, 12, 31, 23), utc(2026, 1, 1)),
        (utc(2026, 3, 15, 20), "later this week", utc(2026, 3, 15, 20), utc(2026, 3, 16)),
        # Said on a Sunday: "next Monday" is tomorrow, "this Monday" six days ago, "next Sunday" a week on.
        (utc(2026, 3, 15), "next Monday", utc(2026, 3, 16), utc(2026, 3, 17)),
        (utc(2026, 3, 15), "this Monday", utc(2026, 3, 9), utc(2026, 3, 10)),
        (utc(2026, 3, 15), "this Sunday", utc(2026, 3, 15), utc(2026, 3, 16)),
        (utc(2026, 3, 15), "next Sunday", utc(2026, 3, 22), utc(2026, 3, 23)),
        (utc(2025, 12, 30), "next Friday", utc(2026, 1, 2), utc(2026, 1, 3)),
    ],
)
def test_future_year_and_month_rollover(now: datetime, text: str, start: datetime, end: datetime) -> None:
    found = parse_time_phrase(text, now)
    assert found is not None
    assert (found.start, found.end) == (start, end)


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("until next Friday", None, utc(2026, 3, 14)),
        ("after tomorrow", utc(2026, 3, 13), None),
        ("before next month", None, utc(2026, 4, 1)),
        ("since last weekend", utc(2026, 3, 7), None),
        ("until 3 days from now", None, utc(2026, 3, 15)),
        ("since the day after 16 November 2023", utc(2023, 11, 17), None),
    ],
)
def test_future_and_weekend_open_bounds(phrase: str, start: datetime | None, end: datetime | None) -> None:
    found = parse_time_phrase(f"keep the spare key {phrase}", WEDNESDAY)
    assert found is not None
    assert (found.start, found.end, found.phrase) == (start, end, phrase)


@pytest.mark.parametrize(
    ("text", "phrase", "start", "end"),
    [
        # The week before a day is the seven days up to it; the week after, the seven days following it.
        (
            "We drove up the week before 16 November 2023",
            "the week before 16 November 2023",
            utc(2023, 11, 9),
            utc(2023, 11, 16),
        ),
        (
            "Dad was in hospital the week after November 16, 2023",
            "the week after November 16, 2023",
            utc(2023, 11, 17),
            utc(2023, 11, 24),
        ),
        (
            "in the week before 1 March 2024",
            "in the week before 1 March 2024",
            utc(2024, 2, 23),
            utc(2024, 3, 1),
        ),
        (
            "The cake was ordered the day before the 3rd of June, 2021",
            "the day before the 3rd of June, 2021",
            utc(2021, 6, 2),
            utc(2021, 6, 3),
        ),
        ("We left the day after 2024-02-28", "the day after 2024-02-28", utc(2024, 2, 29), utc(2024, 3, 1)),
        (
            "the day after 31 December 2023",
            "the day after 31 December 2023",
            utc(2024, 1, 1),
            utc(2024, 1, 2),
        ),
        # Without a year, the named day is the most recent one, as "on May 3" reads.
        ("It snowed the day after May 3", "the day after May 3", utc(2025, 5, 4), utc(2025, 5, 5)),
        (
            "the week before the 16th of November",
            "the week before the 16th of November",
            utc(2025, 11, 9),
            utc(2025, 11, 16),
        ),
        ("on the day before March 10", "on the day before March 10", utc(2026, 3, 9), utc(2026, 3, 10)),
    ],
)
def test_periods_around_a_named_day(text: str, phrase: str, start: datetime, end: datetime) -> None:
    found = find_time_phrase(text, WEDNESDAY)
    assert found is not None
    assert (found.time_range.start, found.time_range.end, found.time_range.phrase) == (start, end, phrase)
    assert text[found.start : found.end] == phrase


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("between August 11 and August 15 2023", utc(2023, 8, 11), utc(2023, 8, 16)),
        ("between 11 August 2023 and 15 August 2023", utc(2023, 8, 11), utc(2023, 8, 16)),
        ("from 3 March 2025 to 7 March 2025", utc(2025, 3, 3), utc(2025, 3, 8)),
        ("from 2024-07-01 until 2024-07-14", utc(2024, 7, 1), utc(2024, 7, 15)),
        ("from August 11 to 15, 2023", utc(2023, 8, 11), utc(2023, 8, 16)),
        ("between the 11th and the 15th of August 2023", utc(2023, 8, 11), utc(2023, 8, 16)),
        ("from 3 to 7 June 2024", utc(2024, 6, 3), utc(2024, 6, 8)),
        ("between 20 September 2023 and 20 September 2023", utc(2023, 9, 20), utc(2023, 9, 21)),
        # An end that leaves out its year or month takes it from the other, across a month or New Year.
        ("between December 20 and January 5 2024", utc(2023, 12, 20), utc(2024, 1, 6)),
        ("from 28 December 2023 to 3 January", utc(2023, 12, 28), utc(2024, 1, 4)),
        ("from the 28th to the 3rd of March 2024", utc(2024, 2, 28), utc(2024, 3, 4)),
        # Months and years: the last one named is included.
        ("between March and May 2024", utc(2024, 3, 1), utc(2024, 6, 1)),
        ("from November 2023 through February 2024", utc(2023, 11, 1), utc(2024, 3, 1)),
        ("between November and February 2024", utc(2023, 11, 1), utc(2024, 3, 1)),
        ("from 2019 to 2021", utc(2019, 1, 1), utc(2022, 1, 1)),
        # No year at all: the most recent such range that has begun, even one still going on.
        ("between the 2nd and the 6th of March", utc(2026, 3, 2), utc(2026, 3, 7)),
        ("between March 9 and March 13", utc(2026, 3, 9), utc(2026, 3, 14)),
        ("between March 20 and March 25", utc(2025, 3, 20), utc(2025, 3, 26)),
        ("between December 20 and January 5", utc(2025, 12, 20), utc(2026, 1, 6)),
        ("from June to August", utc(2025, 6, 1), utc(2025, 9, 1)),
    ],
)
def test_explicit_ranges_include_their_last_day(phrase: str, start: datetime, end: datetime) -> None:
    found = parse_time_phrase(f"the Wilsons stayed with us {phrase}.", WEDNESDAY)
    assert found is not None
    assert (found.start, found.end, found.phrase) == (start, end, phrase)


@pytest.mark.parametrize(
    "text",
    [
        # Reversed ends: no range at all, not a guess (and not the single day inside the phrase).
        "we were away between 15 August 2023 and 11 August 2023",
        "we were away between 15 August 2023 and 11 August",
        "we were away between August 15 and August 11",
        "I lived there from 2021 to 2019",
        # Impossible days, as elsewhere.
        "we were away between 30 February 2023 and 3 March 2023",
        "the week before 31 June 2023",
        "the day after 2023-02-29",
        # Vague or too far ahead.
        "I'll call you in a few days",
        "in 9999 years",
        # Look-alikes.
        "between you and me, the weekend crowd is loud",
        "weekends are busy at the shop",
        "my next of kin is my sister",
        "from time to time we go to the coast",
        "between 3 and 5 people came",
    ],
)
def test_no_range_for_reversed_impossible_or_vague_phrases(text: str) -> None:
    assert find_time_phrase(text, WEDNESDAY) is None


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        (
            "So we were away between August 11 and August 15 2023, remember?",
            "between August 11 and August 15 2023",
        ),
        ("She started the week before 16 November 2023 and loved it", "the week before 16 November 2023"),
        ("Sam said from 2024-07-01 until 2024-07-14 works for him", "from 2024-07-01 until 2024-07-14"),
        ("I'm off next week, so ping Priya instead", "next week"),
        ("Dinner with the in-laws the day after tomorrow at seven", "the day after tomorrow"),
        ("We're camping next weekend if it stays dry", "next weekend"),
        ("I'll finish the report next Friday morning", "next Friday"),
        ("Let's talk budgets later this week, ok?", "later this week"),
        ("Grandpa visits in two weeks' time, bring the photos", "in two weeks' time"),
        ("The boys were at camp two weekends ago and loved it", "two weekends ago"),
        ("Our holiday is from 3 to 7 June 2024 this time", "from 3 to 7 June 2024"),
    ],
)
def test_longest_new_phrase_wins_mid_sentence(text: str, phrase: str) -> None:
    found = find_time_phrase(text, WEDNESDAY)
    assert found is not None
    assert found.time_range.phrase == phrase
    assert (found.start, found.end) == (text.index(phrase), text.index(phrase) + len(phrase))


@pytest.mark.parametrize(
    ("text", "relative"),
    [
        ("I went camping yesterday", True),
        ("the printer broke last week", True),
        ("the sprint review is next Friday", True),
        ("Mum lands in 2 weeks", True),
        ("I've been sleeping badly recently", True),
        ("we painted the fence in the past 3 days", True),
        ("we're going to the coast this weekend", True),
        ("the kids were at camp two weekends ago", True),
        ("our anniversary was in May", True),
        ("the boiler broke on May 8", True),
        ("it snowed the day after May 3", True),
        ("we were away between March 20 and March 25", True),
        ("since last week the tap drips", True),
        ("we married on 8 May 2023", False),
        ("I changed jobs in 2023", False),
        ("the lease started on 2023-05-08", False),
        ("we moved in May 2023", False),
        ("nothing has changed since 2020", False),
        ("we were away between 11 Aug 2023 and 15 Aug 2023", False),
        ("we were away between August 11 and August 15 2023", False),
        ("it rained the week before 16 November 2023", False),
        ("we rented the flat from March to May 2024", False),
    ],
)
def test_relative_says_whether_the_range_depends_on_now(text: str, relative: bool) -> None:
    found = find_time_phrase(text, WEDNESDAY)
    assert found is not None
    assert found.relative is relative
    # An absolute phrase means the same range whenever it is said.
    later = find_time_phrase(text, WEDNESDAY + timedelta(days=400))
    assert later is not None
    assert (later.time_range == found.time_range) is not relative


def test_next_occurrence_moves_a_yearless_day_ahead_but_not_today_or_a_dated_one() -> None:
    now = datetime(2024, 6, 14, 10, tzinfo=UTC)
    last_june_3 = day_span(date(2024, 6, 3))
    assert next_occurrence(*last_june_3, "on June 3", now)[0] == datetime(2025, 6, 3, tzinfo=UTC)
    # Said on the day itself, it is today, not next year.
    today = day_span(date(2024, 6, 14))
    assert next_occurrence(*today, "on June 14", now) == today
    # A phrase that dates itself keeps its date.
    for phrase in ("on June 3 2024", "two days ago", "last June 3"):
        assert next_occurrence(*last_june_3, phrase, now) == last_june_3
    # A weekday is the coming one: Saturday 8 June → Saturday 15 June.
    saturday = day_span(date(2024, 6, 8))
    assert next_occurrence(*saturday, "on Saturday", now)[0] == datetime(2024, 6, 15, tzinfo=UTC)
    # 29 February comes back in a leap year.
    leap = day_span(date(2024, 2, 29))
    assert next_occurrence(*leap, "on February 29th", now)[0] == datetime(2028, 2, 29, tzinfo=UTC)
    # A month that has begun is the current one.
    june = month_span(2024, 6)
    assert next_occurrence(*june, "in June", now) == june


@pytest.mark.parametrize(
    ("text", "day"),
    [("the gig is on 14/03!", date(2024, 3, 14)), ("the baby shower is 10/18", date(2024, 10, 18))],
)
def test_a_day_in_figures_is_read_when_one_number_is_no_month(text: str, day: date) -> None:
    found = parse_time_phrase(text, datetime(2025, 1, 20, tzinfo=UTC))
    assert found is not None
    assert found.start is not None
    assert found.start.date() == day


@pytest.mark.parametrize(
    "text", ["open 24/7", "rated it 9/10", "scored 18/20", "it was on 3/4", "split 50/50"]
)
def test_figures_that_name_no_day_are_no_date(text: str) -> None:
    assert parse_time_phrase(text, datetime(2025, 1, 20, tzinfo=UTC)) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # said on Wednesday 12 March 2025
        ("my allotment inspection is a week tomorrow", date(2025, 3, 20)),
        ("the recital is a fortnight today", date(2025, 3, 26)),
        ("two weeks tomorrow", date(2025, 3, 27)),
        ("it's a week on Friday", date(2025, 3, 21)),
        ("the MOT is Tuesday week", date(2025, 3, 25)),
        ("next Tuesday week", date(2025, 3, 25)),
    ],
)
def test_weeks_counted_from_a_named_day(text: str, day: date) -> None:
    # British English counts "a week tomorrow" from tomorrow; read as "tomorrow" it was a week early
    found = find_time_phrase(text, datetime(2025, 3, 12, 12, tzinfo=UTC))
    assert found is not None
    assert found.time_range.start == datetime(day.year, day.month, day.day, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        # the weekday agrees with the date: the date said decides, in the year it falls on that weekday
        ("dentist is on Thursday 13 March at 9am", date(2025, 3, 3), date(2025, 3, 13)),
        # no month: the month around now whose 18th is a Tuesday
        ("they bumped me to Tuesday the 18th", date(2025, 3, 10), date(2025, 3, 18)),
        ("the interview is on Friday the 17th", date(2025, 1, 15), date(2025, 1, 17)),
    ],
)
def test_a_weekday_said_with_its_date_is_read_by_the_date(text: str, said: date, day: date) -> None:
    found = find_time_phrase(text, datetime(said.year, said.month, said.day, 12, tzinfo=UTC))
    assert found is not None
    assert found.time_range.start == datetime(day.year, day.month, day.day, tzinfo=UTC)


#: A Tuesday.
SAID = datetime(2025, 9, 2, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "phrase", "day"),
    [
        # a day before its month, without "on": with an ordinal, or a month no verb spells
        ("moved it to 25th September", "25th September", date(2024, 9, 25)),
        ("the 6th oct works for me", "the 6th oct", date(2024, 10, 6)),
        ("the 3rd of Nov", "the 3rd of Nov", date(2024, 11, 3)),
        ("booked for 14 August", "14 August", date(2025, 8, 14)),
        ("it was 1 Jan", "1 Jan", date(2025, 1, 1)),
        # a weekday with its date in figures: the weekday says which number is the month
        ("fri 13/9, 17:30", "fri 13/9", date(2024, 9, 13)),
        ("Sat 6/9 at 11am", "Sat 6/9", date(2025, 9, 6)),
        ("on tues 16/9 at 10", "on tues 16/9", date(2025, 9, 16)),
        ("Mon 10.2.2025", "Mon 10.2.2025", date(2025, 2, 10)),
        # figures with their year, one number above 12
        ("on 25/12/2025", "on 25/12/2025", date(2025, 12, 25)),
        ("due 3/14/2026", "3/14/2026", date(2026, 3, 14)),
        ("25.09.2025", "25.09.2025", date(2025, 9, 25)),
        # a short weekday no word spells
        ("I'm off on tues", "on tues", date(2025, 8, 26)),
        ("next thurs", "next thurs", date(2025, 9, 4)),
        ("last fri was mad", "last fri", date(2025, 8, 29)),
    ],
)
def test_days_written_the_other_ways(text: str, phrase: str, day: date) -> None:
    found = find_time_phrase(text, SAID)
    assert found is not None
    assert text[found.start : found.end] == phrase
    assert found.time_range.start == datetime(day.year, day.month, day.day, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "23 may come to the party",  # "may" a verb
        "I'd give it 4 march on",
        "it was 3/4/2025",  # either order, and no weekday to tell
        "Sat 3/4 at noon",  # neither reading falls on a Saturday in the years around
        "I sat on sun loungers",
        "the wed cake",
        "it was 25.09",  # a price or a score as much as a day
    ],
)
def test_words_and_figures_that_are_no_such_day(text: str) -> None:
    assert find_time_phrase(text, SAID) is None


def test_a_plan_on_a_weekday_with_its_date_keeps_the_date() -> None:
    # "Friday 13/9" said on 2 September 2025, read as last year's Friday 13th: ahead, it is this year's
    # 13th (a date said in figures outranks the weekday), not the coming Friday
    start, end = day_span(date(2024, 9, 13))
    assert next_occurrence(start, end, "on Friday 13/9", SAID)[0] == datetime(2025, 9, 13, tzinfo=UTC)
    friday = day_span(date(2025, 8, 29))
    assert next_occurrence(*friday, "on fri", SAID)[0] == datetime(2025, 9, 5, tzinfo=UTC)
