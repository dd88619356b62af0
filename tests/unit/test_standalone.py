"""Whether a clause stands on its own (extraction/standalone.py), and that the extractor refuses the
ones that do not. Every sentence here was written for this test; each rule has kept and refused cases."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.rules import TurnText, extract_turns
from agentx_memory.extraction.standalone import dangling
from tests.extraction_cases import NOW, statements


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # A pronoun subject points at something said before; a noun subject names it.
        ("It is my favourite café in the old town", "Italy is my favourite country to visit"),
        (
            "It has really helped me get through the winter",
            "Cycling has really helped me get through the winter",
        ),
        ("and it made me want to study harder", "and the course made me want to study harder"),
        (
            "Its colours remind me of my grandmother's kitchen",
            "Ochre colours remind me of my grandmother's kitchen",
        ),
        ("Their patience really meant a lot to me", "My neighbours' patience really meant a lot to me"),
        ("which keeps me busy every single morning", "The garden keeps me busy every single morning"),
        ("here's a sketch I made on the train", "I made a sketch on the train"),
        # A demonstrative points outside the sentence unless a relative clause in it says which one.
        ("This has been great for my sleep", "Swimming has been great for my sleep"),
        ("That's why I switched to night shifts", "Burnout is why I switched to night shifts"),
        (
            "This mug reminds me of our trip to Porto",
            "This mug my sister painted reminds me of our trip to Porto",
        ),
        ("Those evenings make me grateful for my friends", "Those who helped me move deserve a medal"),
        ("Moments like these make me love my job", "Quiet mornings make me love my job"),
        ("This job is killing me", "My job is killing me"),
        # The empty "it" of extraposition keeps its clause: the real subject follows.
        ("It was a lovely surprise from my cousins", "It's important to me that my kids learn two languages"),
        ("It's been tough for me lately", "It feels good to use my hands after a day at the screen"),
        ("It was so special to me", "It's amazing how much calmer I am since I quit coffee"),
        # The ambient "it" of time, and a predicate that says which thing by the speaker's relation to it.
        ("It was a gift from my aunt", "It was a long week for me at the hospital"),
        ("It's a great way to relax after my shifts", "It's a climbing gym I go to twice a week"),
        # A gerund subject with a pointing object.
        ("Playing it helps me unwind after work", "Playing chess helps me unwind after work"),
        ("Seeing this photo made me miss my brother", "Seeing old photos made me miss my brother"),
        ("Helping them was the best part of my week", "Helping those in need is important to me"),
        # A verb whose dropped subject was an "it".
        ("Reminds me how much I love the sea", "I love the sea in every season"),
        ("Really made me think about my priorities", "I really thought about my priorities"),
        ("Sounds like my week is going to be busy", "My week is going to be busy"),
    ],
)
def test_a_clause_that_points_outside_itself_is_refused(refused: str, kept: str) -> None:
    assert dangling(refused) is not None
    assert dangling(kept) is None


@pytest.mark.parametrize(
    ("after_comma", "opening"),
    [
        ("representing my whole family in patches", "Sewing the quilt took me a whole winter"),
        ("just putting my thoughts on paper", "Painting relaxes me more than anything"),
        ("a present from my old flatmate in Leeds", "A friend gave me this lamp for my birthday"),
        ("a great way to clear my head", "A walk is a great way to clear my head"),
    ],
)
def test_a_piece_after_a_comma_that_only_modifies_is_refused(after_comma: str, opening: str) -> None:
    assert dangling(after_comma, opens_clause=False) is not None
    assert dangling(opening, opens_clause=True) is None


def test_a_participle_needs_a_finite_verb_even_at_the_start() -> None:
    assert dangling("Still following my passion for dance") == "participle"
    assert dangling("Running with the club has changed my weekends") is None
    # After a comma only a known finite verb counts: a plural noun is not one.
    assert dangling("representing my resilience and that of others", opens_clause=False) == "participle"


@pytest.mark.parametrize(
    "text",
    [
        "It has really helped me get through the winter.",
        "This has been great for my sleep and my mood.",
        "Those evenings make me so grateful for my friends.",
        "Playing it always helps me unwind after a long shift.",
        "The quilt is finished, representing my whole family in patches.",
        "The lamp is lovely, a present from my old flatmate in Leeds.",
        "The garden is thriving, which keeps me busy every single morning.",
        "My aim was to show warmth in the colours of the sky.",
    ],
)
def test_the_extractor_learns_nothing_that_cannot_stand_alone(text: str) -> None:
    assert statements(text) == []


def test_the_extractor_keeps_what_stands_alone() -> None:
    assert statements("Cycling has really helped me get through the winter.") == [
        "Cycling has really helped Dana get through the winter."
    ]
    assert statements("It's important to me that my kids learn two languages.") == [
        "It's important to Dana that Dana's kids learn two languages."
    ]
    assert statements("This mug my sister painted reminds me of our trip to Porto.") == [
        "This mug Dana's sister painted reminds Dana of their trip to Porto."
    ]
    # "My aim is to …" is the typed goal; only the past aim of an unnamed piece of work is refused.
    [goal] = extract_turns(
        [TurnText("t0", "user", "My aim is to run a marathon before I turn forty.", NOW, "Dana")]
    ).facts
    assert goal.fact_kind == "goal"
