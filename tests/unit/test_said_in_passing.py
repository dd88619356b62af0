"""Readings of the ninth session on learning: what a sentence takes for granted is told, asked or not
("a gift for my wife Jo?"); and a question that names someone asks for that person's slot."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.clause_atoms import UNKNOWN_SPEAKER
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.tense import clause_pointing
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


@pytest.mark.parametrize(
    "query",
    [
        "When did Caroline go to the LGBTQ support group?",
        "Where did Megan live in 2019?",
        "What job did Jon lose?",
    ],
)
def test_a_question_about_someones_past_asks_for_no_slot(query: str) -> None:
    assert asked_slots(query).names == ()


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


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # pastimes: lessons taken, a habit gone to, a doing swapped for another, "a bit of" one
        ("I've been taking salsa lessons on Thursdays.", "hobby", "salsa"),
        ("Been doing pottery classes on Tuesdays since September, how do I centre clay?", "hobby", "pottery"),
        (
            "I gave up Bharatanatyam after my knee injury and started pottery classes instead.",
            "hobby",
            "pottery",
        ),
        ("I go climbing every weekend now.", "hobby", "climbing"),
        (
            "I gave up the hurling after the concussion, doing a bit of sea swimming now instead.",
            "hobby",
            "swim",
        ),
        ("Swapped surfing for mountain biking since the shoulder op.", "hobby", "mountain biking"),
        ("I've swapped running for swimming.", "hobby", "swimming"),
        # partners: a state begun long ago, a name set after "someone", a name the tagger took for a noun
        ("I started dating Maya a few weeks ago, good second date ideas in Bristol?", "partner", "Maya"),
        ("I'm seeing someone new, Ana, she's lovely.", "partner", "Ana"),
        ("After the divorce I wasn't sure, but I'm seeing someone now, Karan.", "partner", "Karan"),
        ("Siobhán and I got engaged at the weekend!", "partner", "Siobhán"),
        ("my new gf kayla loves horror movies, whats a good scary one", "girlfriend", "Kayla"),
        ("We adopted a kitten last week and named her Miso! What should she eat?", "cat", "Miso"),
        # favourites said with praise, before a request, or without "my"
        ("Succession is hands down my favourite show.", "favourite_show", "Succession"),
        (
            "My all time favourite book is Piranesi, recommend something similar?",
            "favourite_book",
            "Piranesi",
        ),
        (
            "new favorite coffee is the iced brown sugar oat shaken espresso lol",
            "favourite_coffee",
            "espresso",
        ),
        ("I stay in Pune, Kothrud side.", "lives_in", "Pune"),
        ("Jake and I called it a day after four years. How do I cope?", "ended", "broke up"),
    ],
)
def test_the_reading(parser: NameRecognizer, text: str, key: str, value: str) -> None:
    found = [(k, v) for k, v, _ in read_facts(parser, text)]
    assert any(k == key and value in (v or "") for k, v in found), found


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("We're going camping next week, what should I pack?", "hobby"),
        ("I'm taking the bus to work today.", "hobby"),
        ("I need to take a break from running.", "hobby"),
        ("My daughter is taking piano lessons.", "hobby"),
        ("I started a new job at the council.", "hobby"),
        ("I'm staying in Pune this week for a wedding.", "lives_in"),
        ("I stayed in Rome for a week.", "lives_in"),
        ("Dan got a new BMW, jealous!", "drives"),
        ("My daughter Ella is 7 and obsessed with horses.", "favourite"),
        ("Lost my job as a banker yesterday, so I'm gonna take a shot at my own business.", "works_as"),
    ],
)
def test_no_such_reading(parser: NameRecognizer, text: str, key: str) -> None:
    assert key not in {k for k, _, s in read_facts(parser, text) if s.startswith("Kim")}


def test_a_name_never_answered_to_is_no_name(parser: NameRecognizer) -> None:
    found = read_facts(parser, "We renamed Flash to Noodle, she never answered to Flash anyway.")
    assert [v for k, v, _ in found if k == "pet"] == ["Noodle"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Hi, I'm Harriet. Can you help me write a cover letter for a library assistant job?", "Harriet"),
        ("hey my names jake, can u help me pick a gaming laptop under 1000", "Jake"),
    ],
)
def test_an_introduction_the_tagger_misread(parser: NameRecognizer, text: str, name: str) -> None:
    found = read_facts(parser, text, speaker=UNKNOWN_SPEAKER)
    assert ("name", name) in {(k, v) for k, v, _ in found}


@pytest.mark.parametrize("text", ["Honestly I'm Happy.", "My names are on the list."])
def test_no_introduction(parser: NameRecognizer, text: str) -> None:
    assert "name" not in {k for k, _, _ in read_facts(parser, text, speaker=UNKNOWN_SPEAKER)}


@pytest.mark.parametrize(
    ("clause", "pointing"),
    [
        ("Travis's physical got moved to November 4th", "plan"),
        ("Dana's dentist was pushed back to the 14th", "plan"),
        ("Dana moved to Leeds on March 3rd", "past"),
        ("Dana was moved to the Leeds office on March 3rd", "past"),
    ],
)
def test_a_date_an_appointment_was_moved_to_is_ahead(clause: str, pointing: str) -> None:
    assert clause_pointing(clause, clause.split("'")[0].split()[0]) == pointing
