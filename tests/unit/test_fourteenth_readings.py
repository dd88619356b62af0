"""The fourteenth session's readings, each with its near misses: endings told by what the speaker gave
back, a partner gone by name or told by what the two have together, chat's words for a partner, and
what a statement that called the former partner by the relation says."""

from __future__ import annotations

from typing import Any

import pytest

from agentx_memory.extraction.atoms import FactAtom
from agentx_memory.extraction.dedup import decide
from agentx_memory.extraction.dependants import former_names, leaning_on, of_the_former
from agentx_memory.extraction.frame_appointments import as_appointment
from agentx_memory.extraction.lexicon import ANY_APPOINTMENT, PARTNER_NOUNS
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import TurnText, extract_turns
from agentx_memory.extraction.stored import StoredFact
from agentx_memory.retrieval.time_phrases import find_time_phrase
from tests.reading import SAID_AT, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)


def _read(parser: NameRecognizer, text: str) -> list[FactAtom]:
    return extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts


def _endings(parser: NameRecognizer, text: str) -> list[tuple[list[str], list[str]]]:
    return [(sorted(f.ends), f.ends_words) for f in _read(parser, text) if f.key == "ended"]


_JOB = ["works_as", "works_at"]


@pytest.mark.parametrize(
    ("text", "ends", "words"),
    [
        ("Handed back my laptop and pass at Accenture this afternoon, so that's that.", _JOB, ["Accenture"]),
        ("Returned my badge and laptop to Deloitte on Friday, last day done.", _JOB, ["Deloitte"]),
        ("Handed my work phone back to Tesco today, that's me finished there.", _JOB, ["Tesco"]),
        ("I handed the Niro back on Tuesday and I'm not replacing it.", ["drives"], ["Niro"]),
        ("Gave the Corolla back to the lease company last week.", ["drives"], ["Corolla"]),
        ("Took the Golf back to the dealer at the end of the lease.", ["drives"], ["Golf"]),
        ("Handed back my Flyefit key fob yesterday.", [], ["Flyefit"]),
        ("Cleared my desk and handed my lanyard in at Barclays on Friday.", _JOB, ["Barclays"]),
        (
            "Dropped the Qashqai back at the dealership this morning, the lease is up.",
            ["drives"],
            ["Qashqai"],
        ),
        ("Sent the Tesla back to the leasing firm yesterday.", ["drives"], ["Tesla"]),
    ],
)
def test_what_the_speaker_gave_back_ends_what_it_names(
    parser: NameRecognizer, text: str, ends: list[str], words: list[str]
) -> None:
    assert (ends, words) in _endings(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "I handed back the essay to my tutor.",  # nothing of the speaker's that a fact names
        "She handed my laptop back after fixing it.",  # someone else gave it
        "I returned the library books on Monday.",
        "Can I hand back a rental car at a different branch?",  # asked
        "I handed back my old work laptop and got a new one.",  # a swap
        "I didn't hand the Golf back in the end.",
        "Handed back the marked exams to my students today.",
        "My brother handed the Polo back to the dealer.",
    ],
)
def test_giving_back_what_names_nothing_held_is_no_ending(parser: NameRecognizer, text: str) -> None:
    assert _endings(parser, text) == []


def test_a_car_taken_back_is_no_car_the_speaker_drives(parser: NameRecognizer) -> None:
    read = _read(parser, "Took the Golf back to the dealer at the end of the lease.")
    assert not [f for f in read if f.key == "drives"], read


_PARTNERS = sorted(PARTNER_NOUNS)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("(Ollie is long gone btw)", ["Ollie"]),
        ("Ollie's out of the picture now, by the way.", ["Ollie"]),
        ("Ollie is in the past, I'm focusing on me.", ["Ollie"]),
        ("Ollie and I fizzled out over the summer.", ["Ollie"]),
        ("Things with Ollie fizzled out in March.", ["Ollie"]),
        ("After Desmond fizzled out I took up climbing.", ["Desmond"]),
        ("It ended with Ollie a while ago.", ["Ollie"]),
        ("Ollie and I went our separate ways in June.", ["Ollie"]),
        ("We called it quits in the spring.", []),  # whoever is current
        ("Things with Sean petered out in the autumn.", ["Sean"]),
        ("Noor is well and truly out of the picture.", ["Noor"]),
        ("We went our separate ways back in May.", []),
    ],
)
def test_a_partner_gone_by_name_or_a_couple_that_faded(
    parser: NameRecognizer, text: str, named: list[str]
) -> None:
    assert (_PARTNERS, named) in _endings(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "Ollie is long gone from the office, he retired.",
        "The snow is long gone.",
        "Ollie and I went our separate ways at the station and I took the bus.",
        "The match ended with Ollie scoring twice.",
        "Is Ollie out of the picture?",
        "The pain in my knee is long gone now.",
    ],
)
def test_no_parting_from_a_place_left_a_thing_gone_or_a_day_apart(parser: NameRecognizer, text: str) -> None:
    assert not [e for e in _endings(parser, text) if e[0] == _PARTNERS], _endings(parser, text)


def _partners(parser: NameRecognizer, text: str) -> set[str]:
    return {f.value for f in _read(parser, text) if f.subject == "Kim" and f.key in PARTNER_NOUNS}


@pytest.mark.parametrize(
    ("text", "partner"),
    [
        ("Ideas for a 3-month anniversary with Iker?", "Iker"),  # taken for granted in a question
        ("Me and Jess hit a year together on Saturday!", "Jess"),
        ("Temi and I just signed the lease on our first flat together.", "Temi"),
        ("Celebrating two years with Marco tomorrow!", "Marco"),
        ("Meeting Liam's parents this weekend, what gift should I bring?", "Liam"),
        ("Went on a third date with Priya last night and it was lovely.", "Priya"),
        ("My bloke Mitch reckons we should do the Cape to Cape track.", "Mitch"),
        ("the missus — Tasha — wants a dog. what breed for a small terrace?", "Tasha"),
        ("Leila and I just hit six months together!", "Leila"),
        ("Callum and I bought our first house together in March.", "Callum"),
        ("The wife, Rhiannon, says I snore.", "Rhiannon"),
    ],
)
def test_a_partner_told_by_what_the_two_have_together(
    parser: NameRecognizer, text: str, partner: str
) -> None:
    assert partner in _partners(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My friend Sam and I signed the lease on our first flat together.",
        "My sister Jo and I bought a house together.",
        "My work anniversary with Google is next week.",
        "Meeting my boss's parents at the company party.",
        "Me and Jess split after a year together.",
        "I hope to celebrate two years with Marco one day.",
        "The wife of the landlord, Tasha, is lovely.",
        "Celebrating five years with Unilever next week!",
        "Me and my mate Tom hit ten years of friendship together.",
        "My brother and I bought a flat together as an investment.",
    ],
)
def test_no_partner_from_a_friend_a_relation_an_employer_or_a_parting(
    parser: NameRecognizer, text: str
) -> None:
    assert _partners(parser, text) == set(), _read(parser, text)


def _stored(fact_id: str, subject: str, key: str, value: str, claim: str = "", **more: Any) -> StoredFact:
    fields: dict[str, Any] = {"temporal": "current", "stated_at": SAID_AT, **more}
    kind = fields.pop("kind", "statement")
    return StoredFact(
        fact_id, claim or f"{subject} {key} {value}", subject, key, value, False, (), kind, 0.0, **fields
    )


def test_what_was_said_of_the_former_partner_by_the_relation_goes_with_them() -> None:
    old = _stored("bf", "Sofia", "boyfriend", "Álvaro", kind="relationship")
    assert former_names(old) == ["Álvaro", "Sofia's boyfriend"]
    said = _stored(
        "forgot",
        "Sofia's boyfriend",
        "said",
        "Sofia's boyfriend Álvaro forgot Valentine's again",
        claim="Sofia's boyfriend Álvaro forgot Valentine's AGAIN.",
        temporal="past",
    )
    trip = _stored("trip", "Álvaro", "did", "went to Lisbon", claim="Álvaro went to Lisbon.", temporal="past")
    later = _stored("later", "Sofia's boyfriend", "said", "x", stated_at=SAID_AT.replace(year=2027))
    assert of_the_former(old, [said, trip, later], SAID_AT.replace(month=12)) == ["forgot"]
    # the user's own statement that calls him her boyfriend goes too; one that only names him stays
    hers = _stored("hers", "Sofia", "said", "x", claim="Sofia's boyfriend Álvaro cooked.", temporal="past")
    met = _stored("met", "Sofia", "said", "x", claim="Sofia met Álvaro at a gig.", temporal="past")
    assert leaning_on(old, [hers, met], None) == ["hers"]
    # a sister, a car: none of theirs is looked for
    assert former_names(_stored("sis", "Sofia", "sister", "Ana", kind="relationship")) == []
    assert former_names(_stored("car", "Sofia", "drives", "a Clio", kind="identity")) == []


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Had my first bacon sandwich in twelve years this morning", "this morning"),
        ("the best night out in 3 years", None),
        ("for the first time in 10 years I ran", None),
        ("my first shift is in two weeks", "in two weeks"),  # the shift's time, said with a verb
        ("I fly out in two weeks", "in two weeks"),
    ],
)
def test_a_first_or_best_in_years_is_a_span_looked_back_over(text: str, phrase: str | None) -> None:
    found = find_time_phrase(text, SAID_AT)
    assert (found.time_range.phrase if found is not None else None) == phrase


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("Had my first bacon sandwich in twelve years this morning and honestly it was amazing.", True),
        ("Ate my first burger in ages last night.", True),
        ("My sister had her first steak in years.", False),  # hers
        ("My first steak was at a wedding in 2009.", False),
    ],
)
def test_the_first_meat_in_years_ends_a_diet_without_it(
    parser: NameRecognizer, text: str, ends: bool
) -> None:
    assert bool([e for e in _endings(parser, text) if e[0] == ["diet"]]) is ends


@pytest.mark.parametrize(
    "text",
    [
        "My first steak in a decade is booked for Friday at Hawksmoor.",
        "Our first dinner out booked at Dishoom!",
    ],
)
def test_a_table_booked_somewhere_is_no_employer(parser: NameRecognizer, text: str) -> None:
    assert not [f for f in _read(parser, text) if f.key == "works_at"]


@pytest.mark.parametrize(
    ("text", "pet"),
    [
        (
            "What's the best food for a 10 week old springer? Rosie has her first vet visit Thursday.",
            ("dog", "Rosie"),
        ),
        ("booked Luna in for her desexing next week, she's a 5 month old kelpie.", ("dog", "Luna")),
        ("Pickle is booked in to be spayed on Friday.", ("pet", "Pickle")),
        ("Bramble's booked in at the groomers on Saturday.", ("pet", "Bramble")),
        ("Need to get Ziggy neutered before he's six months.", ("pet", "Ziggy")),
    ],
)
def test_a_pet_told_by_the_care_only_a_pet_gets(
    parser: NameRecognizer, text: str, pet: tuple[str, str]
) -> None:
    assert ("Kim", *pet) in {(f.subject, f.key, f.value) for f in _read(parser, text)}


@pytest.mark.parametrize(
    "text",
    [
        "My sister's dog Rosie has the vet on Monday.",
        "I'm looking after my neighbour's cat Tom, he needs his worming tablet.",
        "My son Jack wants to be a vet.",
        "Dr Patel the vet was lovely.",
    ],
)
def test_no_pet_of_the_speakers_from_someone_elses_a_vet_or_a_wish(parser: NameRecognizer, text: str) -> None:
    assert not [f for f in _read(parser, text) if f.subject == "Kim" and f.key in {"pet", "dog", "cat"}]


def test_a_title_after_a_name_is_part_of_it(parser: NameRecognizer) -> None:
    read = {(f.key, f.value) for f in _read(parser, "My favourite film is Love Actually, obviously.")}
    assert read == {("favourite_film", "Love Actually")}


def _appointment_claims(parser: NameRecognizer, text: str) -> set[tuple[str, str]]:
    return {(f.key, f.statement) for f in _read(parser, text) if f.key.startswith("appointment_")}


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("Clinic called, they have preponed it to 20th June same time.", "Kim's appointment is on 20th June"),
        ("The PSK has preponed my appointment to Tuesday 19th.", "Kim's appointment is on Tuesday 19th"),
        (
            "the GI office put me down for March 6th, they had a scheduling mess.",
            "Kim's appointment is on March 6th",
        ),
        ("I moved it to next Tuesday.", "Kim's appointment is next Tuesday"),
    ],
)
def test_an_appointment_moved_without_saying_which_is_filed_as_any(
    parser: NameRecognizer, text: str, claim: str
) -> None:
    assert [key for key, said in _appointment_claims(parser, text) if said.startswith(claim)] == [
        ANY_APPOINTMENT
    ]


@pytest.mark.parametrize(
    ("text", "hour"),
    [
        (
            "I rescheduled my passport appointment to 26 July, 2:30 pm slot, because of office travel.",
            "at 2:30 pm",
        ),
        ("hair appt update: fri 13/9, 17:30. remind me thursday night instead", "at 17:30"),
        ("My MRI is on Monday, 3 February.", "Monday 3 February (3 February"),
    ],
)
def test_the_hour_or_date_after_a_comma_stays_with_the_day(
    parser: NameRecognizer, text: str, hour: str
) -> None:
    assert [said for _, said in _appointment_claims(parser, text) if hour in said]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            "Please help me plan the route to the consulate for my visa interview on 17 February.",
            "appointment_visa_interview",
        ),
        ("Can I put fake tan on before my skin check on 2 September?", "appointment_skin_check"),
    ],
)
def test_an_appointment_a_request_takes_for_granted(parser: NameRecognizer, text: str, key: str) -> None:
    assert key in {k for k, _ in _appointment_claims(parser, text)}


@pytest.mark.parametrize(
    "text", ["My dentist appointment on Tuesday got cancelled.", "I missed my physio session on Monday."]
)
def test_no_appointment_from_one_called_off_or_missed(parser: NameRecognizer, text: str) -> None:
    assert _appointment_claims(parser, text) == set()


def _event(fact_id: str, key: str, claim: str, day: int, said: int) -> StoredFact:
    at = SAID_AT.replace(month=6, day=day)
    return _stored(
        fact_id, "Kim", key, claim, claim, kind="event", event_time=at, stated_at=at.replace(day=said)
    )


def test_a_move_of_any_appointment_supersedes_the_one_to_come_and_only_one() -> None:
    moved = FactAtom(
        fact_kind="event", subject="Kim", statement="Kim's appointment is on 20 June.", key=ANY_APPOINTMENT,
        value="on 20 June",
    )  # fmt: skip
    canal = _event("canal", "appointment_root_canal", "Kim's root canal is on 28 June at 4 pm.", 28, 3)
    said = SAID_AT.replace(month=6, day=12)
    decision = decide(moved, [canal], said)
    assert (decision.action, decision.target) == ("supersede", canal)
    gone = _event("gone", "appointment_dentist", "Kim's dentist is on 1 June.", 1, 1)  # before the move
    assert decide(moved, [canal, gone], said).target == canal
    mot = _event("mot", "appointment_mot", "Kim's MOT is on 30 June.", 30, 4)
    assert decide(moved, [canal, mot], said).action == "add"  # which of the two is not said
    assert as_appointment(moved, canal.key or "", canal.claim).statement == "Kim's root canal is on 20 June."
    # learned the other way round: the appointment is history beside the move said after it
    stored_move = _stored(
        "move", "Kim", ANY_APPOINTMENT, "on 20 June", moved.statement, kind="event", stated_at=said
    )
    first = FactAtom(
        fact_kind="event",
        subject="Kim",
        statement=canal.claim,
        key="appointment_root_canal",
        value="on 28 June",
    )
    assert decide(first, [stored_move], SAID_AT.replace(month=6, day=3)).action == "past"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("My knees have given up on running so I've taken up swimming instead.", ["running"]),
        ("Photography has taken a back seat, I sold the Nikon.", ["Photography"]),
        ("The band's not happening anymore and I'm not picking the guitar up again.", ["guitar"]),
        ("I'm never playing rugby again after that injury.", ["rugby"]),
    ],
)
def test_a_pastime_the_body_gave_up_put_aside_or_never_taken_up_again(
    parser: NameRecognizer, text: str, words: list[str]
) -> None:
    assert ([], words) in _endings(parser, text)


@pytest.mark.parametrize(
    "text",
    [
        "My sister's knees have given up on running.",
        "I'm not picking the kids up again today, it's your turn.",
        "I'll never play that song again.",
        "Safety took a back seat in the design.",
    ],
)
def test_no_pastime_ends_for_someone_else_a_day_a_song_or_a_design(parser: NameRecognizer, text: str) -> None:
    assert _endings(parser, text) == []


def test_a_first_open_mic_somewhere_is_no_first_day_at_work(parser: NameRecognizer) -> None:
    text = "Played my first open mic at the Crown last night — three songs on ukulele."
    assert not [f for f in _read(parser, text) if f.key == "works_at"]
    assert ("works_at", "Monzo") in {(f.key, f.value) for f in _read(parser, "First week at Monzo done!")}


@pytest.mark.parametrize(
    ("text", "phone"),
    [
        (
            "Can you lay out an email signature for me: Hayley Brooks, Physiotherapist, 0433 987 210, "
            "hayley@brooksphysio.com.au",
            "0433 987 210",
        ),
        (
            "Please format this for my business card: Obinna Eze, Quantity Surveyor, 0909 555 0832",
            "0909 555 0832",
        ),
        ("My line is 0803 555 0147. Please write a short message to a client.", "0803 555 0147"),
        (
            "From 1st September the 98450 12345 number will be disconnected, I have taken a Jio connection: "
            "70221 88431.",
            "70221 88431",  # not the one said to be disconnected
        ),
        ("07398 221904, the 456781 one's gone", "07398 221904"),
        ("0433 872 146 now pls", "0433 872 146"),
        ("Can you put 07700 900872 down as my number on everything? The 461 one is no more.", "07700 900872"),
        ("New number: 07700 900456 (old one 07700 900123 is dead)", "07700 900456"),
        # "the old one" after the new number is not the new one
        ("New mobile number: +91 99000 67890, the old one is disconnected.", "+91 99000 67890"),
    ],
)
def test_a_number_on_the_speakers_card_or_line_is_theirs(
    parser: NameRecognizer, text: str, phone: str
) -> None:
    assert [f.value for f in _read(parser, text) if f.key == "phone"] == [phone]


@pytest.mark.parametrize(
    "text",
    [
        "Write a signature for my boss: Tom Hill, 0412 555 678.",
        "The washing line is 3 metres long, 12345678 is the order.",
        "Can you update my sister's card: 0412 555 678?",
        "my credit card 4111 1111 1111 1111 was declined",
        "Put this on my gift card: 1234 5678 9012",
        "3 eggs now, then 2 later",
        "Can you put my sister's number down as my emergency contact: 0412 555 678?",
    ],
)
def test_no_phone_from_someone_elses_card_a_washing_line_or_a_bank_card(
    parser: NameRecognizer, text: str
) -> None:
    assert not [f for f in _read(parser, text) if f.key == "phone"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("picked up a VW Golf off Gumtree. The Fiesta's off to the scrappy next week.", ["Fiesta"]),
        ("The Micra is off to auction on Friday.", ["Micra"]),
        ("The chap who bought my A3 says the heated seat doesn't work.", ["A3"]),
        ("The woman who bought my old Clio messaged me.", ["Clio"]),
    ],
)
def test_a_vehicle_gone_to_the_scrappy_or_bought_by_a_stranger_ends(
    parser: NameRecognizer, text: str, words: list[str]
) -> None:
    assert (["drives"], words) in _endings(parser, text)


@pytest.mark.parametrize(
    "text",
    ["My car's off to the garage for its MOT.", "Dad bought my first car.", "The guy who bought my sofa."],
)
def test_no_vehicle_ends_at_the_garage_as_a_gift_or_with_a_sofa(parser: NameRecognizer, text: str) -> None:
    assert not [e for e in _endings(parser, text) if e[0] == ["drives"]]


@pytest.mark.parametrize(
    ("text", "car"),
    [
        ("First road trip in the Model Y this weekend, Sydney to Canberra.", "the Model Y"),
        ("Taking the Skoda Octavia up to Skye next month.", "the Skoda Octavia"),
    ],
)
def test_a_vehicle_the_speaker_is_using_is_theirs(parser: NameRecognizer, text: str, car: str) -> None:
    assert car in {f.value for f in _read(parser, text) if f.key == "drives"}


@pytest.mark.parametrize(
    "text", ["My brother is taking the Golf to Cornwall.", "I saw the Tesla at the show."]
)
def test_no_vehicle_from_someone_elses_trip_or_one_seen(parser: NameRecognizer, text: str) -> None:
    assert not [f for f in _read(parser, text) if f.key == "drives"]


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("I teach Year 5 now!! Thirty ten-year-olds, send help.", "Year 5 teacher"),
        ("I teach year 9s on Tuesdays.", "teacher"),
        ("I work in marketing.", "marketing"),
        ("I work in insurance claims and the admin is endless.", "insurance claims"),
    ],
)
def test_a_school_year_taught_or_a_field_worked_in_is_the_job(
    parser: NameRecognizer, text: str, job: str
) -> None:
    assert ("Kim", "works_as", job) in {(f.subject, f.key, f.value) for f in _read(parser, text)}


@pytest.mark.parametrize(
    "text",
    [
        "I work in London.",
        "I work in a café.",
        "My sister works in finance.",
        "The course teaches Year 1 content.",
    ],
)
def test_no_job_from_a_town_a_place_someone_elses_field_or_a_course(
    parser: NameRecognizer, text: str
) -> None:
    assert not [f for f in _read(parser, text) if f.subject == "Kim" and f.key == "works_as"]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("My wife Jo's new car is a Kia EV6 and she's planning a trip down south.", ("Jo", "a Kia EV6")),
        ("My brother Sam's car is a Golf.", ("Sam", "a Golf")),
    ],
)
def test_a_named_persons_car_is_theirs_not_the_speakers(
    parser: NameRecognizer, text: str, fact: tuple[str, str]
) -> None:
    drives = {(f.subject, f.value) for f in _read(parser, text) if f.key == "drives"}
    assert drives == {fact}


def test_a_car_that_is_a_mess_is_no_car_driven(parser: NameRecognizer) -> None:
    assert not [f for f in _read(parser, "Tom's car is a mess.") if f.key == "drives"]
