"""What a learned statement says something about must stand on its own too (extraction/objects.py),
and "Let's …" proposals are no facts. Every sentence here was written for this test; each rule has
refused and kept cases."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.objects import dangling_object, indefinite_phrases
from tests.extraction_cases import statements


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # An object "it" or "them" needs an antecedent in the statement.
        ("Dana is really proud of it.", "Dana bought a second-hand kayak and loves it."),
        ("Dana painted it after the storm.", "Dana baked sourdough bread and shared it with the neighbours."),
        ("Dana is so lucky to have them.", "Dana's nephews visit often and Dana adores them."),
        ("Dana relies on them for advice.", "Dana met some retired engineers and asked them for advice."),
        # Unless the "it" is empty: a fixed expression, or extraposition with the real object after it.
        ("Dana wants to make it better.", "Dana made it to the final of the regional chess cup."),
        ("Dana took it to the repair shop.", "Dana hit it off with the new flatmate."),
        ("Dana finds it in the attic.", "Dana finds it hard to sleep before an exam."),
        ("Dana loves it so much.", "Dana loves it when the choir sings in harmony."),
        ("Dana wants to pass it on to her pupils.", "Dana considers it an honour to coach the team."),
        # A demonstrative pronoun as object always points outside.
        ("Dana has wanted this for years.", "Dana has wanted a sailing boat for years."),
        ("Dana did that every summer as a kid.", "Dana went camping every summer as a kid."),
        ("Dana collects things like those.", "Dana volunteers to help those who lost their homes."),
    ],
)
def test_a_pronoun_object_needs_an_antecedent(refused: str, kept: str) -> None:
    assert dangling_object(refused) is not None
    assert dangling_object(kept) is None


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # A demonstrative noun phrase is kept when the statement says which one.
        ("Dana keeps rereading that novel.", "Dana keeps rereading that novel about the lighthouse keeper."),
        ("Dana has trusted these neighbours for a decade.", "Dana trusts those neighbours who fed the cat."),
        ("Dana framed this photo in the hallway.", "Dana framed this photo of the harbour at dawn."),
        ("Dana will never forget that smell.", "Dana will never forget that trip to Norway."),
        ("Dana wore that dress to the wedding.", "Dana still has that scarf Grandma knitted."),
        ("Dana adores this series.", "Dana adores this Ibsen play."),
        # "that same …", "this other …" point back themselves, whatever follows.
        ("Dana wants that same energy in the new team.", "Dana wants the same energy in the new team."),
        # Time phrases are resolved against the turn's time: they point at nothing.
        ("Dana remembers that feeling.", "Dana trained hard this week."),
        ("Dana cherishes those memories.", "Dana cooks more these days."),
        ("Dana often thinks back to that moment.", "Dana realised at that moment that the bus had gone."),
        ("Dana sold these old maps.", "Dana moved to Leeds this past spring."),
        ("Dana sold that van.", "Dana has been married twelve years this june."),
    ],
)
def test_a_demonstrative_noun_phrase_must_say_which_one(refused: str, kept: str) -> None:
    assert dangling_object(refused) is not None
    assert dangling_object(kept) is None


@pytest.mark.parametrize(
    "kept",
    [
        # "that" as complementizer, relative pronoun and degree adverb is no demonstrative.
        "Dana learned that patience pays off in chess.",
        "Dana knows that the river floods every spring.",
        "Dana agrees that music and sport are good for children.",
        "Dana reads books that challenge her views.",
        "Dana met a carpenter that really knows old houses.",
        "Dana is so glad that the clinic reopened.",
        "Dana realised that it's important to rest before a race.",
        "It feels great knowing that people like Dana's bread.",
        "Dana's commute is not that long.",
        "Dana has never run that far before.",
    ],
)
def test_that_which_is_no_demonstrative_is_kept(kept: str) -> None:
    assert dangling_object(kept) is None


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # A pronoun opening a clause inside the statement: kept when a conjunction ties it to the
        # clause before, when a noun phrase before is its antecedent, or when the "it" is empty.
        ("Dana is sure it will pay off.", "Dana entered a pottery contest and it went really well."),
        ("Dana loves how it makes the house smell.", "Dana loves the garden and the calm it brings."),
        ("Dana thinks these are the best.", "Dana feels it's important to vote in every election."),
        ("Dana is sure it can be fixed.", "Dana knows how tiring it can be when the trains are late."),
    ],
)
def test_a_pronoun_opening_an_inner_clause(refused: str, kept: str) -> None:
    assert dangling_object(refused) is not None
    assert dangling_object(kept) is None


def test_the_first_word_is_the_subject_rules_business() -> None:
    # :func:`.standalone.dangling` judges the subject; an object rule must not refuse it twice over.
    assert dangling_object("It was a long week at the hospital.") is None
    assert dangling_object("This mug my sister painted reminds Dana of Porto.") is None


@pytest.mark.parametrize(
    "text",
    [
        "I'm really proud of it.",
        "I've known these neighbours for ten years.",
        "I painted it after my trip to the coast.",
        "I'm so lucky to have them.",
        "I finally tried it last weekend.",
    ],
)
def test_the_extractor_learns_no_statement_with_a_dangling_object(text: str) -> None:
    assert statements(text) == []


def test_the_extractor_keeps_objects_that_stand() -> None:
    assert statements("I made it to the final of the regional chess cup last week.") == [
        "Dana made it to the final of the regional chess cup last week (week of 6 May 2024)."
    ]
    assert statements("I loved that trip to Norway with my brother last summer.") == [
        "Dana loved that trip to Norway with Dana's brother last summer."
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Let's meet at the climbing gym on Friday.",
        "Let us go to the farmers market next Saturday.",
        "lets grab coffee tomorrow after my shift.",
        "Sounds fun, let's try the new ramen place on Sunday!",
    ],
)
def test_a_proposal_is_no_fact_or_event(text: str) -> None:
    assert statements(text) == []


def test_what_comes_before_a_proposal_is_still_read() -> None:
    assert statements("I got a new kayak last week, let's paddle together on Sunday!") == [
        "Dana got a new kayak last week (week of 6 May 2024)."
    ]


def test_a_sentence_opening_verb_loses_the_lines_capital() -> None:
    assert statements("Just got back from a week of hiking in the Dolomites.") == [
        "Dana just got back from a week of hiking in the Dolomites."
    ]
    assert statements("I Really enjoy baking sourdough bread on Sundays.") == [
        "Dana really enjoys baking sourdough bread on Sundays."
    ]


@pytest.mark.parametrize(
    ("said", "read"),
    [
        # The indefinite "this" of a story: a modifier and a noun say what the thing is.
        (
            "Dana met this brilliant violin teacher.",
            {"this brilliant violin teacher": "a brilliant violin teacher"},
        ),
        ("Dana baked this enormous lemon tart.", {"this enormous lemon tart": "an enormous lemon tart"}),
        (
            "Dana planted these tiny basil seedlings.",
            {"these tiny basil seedlings": "some tiny basil seedlings"},
        ),
        # After a verb of making or getting, a bare noun says what was made or got.
        ("Dana knitted this scarf for the winter.", {"this scarf": "a scarf"}),
        ("Dana bought that bike at a flea market.", {"that bike": "a bike"}),
        ("Dana's aunt gave Dana this brooch last spring.", {"this brooch": "a brooch"}),
    ],
)
def test_a_described_demonstrative_is_read_as_indefinite(said: str, read: dict[str, str]) -> None:
    assert dangling_object(said) == "demonstrative noun phrase"
    assert indefinite_phrases(said) == read


@pytest.mark.parametrize(
    "said",
    [
        "Dana met these neighbours.",  # a bare noun says nothing without its referent
        "Dana loves that first album.",  # singles one out
        "Dana still misses those little guys.",  # a vague head
        "Dana kept some of these old letters.",  # after a quantity
        "Dana baked this enormous lemon tart for them.",  # a pointer would remain
    ],
)
def test_no_indefinite_reading_where_it_would_not_stand(said: str) -> None:
    assert indefinite_phrases(said) is None


def test_the_extractor_learns_the_indefinite_reading() -> None:
    assert statements("I baked this enormous lemon tart for my neighbours yesterday.") == [
        "Dana baked an enormous lemon tart for Dana's neighbours yesterday (13 May 2024)."
    ]


def test_us_is_the_speaker_and_others_not_a_stray_them() -> None:
    assert statements("My parents visited us last week at the new flat.") == [
        "Dana's parents visited Dana and others last week (week of 6 May 2024) at the new flat."
    ]
