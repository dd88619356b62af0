"""The fifteenth session's readings, each with its near misses: a couple counted by what the two
celebrate however the parse hangs the name, appointments moved in other words, a clause the parse hung
under a fronted phrase, a preference told as "now", a pet's new name by what it answers to, endings
told by a last day, a resignation, "not … any more" or a thing left for another, other people named
beside their relation, and dates of feasts that move."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.extraction.atoms import FactAtom
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import TurnText, extract_turns
from agentx_memory.retrieval.calendar_spans import easter_day, next_occurrence
from tests.reading import SAID_AT, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)

_JOB = ["works_as", "works_at"]


def _read(parser: NameRecognizer, text: str) -> list[FactAtom]:
    return extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts


def _slots(parser: NameRecognizer, text: str) -> set[tuple[str, str, str]]:
    return {(f.subject, f.key, f.value) for f in _read(parser, text) if not f.negated}


def _endings(parser: NameRecognizer, text: str) -> list[tuple[list[str], list[str]]]:
    return [(sorted(f.ends), f.ends_words) for f in _read(parser, text) if f.key == "ended"]


@pytest.mark.parametrize(
    ("text", "partner"),
    [
        ("Liv and I are celebrating eighteen months together this Friday, any gift ideas?", "Liv"),
        ("Liv and I are celebrating two years together on Friday.", "Liv"),
        ("Tomás and I are celebrating three years together.", "Tomás"),
        ("Me and Tomás are celebrating our anniversary next week.", "Tomás"),
    ],
)
def test_a_couple_counting_their_time_however_the_name_is_parsed(
    parser: NameRecognizer, text: str, partner: str
) -> None:
    assert ("Kim", "partner", partner) in _slots(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My sister and I are celebrating her birthday together.",
        "Tom and I are going to Rome together.",
        "My friend Sam and I are celebrating ten years of friendship together.",
        "Me and Jo are celebrating the team's anniversary next week.",
    ],
)
def test_no_partner_from_a_relation_a_trip_or_someone_elses_anniversary(
    parser: NameRecognizer, text: str
) -> None:
    assert not any(key == "partner" for _, key, _ in _slots(parser, text))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Dentist's receptionist rang — they've shunted it to the 22nd.", "appointment_dentist"),
        ("The clinic bumped my appointment to the 14th.", "appointment_"),
        ("They've slid my physio to next Tuesday.", "appointment_physio"),
        ("The garage nudged my MOT to the 19th.", "appointment_mot"),
    ],
)
def test_an_appointment_moved_in_other_words(parser: NameRecognizer, text: str, key: str) -> None:
    assert key in {f.key for f in _read(parser, text)}


@pytest.mark.parametrize(
    "text",
    [
        "I slid the box to the 3rd shelf.",
        "The dentist's receptionist is lovely.",
        "They pulled my tooth on the 14th.",
    ],
)
def test_no_appointment_from_a_kick_a_receptionist_or_a_pulled_tooth(
    parser: NameRecognizer, text: str
) -> None:
    assert not any(f.key.startswith("appointment_") for f in _read(parser, text))


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("After months of searching we've finally settled in Hoboken.", "lives_in", "Hoboken"),
        ("After two years of renting, we finally bought a place in Leeds.", "lives_in", "Leeds"),
        ("After all that back and forth I've joined Stripe.", "works_at", "Stripe"),
        ("After a decade of eating meat I went vegetarian last month.", "diet", "vegetarian"),
    ],
)
def test_a_clause_the_parse_hung_under_a_fronted_phrase_is_the_sentences_own(
    parser: NameRecognizer, text: str, key: str, value: str
) -> None:
    assert ("Kim", key, value) in _slots(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "After months of pretending I live in London, I admitted it.",
        "After much deliberation, maybe we will move to Leeds.",
        "Thinking of moving to Leeds next year.",
    ],
)
def test_no_value_from_a_pretence_a_maybe_or_a_thought(parser: NameRecognizer, text: str) -> None:
    assert not {key for _, key, _ in _slots(parser, text)} & {"lives_in", "works_at"}


@pytest.mark.parametrize(
    ("text", "value", "words"),
    [
        ("Honestly I prefer ramen now, sushi's been replaced.", "ramen", ["sushi"]),
        ("These days I prefer the Kindle, paper books are too heavy.", "the Kindle", ["books", "paper"]),
    ],
)
def test_a_preference_told_as_now_displaces_the_favourite_it_is_told_against(
    parser: NameRecognizer, text: str, value: str, words: list[str]
) -> None:
    facts = _read(parser, text)
    favourite = [f for f in facts if f.key == "favourite"]
    assert [(f.value, f.ends, f.ends_words) for f in favourite] == [(value, ["favourite_*"], words)]
    assert not any(f.key == "likes" and f.value == value for f in facts)  # said once, not twice


@pytest.mark.parametrize("text", ["I prefer tea now.", "Do I prefer ramen now?", "I prefer ramen to sushi."])
def test_no_favourite_displaced_when_nothing_is_told_against_or_it_is_asked(
    parser: NameRecognizer, text: str
) -> None:
    assert not any(f.key == "favourite" and f.ends for f in _read(parser, text))


@pytest.mark.parametrize(
    ("text", "name", "old"),
    [
        ("We started calling Max 'Captain' and it stuck, he only answers to Captain now.", "Captain", "Max"),
        ("We've been calling Biscuit 'Bean' for months, she only answers to Bean now.", "Bean", "Biscuit"),
    ],
)
def test_a_pet_answering_to_a_new_name_of_a_kind_not_said(
    parser: NameRecognizer, text: str, name: str, old: str
) -> None:
    pets = [f for f in _read(parser, text) if f.key == "pet"]
    assert [(f.value, f.ends_words) for f in pets] == [(name, [old])]


@pytest.mark.parametrize(
    ("text", "kind", "name"),
    [
        ("We brought home a little tabby last week, the kids named her Olive.", "cat", "Olive"),
        ("We got a kitten and the kids named her Olive.", "cat", "Olive"),
    ],
)
def test_a_pet_named_by_the_household(parser: NameRecognizer, text: str, kind: str, name: str) -> None:
    assert ("Kim", kind, name) in _slots(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My neighbour's kids got a puppy and named her Olive.",
        "My sister got a cat, the kids named her Olive.",
        "My nephew Tom answers to Tommy now.",
        "Max goes by Captain these days.",
    ],
)
def test_no_pet_from_another_household_a_nickname_or_a_person(parser: NameRecognizer, text: str) -> None:
    assert not any(f.key in {"pet", "cat", "dog"} for f in _read(parser, text))


@pytest.mark.parametrize(
    "text", ["We moved into our first place together.", "We just moved into our new place."]
)
def test_a_home_of_ours_is_no_town(parser: NameRecognizer, text: str) -> None:
    assert not any(f.key == "lives_in" for f in _read(parser, text))


def test_a_town_said_with_the_home_is_the_residence(parser: NameRecognizer) -> None:
    assert ("Kim", "lives_in", "Leeds") in _slots(parser, "We moved into our first house in Leeds.")


@pytest.mark.parametrize(
    ("text", "ends", "words"),
    [
        ("My last day at Tesco was Friday.", _JOB, ["Tesco"]),
        ("Today was my last day at Aldi.", _JOB, ["Aldi"]),
        ("I worked my last shift at Tesco on Friday.", _JOB, ["Tesco"]),
        ("I put in my resignation at Tesco today.", _JOB, ["Tesco"]),
        ("Turned in my resignation at Boots this morning.", _JOB, ["Boots"]),
        ("I've walked away from accountancy.", [], ["accountancy"]),
        ("I walked away from Deloitte last year.", [], ["Deloitte"]),
        ("These days I'm a nurse, not a barista any more.", [], ["barista"]),
        ("I don't do parkrun anymore.", [], ["parkrun"]),
        ("We don't go to Pilates anymore.", [], ["Pilates"]),
    ],
)
def test_an_ending_told_by_a_last_day_a_resignation_a_walk_away_or_no_more(
    parser: NameRecognizer, text: str, ends: list[str], words: list[str]
) -> None:
    assert (ends, words) in _endings(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My last day at Tesco is Friday.",
        "My last day at the beach was lovely.",
        "My sister's last day at Tesco was Friday.",
        "I walked away from the argument.",
        "I walked away from the table.",
        "She doesn't do yoga anymore.",
        "I don't do it anymore.",
    ],
)
def test_no_ending_from_a_last_day_to_come_a_holiday_someone_elses_or_a_walk(
    parser: NameRecognizer, text: str
) -> None:
    assert _endings(parser, text) == []


@pytest.mark.parametrize(
    ("text", "key", "value", "old"),
    [
        ("I left Amazon for Stripe.", "works_at", "Stripe", "Amazon"),
        ("I left Amazon for Stripe last spring.", "works_at", "Stripe", "Amazon"),
        ("We left London for Bristol in 2023.", "lives_in", "Bristol", "London"),
    ],
)
def test_a_value_left_for_another_of_its_kind(
    parser: NameRecognizer, text: str, key: str, value: str, old: str
) -> None:
    found = [(f.value, f.ends_words) for f in _read(parser, text) if f.key == key]
    assert (value, [old]) in found


@pytest.mark.parametrize(
    "text",
    [
        "I left the office for lunch.",
        "I left Amazon for a year to travel.",
        "I'll leave Amazon for Stripe next month.",
        "She left Amazon for Stripe.",
    ],
)
def test_nothing_left_for_lunch_a_while_a_plan_or_by_someone_else(parser: NameRecognizer, text: str) -> None:
    assert not any(s == "Kim" and k in {"works_at", "lives_in"} for s, k, _ in _slots(parser, text))


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My best mate Dan got a new job at Google.", ("Dan", "works_at", "Google")),
        ("My uncle Raj has moved back to Delhi.", ("Raj", "lives_in", "Delhi")),
    ],
)
def test_a_name_the_parse_hung_loosely_beside_its_relation_is_the_subject(
    parser: NameRecognizer, text: str, fact: tuple[str, str, str]
) -> None:
    slots = _slots(parser, text)
    assert fact in slots
    assert not any(subject == "Kim" and key == fact[1] for subject, key, _ in slots)


def test_easter_moves_with_the_year() -> None:
    assert [
        easter_day(2026, "easter"),
        easter_day(2026, "good friday"),
        easter_day(2025, "easter monday"),
    ] == [
        datetime(2026, 4, 5, tzinfo=UTC).date(),
        datetime(2026, 4, 3, tzinfo=UTC).date(),
        datetime(2025, 4, 21, tzinfo=UTC).date(),
    ]
    # a plan "over Easter" said in September is next year's Easter, not this year's moved a year on
    last = datetime(2025, 4, 20, tzinfo=UTC)
    start, _ = next_occurrence(last, datetime(2025, 4, 21, tzinfo=UTC), "over Easter", SAID_AT)
    assert start == datetime(2026, 4, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("Heading to Rome over Easter.", "5 April 2026"),
        ("I start my new job on Monday the 1st.", "1 December 2025"),
        ("Got tickets to see Coldplay on 6/14.", "14 June 2026"),
    ],
)
def test_a_plans_feast_weekday_and_day_or_ticketed_date_lies_ahead(
    parser: NameRecognizer, text: str, date: str
) -> None:
    assert any(f"({date})" in f.statement for f in _read(parser, text))


@pytest.mark.parametrize(
    ("text", "date"),
    [("I saw Coldplay on 6/14.", "14 June 2025"), ("We went to Rome over Easter.", "20 April 2025")],
)
def test_what_was_done_keeps_the_last_date(parser: NameRecognizer, text: str, date: str) -> None:
    assert any(f"({date})" in f.statement for f in _read(parser, text))


@pytest.mark.parametrize(
    ("text", "kind", "name"),
    [
        ("Official foster fail: the greyhound we were fostering, Arlo, is staying for good.", "dog", "Arlo"),
        ("The cat we adopted, Juniper, is settling in well.", "cat", "Juniper"),
    ],
)
def test_a_pet_the_household_took_in_named_beside_it(
    parser: NameRecognizer, text: str, kind: str, name: str
) -> None:
    assert ("Kim", kind, name) in _slots(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "The dog we were walking, Rex, belongs to our neighbour.",
        "The cat my sister adopted, Juniper, is lovely.",
        "The cat we didn't adopt, Juniper, found a home.",
    ],
)
def test_no_pet_walked_someone_elses_or_not_taken(parser: NameRecognizer, text: str) -> None:
    assert not any(f.key in {"cat", "dog", "pet"} and f.subject == "Kim" for f in _read(parser, text))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("I no longer do pottery, the studio closed down in July.", ["pottery"]),
        ("I no longer go to choir.", ["choir"]),
    ],
)
def test_no_longer_done_ends_what_names_it(parser: NameRecognizer, text: str, words: list[str]) -> None:
    assert ([], words) in _endings(parser, text)


def test_someone_elses_doing_no_longer_ends_nothing_of_the_speakers(parser: NameRecognizer) -> None:
    assert _endings(parser, "She no longer does pottery.") == []


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("my company, Salesforce, just announced another reorg. fun times", "Salesforce"),
        ("My employer, Unilever, is cutting jobs.", "Unilever"),
    ],
)
def test_the_employer_named_beside_my_company(parser: NameRecognizer, text: str, employer: str) -> None:
    assert ("Kim", "works_at", employer) in _slots(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My phone company, Vodafone, keeps overcharging me.",
        "My wife's company, Arup, is hiring.",
        "My old firm, KPMG, sent me a card.",
        "Could my company, Unilever, pay for it?",
    ],
)
def test_no_employer_from_a_supplier_someone_elses_a_former_or_a_question(
    parser: NameRecognizer, text: str
) -> None:
    assert not any(s == "Kim" and k == "works_at" for s, k, _ in _slots(parser, text))


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("Just qualified as a paramedic!", "paramedic"),
        ("I just qualified as a paramedic.", "paramedic"),
        ("Passed my bar exam, officially a solicitor now.", "solicitor"),
        ("The exam went well, finally a doctor.", "doctor"),
    ],
)
def test_a_past_tagged_an_adjective_or_a_job_said_after_a_comma(
    parser: NameRecognizer, text: str, job: str
) -> None:
    assert ("Kim", "works_as", job) in _slots(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm qualified as a paramedic?",
        "My sister just qualified as a paramedic.",
        "Big week, now a homeowner!",
    ],
)
def test_no_job_from_a_question_someone_elses_or_a_home(parser: NameRecognizer, text: str) -> None:
    assert not any(s == "Kim" and k == "works_as" for s, k, _ in _slots(parser, text))


@pytest.mark.parametrize(
    ("text", "diet"),
    [
        ("I've ditched dairy and eggs, so fully vegan now.", "vegan"),
        ("Started eating fish, so pescatarian now.", "pescatarian"),
        ("We've gone meat-free as a family.", "vegetarian"),
        ("We went vegan as a family last year.", "vegan"),
    ],
)
def test_a_diet_said_after_a_comma_or_as_a_family(parser: NameRecognizer, text: str, diet: str) -> None:
    assert ("Kim", "diet", diet) in _slots(parser, text)


@pytest.mark.parametrize(
    "text",
    ["The kids went vegan, not me.", "I love tofu, vegan food is great now.", "We went vegan for a week."],
)
def test_no_diet_from_the_others_food_praised_or_a_week(parser: NameRecognizer, text: str) -> None:
    assert not any(s == "Kim" and k == "diet" for s, k, _ in _slots(parser, text))


def _named(parser: NameRecognizer, text: str, speaker: str) -> list[str]:
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, speaker)], recognizer=parser).facts
    return [f.value for f in facts if f.key == "name"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I go by Maggie these days, so use that please.", "Maggie"),
        ("Actually call me Mags from now on.", "Mags"),
        ("I've changed my name to Maggie.", "Maggie"),
        ("Quick update: I go by Maggie now, please use that from here on.", "Maggie"),
    ],
)
def test_a_known_speaker_giving_a_new_name(parser: NameRecognizer, text: str, name: str) -> None:
    assert _named(parser, text, "Margaret") == [name]


@pytest.mark.parametrize(
    "text",
    [
        "Max, my grandson, is visiting now.",
        "Please call me Margaret, not Maggie.",
        "Should I go by Maggie these days?",
        "I'm Margaret.",
    ],
)
def test_no_new_name_from_a_grandson_the_old_name_refused_or_a_question(
    parser: NameRecognizer, text: str
) -> None:
    assert [n for n in _named(parser, text, "Margaret") if n != "Margaret"] == []


def test_a_job_denied_after_the_one_held_is_no_job(parser: NameRecognizer) -> None:
    jobs = {v for s, k, v in _slots(parser, "I'm a nurse now, not a barista anymore.") if k == "works_as"}
    assert jobs == {"nurse"}


def test_a_resignation_handed_in_on_a_day_ends_the_job(parser: NameRecognizer) -> None:
    assert (_JOB, ["Argos"]) in _endings(parser, "Submitted my resignation at Argos on Monday.")
    assert _endings(parser, "I put my notice in on the flat.") == []


def test_an_employer_the_recogniser_took_for_a_person(parser: NameRecognizer) -> None:
    text = "My employer, Deliveroo, just changed our shifts again."
    assert ("Kim", "works_at", "Deliveroo") in _slots(parser, text)


def test_a_town_called_home_is_no_new_name(parser: NameRecognizer) -> None:
    assert _named(parser, "I call Austin home these days.", "Margaret") == []


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        ("Can you update my email signature? Jo Bloggs, Product Lead, 0433 987 210.", "0433 987 210"),
        ("Please redo my business card. Mobile: 07700 900123.", "07700 900123"),
    ],
)
def test_a_line_of_the_card_said_after_it_is_the_speakers_number(
    parser: NameRecognizer, text: str, phone: str
) -> None:
    assert ("Kim", "phone", phone) in _slots(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "Update my business card please. Order 12345678 shipped.",
        "Fix my email signature. My sister's number is 07700 900999.",
    ],
)
def test_no_number_of_the_speakers_from_an_order_or_someone_elses_line(
    parser: NameRecognizer, text: str
) -> None:
    assert not any(s == "Kim" and k == "phone" for s, k, _ in _slots(parser, text))
