"""A learned statement must say something worth recalling weeks later (extraction/substance.py), and
the speaker's reflexives read as the speaker (extraction/english.py). Every sentence here was written
for this test; each rule has refused and kept cases."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.english import third_person
from agentx_memory.extraction.substance import adjectives_joined, cut_off, unworthy
from tests.extraction_cases import statements


def _refused_and_kept(refused: str, kept: str, reason: str) -> None:
    assert unworthy(refused, "Dana") == reason
    assert unworthy(kept, "Dana") is None


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # "off to" + a verb is leaving the chat now; "off to" + a place, or with a horizon, is a plan.
        ("Dana is off to go grab some groceries.", "Dana is off to Lisbon with Dana's cousins."),
        ("Dana is off to bed after a long shift.", "Dana is off to college in the autumn to study law."),
        (
            "Dana is off to walk the dog round the park.",
            "Dana is off to hike the Andes next month (June 2024).",
        ),
        # "off work" is a state with an end, not a departure.
        ("Dana is just off to make dinner for the family.", "Dana is off work until Monday."),
        # "about to" leave is the next minutes; "about to" start a job is news.
        ("Dana is about to head out for a run.", "Dana is about to start a new job at the library."),
        ("Dana is heading out with the neighbours' kids.", "Dana is heading the new design team at work."),
        ("Dana is going to go take a nap now.", "Dana is going to Spain next month (June 2024)."),
        ("Dana is going to grab a coffee in a bit.", "Dana is going to start a pottery class next month."),
    ],
)
def test_a_plan_of_the_moment_is_no_memory(refused: str, kept: str) -> None:
    _refused_and_kept(refused, kept, "plan of the moment")


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # Nothing but light verbs and words that name no thing.
        ("Dana has had a lot of things going on lately.", "Dana has had a lot of back pain lately."),
        ("Dana is up for the challenge.", "Dana is up for a promotion at the clinic."),
        ("A lot's been going on in Dana's life.", "A lot has changed in Dana's life."),
        ("Dana and others have been through so much.", "Dana and others have been through two floods."),
        ("Dana is so ready for everything that is coming.", "Dana is so ready for the marathon in June."),
        # A number is something said: an age is a fact.
        ("Dana has been going through stuff.", "Dana is 38."),
    ],
)
def test_a_vague_statement_is_no_memory(refused: str, kept: str) -> None:
    _refused_and_kept(refused, kept, "vague")


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # A feeling and nothing it is about is true on the day only; a feeling about something is a fact.
        ("Dana is feeling hopeful and optimistic.", "Dana is hopeful about the new clinic."),
        ("Dana has been doing great lately.", "Dana has been doing great work at the clinic."),
        ("Dana is a mix of excited and kinda nervous.", "Dana is excited to start at the clinic in May."),
        (
            "Dana has been having some tough times lately.",
            "Dana has been having tough times with Dana's landlord.",
        ),
        ("Dana felt so proud and grateful.", "Dana is grateful for Dana's neighbours."),
        ("Dana has been feeling a bit stressed out.", "Dana is stressed about the exam."),
        ("Dana is doing OK.", "Dana is doing OK at Spanish now."),
    ],
)
def test_a_passing_mood_is_no_memory(refused: str, kept: str) -> None:
    _refused_and_kept(refused, kept, "a passing mood")


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # A statement opening on "Now" or "Then" is a moment of the story, with no subject of its own.
        ("Now the real work begins for Dana.", "Dana now works at the harbour office."),
        ("Then the rain started on Dana's way home.", "Dana then moved to Cork for the job."),
        ("Now the hard part starts for Dana.", "Now Dana has an allotment by the river."),
    ],
)
def test_a_statement_opening_on_the_moment_has_no_subject(refused: str, kept: str) -> None:
    _refused_and_kept(refused, kept, "no subject")


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # An article and adjectives with no noun, or a final article or conjunction: cut mid-phrase.
        ("Dana and others can build a strong.", "Dana and others can build a strong team."),
        ("Dana bought a big old.", "Dana bought a big old barn."),
        ("Dana wants a really peaceful.", "Dana wants a really peaceful garden."),
        ("Dana grows tomatoes and.", "Dana grows tomatoes and beans."),
        ("Dana planted the.", "Dana planted the roses."),
        # A noun that ends like an adjective, or a final preposition, is a complete phrase.
        ("Dana has met every.", "Dana has met a detective."),
        ("Dana is proud of the.", "Dana has a lot to be proud of."),
        # "a natural", "a regular": a noun after an article; "strong" after a verb is a predicate.
        ("Dana loves a good.", "Dana is a natural."),
        ("Dana made such.", "Dana has grown strong."),
        # "the" + an adjective is a noun phrase ("the best", "the elderly"); "a little" is an adverb.
        ("Dana joined a welcoming.", "Dana wants the best for the twins."),
        ("Dana found an amazing.", "Dana volunteers with the elderly."),
        ("Dana painted their beautiful.", "Dana rested a little."),
    ],
)
def test_a_clause_cut_mid_noun_phrase_is_refused(refused: str, kept: str) -> None:
    assert cut_off(refused.rstrip("."))
    _refused_and_kept(refused, kept, "cut off")


def test_a_comma_between_two_adjectives_is_not_a_clause_boundary() -> None:
    assert adjectives_joined("we can build a strong, lasting friendship") == (
        "we can build a strong lasting friendship"
    )
    assert adjectives_joined("I bought a big, old, red barn") == "I bought a big old red barn"
    # A comma after a noun, or before a capital, stays.
    assert adjectives_joined("I met a carpenter, and he fixed the door") == (
        "I met a carpenter, and he fixed the door"
    )
    assert adjectives_joined("I love the new, Tomas") == "I love the new, Tomas"
    # A comma after a conjunction is an aside's, not an adjective's.
    assert (
        adjectives_joined("I got a bike and, as I said, a helmet") == "I got a bike and, as I said, a helmet"
    )
    assert statements("By sharing our recipes, we can build a strong, lasting friendship.") == [
        "Dana and others can build a strong lasting friendship."
    ]


@pytest.mark.parametrize(
    ("said", "learned"),
    [
        # The junk goes and the near miss stays, through the whole extractor.
        ("Well, I'm off to go grab some groceries. I'm off to Lisbon with my cousins.", [
            "Dana is off to Lisbon with Dana's cousins."
        ]),
        ("I'm up for the challenge, honestly! I'm up for a promotion at the clinic.", [
            "Dana is up for a promotion at the clinic."
        ]),
        ("Now the real fun begins for me and my team.", []),
        # A leading "now" before the speaker is a lead word: the clause is the speaker's, and typed.
        ("Now I live in Galway with my partner.", ["Dana lives in Galway with Dana's partner."]),
    ],
)  # fmt: skip
def test_the_extractor_keeps_the_fact_and_drops_the_moment(said: str, learned: list[str]) -> None:
    assert statements(said) == learned


@pytest.mark.parametrize(
    ("said", "learned"),
    [
        # A true reflexive, bound by the speaker in its clause, is "themself": the name there reads as
        # someone else of that name, and "herself"/"himself" needs a gender nobody told us.
        ("I taught myself to knit", "Dana taught themself to knit"),
        ("I'm so proud of myself for finishing", "Dana is so proud of themself for finishing"),
        ("The choir has helped me to believe in myself", "The choir has helped Dana to believe in themself"),
        ("My goal is to look after myself better", "Dana's goal is to look after themself better"),
        # "by myself" is "alone"; an emphatic one adds nothing and goes.
        ("I went hiking by myself in the Alps", "Dana went hiking alone in the Alps"),
        ("I built the garden shed myself", "Dana built the garden shed"),
        ("I painted it myself", "Dana painted it"),
        ("I decorated this tree myself", "Dana decorated this tree"),
        # An object after a noun phrase and a verb is still an object.
        ("I want an escape to be myself", "Dana wants an escape to be themself"),
        ("I follow my dreams and express myself", "Dana follows Dana's dreams and express themself"),
        ("I myself have never liked the cold", "Dana has never liked the cold"),
        # … and after a preposition.
        ("I put a lot of myself into the garden", "Dana put a lot of themself into the garden"),
        # "myself" that only stands for "me" has nothing to bind it: the name, as "me" is.
        ("Mo and myself rebuilt the old pier", "Mo and Dana rebuilt the old pier"),
        ("Myself and Mo rebuilt the old pier", "Dana and Mo rebuilt the old pier"),
        ("The workshop suits people like myself", "The workshop suits people like Dana"),
        ("I bought tickets for my aunt and myself", "Dana bought tickets for Dana's aunt and Dana"),
        # "ourselves" goes with "we": the subject is "Dana and others".
        ("We treated ourselves to a fancy dinner", "Dana and others treated themselves to a fancy dinner"),
    ],
)
def test_a_reflexive_is_the_speaker(said: str, learned: str) -> None:
    assert third_person(said, "Dana") == learned


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # The pro-form "one" stands for a noun said before; with none before it, it names nothing.
        ("Dana has been one since Dana left the navy.", "Dana has been a nurse since Dana left the navy."),
        ("Dana has wanted a bigger one for years.", "Dana sold Dana's van and has wanted a bigger one."),
        ("Dana finally got one for the allotment.", "Dana finally got a shed for the allotment."),
        ("Dana adopted one in March.", "Dana has two cats and wants one more."),
        # "one" that is no pro-form: a partitive, a numeral before its noun, "no one", a person singled out.
        ("Dana bought a really nice red one.", "Dana is one of the best bakers in Leeds."),
        ("Dana has had one lately.", "Dana was the only one at the meeting who spoke up."),
        # "other" before a noun that names no thing: other than something said before.
        ("Dana keeps some other stuff from Dana's gran.", "Dana met other parents at the school gate."),
        ("Dana found other ones at the market.", "Dana sells clay, glaze and other stuff at the market."),
        ("Dana has other things with sentimental value.", "Dana and Mo have known each other since school."),
    ],
)  # fmt: skip
def test_a_word_standing_for_a_noun_said_before_is_no_memory(refused: str, kept: str) -> None:
    _refused_and_kept(refused, kept, "stands for nothing")


def test_the_extractor_drops_what_stands_for_nothing() -> None:
    assert statements("I've been one since I left the navy, honestly.") == []
    assert statements("I have got some other stuff from my grandma in the attic.") == []
    # Kept where what it stands for is in the statement.
    assert statements("I lost my phone at the gym so I bought a new one.") == [
        "Dana lost Dana's phone at the gym so Dana bought a new one."
    ]


@pytest.mark.parametrize(
    ("refused", "kept", "reason"),
    [
        # "we" rallying each other on is no fact of theirs; what they did or do is
        (
            "Dana and others can make a difference for their veterans.",
            "Dana and others raised £400 for the veterans' charity.",
            "a rallying cry",
        ),
        ("Dana and others need folks in the community.", "Dana and others need a new boiler.", None),
        ("Dana and others can make a real difference.", "Dana and others can build a strong team.", None),
        (
            "Dana and others are really making progress towards making a positive impact.",
            "Dana and others are making a quilt for the fundraiser.",
            "a rallying cry",
        ),
        (
            "It's so rewarding to know Dana is making a difference.",
            "It's Dana's job to know the fire exits.",
            "a feeling of the moment",
        ),
    ],
)
def test_a_rallying_cry_or_a_feeling_of_the_moment_is_no_memory(
    refused: str, kept: str, reason: str | None
) -> None:
    assert unworthy(refused, "Dana") == (reason or "a rallying cry")
    assert unworthy(kept, "Dana") is None
