"""Corrections that say only the new word: the stored fact that names the word taken back is said anew
with the new one, and nothing else is. Sentences of our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.extraction.clause_atoms import TurnText
from agentx_memory.extraction.dedup import StoredFact, decide
from agentx_memory.extraction.substitutions import substituted, substitutions
from tests.extraction_cases import as_stored, facts_of

SAID = datetime(2024, 5, 14, 10, tzinfo=UTC)


def _stored(text: str) -> StoredFact:
    [fact] = facts_of(text)
    return as_stored(fact, 0.0)


def _anew(after: str, before: str) -> str | None:
    stored = _stored(before)
    for sub in substitutions(TurnText("t-new", "user", after, SAID, "Dana")):
        if (atom := substituted(sub, [stored])) is not None:
            assert decide(atom, [stored]).action == "supersede"
            return atom.statement
    return None


@pytest.mark.parametrize(
    ("before", "after", "anew"),
    [
        (
            "My favourite film is Heat.",
            "no wait, I meant Ronin. Heat is my dad's favourite",
            "Dana's favourite film is Ronin.",
        ),
        (
            "I write for The Observer.",
            "not Observer but The Economist, sorry",
            "Dana writes for The Economist.",
        ),
        (
            "I want to cycle across Peru next year.",
            "scratch that, the plan is Ecuador now. Peru is too far",
            "Dana wants to cycle across Ecuador next year (2025).",
        ),
        (
            "I play the cello in an orchestra.",
            "no I meant viola, the cello was years ago",
            "Dana plays the viola in an orchestra.",
        ),
        (
            "My favourite beach is Bondi.",
            "no, Manly Beach. Bondi is packed now",
            "Dana's favourite beach is Manly Beach.",
        ),
        (
            "I take metoprolol for my heart.",
            "switched from metoprolol to bisoprolol last week",
            "Dana takes bisoprolol for Dana's heart.",
        ),
        # the new word alone, opening the turn; a number takes back the number said before
        ("I'm 44.", "45 actually, the birthday was last week", "Dana is 45."),
        ("I live in Porto.", "Braga actually, Porto was years ago", "Dana lives in Braga."),
    ],
)
def test_the_stored_fact_is_said_anew_with_the_new_word(before: str, after: str, anew: str) -> None:
    assert _anew(after, before) == anew


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # The frame, but the stored fact names nothing the turn takes back.
        ("I'm 31.", "no, I meant next year, not this year, for the trip"),
        ("My favourite film is Heat.", "no wait, I meant Ronin"),
        # Not said as a correction.
        ("My favourite film is Heat.", "I meant Ronin when I said Heat was long"),
        ("I live in Porto.", "no, I'm fine, it's just Porto weather"),
        ("I live in Porto.", "Thanks actually, Porto sounds right"),
        ("I'm 44.", "I actually feel 45 some days"),
    ],
)
def test_nothing_is_said_anew_without_what_it_takes_back(before: str, after: str) -> None:
    assert _anew(after, before) is None


def test_only_the_speakers_own_fact_is_said_anew() -> None:
    stored = _stored("My favourite film is Heat.")
    [sub] = substitutions(TurnText("t-new", "user", "no wait, I meant Ronin. Heat was long", SAID, "Omar"))
    assert substituted(sub, [stored]) is None
