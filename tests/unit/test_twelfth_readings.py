"""Readings of the twelfth session on learning, each with its near misses: an appointment's day however
it is written (a weekday run on into its date, a date in figures, a short weekday); a message the
speaker got, quoted, whose "you" is the speaker; an office that does something to the speaker is no
employer."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from agentx_memory.extraction.dedup import StoredFact, decide
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import TurnText, extract_turns
from agentx_memory.extraction.substance import unworthy
from tests.reading import read_facts, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)

#: A Tuesday.
SAID = datetime(2025, 9, 2, 9, tzinfo=UTC)


def _appointments(parser: NameRecognizer, text: str) -> list[str]:
    return [
        statement for key, _, statement in read_facts(parser, text, at=SAID) if key.startswith("appointment_")
    ]


@pytest.mark.parametrize(
    ("text", "day"),
    [
        # the parse hangs the date off the weekday: the whole phrase is the time
        (
            "I changed the cleaning appointment to Thursday 25 September since I have a deadline.",
            "25 September 2025",
        ),
        ("My MRI got moved to Wednesday 8th October at 2pm.", "8 October 2025"),
        ("Dentist rebooked me for 3rd Nov.", "3 November 2025"),
        # a date in figures, with a weekday that says which number is the month
        ("hair appt update: fri 12/9, 17:30.", "12 September 2025"),
        ("The physio appointment is now tues 16/9 at 10.", "16 September 2025"),
        ("My dentist appointment is on 14/10 at 9.", "14 October 2025"),
        # a short weekday: the coming one for what is booked
        ("I've got the optician on thurs.", "4 September 2025"),
    ],
)
def test_an_appointment_is_on_the_day_however_it_is_written(
    parser: NameRecognizer, text: str, day: str
) -> None:
    said = _appointments(parser, text)
    assert len(said) == 1
    assert f"({day})" in said[0]


@pytest.mark.parametrize(
    "text",
    [
        "The vet moved Biscuit's jabs to 2/11.",  # 2 November or 11 February: not said which
        "My appointment went 9/10, great dentist.",  # a score
    ],
)
def test_figures_that_may_be_either_day_date_nothing(parser: NameRecognizer, text: str) -> None:
    assert not any(re.search(r"\(\d+ \w+ \d{4}\)", s) for s in _appointments(parser, text))


@pytest.mark.parametrize(
    ("text", "thing", "day"),
    [
        (
            "Got this text: 'Royal Free Radiology: your MRI appointment is now Mon 10 Feb 09:40. Reply Y "
            "to confirm.' What time do I need to leave Finchley?",
            "MRI appointment",
            "10 February 2026",
        ),
        (
            "Just got an email from the clinic: 'Your physio appointment has been moved to Thursday 18th "
            "September at 3pm.'",
            "physio appointment",
            "18 September 2025",
        ),
    ],
)
def test_a_quoted_message_to_the_speaker_tells_their_appointment(
    parser: NameRecognizer, text: str, thing: str, day: str
) -> None:
    said = _appointments(parser, text)
    assert said == [f"Kim's {thing} is on {said[0].split(' is on ', 1)[1]}"]
    assert f"({day})" in said[0]


@pytest.mark.parametrize(
    "text",
    [
        # the sender's "we" is theirs, not the speaker's household
        "The garage texted me: 'We are moving to new premises in Leeds next month.'",
        "My landlord emailed me: 'We live in Spain now, contact the agent.'",
        # nor the sender's "I"
        "Got a text from Tom: 'I'm moving to Leeds next month, my new job starts then!'",
    ],
)
def test_a_quoted_senders_we_is_not_the_speaker(parser: NameRecognizer, text: str) -> None:
    assert not [pair for pair in read_facts(parser, text, at=SAID) if pair[0] == "lives_in"]


@pytest.mark.parametrize(
    "text",
    [
        "the GI office put me down for March 6th, they had a scheduling mess.",
        "The Barclays team called me back about the mortgage.",
        "the passport office sent me a letter.",
    ],
)
def test_an_office_that_acts_on_the_speaker_is_no_employer(parser: NameRecognizer, text: str) -> None:
    assert not [pair for pair in read_facts(parser, text, at=SAID) if pair[0] == "works_at"]


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I just started at Monzo, the office is in London.", "Monzo"),
        ("My Deloitte team took me out for lunch on my first day.", "Deloitte"),
    ],
)
def test_an_office_or_team_of_the_speakers_own_is_still_the_employer(
    parser: NameRecognizer, text: str, employer: str
) -> None:
    assert ("works_at", employer) in {(k, v) for k, v, _ in read_facts(parser, text, at=SAID)}


def _read(parser: NameRecognizer, text: str) -> set[tuple[str, str]]:
    return {(key, value) for key, value, _ in read_facts(parser, text, at=SAID)}


@pytest.mark.parametrize(
    ("text", "occupation"),
    [
        # "a children's librarian": a plural possessive that says what kind is nobody's
        ("I landed a position as a children's librarian at the county library!", "children's librarian"),
        ("I started a new role as a women's health physio this week.", "women's health physio"),
    ],
)
def test_a_post_of_a_kind_is_the_speakers_job(parser: NameRecognizer, text: str, occupation: str) -> None:
    assert ("works_as", occupation) in _read(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "I turned down a role as a nurse at St James's.",
        "I passed on the job as a courier at DPD.",
        "I passed up a position as head of maths.",
        "My kids' school hired a new librarian.",  # the kids' own: another's news
    ],
)
def test_a_post_said_no_to_or_someone_elses_is_no_job(parser: NameRecognizer, text: str) -> None:
    assert not [pair for pair in _read(parser, text) if pair[0] in {"works_as", "works_at"}]


@pytest.mark.parametrize(
    ("text", "vehicle"),
    [
        ("Work gave me a BMW i4 as a company car.", "BMW i4"),
        ("My dad handed his Toyota Prius down to me.", "Toyota Prius"),
        ("Mum gave me her old Nissan Micra when she got her new one.", "Nissan Micra"),
        ("My brother sold me his Honda Jazz for a grand.", "Honda Jazz"),
        ("Got given my grandad's old Volvo 240 when he stopped driving, it's a tank lol", "Volvo 240"),
    ],
)
def test_a_vehicle_given_to_the_speaker_is_theirs(parser: NameRecognizer, text: str, vehicle: str) -> None:
    assert any(key == "drives" and value.endswith(vehicle) for key, value in _read(parser, text))


@pytest.mark.parametrize(
    "text",
    [
        "My friend gave me a lift in his BMW.",  # a lift, not the car
        "Mum lent me her Nissan Micra for the week.",  # for a while
        "My dad might give me his Toyota Prius.",
        "Dad didn't give me his Volvo XC90 in the end.",
        "I gave my sister my old Fiat Panda.",  # given away
        "My sister got given a Fiat 500 for her birthday.",
    ],
)
def test_a_vehicle_lent_offered_or_given_away_is_not_the_speakers(parser: NameRecognizer, text: str) -> None:
    assert not [pair for pair in _read(parser, text) if pair[0] == "drives"]


def _stored(claim: str, key: str) -> StoredFact:
    return StoredFact(
        id="f1",
        claim=claim,
        subject="Kim",
        key=key,
        value=None,
        negated=False,
        source_turn_ids=("t0",),
        fact_kind="statement",
        similarity=0.2,
        stated_at=datetime(2025, 3, 1, tzinfo=UTC),
    )


@pytest.mark.parametrize(
    ("ending", "claim", "ended"),
    [
        ("I'm done with WoW, uninstalled it last month.", "Kim plays a lot of World of Warcraft.", True),
        ("Finally quit GoT halfway through season 6.", "Kim is rewatching Game of Thrones.", True),
        ("I'm done with WoW, uninstalled it last month.", "Kim plays a lot of Words with Friends.", False),
        ("Wow, I'm done with this week.", "Kim plays a lot of World of Warcraft.", False),
    ],
)
def test_an_ending_names_a_title_by_its_initials(
    parser: NameRecognizer, ending: str, claim: str, ended: bool
) -> None:
    turn = TurnText("t1", "user", ending, SAID, "Kim")
    atoms = [a for a in extract_turns([turn], recognizer=parser).facts if a.ends_words or a.ends]
    decisions = [decide(atom, [_stored(claim, "said")], SAID) for atom in atoms]
    assert any(d.action == "supersede" for d in decisions) is ended


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # a past verb after a comma with its "I" left out, after the speaker's clause or none
        ("Moved to Leeds in May, got a job at Arup.", ("works_at", "Arup")),
        ("I'm in Leeds now, started at Arup last week.", ("works_at", "Arup")),
        # after a clause whose subject is not put back, read as it is
        ("Been fully vegan since March, cut out dairy too.", ("diet", "vegan")),
    ],
)
def test_a_clause_spliced_on_with_its_subject_left_out_is_the_speakers(
    parser: NameRecognizer, text: str, fact: tuple[str, str]
) -> None:
    assert fact in _read(parser, text)


@pytest.mark.parametrize(
    ("text", "ended"),
    [
        ("I'm car-free now, sold the Golf in May.", "Golf"),
        ("Big week, broke up with Tom.", "Tom"),
    ],
)
def test_an_ending_spliced_on_is_the_speakers(parser: NameRecognizer, text: str, ended: str) -> None:
    facts = extract_turns([TurnText("t1", "user", text, SAID, "Kim")], recognizer=parser).facts
    assert any(ended.casefold() in {w.casefold() for w in fact.ends_words} for fact in facts)


@pytest.mark.parametrize(
    "text",
    [
        "My sister's in Leeds now, moved in May, got a job at Arup.",  # the sister's clause
        "Tom quit his job, started at Arup.",
        "My flat, painted blue last year, is by the park.",  # a participle on a noun
    ],
)
def test_a_spliced_clause_after_someone_elses_is_not_the_speakers(parser: NameRecognizer, text: str) -> None:
    assert not [pair for pair in _read(parser, text) if pair[0] in {"works_at", "lives_in"}]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I swapped my old van for a Transit Custom.", ("drives", "a Transit Custom")),
        ("Swapped London for Leeds last year.", ("lives_in", "Leeds")),
    ],
)
def test_a_swap_is_of_the_slot_its_values_are_of(
    parser: NameRecognizer, text: str, fact: tuple[str, str]
) -> None:
    read = _read(parser, text)
    assert fact in read
    assert len([pair for pair in read if pair[0] in {"drives", "lives_in"}]) == 1


def test_a_bank_swapped_for_a_bank_is_no_vehicle(parser: NameRecognizer) -> None:
    assert not [
        pair for pair in _read(parser, "Swapped Barclays for Monzo last month.") if pair[0] == "drives"
    ]


@pytest.mark.parametrize(
    "text",
    ["We lost our dog Bailey in the spring.", "We had to put our cat Smudge down last week."],
)
def test_a_pet_lost_is_no_pet_now(parser: NameRecognizer, text: str) -> None:
    facts = extract_turns([TurnText("t1", "user", text, SAID, "Kim")], recognizer=parser).facts
    assert not [fact for fact in facts if fact.key in {"dog", "cat"}]
    assert [fact for fact in facts if fact.key == "ended"]


@pytest.mark.parametrize(
    ("text", "pet"),
    [("Meet Rolo, our new puppy!", "Rolo"), ("Our puppy Biscuit chewed my shoes.", "Biscuit")],
)
def test_a_pet_named_in_passing_is_still_a_pet(parser: NameRecognizer, text: str, pet: str) -> None:
    assert ("dog", pet) in _read(parser, text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a split told in the past stays in the past, and its month is the last one
        ("Dom and I called it quits in June.", "Kim and Dom broke up in June (June 2025)."),
        ("I split up with Tom in June.", "Kim split up with Tom in June (June 2025)."),
    ],
)
def test_a_split_said_in_the_past_is_dated_back(parser: NameRecognizer, text: str, said: str) -> None:
    assert said in [statement for _, _, statement in read_facts(parser, text, at=SAID)]


@pytest.mark.parametrize(
    "text",
    [
        "I almost moved to Leeds last year.",
        "I nearly took the job at Arup.",
        "I almost went vegan once.",
        "I nearly bought a Tesla but went for the bus pass instead.",
    ],
)
def test_what_almost_happened_did_not(parser: NameRecognizer, text: str) -> None:
    assert not [p for p in _read(parser, text) if p[0] in {"lives_in", "works_at", "diet", "drives"}]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I've lived in Leeds for nearly 10 years.", ("lives_in", "Leeds")),
        ("I moved to Leeds almost a year ago.", ("lives_in", "Leeds")),
    ],
)
def test_almost_on_a_number_is_no_doubt(parser: NameRecognizer, text: str, fact: tuple[str, str]) -> None:
    assert fact in _read(parser, text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("I've got my driving test on the 14th of next month.", "(14 October 2025)"),
        ("My flight's been moved to 6am on the 3rd.", "(3 September 2025)"),
        ("My doctor's appointment got pushed to the 21st.", "(21 September 2025)"),
        ("They pushed my MRI to the 21st.", "(21 September 2025)"),
    ],
)
def test_an_appointment_moved_or_booked_is_on_its_coming_day(
    parser: NameRecognizer, text: str, said: str
) -> None:
    appointments = _appointments(parser, text)
    assert len(appointments) == 1
    assert said in appointments[0]
    assert appointments[0].startswith("Kim's ")


def test_moving_house_on_a_day_is_in_the_past(parser: NameRecognizer) -> None:
    # "moved to" of the speaker, not of an occasion: the last 3rd, no plan
    assert not _appointments(parser, "I moved to Leeds on the 3rd.")


@pytest.mark.parametrize(
    "statement",
    [
        "Gina is over the moon.",
        "Jon is stepping into the unknown and hoping for the best.",
        "Jon is livin' Jon's dreams now.",
        "Kim is on cloud nine.",
    ],
)
def test_a_set_phrase_of_how_one_feels_is_no_memory(statement: str) -> None:
    assert unworthy(statement, statement.split()[0]) == "a set phrase"


@pytest.mark.parametrize(
    "statement",
    [
        "Gina is over the moon about the new store.",  # says what of
        "Jon is living his dream of running a dance studio.",
        "Kim is hoping for the best with the surgery on Friday.",
    ],
)
def test_a_set_phrase_with_what_it_is_about_is_kept(statement: str) -> None:
    assert unworthy(statement, statement.split()[0]) is None
