"""Towns the small model misnames, retyped by where they stand and GeoNames' list (extraction/places.py)."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.places import known_town
from tests.reading import read_facts, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)


def _types(parser: NameRecognizer, text: str) -> dict[str, str]:
    return {ent.text: ent.label_ for ent in parser.parse([text])[0].ents}


def test_the_gazetteer_ships_inside_the_package() -> None:
    assert all(known_town(place) for place in ("Whitstable", "Accra", "Portugal"))
    assert not any(known_town(name) for name in ("Marmalade", "Ocado"))


@pytest.mark.parametrize(
    ("text", "town"),
    [
        ("we moved to Bristol on Saturday, the kids already love it", "Bristol"),
        ("I'm from Austin and I still live there", "Austin"),
        ("the radiators in my Glasgow tenement take forever", "Glasgow"),
        ("I've swapped Manchester for Glasgow", "Manchester"),
        ("Bergen is home now", "Bergen"),
    ],
)
def test_a_town_where_a_place_stands_is_a_place(parser: NameRecognizer, text: str, town: str) -> None:
    assert _types(parser, text)[town] == "GPE"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("dinner with Austin tonight", "Austin"),  # a person, whatever the map says
        ("I bought flowers for Florence", "Florence"),
        ("The charity gala is on the second Saturday in March.", "March"),  # a month, not the Fenland town
    ],
)
def test_a_town_name_elsewhere_keeps_the_models_type(parser: NameRecognizer, text: str, name: str) -> None:
    assert _types(parser, text).get(name) != "GPE"


def test_a_retyped_town_is_learned_as_a_place(parser: NameRecognizer) -> None:
    facts = read_facts(parser, "Swapped Manchester for Glasgow last month - new job, new flat.")
    assert ("lives_in", "Glasgow") in {(key, value) for key, value, _ in facts}


def test_a_message_left_without_its_stop_is_parsed_as_if_it_had_one(parser: NameRecognizer) -> None:
    # "I moved to Leeds" with no stop: the small model took "Leeds" for a plural noun and learned nothing
    assert ("lives_in", "Leeds") in {(key, value) for key, value, _ in read_facts(parser, "I moved to Leeds")}
    assert parser.parse(["I moved to Leeds"])[0].text == "I moved to Leeds."
