"""Readings that hold for a kind of value whatever the verb (fifth session on learning, tuned on
dev3/dev4): a vehicle the speaker gets about in or keeps now, a new favourite told against the old one,
endings told without a verb of stopping, pastimes told by when they recur, a dream that moves no one, a
denial that leaves another value of the slot."""

from __future__ import annotations

import pytest

from agentx_memory.extraction.dedup import decide
from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import UNKNOWN_SPEAKER, TurnText, extract_turns
from agentx_memory.extraction.stored import StoredFact
from tests.reading import SAID_AT, read_facts, spacy_reader

parser = pytest.fixture(scope="module")(spacy_reader)


def _driven(parser: NameRecognizer, text: str) -> list[str]:
    return [value for key, value, said in read_facts(parser, text) if key == "drives" and " not " not in said]


@pytest.mark.parametrize(
    ("text", "car"),
    [
        ("The Micra gave up, so I'm getting around in a Hyundai i20 now.", "Hyundai i20"),
        ("getting around on a Yamaha Tracer these days, the old one got nicked", "Yamaha Tracer"),
        ("Leasing a Polestar 2 from this month, three years.", "Polestar 2"),
        ("I commute on a Vespa Primavera now.", "Vespa Primavera"),
        ("Found a 2019 Subaru Outback on Facebook Marketplace and grabbed it.", "2019 Subaru Outback"),
        ("Snapped up a Kia Picanto at the auction.", "Kia Picanto"),
    ],
)
def test_a_vehicle_the_speaker_gets_about_in_or_came_by(parser: NameRecognizer, text: str, car: str) -> None:
    driven = _driven(parser, text)
    assert len(driven) == 1
    assert car in driven[0]


@pytest.mark.parametrize(
    "text",
    [
        "I'm picking up a Kia Niro next week.",
        "My brother is getting around in a Hyundai i20 now.",
        "I'm in a Toyota Prius taxi on the way home.",
        "I'm not driving a Tesla, no way.",
        "I might be leasing a Polestar 2 soon.",
        "I was getting around in a Nissan Leaf back then.",
    ],
)
def test_no_vehicle_planned_denied_hired_or_someone_elses(parser: NameRecognizer, text: str) -> None:
    assert _driven(parser, text) == []


def _preferred(parser: NameRecognizer, text: str) -> list[tuple[str, str]]:
    return [(key, value) for key, value, _ in read_facts(parser, text) if key == "favourite"]


@pytest.mark.parametrize(
    ("text", "preferred"),
    [
        ("Fontaines D.C. are my new obsession. Arctic Monkeys just sound tired to me now.", "Fontaines D.C."),
        (
            "Can't get enough of Middlemarch, it's knocked Pride and Prejudice off the top spot.",
            "Middlemarch",
        ),
        ("Honestly, The Godfather's got nothing on Parasite.", "Parasite"),
        ("colour-wise, forest green is top of my list now. cobalt is out", "forest green"),
        ("I'm all about SZA now. Beyoncé is old news.", "SZA"),
        ("Totally hooked on Taskmaster, Bake Off can wait.", "Taskmaster"),
        ("Watched Paddington 2 last night and it's taken the top spot from The Dark Knight.", "Paddington 2"),
        ("Honestly these days I'd take a negroni over a Guinness any day.", "a negroni"),
        ("Thai food has officially knocked Italian off the top spot for me.", "Thai food"),
    ],
)
def test_a_new_favourite_told_against_another_thing(
    parser: NameRecognizer, text: str, preferred: str
) -> None:
    assert _preferred(parser, text) == [("favourite", preferred)]


@pytest.mark.parametrize(
    "text",
    [
        "Is Middlemarch better than Pride and Prejudice?",
        "My sister is all about Taylor Swift, Adele bores her.",
        "I can't get enough sleep with the baby, Leo wakes at five.",
        "My favourite book is Middlemarch, Pride and Prejudice is a close second.",
        "I replaced my Peugeot with a Tesla.",
        "Would you take the train over the bus?",
        "her favourite colour used to be blue, now it's mustard yellow.",
        "my cat Mochi knocked my tablet off the desk again lol",
        "the new router replaced the old one.",
        "I take the Fiesta to the coast every weekend, the kids love it.",  # a trip, not a preference
    ],
)
def test_no_new_favourite_asked_someone_elses_or_already_read(parser: NameRecognizer, text: str) -> None:
    assert _preferred(parser, text) == []


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("the cortado has replaced the flat white as my favourite coffee", "favourite_coffee", "the cortado"),
        ("Succession replaced The Office as my all-time favorite show.", "favourite_show", "Succession"),
        ("my favourite author used to be Sally Rooney, now it's Ursula K. Le Guin", "favourite_author", ""),
        ("new fave band alert: Wet Leg. been playing them on repeat", "favourite_band", "Wet Leg"),
        ("Fav snack: seaweed chips", "favourite_snack", "seaweed chips"),
        (
            "fun fact: favourite colour used to be blue, now it's mustard yellow",
            "favourite_colour",
            "mustard",
        ),
    ],
)
def test_a_new_favourite_with_its_category_said(
    parser: NameRecognizer, text: str, key: str, value: str
) -> None:
    said = [(k, v, statement) for k, v, statement in read_facts(parser, text) if k.startswith("favourite")]
    assert [k for k, _, _ in said] == [key]
    assert (value or "Ursula K. Le Guin") in said[0][1]
    assert said[0][1] in said[0][2]  # the statement says the whole value (no cut at an initial's stop)


def _ended(parser: NameRecognizer, text: str) -> list[str]:
    return [said for key, _, said in read_facts(parser, text) if key == "ended"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("my marathon days are over, my hips said no.", "marathon"),
        ("after the op my five-a-side days are behind me.", "five-a-side"),
        ("I've completely lost interest in knitting.", "knitting"),
        ("I've fallen out of love with running.", "running"),
        ("I got bored of crosswords.", "crosswords"),
        ("Jaguar Land Rover let me go on Friday, along with half the shift.", "let Kim go"),
        ("I broke off the engagement with Jonah last week.", "Jonah"),
        ("Brooke called off the engagement.", "Brooke"),
        ("gave up the flat in Glasgow in April and I'm backpacking round Asia.", "Glasgow"),
        ("moved out of my Seattle apartment for good, living in a van now.", "Seattle"),
        ("I moved out of the Leicester house in May.", "Leicester"),
    ],
)
def test_an_ending_told_without_a_verb_of_stopping(parser: NameRecognizer, text: str, named: str) -> None:
    ended = _ended(parser, text)
    assert len(ended) == 1
    assert named in ended[0]
    assert not [f for f in read_facts(parser, text) if f[0] == "lives_in"]  # no home in what was left


@pytest.mark.parametrize(
    "text",
    [
        "I haven't lost interest in chess.",
        "My sister's running days are over.",
        "my sister called off her engagement.",
        "they didn't let me go.",
        "My sister moved out of her flat in Leeds.",
    ],
)
def test_no_ending_denied_or_someone_elses(parser: NameRecognizer, text: str) -> None:
    assert _ended(parser, text) == []


@pytest.mark.parametrize(
    ("text", "pastime"),
    [
        ("parkrun every Saturday morning now, who even am I.", "parkrun"),
        ("pottery class every Monday evening now, made a wonky mug", "pottery class"),
        ("I'm surfing most weekends instead.", "surfing"),
    ],
)
def test_a_pastime_told_by_when_it_recurs(parser: NameRecognizer, text: str, pastime: str) -> None:
    assert [value for key, value, _ in read_facts(parser, text) if key == "habit"] == [pastime]


@pytest.mark.parametrize(
    "text", ["my sister every Sunday now.", "I'm surfing this weekend.", "physio every Tuesday now."]
)
def test_no_pastime_someone_elses_once_or_a_treatment(parser: NameRecognizer, text: str) -> None:
    assert not [value for key, value, _ in read_facts(parser, text) if key == "habit"]


def test_a_dream_moves_no_one(parser: NameRecognizer) -> None:
    text = "had the weirdest dream last night that I'd moved to Tokyo and couldn't find my way home."
    assert not [f for f in read_facts(parser, text) if f[0] == "lives_in"]
    assert [
        f[1] for f in read_facts(parser, "I moved to Tokyo, it was a dream come true.") if f[0] == "lives_in"
    ]


def test_a_denied_value_leaves_another_value_of_the_slot(parser: NameRecognizer) -> None:
    """ "I'm not vegan though, still vegetarian": the denial says nothing against "vegetarian"."""
    stored = StoredFact("f1", "Kim is vegetarian.", "Kim", "diet", "vegetarian", False, (), None, 0.9)
    atoms = extract_turns([TurnText("t1", "user", "I'm not vegan.", SAID_AT, "Kim")], recognizer=parser).facts
    denied = [atom for atom in atoms if atom.key == "diet"]
    assert [atom.negated for atom in denied] == [True]
    decision = decide(denied[0], [stored], SAID_AT)
    assert decision.action == "add"


@pytest.mark.parametrize(
    ("text", "town"),
    [
        ("right, admin day. new address is 14 Harbour Row, Falmouth, TR11 3QS", "Falmouth"),
        ("ok so my new home address is 2210 Larimer St, Apt 5, Denver CO 80205 (yes, finally)", "Denver"),
        ("work posted me to Singapore for two years, been out here since May", "Singapore"),
        ("The firm transferred me to the Atlanta office.", "Atlanta"),
        ("guess who's living in Bristol now?? the flat has a view of the bridge", "Bristol"),
        ("So guess who lives in Portland now? This guy.", "Portland"),
    ],
)
def test_a_home_told_by_an_address_a_posting_or_a_riddle(
    parser: NameRecognizer, text: str, town: str
) -> None:
    assert town in [value for key, value, _ in read_facts(parser, text) if key == "lives_in"]


@pytest.mark.parametrize(
    "text",
    [
        "my sister's new address is 4 Elm Road, Leeds",
        "They transferred my brother to the Leeds office.",
        "Guess who I saw in Paris today?",
        "Can you post me the form to Leeds?",
    ],
)
def test_no_home_someone_elses_address_or_posting(parser: NameRecognizer, text: str) -> None:
    assert not [value for key, value, _ in read_facts(parser, text) if key == "lives_in"]


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("onboarding at Ocado this week has been a total blur, so many acronyms.", "Ocado"),
        ("officially on the Deloitte payroll as of this month.", "Deloitte"),
        ("First paycheck from Microsoft landed today", "Microsoft"),
        ("finally jumped ship to the BBC, less money, more interesting work.", "BBC"),
    ],
)
def test_an_employer_told_by_what_goes_with_the_job(parser: NameRecognizer, text: str, employer: str) -> None:
    assert [v for k, v, _ in read_facts(parser, text) if k == "works_at" and employer in v]


@pytest.mark.parametrize(
    "text",
    ["Lunch at Nando's was great.", "My sister's first paycheck from Aldi came.", "He jumped ship to Sky."],
)
def test_no_employer_a_visit_or_someone_elses_pay(parser: NameRecognizer, text: str) -> None:
    assert not [v for k, v, _ in read_facts(parser, text) if k == "works_at"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("cardiologist has put me on a low-fat diet, so keto's out.", "keto"),
        ("no no, Siemens is old news, I'm with Bosch now.", "Siemens"),
        ("need gift ideas for my fiancée Lena. (yes Steph is ancient history)", "Steph"),
    ],
)
def test_a_thing_put_behind_ends(parser: NameRecognizer, text: str, named: str) -> None:
    assert [said for said in _ended(parser, text) if named in said]


@pytest.mark.parametrize(
    "text",
    [
        "bit of a plot twist but I've gone back to eating meat.",
        "heads up for recipes: I'm back on meat and dairy.",
    ],
)
def test_meat_eaten_again_ends_the_diet(parser: NameRecognizer, text: str) -> None:
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, "Kim")], recognizer=parser).facts
    assert [fact.ends for fact in facts if fact.key == "ended"] == [["diet"]]


@pytest.mark.parametrize(
    "text",
    [
        "The meeting is over.",
        "her marriage is over.",
        "I'm not back on meat.",
        "I only eat halal meat, so most burger places are out",  # what the speaker cannot have
        "I've got a bad knee, so stairs and long hikes are out for now",
    ],
)
def test_nothing_of_the_speakers_put_behind(parser: NameRecognizer, text: str) -> None:
    assert _ended(parser, text) == []


def test_a_job_told_by_the_living_it_earns(parser: NameRecognizer) -> None:
    text = "these days I earn my living as a yoga instructor, three studios and some private clients."
    assert ("works_as", "yoga instructor") in [(k, v) for k, v, _ in read_facts(parser, text)]
    assert not [
        v for k, v, _ in read_facts(parser, "My sister's first week as a nurse went well.") if k == "works_as"
    ]


def test_no_employer_in_what_keeps_one_busy(parser: NameRecognizer) -> None:
    """ "I'm swamped with the kids & work": the small model calls "the kids & work" an organisation."""
    assert not [v for k, v, _ in read_facts(parser, "I'm swamped with the kids & work.") if k == "works_at"]


@pytest.mark.parametrize(
    "text",
    [
        "I make it with almond flour, coconut oil and raspberries. It's my favorite for birthdays.",
        "Competitive games can be hard when people get all upset about every move you make.",
    ],
)
def test_no_favourite_from_a_thing_never_named_or_someone_elses_upset(
    parser: NameRecognizer, text: str
) -> None:
    """Two wrong facts of a 40-fact read of conversation 3 ("Joanna's favourite is almond", "Joanna
    prefers every move now")."""
    assert not [v for k, v, _ in read_facts(parser, text) if k.startswith("favourite")]


def test_how_a_passion_goes_is_not_what_it_is(parser: NameRecognizer) -> None:
    """A wrong fact of a 40-fact read of conversation 1: "Jon's passion is bumpy"."""
    text = "Still following my passion for dance. It's been bumpy, but I'm determined to make it work."
    assert not [v for k, v, _ in read_facts(parser, text) if k == "hobby" and v == "bumpy"]
    assert ("hobby", "photography") in [(k, v) for k, v, _ in read_facts(parser, "my passion is photography")]


@pytest.mark.parametrize(
    ("text", "hobby"),
    [("My new hobby is knitting.", "knitting"), ("my passion is restoring old bikes", "restoring old bikes")],
)
def test_a_hobby_that_is_a_doing(parser: NameRecognizer, text: str, hobby: str) -> None:
    assert ("hobby", hobby) in [(k, v) for k, v, _ in read_facts(parser, text)]
    assert not [v for k, v, _ in read_facts(parser, "My sister's hobby is knitting.") if k == "hobby"]


def _named(parser: NameRecognizer, *said: str) -> list[str]:
    turns = [
        TurnText(
            f"t{i}", "assistant" if text.startswith("a: ") else "user", text[3:], SAID_AT, UNKNOWN_SPEAKER
        )
        for i, text in enumerate(said)
    ]
    return [fact.value or "" for fact in extract_turns(turns, recognizer=parser).facts if fact.key == "name"]


@pytest.mark.parametrize(
    ("chat", "name"),
    [
        (
            ("u: Tomasz is the name, fixing bikes is the game", "a: Nice to meet you, Tomasz! Let's start."),
            "Tomasz",
        ),
        (
            (
                "u: What name goes on the letter?",
                "a: Which name?",
                "u: Rosalind Okafor",
                "a: Thanks, Rosalind.",
            ),
            "Rosalind",
        ),
        (
            ("u: thanks!", "a: You're welcome, Mark!", "u: it's Marek actually", "a: Sorry, Marek! Noted."),
            "Marek",
        ),
        (("u: I'm called Kirra. any tips for Japanese?", "a: Hi Kirra! Six months is enough."), "Kirra"),
    ],
)
def test_a_name_the_reply_greets_the_user_by(
    parser: NameRecognizer, chat: tuple[str, ...], name: str
) -> None:
    assert _named(parser, *chat)[-1:] == [name]


@pytest.mark.parametrize(
    "chat",
    [
        ("u: thanks for the recipe", "a: You're welcome, Mark!"),  # a name the user never said
        ("u: My friend Sam loves hiking, any trail ideas?", "a: Sure, Sam will love these!"),
        ("u: I went to see Adele last night!", "a: Wow, Adele! How was it?"),
        ("u: Jo is my sister, she's visiting", "a: Hi Jo! Welcome."),
    ],
)
def test_no_name_a_guess_a_friend_or_someone_else(parser: NameRecognizer, chat: tuple[str, ...]) -> None:
    assert _named(parser, *chat) == []


def test_a_pet_someone_named_got_is_theirs(parser: NameRecognizer) -> None:
    """ "our neighbour Carol has got herself a parrot called Kiwi" was filed as the speaker's parrot."""
    text = "our neighbour Carol has got herself a parrot called Kiwi and it whistles at 7am."
    facts = extract_turns([TurnText("t1", "user", text, SAID_AT, "Doreen")], recognizer=parser).facts
    assert [(f.subject, f.value) for f in facts if f.key == "parrot"] == [("Carol", "Kiwi")]
    mine = extract_turns(
        [TurnText("t2", "user", "we adopted a greyhound called Ziggy.", SAID_AT, "Doreen")], recognizer=parser
    )
    assert ("Doreen", "Ziggy") in [(f.subject, f.value) for f in mine.facts if f.key == "dog"]


def test_someones_own_news_told_on_is_theirs(parser: NameRecognizer) -> None:
    """ "Priya told me over drinks that she's landed a job at Google": Priya's job, not a wish."""
    facts = extract_turns(
        [
            TurnText(
                "t1",
                "user",
                "Priya told me over drinks that she's landed a job at Google!!",
                SAID_AT,
                "Hannah",
            )
        ],
        recognizer=parser,
    ).facts
    assert [(f.subject, f.value) for f in facts if f.key == "works_at"] == [("Priya", "Google")]
    for text in (
        "my boss said I'd be promoted to manager.",
        "Tom said he's moving to Leeds.",
        "Tom told me I should move to Leeds.",
    ):
        said = extract_turns([TurnText("t2", "user", text, SAID_AT, "Hannah")], recognizer=parser).facts
        assert not [f for f in said if f.key in {"works_at", "works_as", "lives_in"}]


def test_a_reply_greeting_a_pet_names_no_one(parser: NameRecognizer) -> None:
    """ "we brought home a collie puppy, we're calling her Tova!" / "Welcome, Tova!": the puppy's name."""
    assert (
        _named(parser, "u: we brought home a collie puppy, we're calling her Tova!", "a: Welcome, Tova!")
        == []
    )


@pytest.mark.parametrize(
    "text",
    [
        "Heads up: I'm a Rotterdam resident these days, the Utrecht lease ended in March.",
        "I'm a London local, born and bred.",
    ],
)
def test_a_place_ended_or_lived_in_is_no_job_and_no_move(parser: NameRecognizer, text: str) -> None:
    """Words no rule was written for, tried after the session: "the Utrecht lease ended" had Ana moved to
    Utrecht, "a Rotterdam resident" working as one."""
    facts = read_facts(parser, text, speaker="Ana")
    assert not [f for f in facts if f[0] == "works_as"]
    assert not [f for f in facts if f[0] == "lives_in" and f[1] == "Utrecht"]
