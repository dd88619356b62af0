"""Readings found by reading what the learner missed in LoCoMo's dev conversations, each a shape of
English rather than a sentence: a question tagged on after a dash, a habit kept up ("I've been swimming
a lot"), a frame's verb used alone ("I run every morning"), a named thing that does something for the
speaker ("Yoga helps me unwind")."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from agentx_memory.extraction.chat_spelling import normalise_first_person
from agentx_memory.extraction.dependants import leaning_on, naming_words
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import UNKNOWN_SPEAKER, TurnText, extract_turns
from agentx_memory.extraction.stored import StoredFact
from agentx_memory.retrieval.time_phrases import find_time_phrase
from tests.reading import SAID_AT, read_facts, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("I finished a pottery project - want to see a pic?", "I finished a pottery project. want"),
        ("Got a dog (a lab) — any tips?", "Got a dog (a lab). any tips?"),
        ("Need help with my CV - any advice?", "Need help with my CV. any advice?"),
        # a question word before the dash makes the dash part of one question
        ("Who is coming - you or Dana?", "Who is coming - you or Dana?"),
        ("Is it at 3pm - or 4?", "Is it at 3pm - or 4?"),
        # no question after the dash: nothing to set apart
        ("I moved to Leeds - the rent is lower.", "I moved to Leeds - the rent is lower."),
    ],
)
def test_a_question_tagged_on_after_a_dash_is_set_apart(text: str, read: str) -> None:
    assert normalise_first_person(text).startswith(read)


@pytest.mark.parametrize(
    "text",
    [
        "FYI, I finished another pottery project - want to see a pic?",
        "Oh and I finished another pottery project — wanna see?",
    ],
)
def test_a_statement_before_a_tagged_question_is_learned(parser: NameRecognizer, text: str) -> None:
    assert any("finished another pottery project" in statement for *_, statement in read_facts(parser, text))


@pytest.mark.parametrize(
    ("text", "doing", "statement"),
    [
        ("I run every morning.", "running", "Kim runs every morning."),
        ("I've been swimming a lot.", "swimming", "Kim has been swimming a lot."),
        ("I'm cycling twice a week now.", "cycling", "Kim is cycling twice a week now."),
        ("I've been running a lot lately, it's great.", "running", "Kim has been running a lot lately."),
    ],
)
def test_a_habit_kept_up_is_a_habit(parser: NameRecognizer, text: str, doing: str, statement: str) -> None:
    habits = [(value, said) for key, value, said in read_facts(parser, text) if key == "habit"]
    assert habits == [(doing, statement)]


@pytest.mark.parametrize(
    "text",
    [
        "I'm running tomorrow.",  # a plan, not a habit
        "I'll run every day.",  # a resolution
        "I run a café in town every day.",  # the frame's verb with its object: a business, no habit
        "I've been running late.",  # no how-often
    ],
)
def test_a_plan_a_resolution_or_a_frames_verb_is_no_habit(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] == "habit"]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("Yeah! Dancing helps me de-stress.", "Dancing helps Kim de-stress."),
        ("Yoga helps me unwind.", "Yoga helps Kim unwind."),
    ],
)
def test_a_named_thing_that_does_something_for_the_speaker(
    parser: NameRecognizer, text: str, statement: str
) -> None:
    assert statement in [said for *_, said in read_facts(parser, text)]


@pytest.mark.parametrize("text", ["It helps me relax.", "That makes me happy.", "This keeps me going."])
def test_a_pronoun_that_does_something_for_the_speaker_points_elsewhere(
    parser: NameRecognizer, text: str
) -> None:
    assert read_facts(parser, text) == []


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # a home told by what moving into it takes, whatever the verb
        ("I signed the lease on a two-bed in Glasgow last week.", "lives_in", "Glasgow"),
        ("The removal van finally dropped everything at our new place in Leeds.", "lives_in", "Leeds"),
        # an employer told by the people and the first days of a job
        ("My badge for Monzo finally came through, first week done!", "works_at", "Monzo"),
        ("My new manager at Ocado is great.", "works_at", "Ocado"),
    ],
)
def test_a_slot_told_by_the_words_around_its_value(
    parser: NameRecognizer, text: str, key: str, value: str
) -> None:
    assert (key, value) in [(k, v) for k, v, _ in read_facts(parser, text)]


@pytest.mark.parametrize(
    "text",
    [
        "We're on holiday in Porto this week, the apartment is lovely.",  # a stay
        "My sister got the keys to a flat in Porto.",  # someone else's
        "Tom's new boss at Aldi is mean.",
        "I grew up in Porto, lovely home.",  # the past
        "I had an interview at Monzo, the team seemed nice.",  # an application
        "I never got the keys to that flat in Porto.",  # denied
        "My old boss at Aldi used to shout.",  # a job gone
    ],
)
def test_no_slot_from_a_stay_someone_elses_the_past_or_an_application(
    parser: NameRecognizer, text: str
) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] in {"lives_in", "works_at"}]


def test_a_number_said_to_be_someone_elses_is_not_the_speakers(parser: NameRecognizer) -> None:
    theirs = read_facts(parser, "The number for the plumber is 0161 496 0000")
    assert not [fact for fact in theirs if fact[0] == "phone"]
    assert ("phone", "07700 900123") in [
        (key, value) for key, value, _ in read_facts(parser, "The best number for me is 07700 900123 now.")
    ]


@pytest.mark.parametrize(
    ("text", "car"),
    [
        ("Bought myself a secondhand Yaris.", "secondhand Yaris"),
        ("We finally upgraded from the Clio to a Kuga.", "Kuga"),
        ("Picked up a Qashqai last week.", "Qashqai"),
    ],
)
def test_a_vehicle_named_by_its_model_alone(parser: NameRecognizer, text: str, car: str) -> None:
    assert [value for key, value, _ in read_facts(parser, text) if key == "drives"] == [f"a {car}"]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Hi! I just wanted to let you know I did a charity event.", "Hi! I did a charity event."),
        ("Wanted to tell ya I just joined a writers group.", "I just joined a writers group."),
        ("I'm happy to report that my test came back clear.", "my test came back clear."),
        # the telling of nothing yet, or of thanks, is left as it was said
        ("I wanted to tell you about my trip.", "I wanted to tell you about my trip."),
        ("I just wanted to say thanks.", "I just wanted to say thanks."),
    ],
)
def test_the_telling_around_the_news_is_taken_off(text: str, read: str) -> None:
    assert normalise_first_person(text) == read


def test_news_told_inside_a_wish_to_tell_is_learned(parser: NameRecognizer) -> None:
    facts = read_facts(parser, "Wanted to tell ya I just joined a writers group.")
    assert [statement for *_, statement in facts] == ["Kim joined a writers group."]


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("Our puppy Biscuit chewed my shoes.", ("dog", "Biscuit")),
        ("We got a greyhound. She's called Pepper.", ("dog", "Pepper")),
    ],
)
def test_a_pet_named_beside_its_kind_or_by_a_pronoun(
    parser: NameRecognizer, text: str, pet: tuple[str, str]
) -> None:
    assert pet in [(key, value) for key, value, _ in read_facts(parser, text)]


@pytest.mark.parametrize(
    "text", ["My sister got a greyhound. She's called Pepper.", "Tom adopted a kitten. He's called Sushi."]
)
def test_someone_elses_pet_named_by_a_pronoun_is_not_the_speakers(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] in {"dog", "cat"}]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I just read Circe. It's my new favourite book.", "favourite_book", "Circe"),
        (
            "Tried the Ethiopian place on Elm Street, it's my favourite restaurant now.",
            "favourite_restaurant",
            "the Ethiopian place on Elm Street",
        ),
        ("I met Tom at Kiln. It's my favourite restaurant.", "favourite_restaurant", "Kiln"),
    ],
)
def test_it_is_my_favourite_points_back_to_the_thing_done_to_or_named(
    parser: NameRecognizer, text: str, key: str, value: str
) -> None:
    assert (key, value) in [(k, v) for k, v, _ in read_facts(parser, text)]


@pytest.mark.parametrize(
    ("text", "hobby"),
    [
        ("I joined a bouldering gym last month and I'm hooked.", "bouldering"),
        ("Joined the choir at church.", "choir"),
        ("I joined a book club.", "book club"),
    ],
)
def test_a_group_joined_for_a_pastime_is_a_hobby(parser: NameRecognizer, text: str, hobby: str) -> None:
    assert [value for key, value, _ in read_facts(parser, text) if key == "hobby"] == [hobby]


@pytest.mark.parametrize(
    "text", ["I joined Google in May.", "My son joined a football team.", "I might join a running club."]
)
def test_an_employer_someone_elses_team_or_a_maybe_is_no_hobby(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] == "hobby"]


def test_dropping_out_of_a_group_ends_it(parser: NameRecognizer) -> None:
    ended = [
        fact for fact in read_facts(parser, "Dropped out of the choir after Christmas.") if fact[0] == "ended"
    ]
    assert ended
    assert "choir" in ended[0][1]


@pytest.mark.parametrize("text", ["I've cut out meat completely.", "Gave up meat in January."])
def test_meat_given_up_is_a_vegetarian_diet(parser: NameRecognizer, text: str) -> None:
    assert ("diet", "vegetarian") in [(key, value) for key, value, _ in read_facts(parser, text)]


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("My job title is now Senior Data Engineer.", "Senior Data Engineer"),
        ("My new role is head of marketing.", "head of marketing"),
        ("Landed a role as a junior architect.", "junior architect"),
    ],
)
def test_a_post_named_as_a_thing_or_after_as_is_the_job(parser: NameRecognizer, text: str, job: str) -> None:
    assert [value for key, value, _ in read_facts(parser, text) if key == "works_as"] == [job]


@pytest.mark.parametrize(
    "text",
    [
        "My job is a nightmare.",
        "My job is a bit of a drag.",
        "I applied for a job as a pilot.",
        "My sister got a job as a nurse.",
        "My shifts as a care assistant start at 6.",  # parsed "assistant start": no post of a name
    ],
)
def test_a_judged_job_an_application_or_someone_elses_is_no_post(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] == "works_as"]


@pytest.mark.parametrize(
    ("text", "diet"),
    [
        ("My cardiologist took me off keto and put me on a Mediterranean diet.", "Mediterranean"),
        ("I've been keeping halal since I converted.", "halal"),
        ("I follow a vegan diet now, so no ghee.", "vegan"),
        ("My diet's pescatarian now.", "pescatarian"),
        ("Diet: flexitarian these days.", "flexitarian"),
    ],
)
def test_a_diet_kept_whatever_the_verb(parser: NameRecognizer, text: str, diet: str) -> None:
    assert [value for key, value, _ in read_facts(parser, text) if key == "diet"] == [diet]


@pytest.mark.parametrize(
    "text",
    [
        "We went to a vegan restaurant.",
        "My sister is vegan.",
        "I used to be vegan.",
        "Our whole house has gone vegan.",
        "We're going on a Mediterranean cruise.",
        "Thinking of going keto.",
    ],
)
def test_a_dish_someone_elses_diet_the_past_or_a_plan_is_no_diet(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] == "diet" and not fact[2].count(" not ")]


def test_a_home_said_without_moving_is_no_move(parser: NameRecognizer) -> None:
    facts = read_facts(parser, "My place in Calgary got so cold last night the pipe froze.")
    assert [statement for key, _, statement in facts if key == "lives_in"] == ["Kim lives in Calgary."]


def _said_by(parser: NameRecognizer, *said: str) -> list[tuple[str, str, str]]:
    """A chat of "u: …" / "a: …" turns with no speaker names, as most chats are."""
    turns = [
        TurnText(f"t{i}", "assistant" if text[:3] == "a: " else "user", text[3:], SAID_AT, UNKNOWN_SPEAKER)
        for i, text in enumerate(said)
    ]
    return [(f.key, f.value, f.statement) for f in extract_turns(turns, recognizer=parser).facts]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Let me introduce myself properly — Anneliese, nurse from Graz.", "Anneliese"),
        ("Morning! Tomasz speaking — I'm back with more questions.", "Tomasz"),
        ("hey, Bisi on this end again.", "Bisi"),
        ("My parents named me Niamh after my great-aunt.", "Niamh"),
        ("I was named Bartholomew after my grandad.", "Bartholomew"),
        ("Draft an email to my landlord. Sign it from me — Keziah Adeyemi, flat 4.", "Keziah Adeyemi"),
        ("tweak it so it's signed off as Lorcan Byrne, that's me btw", "Lorcan Byrne"),
    ],
)
def test_a_name_said_in_ways_that_only_name_the_speaker(parser: NameRecognizer, text: str, name: str) -> None:
    assert [value for key, value, _ in _said_by(parser, f"u: {text}") if key == "name"] == [name]


@pytest.mark.parametrize(
    "text", ["My sister was named Rose after my gran.", "Public speaking is hard.", "I'm Jewish.", "I'm ok"]
)
def test_someone_elses_name_or_a_state_is_no_name(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in _said_by(parser, f"u: {text}") if fact[0] == "name"]


def test_the_name_asked_for_is_given_alone(parser: NameRecognizer) -> None:
    facts = _said_by(parser, "u: how do I start?", "a: What should I call you?", "u: oh, Marguerite is fine")
    assert ("name", "Marguerite") in [(key, value) for key, value, _ in facts]
    refused = _said_by(parser, "u: hi", "a: What's your name?", "u: London is where I live.")
    assert not [fact for fact in refused if fact[0] == "name"]


def test_an_assistant_question_opens_a_slot_in_a_chat_without_names(parser: NameRecognizer) -> None:
    facts = _said_by(parser, "u: I moved last month", "a: Oh nice, where did you end up?", "u: Leipzig.")
    assert ("lives_in", "Leipzig") in [(key, value) for key, value, _ in facts]


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("Canberra's my home, and the magpies are already swooping.", "Canberra"),
        ("Galway's home for me, right on the west coast.", "Galway"),
        ("Dublin's been home since I was born.", "Dublin"),
    ],
)
def test_a_city_said_to_be_home(parser: NameRecognizer, text: str, city: str) -> None:
    assert ("lives_in", city) in [(key, value) for key, value, _ in read_facts(parser, text)]


def test_a_home_for_someone_else_is_not_the_speakers(parser: NameRecognizer) -> None:
    assert not [f for f in read_facts(parser, "Leeds is home for my sister.") if f[0] == "lives_in"]


@pytest.mark.parametrize(
    ("text", "car"),
    [
        ("My Ford Fiesta needs new brake pads.", "Ford Fiesta"),
        ("My Volvo V70 is brilliant in the snow.", "Volvo V70"),
    ],
)
def test_the_speakers_vehicle_named_in_passing(parser: NameRecognizer, text: str, car: str) -> None:
    assert [value for key, value, _ in read_facts(parser, text) if key == "drives"] == [car]


@pytest.mark.parametrize(
    "text", ["I sold my Ford Fiesta.", "My old Volvo was a tank.", "My dad's Volvo is ancient."]
)
def test_a_vehicle_sold_old_or_someone_elses_is_not_driven(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] == "drives"]


def _stored(fact_id: str, claim: str, key: str, value: str | None = None, **more: object) -> StoredFact:
    fields: dict[str, Any] = {"temporal": "current", "stated_at": SAID_AT, **more}
    return StoredFact(fact_id, claim, "Kim", key, value, False, (), None, 0.0, **fields)


def test_statements_leaning_on_a_changed_value() -> None:
    old = _stored("car", "Kim drives a Ford Fiesta.", "drives", "Ford Fiesta")
    statements = [
        _stored("weekly", "Kim takes the Fiesta to the coast every weekend.", "said"),
        _stored("trip", "Kim drove the Fiesta to Cornwall last summer.", "did", temporal="past"),
        _stored("later", "Kim misses the Fiesta.", "said", stated_at=SAID_AT.replace(year=2026)),
        _stored("other", "Kim's garden is lovely.", "said"),
        _stored("typed", "Kim's favourite car is the Fiesta.", "favourite_car", "Fiesta"),
    ]
    assert leaning_on(old, statements, SAID_AT.replace(month=10)) == ["weekly"]
    assert leaning_on(_stored("x", "Kim likes tea.", "likes", "tea"), statements, None) == []
    assert naming_words("a Peugeot 208", "Kim") == frozenset({"peugeot", "208"})


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("The charity gala is on the second Saturday in March.", date(2025, 3, 8)),
        ("our team offsite is the last friday of october", date(2024, 10, 25)),
        ("hosting a party on New Year's Eve", date(2024, 12, 31)),  # the last one; a plan's moves ahead
        ("proposing on Valentine's Day", date(2024, 2, 14)),
    ],
)
def test_a_day_named_by_its_place_in_the_month_or_its_feast(text: str, day: date) -> None:
    found = find_time_phrase(text, datetime(2025, 1, 15, 12, tzinfo=UTC))
    assert found is not None
    assert found.time_range.start is not None
    assert found.time_range.start.date() == day


def test_a_feast_in_a_name_is_no_date() -> None:
    assert find_time_phrase("help with my Christmas card list", datetime(2025, 1, 15, tzinfo=UTC)) is None


def test_an_occasion_on_the_nth_weekday_of_a_month_is_dated_ahead(parser: NameRecognizer) -> None:
    facts = extract_turns(
        [TurnText("t1", "user", "The charity gala is on the second Saturday in March.", SAID_AT, "Kim")],
        recognizer=parser,
    ).facts
    gala = [fact for fact in facts if "gala" in fact.statement]
    assert [fact.event_time.date() for fact in gala if fact.event_time] == [date(2026, 3, 14)]


def test_a_driving_test_is_no_vehicle(parser: NameRecognizer) -> None:
    said = "Driving test the day after tomorrow and I still can't parallel park."
    assert not [fact for fact in read_facts(parser, said) if fact[0] == "drives"]


@pytest.mark.parametrize(
    ("text", "partner"),
    [
        ("Aisha and I went our separate ways, and now Rosa and I are an item.", "Rosa"),
        ("ok so Valentina and I are an item now, Lucía is old news.", "Valentina"),
        ("Tied the knot with Marcus on Saturday, tiny ceremony on a beach.", "Marcus"),
        ("Chloe and I made it Instagram official last night!", "Chloe"),
        ("just moved in with Arjun! yes, new guy.", "Arjun"),
    ],
)
def test_someone_new_the_speaker_is_with_whatever_the_verb(
    parser: NameRecognizer, text: str, partner: str
) -> None:
    assert [value for key, value, _ in read_facts(parser, text) if key == "partner"] == [partner]


@pytest.mark.parametrize(
    "text",
    [
        "Tom and Jo are an item.",
        "Freja and I broke up.",
        "Mia and I made pasta together.",
        "I moved in with my parents.",
        "Hana and I parted on good terms back in January.",
    ],
)
def test_someone_elses_couple_a_parting_or_a_friend_is_no_partner(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] == "partner"]


def test_a_city_that_names_a_time_is_no_home(parser: NameRecognizer) -> None:
    said = "I've moved in with Ingrid, things went fast after Freja and I broke up."
    assert not [fact for fact in read_facts(parser, said) if fact[0] == "lives_in"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("Ex-hygienist turned beekeeper, that's me!", "works_as", "beekeeper"),
        ("former lawyer turned yoga teacher over here lol.", "works_as", "yoga teacher"),
        ("Fun fact: I'm on HSBC's payroll now.", "works_at", "HSBC"),
        ("As of this month it's Aer Lingus paying my wages.", "works_at", "Aer Lingus"),
    ],
)
def test_a_job_or_employer_told_by_what_goes_with_it(
    parser: NameRecognizer, text: str, key: str, value: str
) -> None:
    assert (key, value) in [(k, v) for k, v, _ in read_facts(parser, text)]


@pytest.mark.parametrize("text", ["My sister is on Tesco's payroll.", "The leaves turned brown."])
def test_someone_elses_payroll_or_a_colour_turned_is_no_job(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] in {"works_at", "works_as"}]


@pytest.mark.parametrize(
    "text",
    [
        "Way to go, Nate! Making videos about gaming - that's awesome! You'll do great!",
        "Glad to hear my support makes a difference, Joanna.",
    ],
)
def test_the_listeners_doing_judged_or_a_pleasantry_is_no_fact(parser: NameRecognizer, text: str) -> None:
    assert read_facts(parser, text) == []


def test_a_statement_about_what_it_was_said_before_is_no_fact(parser: NameRecognizer) -> None:
    assert read_facts(parser, "It's a story I've had for ages but just got the guts to write it.") == []


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("collected our new puppy from the breeder today!! a cockapoo called Moose.", ("dog", "Moose")),
        ("we've got ourselves a bearded dragon, Ziggy.", ("dragon", "Ziggy")),
        ("New rules: we've got ourselves a ferret! His name is Rocket.", ("ferret", "Rocket")),
    ],
)
def test_a_pet_named_near_its_kind(parser: NameRecognizer, text: str, pet: tuple[str, str]) -> None:
    assert pet in [(key, value) for key, value, _ in read_facts(parser, text)]


@pytest.mark.parametrize(
    ("text", "gone"),
    [
        ("sadly Clover didn't make it through the summer", "Clover didn't make it through the summer."),
        ("I had to rehome Loki with a farm family.", "Kim had to rehome Loki with a farm family."),
    ],
)
def test_a_pet_gone_told_gently_ends_it(parser: NameRecognizer, text: str, gone: str) -> None:
    assert ("ended", gone) in [(key, statement) for key, _, statement in read_facts(parser, text)]


def test_someone_elses_pet_called_a_name_is_not_the_speakers(parser: NameRecognizer) -> None:
    assert not [fact for fact in read_facts(parser, "My sister's dog called Rex is mad.") if fact[0] == "dog"]


def test_a_thing_booked_for_a_day_is_an_occasion(parser: NameRecognizer) -> None:
    facts = read_facts(parser, "My MRI is booked for Wednesday the 22nd at 8am.")
    assert [key for key, _, _ in facts] == ["appointment_mri"]


def test_a_title_joined_by_and_is_read_whole_and_a_favourite_is_no_job(parser: NameRecognizer) -> None:
    book = read_facts(parser, "Pride and Prejudice is my all-time favourite book.")
    assert ("favourite_book", "Pride and Prejudice") in [(key, value) for key, value, _ in book]
    artist = read_facts(parser, "Beyoncé is my favourite artist, period.")
    assert [key for key, _, _ in artist] == ["favourite_artist"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I do wedding photography for a living now.", "works_as", "doing wedding photography"),
        ("Went freelance as a translator, Arabic into English.", "works_as", "translator"),
        ("I'm a Tesla Model Y owner now.", "drives", "Tesla Model Y"),
    ],
)
def test_work_or_a_vehicle_told_by_a_living_freelancing_or_owning(
    parser: NameRecognizer, text: str, key: str, value: str
) -> None:
    assert (key, value) in [(k, v) for k, v, _ in read_facts(parser, text)]


@pytest.mark.parametrize("text", ["I'm a dog owner.", "I'm a Tesla Model Y owner now."])
def test_an_owner_of_a_thing_is_no_job(parser: NameRecognizer, text: str) -> None:
    assert not [fact for fact in read_facts(parser, text) if fact[0] == "works_as"]


def test_a_reaction_of_the_moment_is_no_fact(parser: NameRecognizer) -> None:
    said = "I'm really stoked to see all my hard work paying off!"
    assert read_facts(parser, said) == []
    assert read_facts(parser, "I'm excited to start my new job at Google.") != []


@pytest.mark.parametrize(
    "text", ["Gotta make time to dance and vent, that's for sure.", "I'm gonna keep pursuing my goals!"]
)
def test_an_obligation_of_the_moment_or_goals_in_general_are_no_fact(
    parser: NameRecognizer, text: str
) -> None:
    assert read_facts(parser, text) == []


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        ("my best mate Conor just got engaged.", ("mate", "Conor")),
        ("My grandad Stan is diabetic.", ("grandad", "Stan")),
    ],
)
def test_a_mate_or_a_grandad_named_is_their_own_person(
    parser: NameRecognizer, text: str, relation: tuple[str, str]
) -> None:
    facts = read_facts(parser, text)
    assert relation in [(key, value) for key, value, _ in facts]
    theirs = ("engaged", "diabetic")
    assert not [said for _, _, said in facts if said.startswith("Kim") and any(w in said for w in theirs)]


def test_a_doing_judged_by_a_later_copula_is_no_statement_of_the_speakers(parser: NameRecognizer) -> None:
    said = "Being out in nature, away from all the noise and taking some quality time was great."
    assert read_facts(parser, said) == []
    assert read_facts(parser, "Flying out to Lagos tomorrow.") != []
