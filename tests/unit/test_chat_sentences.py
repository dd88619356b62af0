"""Chat habits the extractor reads: an emoji where a stop would be, and beliefs of the moment ("I'm
sure …") that are no facts. Sentences of our own."""

from __future__ import annotations

from agentx_memory.extraction.english import sentences
from tests.extraction_cases import statements


def test_an_emoji_before_a_capital_ends_a_sentence() -> None:
    assert sentences("So proud 🎉 We finished the kitchen last night.") == [
        "So proud 🎉",
        "We finished the kitchen last night.",
    ]
    # inside a sentence it is a word like any other
    assert sentences("I love 🍕 nights with my sister.") == ["I love 🍕 nights with my sister."]
    assert statements("So proud 🎉 We finished the kitchen last night.") == [
        "Dana and others finished the kitchen last night (13 May 2024)."
    ]


def test_being_sure_is_no_fact() -> None:
    assert statements("I'm sure with enough practice, I can pass the exam.") == []
    assert statements("I'm pretty sure the rest will follow.") == []
    # what the speaker is sure about, said as a fact of its own, still is one
    assert statements("I passed the exam on my second try.") == ["Dana passed the exam on Dana's second try."]
