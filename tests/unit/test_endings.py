"""Corrections read offline: a habit said to have ended ends the stored doing it names by its verb; a
correction that says what it replaces ("instead of X", an it-cleft's "not X") ends the fact naming X.
Sentences of our own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.extraction.atoms import FactAtom
from agentx_memory.extraction.corrections import as_rescheduled
from agentx_memory.extraction.dedup import StoredFact, decide
from agentx_memory.extraction.english import third_person, uncleft
from agentx_memory.extraction.rules import TurnText, extract_turns
from tests.extraction_cases import as_stored

SAID = datetime(2024, 5, 14, 10, tzinfo=UTC)


def _facts(text: str) -> list[FactAtom]:
    return extract_turns([TurnText("t-new", "user", text, SAID, "Dana")]).facts


def _stored(text: str) -> StoredFact:
    [fact] = extract_turns([TurnText("t-old", "user", text, SAID, "Dana")]).facts
    return as_stored(fact, 0.6)


def test_no_longer_is_an_adverb_before_the_verb() -> None:
    assert third_person("I no longer take the bus", "Dana") == "Dana no longer takes the bus"


@pytest.mark.parametrize(
    ("before", "after", "ends"),
    [
        ("I walk the dogs every single morning.", "I quit walking the dogs, my knee is bad.", True),
        ("I drink three espressos every day.", "I no longer drink espresso.", True),
        ("I bike to the office four days a week.", "I don't bike to the office anymore.", True),
        ("I cook dinner for my flatmates on Sundays.", "I stopped cooking dinner for my flatmates.", True),
        # The ending names another doing, or says more than the doing held.
        ("I walk the dogs every single morning.", "I quit smoking last year.", False),
        ("I drink three espressos every day.", "I no longer drink wine with dinner.", False),
        ("I cook dinner for my flatmates on Sundays.", "I don't bake anymore.", False),
    ],
)
def test_an_ended_habit_ends_the_doing_it_names_and_nothing_else(before: str, after: str, ends: bool) -> None:
    [ending] = _facts(after)
    assert ending.correction
    assert (decide(ending, [_stored(before)]).action == "supersede") is ends


def test_a_habit_ended_in_two_words_is_learned() -> None:
    assert [fact.statement for fact in _facts("I quit vaping!")] == ["Dana quit vaping."]
    assert [fact.statement for fact in _facts("I stopped drinking.")] == ["Dana stopped drinking."]


@pytest.mark.parametrize("text", ["I've moved to bass in the choir.", "I moved to nights at the hospital."])
def test_moving_to_a_bare_word_is_no_new_home(text: str) -> None:
    assert all(fact.key != "lives_in" for fact in _facts(text))
    assert [fact.key for fact in _facts("I moved to Porto in March.")] == ["lives_in"]


@pytest.mark.parametrize(
    ("said", "plainly"),
    [
        ("it's oat milk I drink, not soy", "I drink oat milk instead of soy"),
        ("It's the twins I worry about.", "I worry about the twins."),
        ("it was Ruth I met at the fair", "I met Ruth at the fair"),
        ("it's French I teach", "I teach French"),
        # evaluations and times are no clefts
        ("It's a shame I missed it.", "It's a shame I missed it."),
        ("It's been ages since I swam.", "It's been ages since I swam."),
        ("It's so good I went.", "It's so good I went."),
    ],
)
def test_an_it_cleft_is_said_plainly(said: str, plainly: str) -> None:
    assert uncleft(said) == plainly


@pytest.mark.parametrize(
    ("before", "after", "ends"),
    [
        ("I'm allergic to shellfish.", "Correction: it's crab I react to, not shellfish in general.", True),
        ("I want to study law in Leeds.", "Change of plans, I'm applying to Bristol instead of Leeds.", True),
        # Not said as a correction: a choice of the day, not a change.
        (
            "I want to study law in Leeds.",
            "I took the train to Bristol instead of Leeds for the open day.",
            False,
        ),
    ],
)
def test_a_correction_that_names_what_it_replaces_ends_it(before: str, after: str, ends: bool) -> None:
    [replacing] = [fact for fact in _facts(after) if "instead of" in fact.statement]
    assert (decide(replacing, [_stored(before)]).action == "supersede") is ends


@pytest.mark.parametrize(
    ("said", "plainly"),
    [
        ("rescheduled the dentist to June 3", "my dentist is on June 3"),
        ("we pushed our wedding to August 8th", "our wedding is on August 8th"),
        ("they moved my interview to next Tuesday", "my interview is next Tuesday"),
        ("I moved the vet appointment to Friday, the cat hates it", "my vet appointment is on Friday"),
        # not a date: a thing moved somewhere
        ("I moved my desk to the window", "I moved my desk to the window"),
    ],
)
def test_a_date_moved_is_said_as_the_new_date(said: str, plainly: str) -> None:
    assert as_rescheduled(said, SAID) == plainly


def test_a_rescheduled_event_supersedes_the_old_date_and_nothing_else() -> None:
    [moved] = _facts("Rescheduled the driving test to June 20, the examiner was ill.")
    assert (moved.fact_kind, moved.correction) == ("event", True)
    old = _stored("My driving test is on June 6.")
    assert decide(moved, [old]).action == "supersede"
    # Another event on another day is not moved by it.
    assert decide(moved, [_stored("My sister's wedding is on June 6.")]).action != "supersede"


@pytest.mark.parametrize(
    ("before", "after", "ends"),
    [
        ("I work at Costco on Sundays.", "I quit Costco, now I'm at a garden centre.", True),
        ("I'm an auditor at Deloitte.", "no longer at Deloitte, I went back to college.", True),
        ("My favourite band is Coldplay.", "honestly I'm over Coldplay now", True),
        ("I drive a Toyota Corolla.", "sold the Corolla, I've a bike now", True),
        ("I'm training for the Boston marathon in April.", "dropped out of Boston. my knee again", True),
        # It names nothing the stored fact names, or something besides.
        ("I work at Costco on Sundays.", "I quit that gym's newsletter, it was spam now", False),
        ("I work at Costco on Sundays.", "I quit Twitter, now I read more", False),
    ],
)
def test_an_ending_that_names_the_stored_fact_ends_it(before: str, after: str, ends: bool) -> None:
    endings = [fact for fact in _facts(after) if fact.correction]
    assert endings or not ends
    old = _stored(before)
    assert any(decide(ending, [old]).action == "supersede" for ending in endings) is ends


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I'm allergic to wasps.", "turns out I'm not allergic to wasps, it was a bee"),
        ("I don't drink alcohol.", "actually I do drink alcohol now, in moderation"),
        ("I'm a staff nurse at St Anne's.", "I'm head nurse now at St Anne's!"),
        ("I'm pescatarian.", "I'm vegan now rather than pescatarian"),
    ],
)
def test_a_state_said_anew_supersedes_the_old_one(before: str, after: str) -> None:
    old = _stored(before)
    assert any(decide(fact, [old]).action == "supersede" for fact in _facts(after))


def test_an_age_said_with_an_apostrophe_is_read() -> None:
    [age] = [fact for fact in _facts("Forgive me, Tomas's 8 now, not 7") if fact.key == "age"]
    assert (age.subject, age.value) == ("Tomas", "8")
    assert decide(age, [_stored("Tomas is 7.")]).action == "supersede"


def test_a_move_to_a_shop_is_no_new_home() -> None:
    assert all(fact.key != "lives_in" for fact in _facts("moved to a Lidl in Leeds, better pay"))


def test_an_ending_is_judged_as_any_fact_for_what_it_points_at() -> None:
    # Kept: "the Corolla" stands on its own. Not kept: "it" points at nothing in the memory. (A guard: an
    # ending needs no exception from the dangling-object rule, and must not be given one.)
    assert "Dana sold the Corolla." in [fact.statement for fact in _facts("sold the Corolla, I cycle now")]
    assert all("left it" not in fact.statement for fact in _facts("actually I left it at the gym now"))
