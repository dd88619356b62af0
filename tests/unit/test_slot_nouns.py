"""Readings of the seventh session on learning: a slot said by its noun ("my new employer is …", "the day
job is …"), roles stepped down from, "me and X" as the speaker, partners "together" or "with X since …",
introductions with an aside, a number given alone after the listener asked for it, pets handed over or
named after a comma, work done somewhere, vehicles ridden or dated by their model year."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.extraction.chat_spelling import normalise_first_person
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import UNKNOWN_SPEAKER, TurnText, extract_turns
from tests.reading import SAID_AT, read_facts, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)


def _typed(parser: NameRecognizer, text: str) -> set[tuple[str, str]]:
    return {(key, value) for key, value, _ in read_facts(parser, text) if key not in {"said", "ended", "did"}}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My new employer is the city council.", ("works_at", "the city council")),
        ("Deloitte is my new employer.", ("works_at", "Deloitte")),
        (
            "the day job is dog grooming since the spring, much kinder on my wrists",
            ("works_as", "dog grooming"),
        ),
        ("My day job: driving instructor, got my badge in April.", ("works_as", "driving instructor")),
        ("My ride these days is a Kia Niro.", ("drives", "a Kia Niro")),
        ("My diet is pescatarian now.", ("diet", "pescatarian")),
    ],
)
def test_a_slot_said_by_its_noun_is_read(parser: NameRecognizer, text: str, fact: tuple[str, str]) -> None:
    assert fact in _typed(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My job is a nightmare.",
        "My job is driving me mad.",
        "My job is boring.",
        "My sister's car is a Golf.",
        "My next car will be a Volvo.",
        "My employer isn't Deloitte.",
    ],
)
def test_a_slot_noun_judged_wished_or_someone_elses_is_not_read(parser: NameRecognizer, text: str) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"works_at", "works_as", "drives"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("I stepped down as chair of the parish council in April.", {"chair", "parish", "council"}),
        ("I stepped down as treasurer of the Lakeview association, too much politics.", {"treasurer"}),
        ("I resigned as treasurer last week.", {"treasurer"}),
    ],
)
def test_a_role_stepped_down_from_ends_it(parser: NameRecognizer, text: str, words: set[str]) -> None:
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    endings = [fact for fact in facts if fact.key == "ended"]
    assert endings
    assert words <= set(endings[0].ends_words)
    assert "politic" not in endings[0].ends_words  # what a comma sets apart is another thought
    assert "stepped down" in endings[0].statement or "resigned" in endings[0].statement


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("me and my bf Dan broke up last week, still gutted", "Dan"),
        ("me and Jas broke up, she kept the flat", "Jas"),
    ],
)
def test_me_and_someone_is_the_speaker(parser: NameRecognizer, text: str, other: str) -> None:
    statements = [statement for key, _, statement in read_facts(parser, text) if key == "ended"]
    assert statements
    assert statements[0].startswith(f"Kim and {other} broke up")


@pytest.mark.parametrize(
    ("text", "partner"),
    [
        ("Priya and I have been together six months now.", "Priya"),
        ("Me and Leo got together at Easter.", "Leo"),
        ("Been with Jordan since March.", "Jordan"),
        ("I've been with Tom for two years.", "Tom"),
    ],
)
def test_together_or_with_someone_for_a_while_is_a_partner(
    parser: NameRecognizer, text: str, partner: str
) -> None:
    assert ("partner", partner) in _typed(parser, text)


@pytest.mark.parametrize(
    "text", ["Priya and I were together at school.", "I was with Sarah since 9am at the library."]
)
def test_together_then_or_with_someone_for_a_morning_is_no_partner(parser: NameRecognizer, text: str) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"partner"}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Name's Theo, by the way.", "Theo"),
        ("The name's Rowan.", "Rowan"),
        ("Oh and I'm Kemi, forgot to say", "Kemi"),
        ("I'm Priya btw, what's a good laptop?", "Priya"),
    ],
)
def test_an_introduction_with_an_aside_names_the_speaker(
    parser: NameRecognizer, text: str, name: str
) -> None:
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, UNKNOWN_SPEAKER)], recognizer=parser).facts
    assert ("name", name) in {(fact.key, fact.value) for fact in facts}


@pytest.mark.parametrize("text", ["I'm sorry, Dave", "I'm tired, long day", "Well, I'm Italian, so pasta"])
def test_whom_the_speaker_addresses_or_a_state_is_no_name(parser: NameRecognizer, text: str) -> None:
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, UNKNOWN_SPEAKER)], recognizer=parser).facts
    assert not [fact for fact in facts if fact.key == "name"]


def _chat(parser: NameRecognizer, question: str, answer: str) -> set[tuple[str, str]]:
    turns = [
        TurnText("t1", "assistant", question, SAID_AT, "Kim"),
        TurnText("t2", "user", answer, datetime(2025, 9, 2, 9, 1, tzinfo=UTC), "Kim"),
    ]
    return {(fact.key, fact.value) for fact in extract_turns(turns, recognizer=parser).facts}


@pytest.mark.parametrize(
    ("question", "answer", "number"),
    [
        ("What's your new number?", "07398 221904, the 456781 one's gone", "07398 221904"),
        ("Sure — what's the best number to reach you on now?", "0433 872 146 now pls", "0433 872 146"),
        ("What's the best number for you these days?", "07812 345 678 is the one", "07812 345 678"),
    ],
)
def test_a_number_given_alone_after_the_listener_asked_for_it(
    parser: NameRecognizer, question: str, answer: str, number: str
) -> None:
    assert ("phone", number) in _chat(parser, question, answer)


def test_a_number_after_another_question_is_no_phone(parser: NameRecognizer) -> None:
    assert not {key for key, _ in _chat(parser, "What's the order number?", "4451 2231 9987")} & {"phone"}


@pytest.mark.parametrize(
    ("text", "pets"),
    [
        ("neighbors moved to Spain and gave us their tortoise, Sheldon, he's 30 years old!", {"Sheldon"}),
        ("I've inherited my late sister's African grey, Captain. He's 22.", {"Captain"}),
        ("we bought two guinea pigs from the pet shop today, Salt and Pepper.", {"Salt", "Pepper"}),
        ("we adopted a cavapoo, Biscuit!", {"Biscuit"}),
    ],
)
def test_a_pet_handed_over_or_named_after_a_comma(parser: NameRecognizer, text: str, pets: set[str]) -> None:
    assert pets <= {value for _, value in _typed(parser, text)}


@pytest.mark.parametrize(
    "text", ["my sister gave her cat, Tom, a bath.", "my neighbour bought a rabbit, Thumper."]
)
def test_someone_elses_pet_is_not_the_speakers(parser: NameRecognizer, text: str) -> None:
    assert not {value for _, value in _typed(parser, text)} & {"Tom", "Thumper"}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I do admin at the NHS trust, it's fine but boring", ("works_at", "the NHS trust")),
        ("I do accounts at Brightwell Foods.", ("works_at", "Brightwell Foods")),
        ("great news, Rolls-Royce took me on as a trainee machinist!", ("works_at", "Rolls-Royce")),
        ("I ride a 2009 Yamaha MT-03 to uni", ("drives", "a 2009 Yamaha MT-03")),
        ("I qualified as a paramedic last month!", ("works_as", "paramedic")),
        ("I've given up gluten.", ("diet", "gluten-free")),
    ],
)
def test_work_done_somewhere_a_vehicle_ridden_a_job_qualified_for(
    parser: NameRecognizer, text: str, fact: tuple[str, str]
) -> None:
    assert fact in _typed(parser, text)


@pytest.mark.parametrize(
    "text", ["I do yoga at Third Space.", "I ride horses at the weekend.", "I took on too much work."]
)
def test_a_pastime_somewhere_is_no_employer_nor_vehicle(parser: NameRecognizer, text: str) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"works_at", "drives"}


def test_the_clause_before_an_ending_is_not_part_of_it(parser: NameRecognizer) -> None:
    facts = read_facts(parser, "I'm with Siemens now, the old firm let me go.")
    assert ("works_at", "Siemens") in {(key, value) for key, value, _ in facts}
    assert all("Siemens" not in statement for key, _, statement in facts if key == "ended")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "dropped eggs and dairy in january so that's me fully vegan now 🌱 what do I swap halloumi for??",
            ("diet", "vegan"),
        ),
        ("Signed the contract, so that's me a Shopify employee now!", ("works_at", "Shopify")),
        (
            "matcha won me over 🍵 it's my favourite drink now. how do I whisk it without a bamboo whisk?",
            ("favourite_drink", "matcha"),
        ),
    ],
)
def test_chats_that_s_me_and_an_emoji_between_clauses(
    parser: NameRecognizer, text: str, fact: tuple[str, str]
) -> None:
    assert fact in _typed(parser, text)


def test_that_s_me_beside_someone_or_as_an_aside_is_no_statement_of_mine(parser: NameRecognizer) -> None:
    assert normalise_first_person("that's me and Tom in the photo") == "that's me and Tom in the photo"
    assert (
        normalise_first_person("signed off as Lorcan, that's me btw") == "signed off as Lorcan, that's me btw"
    )


@pytest.mark.parametrize(
    ("question", "answer", "fact"),
    [
        ("Where are you living these days?", "Cardiff now, moved in June", ("lives_in", "Cardiff")),
        ("Who are you working for now?", "a startup called Lumio", ("works_at", "Lumio")),
        ("What's your dog called?", "Pickle!", ("dog", "Pickle")),
        ("what did you name the kitten?", "Mochi, after the dessert", ("cat", "Mochi")),
        ("What did you end up calling the new rabbit?", "Waffles, obviously", ("rabbit", "Waffles")),
        ("What are you into these days?", "mostly climbing, I gave up running", ("hobby", "climbing")),
        ("Any new hobbies?", "pottery! I'm obsessed", ("hobby", "pottery")),
    ],
)
def test_an_answer_to_the_listeners_question_fills_the_slot_asked(
    parser: NameRecognizer, question: str, answer: str, fact: tuple[str, str]
) -> None:
    assert fact in _chat(parser, question, answer)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What are you into these days?", "nothing much tbh, work is mad"),
        ("What's the dog's name?", "I don't have one yet"),
    ],
)
def test_an_answer_that_gives_nothing_fills_nothing(
    parser: NameRecognizer, question: str, answer: str
) -> None:
    assert not {key for key, _ in _chat(parser, question, answer)} & {"hobby", "dog"}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I went plant-based in March.", ("diet", "plant-based")),
        ("I'm at Arup these days, structural team.", ("works_at", "Arup")),
        ("I've been in Nairobi about a month now.", ("lives_in", "Nairobi")),
        ("I've got a girlfriend! Her name's Ines.", ("partner", "Ines")),
        ("I'm seeing someone new. His name's Ollie, he's a nurse.", ("partner", "Ollie")),
        ("I've picked up knitting again.", ("hobby", "knitting")),
    ],
)
def test_more_of_the_speakers_news(parser: NameRecognizer, text: str, fact: tuple[str, str]) -> None:
    assert fact in _typed(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My sister has a new boyfriend. His name is Carl.",
        "My sister is seeing someone new. His name is Carl.",
        "I've been in Crete on holiday for a week now.",
        "I picked up the kids.",
        "I picked up some milk.",
    ],
)
def test_someone_elses_partner_a_stay_or_an_errand_is_none_of_it(parser: NameRecognizer, text: str) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"partner", "lives_in", "hobby"}


def test_a_notice_handed_in_ends_the_job_and_one_on_a_flat_does_not(parser: NameRecognizer) -> None:
    facts = extract_turns(
        [TurnText("t1", "user", "Handed my notice in at Aldi, starting at Lidl on Monday.", SAID_AT, "Kim")],
        recognizer=parser,
    ).facts
    ending = next(fact for fact in facts if fact.key == "ended")
    assert "works_at" in ending.ends
    assert "Aldi" in ending.ends_words
    assert not [fact for fact in facts if fact.key == "works_at" and fact.value == "Aldi"]
    flat = read_facts(parser, "I gave notice on the flat.")
    assert not [key for key, _, _ in flat if key == "ended"]


def test_someone_elses_new_car_is_not_the_speakers(parser: NameRecognizer) -> None:
    assert not {key for key, _ in _typed(parser, "My dad got a new car, a Volvo.")} & {"drives"}
    assert ("drives", "a Volvo XC40") in _typed(parser, "Got a new car, a Volvo XC40!")


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("I had my surgery on the 4th.", datetime(2025, 11, 4, tzinfo=UTC)),
        ("My interview was on the 28th.", datetime(2025, 10, 28, tzinfo=UTC)),
        ("I'm flying to Lisbon on the 2nd.", datetime(2025, 12, 2, tzinfo=UTC)),
        ("We went to Rome on the 3rd.", datetime(2025, 11, 3, tzinfo=UTC)),
    ],
)
def test_a_day_of_the_month_said_alone_points_the_way_the_clause_does(
    parser: NameRecognizer, text: str, day: datetime
) -> None:
    at = datetime(2025, 11, 20, 12, tzinfo=UTC)
    facts = extract_turns([TurnText("t1", "user", text, at, "Kim")], recognizer=parser).facts
    assert day in {fact.event_time for fact in facts}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("oh I'm not at Shopify anymore, I'm with Stripe these days - left in June", ("works_at", "Stripe")),
        ("I'm with Deloitte now.", ("works_at", "Deloitte")),
        ("I'm with Nadia now.", ("partner", "Nadia")),
        ("Been with Jordan since March.", ("partner", "Jordan")),
    ],
)
def test_with_a_company_is_work_and_with_a_person_a_partner(
    parser: NameRecognizer, text: str, fact: tuple[str, str]
) -> None:
    typed = _typed(parser, text)
    assert fact in typed
    other = "partner" if fact[0] == "works_at" else "works_at"
    assert (other, fact[1]) not in typed


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Shifted to Pune last month for the new project.", ("lives_in", "Pune")),
        ("I'm off dairy for good now.", ("diet", "dairy-free")),
        ("Got hitched to Ravi in December!", ("partner", "Ravi")),
        ("I'm now on 0412 777 888.", ("phone", "0412 777 888")),
    ],
)
def test_chat_of_other_places_and_registers(parser: NameRecognizer, text: str, fact: tuple[str, str]) -> None:
    assert fact in _typed(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm off work this week.",
        "I'm on 2 tablets a day.",
        "These days I'm working out of the Melbourne office.",
    ],
)
def test_off_work_two_tablets_and_a_town_s_office_are_no_diet_phone_or_employer(
    parser: NameRecognizer, text: str
) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"diet", "phone", "works_at"}


def test_a_death_told_with_an_aside_keeps_its_words_apart(parser: NameRecognizer) -> None:
    statements = [
        s
        for key, _, s in read_facts(parser, "Our cat Smudge passed away last week, so sad.")
        if key == "ended"
    ]
    assert statements
    assert "weekso" not in statements[0]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I've gone right off sushi, ramen is my thing now.", ("favourite", "ramen")),
        ("Forget Friends, The Office is my comfort show now.", ("favourite_show", "The Office")),
        ("My drink of choice is a Negroni.", ("favourite_drink", "a Negroni")),
        ("My favourite show right now has to be Severance.", ("favourite_show", "Severance")),
        ("Pizza used to be my favourite but these days it's tacos.", ("favourite", "tacos")),
    ],
)
def test_a_favourite_said_in_other_words(parser: NameRecognizer, text: str, fact: tuple[str, str]) -> None:
    assert fact in _typed(parser, text)


@pytest.mark.parametrize("text", ["That's my thing.", "It's raining.", "The thing is, I hate mornings."])
def test_no_favourite_without_a_thing_named(parser: NameRecognizer, text: str) -> None:
    assert not {key for key, _ in _typed(parser, text) if key.startswith("favourite")}


@pytest.mark.parametrize(
    ("text", "keys", "word"),
    [
        ("I used to live in Paris.", ["lives_in"], "Paris"),
        ("I used to drive a Clio.", ["drives"], "Clio"),
        ("Muse used to be my favourite band.", ["favourite", "favourite_band"], "Muse"),
    ],
)
def test_what_the_speaker_used_to_do_or_favour_ends(
    parser: NameRecognizer, text: str, keys: list[str], word: str
) -> None:
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    ending = next(fact for fact in facts if fact.key == "ended")
    assert ending.ends == keys
    assert word in ending.ends_words


def test_what_someone_else_used_to_do_ends_nothing_of_the_speakers(parser: NameRecognizer) -> None:
    assert not [key for key, _, _ in read_facts(parser, "My sister used to live in Paris.") if key == "ended"]


@pytest.mark.parametrize(
    ("text", "key", "day"),
    [
        ("Optician appointment on May 9th.", "appointment_optician", 9),
        ("Dentist on the 14th at 3pm.", "appointment_dentist", 14),
        ("Eye appointment on the 9th", "appointment_eye", 9),
    ],
)
def test_a_verbless_note_of_an_appointment_is_read(
    parser: NameRecognizer, text: str, key: str, day: int
) -> None:
    at = datetime(2025, 5, 2, 9, tzinfo=UTC)
    facts = extract_turns([TurnText("t1", "user", text, at, "Kim")], recognizer=parser).facts
    dated = {fact.key: fact.event_time for fact in facts}
    when = dated.get(key)
    assert when is not None
    assert when.day == day


@pytest.mark.parametrize("text", ["Drinks on Friday!", "Great news on Monday."])
def test_a_verbless_note_of_anything_else_is_no_appointment(parser: NameRecognizer, text: str) -> None:
    assert not [key for key, _ in _typed(parser, text) if key.startswith("appointment")]


def test_an_offer_turned_down_is_no_employer(parser: NameRecognizer) -> None:
    facts = _typed(parser, "They offered me a job at Amazon but I turned it down.")
    assert not {key for key, _ in facts} & {"works_at"}
    assert ("works_at", "Deloitte") in _typed(parser, "I accepted an offer from Deloitte.")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Sounds fun! I probably also have loads of books I haven't read in years.", "ended"),
        ("Last Monday I got to teach people vegan ice cream recipes on my own cooking show!", "works_as"),
    ],
)
def test_books_not_read_and_a_one_off_lesson_are_no_habit_nor_job(
    parser: NameRecognizer, text: str, key: str
) -> None:
    assert not [k for k, _, _ in read_facts(parser, text) if k == key]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("my ex-girlfriend Jas keeps calling.", "Jas"),
        ("My ex, Karan, moved on so fast.", "Karan"),
        ("my ex Andrés keeps texting me, how do I set boundaries", "Andrés"),
    ],
)
def test_my_ex_ends_a_partner_named(parser: NameRecognizer, text: str, name: str) -> None:
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    endings = [fact for fact in facts if fact.key == "ended" and name in fact.ends_words]
    assert endings
    assert "partner" in endings[0].ends


def test_someone_elses_ex_ends_nothing_of_the_speakers(parser: NameRecognizer) -> None:
    assert not [key for key, _, _ in read_facts(parser, "My sister's ex Tom is a plumber.") if key == "ended"]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("I've gone from teaching to UX design.", "UX design"),
        ("Switched from accounting to data science last year.", "data science"),
        ("I've moved into project management.", "project management"),
        ("I've switched from nursing to teaching.", "teaching"),
    ],
)
def test_a_field_of_work_changed_into(parser: NameRecognizer, text: str, field: str) -> None:
    assert ("works_as", field) in _typed(parser, text)


@pytest.mark.parametrize("text", ["We went from London to Paris by train.", "I moved into a flat in Hove."])
def test_a_journey_or_a_flat_is_no_field_of_work(parser: NameRecognizer, text: str) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"works_as"}


def test_a_car_chosen_for_someone_else_is_not_the_speakers(parser: NameRecognizer) -> None:
    text = "Helping my dad pick a new car, he's torn between a Kia Sportage and a Hyundai Tucson."
    assert not {key for key, _ in _typed(parser, text)} & {"drives"}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "IT switched everyone's addresses on Monday: I'm imani.kariuki@upliftalliance.org for work now.",
            ("email", "imani.kariuki@upliftalliance.org"),
        ),
        ("Hi Dave, can you come Thursday? Thanks\nGareth\nMob: 07700 900789", ("phone", "07700 900789")),
    ],
)
def test_a_contact_among_everyones_or_in_a_signature(
    parser: NameRecognizer, text: str, fact: tuple[str, str]
) -> None:
    assert fact in _typed(parser, text)


def test_a_sisters_email_is_not_the_speakers(parser: NameRecognizer) -> None:
    assert not {key for key, _ in _typed(parser, "My sister's email is jo@example.com")} & {"email"}
