"""Readings of the tenth session on learning, each with its near misses: a job named by the job got ("my
first developer job"), an employer the small model took for a common noun ("an offer from Spotify"),
"only fish" as a diet, "Tom and I got engaged" however the parse hangs it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.extraction.clause_atoms import UNKNOWN_SPEAKER
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import TurnText, extract_turns
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
        ("Picked up knitting over the winter.", "hobby", "knitting"),
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


def _about(parser: NameRecognizer, text: str) -> set[tuple[str, str]]:
    turn = TurnText("t1", "user", text, datetime(2025, 9, 2, 9, tzinfo=UTC), "Kim")
    return {(fact.subject, fact.statement) for fact in extract_turns([turn], recognizer=parser).facts}


@pytest.mark.parametrize(
    ("text", "subject", "word"),
    [
        ("Raj has taken up cricket.", "Raj", "cricket"),  # "Raj" an adverb to the small model
        ("My husband Raj has taken up cricket again.", "Raj", "cricket"),
    ],
)
def test_a_named_persons_news_is_theirs(parser: NameRecognizer, text: str, subject: str, word: str) -> None:
    about = _about(parser, text)
    assert any(who == subject and word in said for who, said in about), about
    assert not any(who == "Kim" and word in said for who, said in about), about


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Our eldest, Chloe, starts at Oxford in October.", "Oxford"),
        ("Tomasz is moving to Leeds next year.", "Leeds"),
    ],
)
def test_someone_named_beside_or_before_is_not_the_user(parser: NameRecognizer, text: str, word: str) -> None:
    assert not any(who == "Kim" and word in said for who, said in _about(parser, text))


@pytest.mark.parametrize(
    "text", ["Just got a new car.", "Finally moved to Leeds!", "Still vegan after all these years."]
)
def test_a_dropped_i_after_an_adverb_is_still_the_user(parser: NameRecognizer, text: str) -> None:
    assert any(who == "Kim" for who, _ in _about(parser, text))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("My name is Kwame btw.", "Kwame"),
        ("Name's Siobhan, nice to meet you!", "Siobhan"),
        ("Everyone calls me Lucía.", "Lucía"),
        ("I go by Jo these days.", "Jo"),
    ],
)
def test_a_name_given_with_an_aside_or_an_accent(parser: NameRecognizer, text: str, name: str) -> None:
    said = read_facts(parser, text, speaker=UNKNOWN_SPEAKER)
    assert ("name", name) in {(key, value) for key, value, _ in said}


@pytest.mark.parametrize("text", ["Call me Monday, ok?", "Call me crazy, but I love pineapple pizza."])
def test_call_me_a_time_or_a_word_is_no_name(parser: NameRecognizer, text: str) -> None:
    assert "name" not in {key for key, _, _ in read_facts(parser, text, speaker=UNKNOWN_SPEAKER)}


@pytest.mark.parametrize(
    ("text", "ends"),
    [("We moved out of Leeds in the summer.", True), ("My sister moved out of Leeds.", False)],
)
def test_moving_out_of_a_town_ends_the_home_there(parser: NameRecognizer, text: str, ends: bool) -> None:
    turn = TurnText("t1", "user", text, datetime(2025, 9, 2, 9, tzinfo=UTC), "Kim")
    facts = extract_turns([turn], recognizer=parser).facts
    assert any("Leeds" in " ".join(fact.ends_words) for fact in facts) is ends


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("What should I order at a steakhouse now that I'm vegetarian?", "diet", "vegetarian"),
        ("Where can I charge my Tesla near Cardiff?", "drives", "Tesla"),
        (
            "Just registered to vote in Pittsburgh, do I need to cancel my Ohio registration?",
            "lives_in",
            "Pittsburgh",
        ),
        ("Found a great GP here in Leeds finally.", "lives_in", "Leeds"),
        (
            "I've been obsessed with Wet Leg lately, they're my new favourite band.",
            "favourite_band",
            "Wet Leg",
        ),
        ("I just finished Dune, it is my new favourite book.", "favourite_book", "Dune"),
        ("My manager at Arup wants me to present on Friday.", "works_at", "Arup"),  # the manager's wish
        ("Date night with Alex tonight, where should we eat?", "partner", "Alex"),
        ("Bean (our new puppy) chewed my shoes!", "dog", "Bean"),
        ("Loving the new flat in Cardiff, the bay is gorgeous.", "lives_in", "Cardiff"),  # Cardiff a LOC
        ("I am seeing someone called Priya now.", "partner", "Priya"),
        ("I am dating a guy named Ben.", "partner", "Ben"),
        ("Ife and I are officially a couple!", "partner", "Ife"),  # "Ife" a common noun to the model
        ("Got myself a Toyota Hilux, perfect for the farm roads.", "drives", "a Toyota Hilux"),
        ("I've been meat-free since New Year.", "diet", "vegetarian"),
        ("I'm a veggie these days.", "diet", "vegetarian"),
        ("Cut out gluten completely, feeling loads better.", "diet", "gluten-free"),
    ],
)
def test_told_in_passing_or_by_what_goes_with_it(
    parser: NameRecognizer, text: str, key: str, value: str
) -> None:
    assert (key, value) in {(k, v) for k, v, _ in read_facts(parser, text)}


@pytest.mark.parametrize(
    "text",
    [
        "Should I buy a Tesla?",
        "Was my old Tesla worth more?",
        "Could my sister's Tesla tow a caravan?",
        "I'm here in Paris for a conference this week.",
        "My sister voted in Leeds.",
        "We might move to Leeds, the GP situation is better there.",
        "My dad loves Dune, it is his favourite book.",
        "I saw Wet Leg live. Are they your favourite band?",
        "I might take the job at Aldi.",
        "Tom has a date night with Ana.",
        "Hoping for a date night with Alex someday.",
        "My sister is seeing someone called Priya.",
        "I was seeing someone called Priya last year.",
        "Mum and I are officially a couple of weeks into the diet.",
    ],
)
def test_a_wish_a_past_or_someone_elses_is_not(parser: NameRecognizer, text: str) -> None:
    said = {k for k, _, _ in read_facts(parser, text)}
    assert not said & {
        "drives",
        "lives_in",
        "favourite_book",
        "favourite_band",
        "works_at",
        "partner",
        "habit",
    }
