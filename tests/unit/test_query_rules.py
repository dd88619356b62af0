"""Rule-based query understanding: self-query filters, question → statement rewriting, entity queries."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.models.episodic import MemoryKind
from agentx_memory.retrieval.query_rules import is_entity_query, parse_filters, rewrite_as_statement

NOW = datetime(2026, 1, 3, 15, 30, tzinfo=UTC)


def utc(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


# --- parse_filters ---------------------------------------------------------------------------------------


def test_locomo_style_question_keeps_text_and_finds_names() -> None:
    filters = parse_filters("When did Caroline go to the LGBTQ support group?", NOW)
    assert filters.text == "When did Caroline go to the LGBTQ support group?"
    assert filters.entities == ["Caroline", "LGBTQ"]
    assert (filters.time_range, filters.channels, filters.kinds, filters.source) == (None, [], [], "rules")


def test_time_phrase_is_removed_from_text() -> None:
    filters = parse_filters("What did Melanie paint last year?", NOW)
    assert filters.text == "What did Melanie paint?"
    assert filters.entities == ["Melanie"]
    assert filters.time_range is not None
    assert (filters.time_range.start, filters.time_range.end) == (utc(2025, 1, 1), utc(2026, 1, 1))
    assert filters.time_range.phrase == "last year"


def test_channel_and_time_phrases_are_both_removed() -> None:
    filters = parse_filters(
        "What did we discuss in the billing project last week?", NOW, channels=["billing", "ops"]
    )
    assert filters.text == "What did we discuss?"
    assert filters.channels == ["billing"]
    assert filters.kinds == ["episodic"]
    assert filters.time_range is not None
    assert filters.time_range.start == utc(2025, 12, 22)


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ("Yesterday, what did I say?", "what did I say?"),
        ("what did I say yesterday?", "what did I say?"),
        ("what did I say yesterday about the budget?", "what did I say about the budget?"),
        ("YESTERDAY what did I say", "what did I say"),
        ("what   did I say\n in the last 3 days", "what did I say"),
    ],
)
def test_time_phrase_removed_at_start_middle_and_end(query: str, text: str) -> None:
    filters = parse_filters(query, NOW)
    assert filters.text == text
    assert filters.time_range is not None


@pytest.mark.parametrize(
    "query",
    [
        "What is on January 18th?",
        "what is on on the 18th of jan?",
        "What did Melanie paint in May 2023?",
        "Who did I meet on 2023-05-08?",
    ],
)
def test_a_phrase_that_names_its_date_stays_in_the_text(query: str) -> None:
    # The turns of that day say it too; the range stays a preference beside it.
    filters = parse_filters(query, NOW)
    assert filters.time_range is not None
    assert filters.text == query


@pytest.mark.parametrize("query", ["yesterday", "  last week  ", "in May 2023?"])
def test_text_is_never_empty(query: str) -> None:
    filters = parse_filters(query, NOW)
    assert filters.time_range is not None
    assert filters.text == query


@pytest.mark.parametrize(
    "query",
    [
        "what is my favourite colour?",
        "where does she work?",
        "do you remember anything about cooking?",
        "is it raining?",
        "how are you",
    ],
)
def test_query_without_filters(query: str) -> None:
    filters = parse_filters(query, NOW, channels=["billing"])
    assert filters.text == query
    assert filters.time_range is None
    assert (filters.channels, filters.kinds, filters.entities) == ([], [], [])


@pytest.mark.parametrize(
    ("query", "kinds"),
    [
        ("What facts do you have on file?", ["fact"]),
        ("what do you know about cooking", ["fact"]),
        ("Which strategies worked for deploys?", ["strategy"]),
        ("what approach did we take", ["strategy"]),
        ("How did I fix the flaky test?", ["strategy"]),
        ("how do i reset the cache", ["strategy"]),
        ("What are my goals?", ["goal"]),
        ("any plans for the trip", ["goal"]),
        ("what is the objective", ["goal"]),
        ("What did Bob say in our conversation?", ["episodic"]),
        ("what I told you about the cat", ["episodic"]),
        ("the topics we discussed and mentioned", ["episodic"]),
        ("Who is John Smith?", ["entity"]),
        ("What is Acme Corp?", ["entity"]),
        ("What strategies did we discuss for the goal?", ["episodic", "strategy", "goal"]),
        ("what is love", []),
        ("What is Caroline's job?", []),
        ("tell me about the weather", []),
        ("I planted factory seeds", []),
    ],
)
def test_kinds_come_only_from_clear_words(query: str, kinds: list[MemoryKind]) -> None:
    assert parse_filters(query, NOW).kinds == kinds


@pytest.mark.parametrize(
    ("query", "channels", "found", "text"),
    [
        ("deploys in the billing project", ["billing"], ["billing"], "deploys"),
        ("deploys in billing", ["billing"], ["billing"], "deploys"),
        ("notes on the ops channel", ["ops", "billing"], ["ops"], "notes"),
        ("errors for team-a", ["team-a"], ["team-a"], "errors"),
        ("errors in channel ops", ["ops"], ["ops"], "errors in"),
        ("project Apollo status", ["apollo"], ["apollo"], "status"),
        ("in ops and in billing", ["billing", "ops"], ["ops", "billing"], "and"),
        ("billing problems", ["billing"], [], "billing problems"),
        ("in billings", ["billing"], [], "in billings"),
        ("in team-ab", ["team-a"], [], "in team-ab"),
        ("in the billing project", [], [], "in the billing project"),
        ("in the billing project", ["", " "], [], "in the billing project"),
    ],
)
def test_channels_only_from_the_allowed_names(
    query: str, channels: list[str], found: list[str], text: str
) -> None:
    filters = parse_filters(query, NOW, channels=channels)
    assert filters.channels == found
    assert filters.text == text


@pytest.mark.parametrize(
    ("query", "entities"),
    [
        ("When did Caroline go to the LGBTQ support group?", ["Caroline", "LGBTQ"]),
        ("What did Melanie paint last year?", ["Melanie"]),
        ("tell me about Acme Corp", ["Acme Corp"]),
        ("Tell me about Acme Corp", ["Acme Corp"]),
        ("Who is John Smith?", ["John Smith"]),
        ("Caroline went to Paris with Melanie and caroline", ["Caroline", "Paris", "Melanie"]),
        ("What is Caroline's job?", ["Caroline"]),
        ("Caroline's sister met Acme's CEO on Friday.", ["Caroline", "Acme", "CEO"]),
        ("Did I mention NASA to Dr. Smith?", ["NASA", "Dr. Smith"]),
        ("What are my goals for the Bank of America account?", ["Bank of America"]),
        ("what facts about Ludwig van Beethoven", ["Ludwig van Beethoven"]),
        ("What happened in May with Bob?", ["Bob"]),
        ("Did we meet on Monday in The Hague?", ["Hague"]),
        ("Sarah. Then Tom came.", ["Sarah", "Tom"]),
        ("Please remind me what I said. Really?", []),
        ("I think I'm fine, OK?", []),
        ("what did paris look like", []),
    ],
)
def test_entities(query: str, entities: list[str]) -> None:
    assert parse_filters(query, NOW).entities == entities


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (n) DETACH DELETE n",
        '"}) MATCH (n) RETURN n //',
        "'; DROP TABLE memories; --",
        "CREATE (x:Admin) SET x.password = 'x' RETURN x",
        "SELECT * FROM turns WHERE 1=1 UNION ALL SELECT * FROM facts",
        "Robert'); DELETE FROM users;--",
        "{{7*7}} ${jndi:ldap://x} \\u0000 %s",
    ],
)
def test_injection_looking_queries_are_plain_text(query: str) -> None:
    filters = parse_filters(query, NOW, channels=["ops"])
    assert filters.text == " ".join(query.split())
    assert filters.time_range is None
    keywords = {"MATCH", "DETACH", "DELETE", "RETURN", "DROP", "TABLE", "CREATE", "SET", "SELECT", "FROM"}
    assert not keywords & {word for entity in filters.entities for word in entity.split()}
    assert rewrite_as_statement(query) is None
    assert is_entity_query(query) is None


def test_acronyms_survive_next_to_query_keywords() -> None:
    filters = parse_filters("MATCH NASA DELETE LGBTQ", NOW)
    assert filters.entities == ["NASA", "LGBTQ"]


def test_very_long_input() -> None:
    query = 'MATCH (n) DETACH DELETE n; yesterday Caroline said "}) RETURN n ' * 2_000
    filters = parse_filters(query, NOW, channels=["ops"])
    assert filters.entities == ["Caroline"]
    assert filters.time_range is not None
    assert filters.time_range.phrase == "yesterday"
    assert len(filters.text) < len(query)
    assert is_entity_query(query) is None
    assert rewrite_as_statement("Did " + "the " * 20_000 + "?") is None


# --- rewrite_as_statement --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "statement"),
    [
        ("When did Caroline go to the LGBTQ support group?", "Caroline went to the LGBTQ support group"),
        ("What did Melanie paint?", "Melanie painted"),
        ("Where does John work?", "John works"),
        ("What is Caroline's job?", "Caroline's job is"),
        ("Has Melanie been to Paris?", "Melanie has been to Paris"),
        ("Do I like coffee?", "I like coffee"),
        ("How many kids does Melanie have?", "Melanie has kids"),
        ("how much money did John spend", "John spent money"),
        ("Who is John Smith?", "John Smith is"),
        ("Why did John quit his job?", "John quit his job"),
        ("How did I fix the build?", "I fixed the build"),
        ("Who did Caroline meet at the conference?", "Caroline met at the conference"),
        ("Which city did John visit?", "John visited city"),
        ("What kind of art does Melanie make?", "Melanie makes kind of art"),
        ("How long has Melanie been painting?", "Melanie has been painting"),
        ("How often does John swim?", "John swims"),
        ("Did Caroline ever stop smoking?", "Caroline ever stopped smoking"),
        ("Did the intern finish the report?", "the intern finished the report"),
        ("Did the new intern submit the report?", "the new intern submitted the report"),
        ("Is the new intern happy?", "the new intern is happy"),
        ("Is the meeting tomorrow?", "the meeting is tomorrow"),
        ("Where was the photo taken?", "the photo was taken"),
        ("Is Caroline's sister a doctor?", "Caroline's sister is a doctor"),
        ("Where does Caroline's brother live?", "Caroline's brother lives"),
        ("Were the kids at the party?", "the kids were at the party"),
        ("Is it raining?", "it is raining"),
        ("Can Melanie swim?", "Melanie can swim"),
        ("Will Melanie come tomorrow?", "Melanie will come tomorrow"),
        ("Why didn't John come?", "John did not come"),
        ("Won't John come?", "John will not come"),
        ("Doesn't Melanie paint?", "Melanie does not paint"),
        ("WHAT DID MELANIE PAINT?", "MELANIE painted"),
        ("Please, what did Melanie paint last year?", "Melanie painted last year"),
        ("what did Melanie paint, please?", "Melanie painted"),
        ("Can you tell me when Caroline went to the group?", "Caroline went to the group"),
        ("Tell me what is Caroline's job", "Caroline's job is"),
        ("tell me how many kids Melanie has", "Melanie has kids"),
        ("Do you know if Melanie likes jazz?", "Melanie likes jazz"),
    ],
)
def test_rewrite_as_statement(query: str, statement: str) -> None:
    assert rewrite_as_statement(query) == statement


@pytest.mark.parametrize(
    ("verb", "past"),
    [
        ("go", "went"),
        ("buy", "bought"),
        ("read", "read"),
        ("paint", "painted"),
        ("bake", "baked"),
        ("try", "tried"),
        ("play", "played"),
        ("stop", "stopped"),
        ("plan", "planned"),
        ("visit", "visited"),
        ("fix", "fixed"),
        ("open", "opened"),
    ],
)
def test_past_tense_after_did(verb: str, past: str) -> None:
    assert rewrite_as_statement(f"Did Melanie {verb} it?") == f"Melanie {past} it"


@pytest.mark.parametrize(
    ("verb", "third"),
    [
        ("have", "has"),
        ("go", "goes"),
        ("do", "does"),
        ("watch", "watches"),
        ("fix", "fixes"),
        ("study", "studies"),
        ("play", "plays"),
        ("paint", "paints"),
        ("miss", "misses"),
    ],
)
def test_third_person_after_does(verb: str, third: str) -> None:
    assert rewrite_as_statement(f"Does Melanie {verb} it?") == f"Melanie {third} it"


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?",
        "Caroline went to the store.",
        "I like coffee",
        "What happened?",
        "Who went to the party?",
        "Tell me about Caroline",
        "Did Caroline?",
        "Did the intern?",
        "Is going to the party fun?",
        "what about tomorrow",
    ],
)
def test_not_a_recognisable_question(query: str) -> None:
    assert rewrite_as_statement(query) is None


# --- is_entity_query -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("tell me about Acme Corp", "Acme Corp"),
        ("Tell me everything about the Hubble Telescope.", "Hubble Telescope"),
        ("can you tell me about caroline?", "caroline"),
        ("What do you know about Caroline?", "Caroline"),
        ("what do we know about project apollo", "project apollo"),
        ("Who is John Smith?", "John Smith"),
        ("who's Bob", "Bob"),
        ("What is the LGBTQ support group?", "LGBTQ support group"),
        ("What was Acme Corp?", "Acme Corp"),
        ("Caroline?", "Caroline"),
        ("Bank of America?", "Bank of America"),
        ('tell me about "Acme"', "Acme"),
    ],
)
def test_is_entity_query(query: str, name: str) -> None:
    assert is_entity_query(query) == name


@pytest.mark.parametrize(
    "query",
    [
        "",
        "what is love",
        "who is she",
        "What is Caroline's job?",
        "tell me about yourself",
        "tell me about what Caroline did yesterday",
        "tell me about the very long list of things we did last summer",
        "Really?",
        "What?",
        "Did Caroline go?",
        "Caroline",
        "May?",
        "When did Caroline go to the LGBTQ support group?",
        "What is MATCH (n) DETACH DELETE n",
    ],
)
def test_not_an_entity_query(query: str) -> None:
    assert is_entity_query(query) is None


@pytest.mark.parametrize(
    ("query", "ahead"),
    [
        ("What will I do on January 18th?", True),
        ("Any plans for the 18th of January?", True),
        ("What is happening on January 18th?", True),
        ("What's Maya doing in February?", True),  # an arrangement said in the present
        ("What does Maya do in February?", False),  # a habit: the last February
        ("What happened on January 18th?", False),
        ("What was happening on January 18th?", False),
        ("What did I plan for January 18th?", False),
        ("What will I do on 18 January 2025?", False),  # its own year
        ("What is on January 3rd?", False),  # today: neither ahead nor behind
    ],
)
def test_a_question_that_looks_ahead_reads_a_yearless_date_as_the_coming_one(query: str, ahead: bool) -> None:
    found = parse_filters(query, NOW).time_range  # NOW is 3 January 2026
    assert found is not None
    assert found.start is not None
    assert (found.start > NOW) is ahead, found
    if ahead:
        assert found.start.year == 2026
