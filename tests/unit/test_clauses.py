"""A learned statement must be a clause, a subject and a finite verb (extraction/clauses.py), and the
speaker's verbs agree with their name (extraction/english.py). Every sentence here was written for
this test; each rule has refused and kept cases."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.clauses import as_clause, not_a_clause
from agentx_memory.extraction.english import third_person
from agentx_memory.extraction.verbs import conjugate
from tests.extraction_cases import statements


@pytest.mark.parametrize(
    ("verb", "present"),
    [
        # -eed is a present unless the verb ends in -ee: "agreed" is "agree" + d.
        ("need", "needs"),
        ("feed", "feeds"),
        ("succeed", "succeeds"),
        ("proceed", "proceeds"),
        ("exceed", "exceeds"),
        ("bleed", "bleeds"),
        ("speed", "speeds"),
        ("agreed", "agreed"),
        ("freed", "freed"),
        ("guaranteed", "guaranteed"),
        # -ed after a stem with no vowel is a base form; a regular past keeps its form.
        ("shred", "shreds"),
        ("embed", "embeds"),
        ("painted", "painted"),
        ("used", "used"),
        # -ing after a stem with no vowel is a base form.
        ("sing", "sings"),
        ("bring", "brings"),
        ("string", "strings"),
        ("going", "going"),
        ("lying", "lying"),
        # Irregular pasts by their endings or by the list.
        ("sought", "sought"),
        ("caught", "caught"),
        ("swept", "swept"),
        ("accept", "accepts"),
        ("sat", "sat"),
        ("meant", "meant"),
        # -o after a vowel takes -s; after a consonant, -es.
        ("tattoo", "tattoos"),
        ("radio", "radios"),
        ("echo", "echoes"),
        # Words after a subject that are no verb.
        ("and", "and"),
        ("ought", "ought"),
    ],
)
def test_conjugate(verb: str, present: str) -> None:
    assert conjugate(verb) == present


@pytest.mark.parametrize(
    ("said", "learned"),
    [
        ("I need a quiet room to write", "Dana needs a quiet room to write"),
        ("I sing in a gospel choir", "Dana sings in a gospel choir"),
        ("I now live near the lake", "Dana now lives near the lake"),
        ("I once worked on a trawler", "Dana once worked on a trawler"),
        ("I first met Ravi at a chess club", "Dana first met Ravi at a chess club"),
        ("I too enjoy long walks", "Dana too enjoys long walks"),
        ("I and my cousin built a raft", "Dana and Dana's cousin built a raft"),
        ("I gotta renew my passport", "Dana has got to renew Dana's passport"),
        ("I been saving for a van", "Dana has been saving for a van"),
        ("we'll keep the allotment", "Dana and others will keep the allotment"),
        ("I need some time to myself", "Dana needs some time alone"),
        # A verb coordinated with the speaker's agrees too.
        ("I work nights and teach a pottery class", "Dana works nights and teaches a pottery class"),
        ("I lost my lease and now need a new flat", "Dana lost Dana's lease and now needs a new flat"),
        ("I really don't eat the crusts", "Dana really does not eat the crusts"),
        # Near misses: these were right before and stay so.
        ("I agreed to coach the team", "Dana agreed to coach the team"),
        ("I talk to myself when I cook", "Dana talks to themself when Dana cooks"),
        ("I really love my dog", "Dana really loves Dana's dog"),
        ("I bought eggs and some flour", "Dana bought eggs and some flour"),
        ("I love folk and swing a lot", "Dana loves folk and swing a lot"),
        ("Tom and I paint and sell the prints", "Dana and Tom paint and sell the prints"),
        ("we hike and take the dog", "Dana and others hike and take the dog"),
        # After an infinitive or a modal, the verb after "and" is not the speaker's.
        ("I'm ready to move out and rent a flat", "Dana is ready to move out and rent a flat"),
        ("I want to get fit and run the Leeds 10k", "Dana wants to get fit and run the Leeds 10k"),
        ("I can knit and sew a hem", "Dana can knit and sew a hem"),
        ("I moved to Lisbon and love the light", "Dana moved to Lisbon and loves the light"),
    ],
)
def test_third_person_verbs_agree(said: str, learned: str) -> None:
    assert third_person(said, "Dana") == learned


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # No finite verb: a noun phrase, even with a verb inside it ("to relax", "that …").
        ("Comfort food for Dana and a way to unwind.", "Comfort food is a way for Dana to unwind."),
        ("A sign that Dana is on the right track.", "Dana is on the right track with the thesis."),
        ("The advice Dana got from a nurse.", "The advice Dana got from a nurse was to rest."),
        ("Dana's cousins in Porto.", "Dana's cousins live in Porto."),
        # A subordinate clause alone has no main clause.
        ("Since Dana was nine.", "Since Dana was nine, Dana has played the oboe."),
        ("When Dana was living in Quebec.", "Dana was living in Quebec when the storm hit."),
        ("Where Dana and others swim on Sundays.", "Dana and others swim in the quarry on Sundays."),
        # A preposition is no subordinator: "after the exams" opens no clause.
        ("Until Dana finished the course.", "After the exams Dana wants a long break."),
        ("Before Dana moved to Leeds.", "After finishing the course Dana got a job offer."),
        # "that" after "and" is a pronoun subject, not a subordinator.
        ("A hint that Dana was right.", "Dana's dog recovered and that was a relief."),
        # "to" before an auxiliary is a stranded preposition: "the play Dana wrote for was staged".
        ("The play that Dana wrote music for.", "The play that Dana wrote music for was staged in May."),
    ],
)
def test_a_statement_needs_a_finite_verb(refused: str, kept: str) -> None:
    assert not_a_clause(refused, "Dana") == "no verb"
    assert not_a_clause(kept, "Dana") is None


@pytest.mark.parametrize(
    ("refused", "kept"),
    [
        # A piece that opens on its verb: whose the verb is, is not said.
        ("Even knitted a scarf to remind Dana of home.", "Dana even knitted a scarf for the winter."),
        ("Won't let the rain stop Dana.", "Dana won't let the rain stop the match."),
        ("Also painted the fence for Dana's neighbour.", "Dana also painted the fence last June."),
        ("Just been reading about tides so Dana can sail.", "Dana has just been reading about tides."),
        # A capital before a verb is a subject; a gerund or an adjective opens a subject phrase.
        ("Excited to show Dana the new garden.", "Jared moved to Leeds with Dana."),
        ("Loves to bake for Dana's friends.", "Married life suits Dana well."),
        # A later verb with a subject of its own makes the first word part of a subject phrase; a
        # relative clause's verb and a coordinated one's do not.
        (
            "Just skated with the old friend Dana met in Oslo and had a great time.",
            "Painted pottery is fun and keeps Dana calm.",
        ),
        ("Sailed to the island Dana loves and camped there.", "Went to the park and Mo met Dana there."),
        ("Repainted the fence Dana and Mo built.", "Baked bread for the friend Dana met and Mo loved it."),
    ],
)
def test_a_statement_needs_a_subject(refused: str, kept: str) -> None:
    assert not_a_clause(refused, "Dana") == "no subject"
    assert not_a_clause(kept, "Dana") is None


@pytest.mark.parametrize(
    "kept",
    [
        # Verbs told by their form: -s after a noun or a gerund, a base form after a plural subject.
        "Cooking relaxes Dana after a long day.",
        "Dana's sister lives in Oslo with her husband.",
        "Dana and others love hiking in the Alps.",
        "Dana's kids adore the sea.",
        "Dana's garden's been flooded twice this year.",
        "Sometimes Dana swims before work.",
        "Dana put a lot of work into the garden.",
        "Dana needs a new laptop for work.",
        "The photo Dana took is on the fridge.",
        "Patience and humour keep Dana sane.",
        "Family is what matters most to Dana.",
        "Italy is high on Dana's list of places to visit.",
        "This week (week of 13 May 2024)'s been hectic for Dana.",
    ],
)
def test_clauses_with_their_verb_are_kept(kept: str) -> None:
    assert not_a_clause(kept, "Dana") is None


@pytest.mark.parametrize(
    ("said", "learned"),
    [
        # A conjunction left at the start is dropped, and the statement opens with a capital.
        ("so Dana is proud of the new shed.", "Dana is proud of the new shed."),
        ("but Dana and others will keep the bakery open.", "Dana and others will keep the bakery open."),
        ("and the card Dana is making is nearly done.", "The card Dana is making is nearly done."),
        ("cycling is a big part of Dana's week.", "Cycling is a big part of Dana's week."),
        ("Dana volunteers at the food bank.", "Dana volunteers at the food bank."),
    ],
)
def test_an_opening_conjunction_is_dropped(said: str, learned: str) -> None:
    assert as_clause(said, "Dana") == learned


def test_turns_learn_clauses_only() -> None:
    # A noun phrase, and a subject dropped after "also": neither is learned (both were).
    assert statements("Comfort food, my way to unwind after work.") == []
    assert statements("Also knitted a scarf to remind me of my gran.") == []
    # The same facts said as clauses are.
    assert statements("Comfort food is my way to unwind after work.") == [
        "Comfort food is Dana's way to unwind after work."
    ]
    assert statements("I also knitted a scarf to remind me of my gran.") == [
        "Dana also knitted a scarf to remind Dana of Dana's gran."
    ]
    # A dropped subject before a verb of doing is the speaker's, as "went" and "moved" were.
    assert statements("Lost my job at the bakery last week.") == [
        "Dana lost Dana's job at the bakery last week (week of 6 May 2024)."
    ]
    assert statements("Been saving for a camper van all year.") == [
        "Dana has been saving for a camper van all year."
    ]
    # "Now" before the speaker is dropped, and the fact stays.
    assert statements("Now I have a bike for the commute to work.") == [
        "Dana has a bike for the commute to work."
    ]
    # "we'll" is "Dana and others will", not "Dana and others'll"; "need" agrees.
    assert statements("I'm proud of my garden and we'll keep it small.") == [
        "Dana is proud of Dana's garden and Dana and others will keep it small."
    ]
    assert statements("I need a quiet corner to read in the evenings.") == [
        "Dana needs a quiet corner to read in the evenings."
    ]


def test_a_subject_dropped_before_a_relative_clause_is_not_the_relative_clauses() -> None:
    # "I" is the subject of "met", not of "skated": whose skating it was is not said.
    assert statements("Just skated with that old friend I met in Oslo and had a great time.") == []
    assert statements("Sailed to the island I love and camped on the beach.") == []


def test_an_unspaced_dash_ends_a_clause() -> None:
    # The clause after the dash is another one ("they" points at nothing, so it goes).
    assert statements("I want to be brave for my kids- they keep me going every day.") == [
        "Dana wants to be brave for Dana's kids."
    ]
    assert statements("I love long walks by the canal-- they clear my head.") == [
        "Dana loves long walks by the canal."
    ]
    assert statements("I finished the mural on Sunday—it made my street so much brighter.") == [
        "Dana finished the mural on Sunday (12 May 2024)."
    ]
    # A hyphen inside a word and an unspaced en dash (a range) are no boundary.
    assert statements("I run a well-known bakery in Leeds with my partner.") == [
        "Dana runs a well-known bakery in Leeds with Dana's partner."
    ]
    assert statements("I worked at the port 2019–2021 as a crane operator.") == [
        "Dana worked at the port 2019–2021 as a crane operator."
    ]


def test_a_noun_that_opens_the_statement_is_no_relative_clauses_antecedent() -> None:
    # "Weekends" is a time noun before the subject, not the head of a relative clause.
    assert statements("weekends I work as a ferry mechanic in Oban") == [
        "Weekends Dana works as a ferry mechanic in Oban."
    ]
