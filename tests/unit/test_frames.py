"""The parse reader on spaCy's pinned small English model: typed slots from the parse, filed under the
right person, and nothing read from questions, wishes, plans, conditions or history."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import UNKNOWN_SPEAKER, TurnText, extract_turns
from agentx_memory.extraction.verbs import gerund
from tests.reading import spacy_reader

NOW = datetime(2025, 11, 14, 9, 0, tzinfo=UTC)

Slot = tuple[str, str, str, bool]


parser = pytest.fixture(scope="module")(spacy_reader)


def _slots(parser: NameRecognizer, text: str, speaker: str = UNKNOWN_SPEAKER) -> set[Slot]:
    facts = extract_turns([TurnText("t1", "user", text, NOW, speaker)], recognizer=parser).facts
    return {(fact.subject, fact.key, fact.value, fact.negated) for fact in facts}


U = UNKNOWN_SPEAKER


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("These days I'm based in Lisbon.", (U, "lives_in", "Lisbon", False)),
        ("We relocated to Denver over the summer.", (U, "lives_in", "Denver", False)),
        ("Dev and I live in Round Rock.", (U, "lives_in", "Round Rock", False)),
        ("we moved into a flat in Leith last month", (U, "lives_in", "Leith", False)),
        ("Home is Glasgow these days.", (U, "lives_in", "Glasgow", False)),
        ("I handed in my notice and joined Stripe.", (U, "works_at", "Stripe", False)),
        ("I'm at Google now.", (U, "works_at", "Google", False)),
        ("I got a job at the Royal Free hospital.", (U, "works_at", "the Royal Free hospital", False)),
        ("I retrained as a nurse last year.", (U, "works_as", "nurse", False)),
        ("I'm a sous chef at Osteria Rossa.", (U, "works_at", "Osteria Rossa", False)),
        ("I'm a sous chef at Osteria Rossa.", (U, "works_as", "sous chef", False)),
        ("I went vegan in March.", (U, "diet", "vegan", False)),
        ("I'm not vegetarian anymore.", (U, "diet", "vegetarian", True)),
        ("I no longer live in Leeds.", (U, "lives_in", "Leeds", True)),
        ("I traded in the Corolla for a Tesla.", (U, "drives", "a Tesla", False)),
        ("I'm seeing Priya now.", (U, "partner", "Priya", False)),
        ("Dana here.", ("Dana", "name", "Dana", False)),
        ("Please call me Bea.", ("Bea", "name", "Bea", False)),
        ("Hi, I'm Marco.", ("Marco", "name", "Marco", False)),
        ("My husband Arjun is a high-school teacher.", ("Arjun", "works_as", "high-school teacher", False)),
        ("My friend Tomás just moved to Porto.", ("Tomás", "lives_in", "Porto", False)),
    ],
)
def test_the_parse_reads_the_slot(parser: NameRecognizer, text: str, expected: Slot) -> None:
    assert expected in _slots(parser, text)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Back in 2012 I lived in Lyon.", "lives_in"),
        ("I might move to Berlin.", "lives_in"),
        ("Should I move to Madrid?", "lives_in"),
        ("I'm thinking about moving to Berlin.", "lives_in"),
        ("I'm moving to Berlin next month.", "lives_in"),
        ("If I moved to Oslo I'd need a coat.", "lives_in"),
        ("I used to live in Paris.", "lives_in"),
        ("My friend Tomás just moved to Porto.", "lives_in"),
        ("My sister got a job at Deloitte.", "works_at"),
        ("My husband Arjun is a high-school teacher.", "works_as"),
        ("my little brother Yusuf just started at Leeds uni doing law", "works_at"),
        ("I'm a big reader.", "works_as"),
        ("I'm Jewish.", "name"),
        ("I'm tired.", "name"),
    ],
)
def test_nothing_current_reaches_the_speaker(parser: NameRecognizer, text: str, key: str) -> None:
    slots = _slots(parser, text)
    assert not {slot for slot in slots if slot[0] == U and slot[1] == key and not slot[3]}


def test_a_name_given_in_a_short_sentence_files_the_rest_of_the_turn_under_it(parser: NameRecognizer) -> None:
    slots = _slots(parser, "I'm Dana. My favourite film is Heat.")
    assert ("Dana", "name", "Dana", False) in slots
    assert ("Dana", "favourite_film", "Heat", False) in slots


def test_the_rules_alone_still_read_without_the_parser() -> None:
    facts = extract_turns([TurnText("t1", "user", "I live in Toronto.", NOW, U)]).facts
    assert {(fact.key, fact.value) for fact in facts} == {("lives_in", "Toronto")}


@pytest.mark.parametrize(
    ("text", "ends", "words"),
    [
        ("I quit my job last Friday.", {"works_at", "works_as"}, set()),
        ("I quit the choir, too much drama.", set(), {"choir"}),
        ("sold the BMW last week", set(), {"BMW"}),
        ("Mia and I broke up in March.", {"partner", "girlfriend"}, {"Mia"}),
        ("Tiger passed away in the spring.", set(), {"Tiger"}),
    ],
)
def test_an_ending_names_what_it_ends(
    parser: NameRecognizer, text: str, ends: set[str], words: set[str]
) -> None:
    facts = extract_turns([TurnText("t1", "user", text, NOW, U)], recognizer=parser).facts
    [ending] = [fact for fact in facts if fact.ends or fact.ends_words]
    assert ends <= set(ending.ends)
    assert words <= set(ending.ends_words)
    assert ending.correction


@pytest.mark.parametrize(
    "text",
    ["I left my keys at home.", "I stopped by the bakery.", "I didn't quit my job.", "Should I quit my job?"],
)
def test_what_ends_nothing_is_no_ending(parser: NameRecognizer, text: str) -> None:
    facts = extract_turns([TurnText("t1", "user", text, NOW, U)], recognizer=parser).facts
    assert not [fact for fact in facts if fact.ends or (fact.ends_words and fact.key == "ended")]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("New phone number: 07700 900456.", "phone", "07700 900456"),
        ("switched to mark.osei@icloud.com, hotmail got hacked", "email", "mark.osei@icloud.com"),
        ("I have a dentist appointment on Tuesday at 10am.", "appointment_dentist", "on Tuesday at 10am"),
        ("I rescheduled my haircut to the 14th.", "appointment_haircut", "on the 14th"),
        ("my daily driver is a Toyota Yaris now", "drives", "a Toyota Yaris"),
        ("Our rabbit is called Snowball.", "rabbit", "Snowball"),
        ("we adopted a greyhound called Ziggy", "dog", "Ziggy"),
    ],
)
def test_contacts_appointments_and_things_of_the_speaker(
    parser: NameRecognizer, text: str, key: str, value: str
) -> None:
    assert (U, key, value, False) in _slots(parser, text)


def test_someone_elses_number_is_not_the_speakers(parser: NameRecognizer) -> None:
    assert not {slot for slot in _slots(parser, "My mum's number is 07700 900111.") if slot[1] == "phone"}


def test_a_plan_is_dated_ahead_and_an_appointment_to_the_coming_day(parser: NameRecognizer) -> None:
    facts = extract_turns(
        [TurnText("t1", "user", "I rescheduled my haircut to the 3rd.", NOW, U)], recognizer=parser
    ).facts
    [haircut] = [fact for fact in facts if fact.key == "appointment_haircut"]
    assert haircut.event_time is not None
    assert haircut.event_time.date().isoformat() == "2025-12-03"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'd say my favourite food is ramen.", (U, "favourite_food", "ramen", False)),
        ("Ramen has become my favourite food.", (U, "favourite_food", "Ramen", False)),
        ("I'm obsessed with Wingspan, it's my favourite game now.", (U, "favourite_game", "Wingspan", False)),
        ("Just settled into my new place in Leith.", (U, "lives_in", "Leith", False)),
        ("I eat vegan now.", (U, "diet", "vegan", False)),
        ("Packed up the flat in Cardiff, Swansea is home now.", (U, "lives_in", "Swansea", False)),
    ],
)
def test_more_ways_of_saying_a_slot(parser: NameRecognizer, text: str, expected: Slot) -> None:
    assert expected in _slots(parser, text)


def test_done_with_a_thing_ends_it(parser: NameRecognizer) -> None:
    facts = extract_turns(
        [TurnText("t1", "user", "I'm done with CrossFit.", NOW, U)], recognizer=parser
    ).facts
    [ending] = [fact for fact in facts if fact.key == "ended"]
    assert ending.ends_words == ["CrossFit"]
    assert ending.statement == "The user is done with CrossFit."


def test_what_is_said_to_the_listener_is_no_memory(parser: NameRecognizer) -> None:
    turn = TurnText("t1", "user", "Sorry I didn't get back to you sooner, it's been hectic.", NOW, "Maria")
    assert not [fact for fact in extract_turns([turn], recognizer=parser).facts if "you" in fact.statement]
    assert not [fact for fact in extract_turns([turn]).facts if "you" in fact.statement]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a clause said before a supposing one is its own
        ("Sushi is my favourite food, I could eat it every day.", (U, "favourite_food", "Sushi", False)),
        ("My car's a Renault Clio", (U, "drives", "a Renault Clio", False)),
        ("Wingspan is my favourite now", (U, "favourite", "Wingspan", False)),
        ("I've taken up pottery.", (U, "hobby", "pottery", False)),
        ("started learning the piano in February!", (U, "hobby", "the piano", False)),
        ("I've been getting into birdwatching lately.", (U, "hobby", "birdwatching", False)),
        ("I've cut out dairy completely.", (U, "diet", "dairy-free", False)),
        ("The kitchen in our new flat in Cardiff is tiny.", (U, "lives_in", "Cardiff", False)),
        (
            "Ugh, the radiators in my Glasgow tenement take forever to warm up.",
            (U, "lives_in", "Glasgow", False),
        ),
        ("We upped sticks to Whitstable in June.", (U, "lives_in", "Whitstable", False)),
        ("First week at Diageo has been chaos.", (U, "works_at", "Diageo", False)),
        ("Siemens poached me over the summer.", (U, "works_at", "Siemens", False)),
        ("Diego proposed on the beach tonight and I said yes.", (U, "partner", "Diego", False)),
        ("Got engaged to Ailsa last weekend!", (U, "partner", "Ailsa", False)),
        ("My other half, Nico, wants Lisbon for his birthday.", (U, "partner", "Nico", False)),
        ("Took delivery of the Kia EV6 yesterday!", (U, "drives", "the Kia EV6", False)),
        ("Oh, and my name is Tobias, by the way.", ("Tobias", "name", "Tobias", False)),
        ("Could you recommend a few houseplants? Thanks! — Niamh", ("Niamh", "name", "Niamh", False)),
        ("Hello, I'd like help with a toast.\n\nMany thanks,\nHenrik", ("Henrik", "name", "Henrik", False)),
        ("I smoke about ten a day.", (U, "habit", "smoking", False)),
        ("I row three mornings a week.", (U, "habit", "rowing", False)),
        ("I don't row anymore, my shoulder's wrecked.", (U, "habit", "rowing", True)),
        ("I'm single.", (U, "partner", "single", False)),
        ("not Gippsland anymore, we're looking at the Macedon Ranges", (U, "ended", "Gippsland", False)),
        ("I took a job at a branding agency, no more freelancing", (U, "ended", "freelancing", False)),
        ("I'm off metformin now, managing it with diet alone", (U, "ended", "metformin", False)),
        ("I work freelance.", (U, "works_at", "freelance", False)),
        ("Fontaines D.C. are my number one band now.", (U, "favourite_band", "Fontaines D.C.", False)),
        ("Wasabi peas are my number one snack now.", (U, "favourite_snack", "Wasabi peas", False)),
        ("Pho is my go-to lunch these days.", (U, "favourite_lunch", "Pho", False)),
        ("I do yoga most mornings.", (U, "hobby", "yoga", False)),
        (
            "I do IT support for Deutsche Bahn, mostly ticket machines.",
            (U, "works_at", "Deutsche Bahn", False),
        ),
        ("Someone nicked the Fiesta from outside the house last night.", (U, "ended", "the Fiesta", False)),
        ("The Mini got written off in a crash last week.", (U, "ended", "the Mini", False)),
        ("Our neighbour Doug bought a Tesla.", ("Doug", "drives", "a Tesla", False)),
        ("Teaching maths at a secondary school these days.", (U, "works_as", "maths teacher", False)),
        ("We've all gone pescatarian in this house, me included.", (U, "diet", "pescatarian", False)),
        ("I can't drive.", (U, "cannot", "drive", True)),
        ("finally got my licence! I can drive now", (U, "can", "drive", False)),
    ],
)
def test_slots_told_by_phrases_and_inverted_clauses(
    parser: NameRecognizer, text: str, expected: Slot
) -> None:
    assert expected in _slots(parser, text)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("My old flat in Leeds was tiny.", "lives_in"),
        ("Our holiday flat in Malaga is booked.", "lives_in"),
        ("It was her first week at Google.", "works_at"),
        ("Google might hire me.", "works_at"),
        ("I took up the offer.", "hobby"),
        ("I started crying.", "hobby"),
        ("I started working at Google.", "hobby"),
        ("Ana proposed a toast.", "partner"),
        ("I cut out the middleman.", "diet"),
        ("If I had a dog I'd call it Biscotto.", "pet"),
        ("I'm at Sainsbury's now.", "name"),
        ("I'm a member at PureGym.", "works_as"),
        ("I'm a member at PureGym.", "works_at"),
        ("We took delivery of the new sofa.", "drives"),
        ("Thanks, Sam", "name"),
        ("I was up till 3 - Monday", "name"),
        ("I play tennis every Sunday.", "habit"),
        ("I do the dishes every night.", "hobby"),
        ("I do IT support for Deutsche Bahn.", "hobby"),
        ("The report was written off as a loss.", "ended"),
        ("I nicked a pen from work.", "ended"),
        ("I do yoga most mornings.", "habit"),
        ("My sister bought a Ford Fiesta.", "drives"),
        ("I ride a Honda CB500 to work every day.", "habit"),
        ("I don't smoke.", "habit"),
        ("I'll run every morning from now on.", "habit"),
        ("No more excuses!", "ended"),
        ("I teach my kids to swim.", "works_as"),
        ("I've started writing some of my favorite memories down.", "hobby"),
        ("Our whole house has gone vegan.", "diet"),
        ("i'm 41 and my knees feel 70. doc says no more running on pavement", "ended"),
        ("oh and I'm off thursday, it's my cousin's baby shower", "ended"),
        ("I'm not single.", "partner"),
        ("I'm not going anymore.", "ended"),
    ],
)
def test_near_misses_of_the_phrases_reach_no_slot(parser: NameRecognizer, text: str, key: str) -> None:
    assert not {slot for slot in _slots(parser, text) if slot[1] == key and not slot[3]}


def test_an_interjection_is_no_name(parser: NameRecognizer) -> None:
    slots = _slots(parser, "Ugh, the radiators take forever to warm up.")
    assert not {slot for slot in slots if slot[1] == "name"}
    assert not {slot for slot in _rules_slots("Oh, the radiators take forever.") if slot[1] == "name"}


def _rules_slots(text: str) -> set[Slot]:
    facts = extract_turns([TurnText("t1", "user", text, NOW, U)]).facts
    return {(fact.subject, fact.key, fact.value, fact.negated) for fact in facts}


@pytest.mark.parametrize(
    "text",
    [
        "I haven't decided yet.",
        "I still remember this story from when I was 10.",
        "I assume a few will be rejected.",
    ],
)
def test_a_statement_that_names_nothing_is_no_memory(parser: NameRecognizer, text: str) -> None:
    """Read blind from a LoCoMo conversation: "Nate has not decided yet", "Joanna still remembers this
    story …", "Joanna assumes a few will be rejected" named nothing a later reader could use."""
    assert extract_turns([TurnText("t1", "user", text, NOW, U)], recognizer=parser).facts == []


def test_an_action_that_names_a_thing_is_kept(parser: NameRecognizer) -> None:
    facts = extract_turns(
        [TurnText("t1", "user", "I went to a game convention and met new people.", NOW, U)], recognizer=parser
    ).facts
    assert [fact.key for fact in facts] == ["did"]


def _turns(*texts: str) -> list[TurnText]:
    roles = ["user", "assistant"]
    return [TurnText(f"t{i}", roles[i % 2], text, NOW, U) for i, text in enumerate(texts)]


def test_a_number_given_after_it_was_asked_for_is_the_speakers(parser: NameRecognizer) -> None:
    said = _turns(
        "New SIM, so my number's different. Can you update it?", "Sure, what is it?", "07700 900314"
    )
    assert [(f.key, f.value) for f in extract_turns(said, recognizer=parser).facts] == [
        ("phone", "07700 900314")
    ]


@pytest.mark.parametrize(
    "first", ["My order number is 44, can you check it?", "I have a lot going on.", "What's a good number?"]
)
def test_a_number_said_alone_without_being_asked_for_is_no_phone(parser: NameRecognizer, first: str) -> None:
    said = _turns(first, "Sure.", "07700 900314")
    assert not [f for f in extract_turns(said, recognizer=parser).facts if f.key == "phone"]


def test_a_new_time_given_alone_after_the_appointment_was_said_to_change(parser: NameRecognizer) -> None:
    said = [
        TurnText("t1", "user", "The physio clinic rang, they've had to give me a different slot.", NOW, U),
        TurnText("t2", "assistant", "Oh no, when is it now?", NOW, U),
        TurnText("t3", "user", "The 11th, same time.", NOW, U),
    ]
    [physio] = [f for f in extract_turns(said, recognizer=parser).facts if f.key == "appointment_physio"]
    assert physio.event_time is not None
    assert physio.event_time.date().isoformat() == "2025-12-11"  # NOW is 14 November: the coming 11th


def test_a_day_said_alone_without_a_changed_appointment_before_is_no_appointment(
    parser: NameRecognizer,
) -> None:
    said = [
        TurnText("t1", "user", "I moved to a new flat.", NOW, U),
        TurnText("t2", "user", "The 11th was great.", NOW, U),
    ]
    assert not [f for f in extract_turns(said, recognizer=parser).facts if f.key.startswith("appointment_")]


@pytest.mark.parametrize(
    ("lemma", "form"),
    [("smoke", "smoking"), ("row", "rowing"), ("run", "running"), ("swim", "swimming"), ("tie", "tying"),
     ("go", "going"), ("see", "seeing"), ("fix", "fixing"), ("knit", "knitting"), ("paint", "painting")],
)  # fmt: skip
def test_the_gerund_of_a_verb(lemma: str, form: str) -> None:
    assert gerund(lemma) == form
