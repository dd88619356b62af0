"""Query decomposition by rules, the LLM's parts, and the interleaving of the parts' answers."""

from __future__ import annotations

import json

import pytest

from agentx_memory.retrieval.decompose import decompose
from agentx_memory.retrieval.fusion import interleave
from agentx_memory.retrieval.llm_query import parse_self_query


@pytest.mark.parametrize(
    ("query", "parts"),
    [
        (
            "What music do Priya and Tom both enjoy?",
            ["What music do Priya enjoy?", "What music do Tom enjoy?"],
        ),
        (
            "Which cafés have both Lena and Marco tried?",
            ["Which cafés have Lena tried?", "Which cafés have Marco tried?"],
        ),
        ("Did Omar and Sue both pass the exam?", ["Did Omar pass the exam?", "Did Sue pass the exam?"]),
        (
            "What hobbies do Anna Berg and Joe Lee share?",
            ["What hobbies do Anna Berg share?", "What hobbies do Joe Lee share?"],
        ),
        ("What do Kim and Raj have in common?", ["What do Kim have?", "What do Raj have?"]),
        (
            "Is Kim and Raj's favourite band the same?",
            ["Is Kim's favourite band the same?", "Is Raj's favourite band the same?"],
        ),
    ],
)
def test_a_shared_need_of_two_people_becomes_one_question_each(query: str, parts: list[str]) -> None:
    assert decompose(query) == parts


@pytest.mark.parametrize(
    "query",
    [
        "When did Priya and Tom go to the concert together?",  # one joint event: asked whole
        "What did Priya and Tom talk about?",
        "Are salt and pepper both spices?",  # no names
        "Did Tom and Tom both come?",  # one person
        "What and Which both?",  # question words, not names
        "What does Priya like?",
    ],
)
def test_other_questions_are_left_whole(query: str) -> None:
    assert decompose(query) == []


def test_interleave_takes_each_ranking_in_turn_once() -> None:
    merged = interleave([["a", "b", "c"], ["x", "a", "y", "z"]], key=lambda item: item)
    assert merged == ["a", "x", "b", "c", "y", "z"]
    assert interleave([], key=str) == []


def test_the_llm_parts_are_kept_only_when_there_are_two_sane_ones() -> None:
    def parts(value: object) -> list[str]:
        answer = json.dumps({"text": "q", "parts": value})
        filters = parse_self_query(answer, "What do X and Y both like?", [])
        assert filters is not None
        return filters.parts

    assert parts(["What does X like?", "What does Y like?"]) == ["What does X like?", "What does Y like?"]
    assert parts(["What does X like?"]) == []  # one part is no decomposition
    assert parts(["What does X like?", "what does x like?"]) == []  # duplicates
    assert parts(["a", "b", "c", "d", "e"]) == ["a", "b", "c", "d"]
    assert parts(["ok?", "x" * 5000]) == []  # an overlong part is dropped, leaving one
    assert parse_self_query(json.dumps({"text": "q", "parts": "nope"}), "q", []) is None
