"""Readings of the ninth session on learning: what a sentence takes for granted is told, asked or not
("a gift for my wife Jo?"); and a question that names someone asks for that person's slot."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.retrieval.slots import asked_slots
from tests.reading import read_facts, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)


@pytest.mark.parametrize(
    ("text", "relation", "name"),
    [
        ("Can you suggest a gift for my wife Jo?", "wife", "Jo"),
        ("Valentine's ideas for my new girlfriend Sofia? Nothing too intense", "girlfriend", "Sofia"),
        ("What should I cook for my boyfriend Tom tonight?", "boyfriend", "Tom"),
        ("any tips for a road trip with my sister Priya and her kids?", "sister", "Priya"),
        ("Help me write a birthday message to my husband Arjun", "husband", "Arjun"),
    ],
)
def test_a_relation_named_in_passing_is_told(
    parser: NameRecognizer, text: str, relation: str, name: str
) -> None:
    assert (relation, name) in {(key, value) for key, value, _ in read_facts(parser, text)}


@pytest.mark.parametrize(
    "text",
    [
        "My late husband Frank loved this song, what else is like it?",
        "any ideas for my old boss Mark's leaving card?",
        "Should I text my ex-girlfriend Jas back?",
        "What would my future wife Anna think of this ring?",
        "Can you suggest a gift for my wife? Jo says I'm hopeless.",
    ],
)
def test_a_relation_past_or_not_yet_or_unnamed_is_not(parser: NameRecognizer, text: str) -> None:
    said = {(key, value) for key, value, _ in read_facts(parser, text)}
    assert not said & {("husband", "Frank"), ("boss", "Mark"), ("girlfriend", "Jas"), ("wife", "Anna")}
    assert ("wife", "Jo") not in said


@pytest.mark.parametrize(
    ("query", "key", "name"),
    [
        ("where does Megan live", "lives_in", "megan"),
        ("What is Diego's favorite coffee?", "favourite_coffee", "diego"),
        ("who is Jake's girlfriend", "girlfriend", "jake"),
        ("Megan's phone number?", "phone", "megan"),
        ("Where does my sister Anna live?", "lives_in", "anna"),
    ],
)
def test_a_question_naming_someone_asks_for_their_slot(query: str, key: str, name: str) -> None:
    asked = asked_slots(query)
    assert key in asked.keys
    assert asked.names == (name,)
    assert not asked.mine


def test_a_first_person_question_asks_for_the_users_and_no_one_elses() -> None:
    asked = asked_slots("Where do I live now?")
    assert asked.mine
    assert asked.names == ()
    assert not asked_slots("What does Netflix cost?")  # a name, but no slot


@pytest.mark.parametrize(
    "text", ["My brother's new place is in Leeds.", "my sister's new flat in Dubai is huge"]
)
def test_a_relatives_new_place_is_not_the_speakers_home(parser: NameRecognizer, text: str) -> None:
    assert "lives_in" not in {key for key, _, _ in read_facts(parser, text)}
