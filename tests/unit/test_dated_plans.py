"""Plans and events with their day, however the day is written: a short month ("jan 5th", "Dec 27"), a
short weekday with its date ("tues 9th", "sat 13 sept"), a bare weekday ("the vet Thursday morning"), a
question typed on without its mark, "our …" plans, "it's my birthday on …", "Me and Sam …", a booking
for a day to come; and the near misses that must not date anything."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import TurnText, extract_turns
from agentx_memory.retrieval.time_phrases import find_time_phrase
from tests.reading import spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)

#: A Tuesday.
SAID_AT = datetime(2025, 9, 2, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "phrase", "day"),
    [
        ("flying to Tokyo Jan 5th", "Jan 5th", date(2025, 1, 5)),
        ("the course starts Dec 27", "Dec 27", date(2024, 12, 27)),
        ("back on Sept. 14", "on Sept. 14", date(2024, 9, 14)),
        ("a doctors appt tues 9th", "tues 9th", date(2025, 9, 9)),
        ("the wedding is sat 13 sept in Enugu", "sat 13 sept", date(2025, 9, 13)),
        ("the vet Thursday morning", "Thursday", date(2025, 8, 28)),
        ("physio is thu 4th 14:30 now", "thu 4th 14:30", date(2025, 9, 4)),
    ],
)
def test_days_written_short_or_bare_are_found(text: str, phrase: str, day: date) -> None:
    found = find_time_phrase(text, SAID_AT)
    assert found is not None
    assert found.time_range.start is not None
    assert (found.time_range.phrase, found.time_range.start.date()) == (phrase, day)


@pytest.mark.parametrize(
    "text",
    ["Jan 5 minutes late", "Black Friday deals", "I work Mondays", "the Mar 3 thing", "we sat 3 rows back"],
)
def test_words_like_days_are_not(text: str) -> None:
    assert find_time_phrase(text, SAID_AT) is None


def _statements(parser: NameRecognizer, text: str) -> list[str]:
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    return [fact.statement for fact in facts]


def _dated(parser: NameRecognizer, text: str) -> dict[str, date]:
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    return {fact.statement: fact.event_time.date() for fact in facts if fact.event_time is not None}


@pytest.mark.parametrize(
    ("text", "about", "day"),
    [
        ("flying to tokyo jan 5th, what should i pack", "Tokyo", date(2026, 1, 5)),
        ("Our holiday in Madeira starts Dec 27.", "holiday", date(2025, 12, 27)),
        ("Our baby is due February 10th!", "baby", date(2026, 2, 10)),
        ("It's my birthday on the 3rd of October, thinking of a dinner.", "birthday", date(2025, 10, 3)),
        ("We fly out to Japan on March 28th!!", "Japan", date(2026, 3, 28)),
        ("Me and Sam are driving up to Edinburgh Oct 18th for the weekend.", "Edinburgh", date(2025, 10, 18)),
        ("Signed up for a 10k race on November 9.", "race", date(2025, 11, 9)),
        ("can u remind me i have a doctors appt tues 9th", "doctor", date(2025, 9, 9)),
        ("Taking the cat to the vet Thursday morning.", "vet", date(2025, 9, 4)),
        # what was done keeps the last such day
        ("I got back from Madrid on August 15th, still jetlagged.", "Madrid", date(2025, 8, 15)),
        ("We signed the lease on Aug 20th.", "lease", date(2025, 8, 20)),
    ],
)
def test_a_plan_is_dated_ahead_and_a_past_behind(
    parser: NameRecognizer, text: str, about: str, day: date
) -> None:
    dated = _dated(parser, text)
    assert any(about.casefold() in said.casefold() and on == day for said, on in dated.items()), dated


@pytest.mark.parametrize(
    "text",
    [
        "Should we fly out to Japan on March 28th?",
        "If our holiday starts Dec 27 I'll miss the party.",
        "What should I pack for Tokyo in January",
    ],
)
def test_asked_or_supposed_is_no_plan(parser: NameRecognizer, text: str) -> None:
    dated = _dated(parser, text)
    assert not any(word in said for said in dated for word in ("Japan", "holiday", "Tokyo")), dated


def test_a_cleft_of_no_day_is_no_statement(parser: NameRecognizer) -> None:
    assert not [said for said in _statements(parser, "It's my mum on the phone, brb.") if "phone" in said]
