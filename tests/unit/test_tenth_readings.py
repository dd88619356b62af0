"""Readings of the tenth session on learning, each with its near misses: a job named by the job got ("my
first developer job"), an employer the small model took for a common noun ("an offer from Spotify"),
"only fish" as a diet, "Tom and I got engaged" however the parse hangs it."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.names import NameRecognizer
from tests.reading import read_facts, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Got my first developer job after the bootcamp.", "works_as", "developer"),
        ("I landed a nurse job at St Mary's!", "works_as", "nurse"),
        ("Started my new teacher job on Monday, exhausted.", "works_as", "teacher"),
        ("I accepted an offer from Spotify and started last week.", "works_at", "Spotify"),
        ("I only eat fish now, no other meat.", "diet", "pescatarian"),
        ("These days I only eat fish.", "diet", "pescatarian"),
        ("Tom and I got engaged last weekend!", "partner", "Tom"),
    ],
)
def test_the_speakers_slot_is_read(parser: NameRecognizer, text: str, key: str, value: str) -> None:
    assert (key, value) in {(k, v) for k, v, _ in read_facts(parser, text)}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("My sister got her first developer job.", "works_as"),
        ("I'd love a developer job someday.", "works_as"),
        ("I had a teacher job years ago.", "works_as"),
        ("Should I take the developer job?", "works_as"),
        ("My sister only eats fish.", "diet"),
        ("Tom and Ana got engaged last weekend!", "partner"),
        ("I ate fish and then some meat.", "diet"),
    ],
)
def test_someone_elses_or_a_wish_or_before_is_not(parser: NameRecognizer, text: str, key: str) -> None:
    said = {(k, v) for k, v, _ in read_facts(parser, text)}
    assert not [
        pair for pair in said if pair[0] == key and pair[1] in {"developer", "teacher", "pescatarian", "Tom"}
    ]
