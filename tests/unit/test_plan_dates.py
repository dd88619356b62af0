"""Dates point the right way (DESIGN §8): a date without a year in a plan is the next occurrence after
the turn, in a past or present-perfect clause the last one on or before it; weekdays likewise. Turn times
near a year's end, where the two readings fall in different years.

Cases marked ``before`` were written from the trial's report and the brief before the date code
(``clause_atoms``, ``time_phrases``, ``calendar_spans``) was read; the rest after.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from agentx_memory.extraction.rules import TurnText, extract_turns
from agentx_memory.extraction.tense import Pointing, clause_pointing

NOVEMBER = datetime(2025, 11, 20, 12, tzinfo=UTC)  # a Thursday
NEW_YEARS_EVE = datetime(2025, 12, 30, 9, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("said_at", "text", "day", "date_text"),
    [
        # before: the trial's two sentences
        (NOVEMBER, "I'm flying to Tokyo on January 5th.", date(2026, 1, 5), "(5 January 2026)"),
        (NOVEMBER, "We're getting married on March 14th.", date(2026, 3, 14), "(14 March 2026)"),
        # before: going to, gonna, will, planning to, a copula whose complement is the date
        (NOVEMBER, "I'm going to visit my sister on January 3rd.", date(2026, 1, 3), "(3 January 2026)"),
        (NEW_YEARS_EVE, "Gonna paint the kitchen on January 2nd.", date(2026, 1, 2), "(2 January 2026)"),
        (NOVEMBER, "I will start my new job on February 1st.", date(2026, 2, 1), "(1 February 2026)"),
        (NOVEMBER, "I'm planning to visit Rome on February 10th.", date(2026, 2, 10), "(10 February 2026)"),
        (NOVEMBER, "My exam is on January 12th.", date(2026, 1, 12), "(12 January 2026)"),
        # before: weekdays in a plan (said on a Thursday: the coming Friday, not the last)
        (NOVEMBER, "I'm meeting Karlie on Friday.", date(2025, 11, 21), "(21 November 2025)"),
        (NOVEMBER, "I'm seeing the dentist next Tuesday.", date(2025, 11, 25), "(25 November 2025)"),
        # before: the past and the present perfect keep the last occurrence
        (NOVEMBER, "I ran a half marathon on October 2nd.", date(2025, 10, 2), "(2 October 2025)"),
        (NOVEMBER, "I ran a half marathon on December 2nd.", date(2024, 12, 2), "(2 December 2024)"),
        (NOVEMBER, "I went hiking on Friday.", date(2025, 11, 14), "(14 November 2025)"),
        (NOVEMBER, "I've finished my thesis on November 3rd.", date(2025, 11, 3), "(3 November 2025)"),
        # after: more phrasings, at the very end of a year
        (NEW_YEARS_EVE, "I'll be in Paris on January 5th.", date(2026, 1, 5), "(5 January 2026)"),
        (NEW_YEARS_EVE, "We should repaint the garage on Saturday.", date(2026, 1, 3), "(3 January 2026)"),
        (NEW_YEARS_EVE, "I'm hosting a party on January 1st.", date(2026, 1, 1), "(1 January 2026)"),
        (NEW_YEARS_EVE, "I have a dentist appointment on Monday.", date(2026, 1, 5), "(5 January 2026)"),
        (NEW_YEARS_EVE, "I was at my parents' on December 31st.", date(2024, 12, 31), "(31 December 2024)"),
        (NEW_YEARS_EVE, "I bought a new bike on Monday.", date(2025, 12, 29), "(29 December 2025)"),
        (NEW_YEARS_EVE, "I have been to the clinic on Monday.", date(2025, 12, 29), "(29 December 2025)"),
        (NEW_YEARS_EVE, "I have booked a flight for January 5th.", date(2026, 1, 5), "(5 January 2026)"),
        (NEW_YEARS_EVE, "I'd like to see my aunt on January 4th.", date(2026, 1, 4), "(4 January 2026)"),
        # after: a state now, after something done: the date is the run's, it stays behind
        (NEW_YEARS_EVE, "I'm so sore after the run on Sunday.", date(2025, 12, 28), "(28 December 2025)"),
    ],
)
def test_a_date_points_the_way_its_clause_does(
    said_at: datetime, text: str, day: date, date_text: str
) -> None:
    [fact] = extract_turns([TurnText("t1", "user", text, said_at, "Dana")]).facts
    assert fact.event_time is not None
    assert fact.event_time.date() == day
    assert date_text in fact.statement
    assert fact.temporal == ("future" if fact.event_time > said_at else "past")


@pytest.mark.parametrize(
    ("clause", "pointing"),
    [
        ("Dana is flying to Tokyo on January 5th", "plan"),
        ("Dana and others are getting married on March 14th", "plan"),
        ("Dana's new job starts on Monday", "plan"),
        ("Dana really will call on Friday", "plan"),
        ("Dana has to submit it on Friday", "plan"),
        ("Dana was going to fly on Friday", "past"),
        ("Dana has already finished it on Monday", "past"),
        ("Dana's sister visited on Monday", "past"),
        # a subject of two: the verb follows both ("Tom and I went hiking on Sunday": last Sunday)
        ("Dana and Tom went hiking on Sunday", "past"),
        ("Dana and Dana's wife went to Rome on Sunday", "past"),
        ("Dana and Tom are flying to Rome on Sunday", "plan"),
        ("Dana is tired after the party on Saturday", "other"),
        ("Dana is happy with the result on Saturday", "other"),
    ],
)
def test_the_verb_group_tells_the_way(clause: str, pointing: Pointing) -> None:
    assert clause_pointing(clause, "Dana") == pointing
