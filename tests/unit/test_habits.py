"""Short habitual facts the offline extractor types, so a later correction has something to end: what
one teaches, drives, writes for or plays; a contact number or address. Sentences of our own."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.english import sentences
from tests.extraction_cases import facts_of


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I teach geography.", "teaches", "geography"),
        ("I teach maths at a sixth form in Derby", "teaches", "maths at a sixth form in Derby"),
        ("I drive a Honda Jazz.", "drives", "Honda Jazz"),
        ("I write for The Guardian.", "works_at", "The Guardian"),
        ("My daughter Amara plays varsity volleyball.", "plays", "varsity volleyball"),
        ("I play badminton.", "plays", "badminton"),
        ("My phone number is 0161 496 0000.", "phone", "0161 496 0000"),
        ("my new email is dana.k@example.org", "email", "dana.k@example.org"),
    ],
)
def test_a_short_habit_is_typed(text: str, key: str, value: str) -> None:
    assert (key, value) in [(fact.key, fact.value) for fact in facts_of(text)]


@pytest.mark.parametrize("text", ["I drive to work every day.", "I write for fun.", "I teach you nothing."])
def test_look_alikes_are_not_typed(text: str) -> None:
    assert all(fact.key not in {"drives", "works_at", "teaches"} for fact in facts_of(text))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("missed the bus. gonna be late", ["missed the bus.", "gonna be late"]),
        ("see you at 6 p.m. sharp", ["see you at 6 p.m. sharp"]),
    ],
)
def test_chat_starts_sentences_in_lower_case(text: str, said: list[str]) -> None:
    assert sentences(text) == said
