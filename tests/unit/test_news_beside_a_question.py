"""Readings of the sixth session on learning (tuned on blind2, retired from the held-out sets): news told
before a question in one sentence, a pet named in the speaker's own news whatever the verb, a name a pet
answers to, a vehicle one is in "now", being poached by an employer."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentx_memory.extraction.chat_spelling import normalise_first_person
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import UNKNOWN_SPEAKER, TurnText, extract_turns
from tests.reading import SAID_AT, read_facts, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)


def _typed(parser: NameRecognizer, text: str) -> set[tuple[str, str]]:
    return {(key, value) for key, value, _ in read_facts(parser, text) if key not in {"said", "ended"}}


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I'm in a Toyota Yaris now, how do I use the hybrid mode properly?", ("drives", "a Toyota Yaris")),
        ("I just moved to Leeds, any tips for meeting people?", ("lives_in", "Leeds")),
        ("I work at Ocado now, how do I ask for a raise?", ("works_at", "Ocado")),
        ("I'm vegan now, what should I cook tonight?", ("diet", "vegan")),
        (
            "still unpacking boxes at my new place in Melbourne... can you suggest a shelf?",
            ("lives_in", "Melbourne"),
        ),
    ],
)
def test_news_told_before_a_question_is_read(
    parser: NameRecognizer, text: str, fact: tuple[str, str]
) -> None:
    assert fact in _typed(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "If I move to Leeds, what should I pack?",
        "When I work at Ocado, how do I ask for a raise?",
        "My sister moved to Leeds, any tips for visiting?",
        "Should I move to Leeds, what do you think?",
    ],
)
def test_a_condition_or_someone_elses_news_before_a_question_is_not_the_speakers(
    parser: NameRecognizer, text: str
) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"lives_in", "works_at"}


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        ("the newest member of the family is a rescue greyhound called Pickle!", ("dog", "Pickle")),
        (
            "the house felt empty so we've brought home a little ginger kitten, Marmalade.",
            ("cat", "Marmalade"),
        ),
        ("We've got a new pup now, a collie named Zuri, and she is pure chaos.", ("dog", "Zuri")),
        ("the latest addition to our house is a tortoise named Sheldon", ("tortoise", "Sheldon")),
        ("so the hamster answers to Nugget now", ("hamster", "Nugget")),
    ],
)
def test_a_pet_named_in_the_speakers_news_whatever_the_verb(
    parser: NameRecognizer, text: str, pet: tuple[str, str]
) -> None:
    typed = _typed(parser, text)
    assert pet in typed
    assert not any(key == "lives_in" for key, _ in typed)  # "a kitten, Marmalade" is no town


@pytest.mark.parametrize(
    "text",
    [
        "My sister has a dog called Rex.",
        "A dog called Rex bit me.",
        "My neighbour's kid has a hamster called Fluff",
        "I'd love a cat called Mochi",
        "I'm looking after a dog called Rex this week",
        "I'm walking a spaniel named Bo for my neighbour",
        "A dog answers to Rex",
        "My sister's dog answers to Rex",
    ],
)
def test_no_pet_of_someone_elses_a_stray_or_a_wish(parser: NameRecognizer, text: str) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"dog", "cat", "hamster"}


def test_a_vehicle_one_is_in_now_not_this_minute_and_not_someone_elses(parser: NameRecognizer) -> None:
    assert ("drives", "a Triumph Trident") in _typed(
        parser, "The MT-07 got written off. I'm on a Triumph Trident now."
    )
    assert not _typed(parser, "I'm in a Toyota Yaris right now, stuck in traffic")
    assert not _typed(parser, "My mum is in a Kia Picanto now")


def test_poached_by_an_employer_and_not_almost(parser: NameRecognizer) -> None:
    assert ("works_at", "Dassault") in _typed(
        parser, "Got poached by Dassault last month, so it's all new now."
    )
    assert ("works_at", "Best Buy") in _typed(parser, "long story short I got poached by Best Buy")
    assert not _typed(parser, "I almost got poached by Arup")
    assert not _typed(parser, "My sister got poached by Google")


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("as a chef I basically never see my family at weekends, how do others cope?", ("works_as", "chef")),
        ("As a vegan I struggle to get enough protein, any tips?", ("diet", "vegan")),
        ("As a software engineer, I spend all day sitting", ("works_as", "software engineer")),
    ],
)
def test_the_role_a_clause_of_the_speakers_opens_with(
    parser: NameRecognizer, text: str, fact: tuple[str, str]
) -> None:
    assert fact in _typed(parser, text)


@pytest.mark.parametrize(
    "text",
    ["As a kid I lived in Paris.", "As a former nurse, I know this.", "As a nurse, my sister works nights."],
)
def test_no_role_of_a_child_one_had_or_someone_elses(parser: NameRecognizer, text: str) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"works_as", "diet"}


def test_a_town_traded_for_another_moves_the_speaker(parser: NameRecognizer) -> None:
    facts = read_facts(
        parser, "Swapped Denver for Phoenix at the end of summer, trading snow for sunscreen lol."
    )
    assert [(key, value) for key, value, _ in facts if key in {"lives_in", "drives"}] == [
        ("lives_in", "Phoenix")
    ]
    assert not _typed(parser, "My sister swapped Leeds for York")
    assert not _typed(parser, "I swapped my shift for Tuesday")


def _named(parser: NameRecognizer, text: str) -> list[str]:
    turn = TurnText("t1", "user", text, SAID_AT, UNKNOWN_SPEAKER)
    return [fact.value for fact in extract_turns([turn], recognizer=parser).facts if fact.key == "name"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("hi it's Ngozi! quick question about budgeting apps - which ones don't sell your data?", "Ngozi"),
        ("It's Bartek - you helped me with my CV a while back. Got another question", "Bartek"),
        ("This is Imogen here again, quick one", "Imogen"),
        ("Could you help me draft a complaint to my landlord about the damp? Cheers, Eilidh", "Eilidh"),
        ("need help writing a toast for my brother's wedding. thanks a million - Tadhg", "Tadhg"),
        ("I go by Kit, short for Christopher, nobody uses the full thing except my gran", "Kit"),
    ],
)
def test_a_name_a_message_opens_or_signs_off_with(parser: NameRecognizer, text: str, name: str) -> None:
    assert _named(parser, text) == [name]


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, Claude",
        "it's Monday - ugh",
        "it's March already, time flies",
        "It's Sarah's birthday tomorrow",
    ],
)
def test_no_name_from_the_assistants_a_day_or_someone_elses(parser: NameRecognizer, text: str) -> None:
    assert _named(parser, text) == []


_PIECES = ["oskar.nowak@uni.example.edu", "example.com", "I", "moved", "to", "Leeds", ",", "...", "…",
           " - ", "—", "any tips", "how do I", "can you", "?", "!", ".", "if", "as a", "\n"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14))
def test_chat_spelling_reads_any_text_without_failing(pieces: list[str]) -> None:
    # a stop inside a word ("example.com - any thoughts?") once had no sentence start to find and raised
    text = " ".join(pieces)
    assert isinstance(normalise_first_person(text), str)


def test_a_question_after_an_address_with_stops_in_it(parser: NameRecognizer) -> None:
    assert isinstance(read_facts(parser, "see example.com - any thoughts?"), list)
    read_facts(parser, "Contact email for my CV is oskar.nowak@uni.example.edu, can you format the header?")


def _dated(parser: NameRecognizer, text: str, at: datetime) -> list[tuple[str, date | None]]:
    turn = TurnText("t1", "user", text, at, "Kim")
    facts = extract_turns([turn], recognizer=parser).facts
    return [(f.statement, f.event_time.date() if f.event_time else None) for f in facts]


@pytest.mark.parametrize(
    ("text", "at", "about", "day"),
    [
        # an occasion gone by is dated the last such day, not the next
        ("the citizenship ceremony was on 12 June - I cried!", "2025-06-20", "ceremony", "2025-06-12"),
        ("my exam was on Friday", "2025-06-20", "exam", "2025-06-13"),
        # a weekday said with its date: the date decides
        ("dentist appointment is on Thursday 13 March at 9am", "2025-03-03", "dentist", "2025-03-13"),
        # the day set apart from its month by the parse
        ("physio moved me back a week, so it's 9 May now, same time", "2025-04-28", "physio", "2025-05-09"),
        # a result clause is told as so whatever the clause before denies
        ("they couldn't do Friday so the interview's swapped to Tuesday the 21st", "2025-01-15", "interview",
         "2025-01-21"),
    ],
)  # fmt: skip
def test_dates_point_the_way_the_clause_does(
    parser: NameRecognizer, text: str, at: str, about: str, day: str
) -> None:
    said = datetime.fromisoformat(at).replace(hour=9, tzinfo=UTC)
    dated = [when for statement, when in _dated(parser, text, said) if about in statement.casefold()]
    assert date.fromisoformat(day) in dated


def test_the_job_one_left_something_to_be(parser: NameRecognizer) -> None:
    typed = _typed(parser, "I left the NHS in the summer to be a wedding photographer full-time.")
    assert ("works_as", "wedding photographer") in typed
    assert ("works_as", "high school math teacher") in _typed(
        parser, "I quit tech in spring to be a high school math teacher."
    )
    assert not _typed(parser, "My sister quit to be a nurse")
    assert not _typed(parser, "I'll quit to be a nurse")


def test_someone_elses_favourite_is_no_new_favourite_of_the_speakers(parser: NameRecognizer) -> None:
    # with its stop, "Heat is my dad's favourite" parsed as a favourite of "my"
    assert not [key for key, _, _ in read_facts(parser, "Heat is my dad's favourite.") if "favourite" in key]


def _chat(parser: NameRecognizer, *turns: str) -> set[tuple[str, str]]:
    said = [
        TurnText(f"t{i}", "assistant" if turn.startswith("a: ") else "user", turn[3:], SAID_AT, "Kim")
        for i, turn in enumerate(turns)
    ]
    return {(f.key, f.value) for f in extract_turns(said, recognizer=parser).facts}


def test_an_answer_to_the_listeners_still_question_names_the_new_value(parser: NameRecognizer) -> None:
    asked = "a: Who are you working for these days — still Infosys?"
    assert ("works_at", "Zoho") in _chat(parser, asked, "u: no, Zoho for the last two months, in Chennai.")
    asked = "a: Are you still at the Walmart distribution center?"
    assert ("works_at", "UPS") in _chat(parser, asked, "u: nah UPS since november, full time driver now")
    asked = "a: are you still around Plymouth, or somewhere else these days?"
    assert ("lives_in", "Norwich") in _chat(parser, asked, "u: Norwich since February! new job.")
    assert not {key for key, _ in _chat(parser, "a: Are you still at Tesco?", "u: yes, still there")}


@pytest.mark.parametrize(
    ("text", "partner"),
    [
        ("I've been going out with Theo for a few months now", "Theo"),
        ("I'm head over heels with a lovely man called Ivan", "Ivan"),
        ("I asked Hollie to be my girlfriend last night and she said yes", "Hollie"),
        ("Sameer asked me to be his boyfriend and I said yes!", "Sameer"),
    ],
)
def test_someone_new_told_by_how_one_is_with_them(parser: NameRecognizer, text: str, partner: str) -> None:
    assert ("partner", partner) in _typed(parser, text)


@pytest.mark.parametrize(
    "text",
    ["My sister is going out with Tom", "I'm in love with Paris", "Tom asked me to be his best man",
     "I asked Hollie to be my girlfriend but she said no"],
)  # fmt: skip
def test_no_partner_of_someone_elses_a_place_loved_or_a_no(parser: NameRecognizer, text: str) -> None:
    assert not {key for key, _ in _typed(parser, text)} & {"partner", "girlfriend", "boyfriend"}


def test_after_a_job_as_any_noun_names_the_post(parser: NameRecognizer) -> None:
    typed = _typed(parser, "I landed a job as a clinical research associate in London.")
    assert ("works_as", "clinical research associate") in typed


def test_the_place_of_those_one_lives_with_is_where_one_lives(parser: NameRecognizer) -> None:
    assert ("lives_in", "Omaha") in _typed(parser, "living with my parents in Omaha to save money, any apps?")


def _names_of(parser: NameRecognizer, *turns: str) -> list[str]:
    said = [
        TurnText(
            f"t{i}", "assistant" if turn.startswith("a: ") else "user", turn[3:], SAID_AT, UNKNOWN_SPEAKER
        )
        for i, turn in enumerate(turns)
    ]
    return [f.value for f in extract_turns(said, recognizer=parser).facts if f.key == "name"]


def test_a_name_the_reply_addresses_the_user_by_after_any_opening(parser: NameRecognizer) -> None:
    assert _names_of(
        parser, "u: Bartholomew at your service, I need a limerick", "a: Happy to help, Bartholomew!"
    )
    assert _names_of(parser, "u: Imani reporting for duty lol.", "a: Let's do it, Imani — two weeks") == [
        "Imani"
    ]
    assert _names_of(parser, "u: I moved to Leeds last month", "a: Great choice, Leeds! A lively city.") == []
    assert _names_of(parser, "u: My friend Tom is visiting", "a: That's lovely, Tom will enjoy it.") == []


def test_a_pet_named_in_a_later_clause_or_got_by_winning_or_inheriting(parser: NameRecognizer) -> None:
    named = _typed(parser, "I bought a betta fish today, he's blue and red and I named him Raja.")
    assert ("fish", "Raja") in named
    assert ("goldfish", "Sharky") in _typed(parser, "I won a goldfish at the fair and named it Sharky")
    assert not _typed(parser, "My sister got a greyhound. She's called Pepper.")


def test_now_said_of_a_copula_the_parse_hung_lower(parser: NameRecognizer) -> None:
    # with the closing stop the parse hangs "now" on "called"; the employer is told as now all the same
    said = "update: I changed jobs, I'm at a fintech startup called Lumo now"
    assert ("works_at", "a fintech startup called Lumo") in _typed(parser, said)


def _ends(parser: NameRecognizer, text: str) -> list[str]:
    turn = TurnText("t1", "user", text, SAID_AT, "Kim")
    return [
        w for f in extract_turns([turn], recognizer=parser).facts if f.key == "ended" for w in f.ends_words
    ]


def test_what_an_ending_names_its_number_a_membership_and_what_one_is_over(parser: NameRecognizer) -> None:
    assert _ends(parser, "finally scrapped the 207, failed its MOT on everything.") == ["207"]
    assert "director" not in _ends(parser, "I cancelled my choir membership, the new director and I clashed.")
    assert "choir" in _ends(parser, "I cancelled my choir membership, the new director and I clashed.")
    assert _ends(parser, "I'm so over crossfit, the culture got toxic") == ["crossfit"]
    assert _ends(parser, "I'm over the moon") == []
    assert _ends(parser, "I sold 3 of them") == []
