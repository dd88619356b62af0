"""When what a turn tells happened: relative phrases resolved against the turn's own time, at ingest.

Sentences written for these tests (everyday chat), not taken from any benchmark.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.memory.episodic_pure import event_params, turn_event, turn_search_text
from agentx_memory.retrieval.items import RecallPlan

# A Wednesday afternoon.
SAID = datetime(2025, 10, 15, 16, 20, tzinfo=UTC)


def day(month: int, number: int, year: int = 2025) -> datetime:
    return datetime(year, month, number, tzinfo=UTC)


@pytest.mark.parametrize(
    ("content", "start", "end", "label"),
    [
        ("Yesterday the plumber finally fixed the boiler.", day(10, 14), day(10, 15), "14 October 2025"),
        ("We signed the lease three days ago!", day(10, 12), day(10, 13), "12 October 2025"),
        ("My sister got engaged last week", day(10, 6), day(10, 13), "the week of 6 October 2025"),
        ("I started a pottery course last month and love it", day(9, 1), day(10, 1), "September 2025"),
        ("Our team won the league last year.", day(1, 1, 2024), day(1, 1), "2024"),
        ("Tonight we are trying the new Thai place", day(10, 15), day(10, 16), "15 October 2025"),
        ("The kids have their piano recital tomorrow", day(10, 16), day(10, 17), "16 October 2025"),
        ("We are moving next week, wish us luck", day(10, 20), day(10, 27), "the week of 20 October 2025"),
        (
            "Last weekend we drove to the coast",
            day(10, 11),
            day(10, 13),
            "the weekend of 11 October 2025",
        ),
    ],
)
def test_a_relative_phrase_dates_the_event_from_when_it_was_said(
    content: str, start: datetime, end: datetime, label: str
) -> None:
    event = turn_event(content, SAID)
    assert event is not None
    assert (event.start, event.end, event.label) == (start, end, label)


@pytest.mark.parametrize(
    "content",
    [
        "The boiler was fixed on 14 October 2025.",  # dated as written: already searchable
        "I'm off to Rome in May",  # ahead or behind? the tense decides: left alone
        "See you on Friday!",
        "I've been sleeping badly recently",  # no end: no date
        "We love hiking in the hills",
        "Thank you so much",
    ],
)
def test_no_event_date_without_a_closed_relative_phrase(content: str) -> None:
    assert turn_event(content, SAID) is None


def test_the_event_date_is_read_against_the_turn_not_the_clock() -> None:
    later = turn_event("I went to the dentist yesterday", datetime(2019, 3, 1, 9, tzinfo=UTC))
    assert later is not None
    assert later.label == "28 February 2019"


def test_the_search_text_carries_speaker_and_event_date() -> None:
    event = turn_event("Yesterday the plumber came", SAID)
    assert event is not None
    assert turn_search_text("Yesterday the plumber came", {"speaker": "Ana"}, event.label) == (
        "Ana: Yesterday the plumber came [14 October 2025]"
    )
    assert turn_search_text("Hi", {}, None) == "Hi"
    assert event_params(event) == {
        "event_start": day(10, 14),
        "event_end": day(10, 15),
        "event_label": "14 October 2025",
    }
    assert event_params(None) == {"event_start": None, "event_end": None, "event_label": None}


def _plan(since: datetime | None, until: datetime | None) -> RecallPlan:
    return RecallPlan(
        text="q", vectors={}, channels=("_global",), top_k=5, now=SAID, prefer_since=since, prefer_until=until
    )


def test_an_event_overlapping_the_query_window_counts_as_inside_it() -> None:
    window = _plan(day(10, 14), day(10, 15))
    assert window.overlaps_preferred((day(10, 14), day(10, 15)))
    assert window.overlaps_preferred((day(10, 13), day(10, 20)))  # the week holds the day
    assert not window.overlaps_preferred((day(10, 15), day(10, 16)))  # half-open: ends meet only
    assert not window.overlaps_preferred((day(10, 1), day(10, 14)))
    assert not window.overlaps_preferred(None)
    assert not _plan(None, None).overlaps_preferred((day(10, 14), day(10, 15)))
    assert _plan(None, day(10, 15)).overlaps_preferred((day(10, 1), day(10, 2)))
