"""Dedup decisions that keep different facts apart: another day's outing, a different thing that
shares one name, a typed fact beside a statement. Sentences of our own; cosines as the local embedder
gives such pairs."""

from __future__ import annotations

from datetime import UTC, datetime

from agentx_memory.extraction.atoms import FactAtom
from agentx_memory.extraction.dedup import decide, value_tokens
from agentx_memory.extraction.rules import TurnText, extract_turns
from tests.extraction_cases import as_stored


def _said(text: str, on: datetime, speaker: str = "Dana") -> FactAtom:
    [fact] = extract_turns([TurnText("t-new", "user", text, on, speaker)]).facts
    return fact


def test_two_outings_on_different_days_stay_two_however_alike() -> None:
    museum = _said("Yesterday I took the kids to the museum.", datetime(2024, 7, 6, 12, tzinfo=UTC))
    park = _said("I took my kids to the park yesterday.", datetime(2024, 8, 28, 12, tzinfo=UTC))
    assert museum.event_time is not None
    assert park.event_time is not None
    assert decide(park, [as_stored(museum, 0.81)]).action == "add"
    # Said again about the same day, it is the same outing.
    again = _said(
        "Took the kids to the museum yesterday, they loved it.", datetime(2024, 7, 6, 18, tzinfo=UTC)
    )
    assert decide(again, [as_stored(museum, 0.86)]).action == "update"


def test_a_day_inside_the_month_said_before_may_be_the_same_outing() -> None:
    went = _said("I went to the jazz festival two days ago.", datetime(2024, 7, 14, 12, tzinfo=UTC))
    month = _said("I went to the jazz festival this month.", datetime(2024, 7, 28, 12, tzinfo=UTC))
    assert (went.fact_kind, month.fact_kind) == ("experience", "experience")
    assert decide(month, [as_stored(went, 0.88)]).action == "update"
    # The same words a year later are another festival.
    next_year = _said("I went to the jazz festival this month.", datetime(2025, 7, 28, 12, tzinfo=UTC))
    assert decide(next_year, [as_stored(went, 0.88)]).action == "add"


def test_one_shared_name_is_not_one_experience() -> None:
    group = _said(
        "I went to a Python user group yesterday and it was great.", datetime(2024, 5, 8, tzinfo=UTC)
    )
    workshop = _said(
        "I went to a Python packaging workshop, really useful.", datetime(2024, 6, 2, tzinfo=UTC)
    )
    assert (group.key, workshop.key) == ("did", "did")
    assert decide(workshop, [as_stored(group, 0.82)]).action == "add"
    # Sharing the topic as well as the name, it is the same one told again.
    told = _said("I went to that Python user group, it was great.", datetime(2024, 5, 9, tzinfo=UTC))
    assert decide(told, [as_stored(group, 0.86)]).action == "update"


def test_a_typed_fact_is_not_folded_into_a_statement() -> None:
    weekend = _said(
        "I had a quiet weekend after we went camping with my family.", datetime(2024, 7, 20, tzinfo=UTC)
    )
    assert weekend.fact_kind == "statement"
    likes = _said("I love camping trips with my family.", datetime(2024, 9, 1, tzinfo=UTC))
    assert likes.fact_kind == "preference"
    assert decide(likes, [as_stored(weekend, 0.71)]).action == "add"
    # The other way round, a statement that restates a typed fact is that fact said again.
    assert decide(weekend, [as_stored(likes, 0.71)]).action == "update"


def test_a_possessive_is_not_a_shared_word() -> None:
    assert value_tokens("Dana's family") == {"dana", "family"}
    assert value_tokens("it's Dana’s") == {"dana"}


DAY = datetime(2025, 3, 2, 10, tzinfo=UTC)


def _home(city: str) -> FactAtom:
    return FactAtom(
        fact_kind="identity", subject="Dana", statement=f"Dana lives in {city}.", key="lives_in", value=city
    )


def test_time_decides_two_values_of_one_slot() -> None:
    montreal, toronto = _home("Montreal"), _home("Toronto")
    later = DAY.replace(day=20)
    assert decide(toronto, [as_stored(montreal, 0.7, DAY)], later).action == "supersede"
    # Learned after the newer value, the older statement is history at once.
    assert decide(montreal, [as_stored(toronto, 0.7, later)], DAY).action == "past"
    # Said in one sitting, time cannot order them: review (or the correction cue) decides.
    assert decide(toronto, [as_stored(montreal, 0.7, DAY)], DAY.replace(minute=20)).action == "conflict"


def test_only_diets_that_exclude_each_other_replace_each_other() -> None:
    def diet(value: str) -> FactAtom:
        return FactAtom(
            fact_kind="constraint", subject="Dana", statement=f"Dana is {value}.", key="diet", value=value
        )

    later = DAY.replace(day=20)
    assert decide(diet("vegan"), [as_stored(diet("vegetarian"), 0.8, DAY)], later).action == "supersede"
    assert decide(diet("gluten-free"), [as_stored(diet("vegetarian"), 0.8, DAY)], later).action == "add"


def test_an_ending_ends_its_slots_or_what_it_names_and_nothing_said_after_it() -> None:
    job = FactAtom(
        fact_kind="identity",
        subject="Dana",
        statement="Dana works at Oracle.",
        key="works_at",
        value="Oracle",
    )
    title = job.model_copy(
        update={"statement": "Dana works as an engineer.", "key": "works_as", "value": "engineer"}
    )
    quit_job = FactAtom(
        fact_kind="statement",
        subject="Dana",
        statement="Dana quit Dana's job.",
        key="ended",
        value="quit my job",
        correction=True,
        ends=["works_at", "works_as"],
    )
    decision = decide(quit_job, [as_stored(job, 0.3, DAY), as_stored(title, 0.3, DAY)], DAY.replace(day=9))
    assert decision.action == "supersede"
    assert {decision.target.key if decision.target else None, *(s.key for s in decision.also)} == {
        "works_at",
        "works_as",
    }
    # A job taken after the ending was said is not ended by it.
    assert (
        decide(quit_job, [as_stored(job, 0.3, DAY.replace(day=20))], DAY.replace(day=9)).action != "supersede"
    )


def test_two_diets_that_hold_together_are_both_kept() -> None:
    def diet(value: str) -> FactAtom:
        return FactAtom(
            fact_kind="constraint", subject="Jo", statement=f"Jo is {value}.", key="diet", value=value
        )

    # close in meaning, and of one key, yet neither replaces nor restates the other
    assert decide(diet("dairy-free"), [as_stored(diet("lactose intolerant"), 0.9, DAY)], DAY).action == "add"


def test_a_favourite_said_without_its_kind_replaces_the_one_favourite() -> None:
    beer = _said("My favourite beer is Guinness.", datetime(2023, 10, 1, tzinfo=UTC))
    said_at = datetime(2024, 5, 18, tzinfo=UTC)
    film = _said("My favourite film is Heat.", datetime(2023, 10, 2, tzinfo=UTC))
    # as the parse reads "My favourite's Camden Hells now" (the rules alone read no kindless favourite)
    now = beer.model_copy(
        update={"key": "favourite", "value": "Camden Hells", "statement": "Dana's favourite is Camden Hells."}
    )
    assert (beer.key, film.key, now.key) == ("favourite_beer", "favourite_film", "favourite")
    earlier = datetime(2023, 10, 1, tzinfo=UTC)
    assert decide(now, [as_stored(beer, 0.7, earlier)], said_at).action == "supersede"
    # with two favourites of other kinds, which one it replaces is not said: both stay
    stored = [as_stored(beer, 0.7, earlier), as_stored(film, 0.6, earlier)]
    assert decide(now, stored, said_at).action == "add"
