"""The thirteenth session's readings, each with its near misses: what goes with a partner or a pet who is
gone, and who a "she" or "he" is when a second person was named since."""

from __future__ import annotations

from typing import Any

import pytest

from agentx_memory.extraction.atoms import FactAtom
from agentx_memory.extraction.dependants import cascades, of_the_former
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import UNKNOWN_SPEAKER, TurnText, extract_turns
from agentx_memory.extraction.stored import StoredFact
from tests.reading import SAID_AT, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)


def _stored(fact_id: str, subject: str, key: str, value: str, **more: Any) -> StoredFact:
    fields: dict[str, Any] = {"temporal": "current", "stated_at": SAID_AT, **more}
    kind = fields.pop("kind", "preference")
    return StoredFact(
        fact_id, f"{subject} {key} {value}", subject, key, value, False, (), kind, 0.0, **fields
    )


def _atom(key: str, value: str, **more: Any) -> FactAtom:
    return FactAtom(fact_kind="relationship", subject="Kim", statement="-", key=key, value=value, **more)


def test_a_partner_who_is_gone_takes_what_was_learned_of_them() -> None:
    old = _stored("gf", "Kim", "girlfriend", "Haruka", kind="relationship")
    theirs = [
        _stored("hike", "Haruka", "likes", "hiking"),
        _stored("job", "Haruka", "works_as", "nurse", kind="identity"),
        _stored("trip", "Haruka", "did", "went to Kyoto", temporal="past"),  # it happened all the same
        _stored("since", "Haruka", "lives_in", "Osaka", stated_at=SAID_AT.replace(year=2026)),  # said later
        _stored("other", "Mina", "likes", "pottery"),
    ]
    assert of_the_former(old, theirs, SAID_AT.replace(month=10)) == ["hike", "job"]
    # a friend, a sister or a job takes no one with it
    assert of_the_former(_stored("sis", "Kim", "sister", "Haruka", kind="relationship"), theirs, None) == []
    assert of_the_former(_stored("car", "Kim", "drives", "Haruka"), theirs, None) == []
    assert of_the_former(_stored("cat", "Kim", "cat", "Haruka", kind="relationship"), theirs, SAID_AT) == [
        "hike",
        "job",
    ]


@pytest.mark.parametrize(
    ("new", "taken"),
    [
        (_atom("partner", "Mina"), True),  # someone new
        (_atom("ended", "Haruka", ends=[]), True),  # "Haruka is ancient history": an ending names its end
        (_atom("ended", "are done", ends=["partner"]), True),
        (_atom("fiancée", "Haruka"), False),  # the same one, engaged now
    ],
)
def test_a_relation_cascades_unless_the_same_one_is_named_anew(new: FactAtom, taken: bool) -> None:
    assert cascades(_stored("gf", "Kim", "girlfriend", "Haruka", kind="relationship"), new) is taken


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        (
            "So Orla and I are finished, and I'm seeing a girl called Saoirse now. She's into hiking.",
            ("Saoirse", "hiking"),
            ("Orla", "hiking"),
        ),
        ("I'm dating a woman called Ines. She teaches maths.", ("Ines", "maths teacher"), None),
        # a second name came between the last subject and the pronoun: not guessed
        ("Me and Lou broke up, I'm with Kat now and she is a vet.", None, ("Lou", "vet")),
        ("My new boyfriend Pete is a nurse and he works nights.", ("Pete", "nurse"), None),
        # no subject named before: the one person named ("Callum", whom the small model calls an ORG)
        ("Bumped into Callum, he lives in Leeds now.", ("Callum", "Leeds"), None),
        ("Had lunch at Dishoom with Priya and Tom, she lives in Leeds now.", None, ("Priya", "Leeds")),
    ],
)
def test_she_is_the_last_person_named_unless_another_came_since(
    parser: NameRecognizer, text: str, wanted: tuple[str, str] | None, unwanted: tuple[str, str] | None
) -> None:
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    facts = {(f.subject, f.value) for f in read}
    if wanted is not None:
        assert wanted in facts, facts
    if unwanted is not None:
        assert unwanted not in facts, facts


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        (
            "my tortoise Gerald is about forty, older than me. what should he eat in summer?",
            ("tortoise", "Gerald"),
        ),
        ("my labrador Biscuit is obsessed with tennis balls, is that bad for his teeth", ("dog", "Biscuit")),
        ("My old greyhound Bramble is fourteen and sleeps about 22 hours a day.", ("dog", "Bramble")),
        ("our rabbit Clover keeps escaping under the fence, help", ("rabbit", "Clover")),
        ("My dog Alfie and I walked to the pub.", ("dog", "Alfie")),
    ],
)
def test_a_pet_named_beside_its_kind_whatever_is_said_of_it(
    parser: NameRecognizer, text: str, pet: tuple[str, str]
) -> None:
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    assert ("Kim", *pet) in {(f.subject, f.key, f.value) for f in read}


@pytest.mark.parametrize(
    "text",
    [
        "my dog Rex was the best dog ever",
        "we had to put my cat Tiger down last week",
        "I miss my dog Rex so much.",
        "My late cat Tom loved this spot.",
        "my hamster Peanut died yesterday",
        "my sister's dog Rex bit me",
        "My childhood dog Rex was a collie.",
    ],
)
def test_a_pet_gone_or_someone_elses_is_no_pet_of_the_speakers(parser: NameRecognizer, text: str) -> None:
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    assert not [f for f in read if f.subject == "Kim" and f.fact_kind == "relationship"], read


def _typed(parser: NameRecognizer, text: str) -> set[tuple[str, str, str]]:
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    return {(f.subject, f.key, f.value) for f in read}


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("got my first paycheque as a paramedic today!!! two years of training", "paramedic"),
        ("I make my living as a carpenter these days - fitted kitchens mostly.", "carpenter"),
        ("my first shift as a staff nurse went fine", "staff nurse"),
        (
            "funny how life goes — I drive trams in Kraków now and honestly I'm way less stressed.",
            "tram driver",
        ),
        ("I clean offices these days, nights mostly.", "office cleaner"),
        ("I teach Grade 10 now.", "Grade 10 teacher"),
    ],
)
def test_a_job_told_by_the_pay_the_shift_or_the_work_done_now(
    parser: NameRecognizer, text: str, job: str
) -> None:
    assert ("Kim", "works_as", job) in _typed(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My last day as a teacher was emotional.",  # over
        "my first day as a dad was terrifying",  # no job
        "I drive a Tesla now.",  # a car
        "we teach kids to swim now",  # whom, not a trade
        "I walk dogs now, loving it.",  # a doer that is no occupation
        "I'd love to drive trams one day.",  # a wish
    ],
)
def test_no_job_from_a_post_ended_a_role_a_car_or_a_wish(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in _typed(parser, text) if fact[1] == "works_as"]


@pytest.mark.parametrize(
    ("text", "ended"),
    [
        ("Taking the Octavia up to Skye, the Defender's gone to a farmer in Perthshire.", "Defender"),
        ("finally gone electric and the Astra's gone to a dealer. silent mornings", "Astra"),
        ("The Fiesta's new owner messaged asking where the spare key is, ha.", "Fiesta"),
    ],
)
def test_a_vehicle_gone_to_someone_or_with_a_new_owner_is_ended(
    parser: NameRecognizer, text: str, ended: str
) -> None:
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    assert any(f.key == "ended" and ended in f.ends_words for f in read), read


@pytest.mark.parametrize(
    "text",
    [
        "The Defender's gone to the garage again, third time this year.",  # for a while
        "My neighbour's new owner of the flat is lovely.",  # no thing of the speaker's
    ],
)
def test_a_vehicle_at_the_garage_is_not_ended(parser: NameRecognizer, text: str) -> None:
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    assert not [f for f in read if f.key == "ended"], read


@pytest.mark.parametrize(
    ("text", "car"),
    [
        ("oh the Fiesta's long gone, it's a Mazda CX-5 these days.", "Mazda CX-5"),
        ("Anyway, where's best to charge my MG4 on the way down to Cornwall?", "MG4"),
    ],
)
def test_what_it_is_now_and_a_maker_with_its_number(parser: NameRecognizer, text: str, car: str) -> None:
    assert any(key == "drives" and car in value for _, key, value in _typed(parser, text))


@pytest.mark.parametrize(
    ("text", "diet"),
    [
        (
            "my girlfriend finally converted me, we're a vegan household now. what's a good tofu marinade?",
            "vegan",
        ),
        (
            "My kids talked me round, we're a vegetarian household now - eggs are back on the menu.",
            "vegetarian",
        ),
        (
            "confession: fell off the vegan wagon at christmas. eating fish again, so pescatarian I suppose.",
            "pescatarian",
        ),
        (
            "Find me a meal-prep plan that works with me being pescatarian now, fish and shrimp fine.",
            "pescatarian",
        ),
        ("It has to work for me being fully vegan as of the summer.", "vegan"),
        ("No meat at all anymore. Vegetarian, but still eating eggs and dairy.", "vegetarian"),
    ],
)
def test_a_diet_owned_to_as_a_household_a_hedge_a_label_or_me_being(
    parser: NameRecognizer, text: str, diet: str
) -> None:
    assert ("Kim", "diet", diet) in _typed(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My brother being vegan makes Christmas dinner hard.",
        "Vegan? Is that hard to keep up?",
        "Vegan options are great at that place.",
        "My sister's lot are a vegan household now.",
        "Tom is vegan, I suppose.",
    ],
)
def test_no_diet_of_the_speakers_from_someone_else_a_question_or_a_menu(
    parser: NameRecognizer, text: str
) -> None:
    assert not [fact for fact in _typed(parser, text) if fact[0] == "Kim" and fact[1] == "diet"]


def test_an_ending_never_ends_what_its_own_turn_told() -> None:
    """ "My diet's pescatarian now — I added fish back in": the ending is of the diet before."""
    from dataclasses import replace
    from datetime import timedelta

    from agentx_memory.extraction.dedup import decide
    from tests.extraction_cases import as_stored

    def diet(value: str) -> FactAtom:
        return FactAtom(
            fact_kind="constraint", subject="Amara", statement=f"Amara is {value}.", key="diet", value=value
        )

    fish_back = FactAtom(
        fact_kind="statement",
        subject="Amara",
        statement="Amara added fish back in.",
        key="ended",
        value="added fish back in",
        ends=["diet"],
        source_turn_ids=["t2"],
    )
    later = SAID_AT + timedelta(days=30)
    vegan = as_stored(diet("vegan"), 0.5, SAID_AT)
    told_with_it = replace(as_stored(diet("pescatarian"), 0.5, later), id="f2", source_turn_ids=("t2",))
    decision = decide(fish_back, [told_with_it, vegan], later)
    assert decision.action == "supersede"
    assert decision.target is not None
    assert decision.target.value == "vegan"
    assert [stored.value for stored in decision.also] == []


@pytest.mark.parametrize(
    ("text", "fact", "not_the_speakers"),
    [
        # a possessed noun with a name after it: the clause is the name's (it had been the speaker's)
        (
            "our eldest, Ilyas, turns 9 next week and is obsessed with dinosaurs",
            ("Ilyas", "dinosaurs"),
            "dinosaurs",
        ),
        (
            "our youngest Freya turns 4 on Saturday and is obsessed with trains.",
            ("Freya", "trains"),
            "trains",
        ),
        ("my nan Edith has taken up aqua aerobics at 82!!", ("Edith", "aqua aerobics"), "aqua aerobics"),
        # a value ends where a clause of its own begins
        (
            "my grandad Stan is obsessed with his allotment and he's diabetic.",
            ("Stan", "his allotment"),
            None,
        ),
        # only the comma after the name goes: "… a med student, she never cleans" keeps its own end
        ("my roommate Léa is a med student, she never cleans the kitchen lol", ("Léa", "med student"), None),
        # … but an "and I" clause goes on telling the speaker's news
        ("I left Tesco in March and I'm at Aldi now, much better hours.", ("Kim", "Aldi"), None),
    ],
)
def test_what_is_said_of_someone_named_after_what_they_are_is_theirs(
    parser: NameRecognizer, text: str, fact: tuple[str, str], not_the_speakers: str | None
) -> None:
    typed = _typed(parser, text)
    assert fact in {(subject, value) for subject, _, value in typed}, typed
    assert not [f for f in typed if f[0] == "Kim" and f[2] == not_the_speakers]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("my new Honda is great", ("Kim", "drives", "Honda")),  # a car, no one's name
        ("Mum's taken up pottery, she loves it.", ("Mum", "hobby", "pottery")),  # hers, not the speaker's
    ],
)
def test_a_thing_after_my_is_no_person_and_mum_is_her_own_subject(
    parser: NameRecognizer, text: str, fact: tuple[str, str, str]
) -> None:
    assert fact in _typed(parser, text)


@pytest.mark.parametrize(
    ("text", "key", "day"),
    [
        # the time phrase begins before the word the parse hangs on the copula
        ("my driving test is a fortnight today and I'm bricking it.", "appointment_driving_test", 16),
        # a copula's whole value a time makes its subject an occasion, whatever it is called
        (
            "Graduation is a week tomorrow, need a speech opener for the dinner after",
            "appointment_graduation",
            10,
        ),
        # "this month" is the month it is said in
        ("The pub quiz I'm running is on the last Friday of this month.", "appointment_pub_quiz", 26),
    ],
)
def test_an_occasion_dated_by_a_phrase_counted_from_today(
    parser: NameRecognizer, text: str, key: str, day: int
) -> None:
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    dated = {f.key: f.event_time for f in read if f.event_time is not None}
    assert key in dated, read
    assert (dated[key].month, dated[key].day) == (9, day)


@pytest.mark.parametrize("text", ["My son is 15 and obsessed with Minecraft.", "The gym is 24/7 now."])
def test_a_number_after_a_copula_is_no_occasion(parser: NameRecognizer, text: str) -> None:
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    assert not [f for f in read if f.key.startswith("appointment")], read


def test_the_nth_weekday_of_this_or_next_month() -> None:
    from datetime import UTC, datetime

    from agentx_memory.retrieval.time_phrases import find_time_phrase

    for text, now, day in [
        ("on the last Friday of this month", datetime(2025, 10, 1, tzinfo=UTC), (10, 31)),
        ("the first Monday of next month", datetime(2025, 12, 10, tzinfo=UTC), (1, 5)),
    ]:
        found = find_time_phrase(text, now)
        assert found is not None
        assert found.time_range.start is not None
        assert (found.time_range.start.month, found.time_range.start.day) == day


def _named(parser: NameRecognizer, text: str) -> set[str]:
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, UNKNOWN_SPEAKER)], recognizer=parser).facts
    return {f.value for f in read if f.key == "name"}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I'm called Bartholomew but please don't make a joke about it, everyone does.", "Bartholomew"),
        ("Quick thing first — I've changed my name by deed poll, it's Danielle now.", "Danielle"),
        ("I got married in August and changed my surname — I'm Siobhan Adeyemi now.", "Siobhan Adeyemi"),
        ("Name: Lakshmi", "Lakshmi"),
        ("I'm DeShawn.", "DeShawn"),
    ],
)
def test_a_name_given_beside_other_words_or_as_the_name_now(
    parser: NameRecognizer, text: str, name: str
) -> None:
    assert _named(parser, text) == {name}


@pytest.mark.parametrize(
    "text",
    [
        "I'm sorry, Dave, I can't do that.",
        "I'm Jewish but I don't keep kosher.",
        "I'm called in to work most Sundays but I'm free on Saturday.",
        "I'm Siobhan's sister, she asked me to get in touch.",
        "Name: TBD",
        "I changed my name on Instagram, it's FoodieJo now.",
        "I'm tired but happy.",
    ],
)
def test_no_name_from_whom_one_speaks_to_a_state_an_acronym_or_a_handle(
    parser: NameRecognizer, text: str
) -> None:
    assert _named(parser, text) == set()


def test_the_rules_alone_keep_a_clause_after_the_value_out_of_it(parser: NameRecognizer) -> None:
    text = "my roommate Léa is a med student, she never cleans the kitchen lol"
    read = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser, parse=False).facts
    assert [f.statement for f in read] == ["Léa is a med student."]


@pytest.mark.parametrize(
    "text",
    [
        "Seeing the smiles on their faces, we knew we made a real difference.",
        "Walking home from the station, Tom spotted a fox.",
    ],
)
def test_an_opening_participle_is_the_later_clauses_subjects_no_dropped_i(
    parser: NameRecognizer, text: str
) -> None:
    assert not [fact for fact in _typed(parser, text) if fact[0] == "Kim"]


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("my Canva laptop arrived today and IT wants me to set up Okta before Monday.", "Canva"),
        ("Picked up my Mercado Libre lanyard today, the yellow is LOUD.", "Mercado Libre"),
        ("Please, my Flutterwave ID card and staff email have finally come through.", "Flutterwave"),
        ("my Monzo email finally works and I've got my badge", "Monzo"),
    ],
)
def test_an_employer_named_on_the_speakers_things_of_work(
    parser: NameRecognizer, text: str, employer: str
) -> None:
    assert ("Kim", "works_at", employer) in _typed(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "my Dell laptop died again.",
        "I set up my Gmail filters yesterday.",
        "When I get my Google badge I'll feel real.",
        "my sister's Deloitte laptop is ancient",
        "my Christmas email went out",
        "my Spotify login stopped working",
        "Is my Canva laptop covered by insurance?",
    ],
)
def test_no_employer_from_a_maker_a_service_a_wish_or_someone_elses_thing(
    parser: NameRecognizer, text: str
) -> None:
    assert not [fact for fact in _typed(parser, text) if fact[1] == "works_at"]


def test_a_pet_the_same_turn_ends_is_no_current_pet(parser: NameRecognizer) -> None:
    text = "Our old collie Juno crossed the rainbow bridge last month; the new pup is chewing everything."
    assert not [fact for fact in _typed(parser, text) if fact[1] == "dog" and fact[2] == "Juno"]
