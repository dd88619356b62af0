"""A first-person question about one of the user's slots, and its current facts put first. Pure."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from agentx_memory.kinds import MemoryKind
from agentx_memory.models import Fact, MemoryItem
from agentx_memory.retrieval.slots import SlotAsk, answer_first, asked_slots, newest_first

NOW = datetime(2025, 11, 14, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "key"),
    [
        ("Where do I live now?", "lives_in"),
        ("where am I based these days", "lives_in"),
        ("Who is my employer?", "works_at"),
        ("what car do I drive?", "drives"),
        ("who is my girlfriend?", "girlfriend"),
        ("what's my cat's name?", "cat"),
        ("what is my favourite board game?", "favourite_game"),
        ("what's my phone number?", "phone"),
        ("what do I do for a living?", "works_as"),  # a living earned is a job, no home
        ("Where am I living now?", "lives_in"),
    ],
)
def test_a_first_person_question_asks_for_its_slot(query: str, key: str) -> None:
    assert key in asked_slots(query).keys


def test_an_appointment_is_asked_by_its_thing() -> None:
    assert asked_slots("when is my dentist appointment?").things == ("dentist",)


@pytest.mark.parametrize("query", ["Tell me a joke", "What did Tom say about the weather?"])
def test_no_slot_of_the_user_is_asked(query: str) -> None:
    assert not asked_slots(query)


def _fact(fact_id: str, claim: str) -> Fact:
    return Fact(
        id=fact_id, user_id="u", channel="_global", claim=claim, confidence=0.95, source="s", created_at=NOW
    )


def _turn(item_id: str, score: float) -> MemoryItem:
    return MemoryItem(kind="episodic", id=item_id, content=item_id, score=score, channel="_global")


def test_the_current_facts_lead_once_and_the_list_keeps_its_length() -> None:
    items = [_turn("old-turn", 0.3), _turn("f1", 0.1), _turn("other", 0.05)]
    ranked = answer_first(items, [_fact("f1", "Dana lives in Toronto.")], top_k=3)
    assert [item.id for item in ranked] == ["f1", "old-turn", "other"]
    assert ranked[0].score > 0.3
    assert ranked[0].found_by == ["slot"]


def test_nothing_changes_without_slot_facts() -> None:
    items = [_turn("a", 0.3)]
    assert answer_first(items, [], top_k=5) == items
    assert SlotAsk() == SlotAsk((), ())


def _said(item_id: str, score: float, day: int, kind: MemoryKind = "episodic") -> MemoryItem:
    return MemoryItem(
        kind=kind,
        id=item_id,
        content=item_id,
        score=score,
        channel="_global",
        timestamp=datetime(2025, 1, day, tzinfo=UTC),
    )


def test_a_slot_question_reads_the_turns_newest_first_in_their_places() -> None:
    # "I live in Montreal" is closer to "where do I live?" than "these days I'm based in Toronto"
    items = [
        _said("montreal", 0.9, 2),
        _said("fact", 0.8, 1, kind="fact"),
        _said("toronto", 0.7, 20),
        _said("pasta", 0.6, 10),
    ]
    ranked = newest_first(items)
    assert [item.id for item in ranked] == ["toronto", "fact", "pasta", "montreal"]
    assert [item.score for item in ranked] == [0.9, 0.8, 0.7, 0.6]  # the places keep their scores


def test_only_a_slot_question_reorders_by_time() -> None:
    items = [_said("old", 0.9, 2), _said("new", 0.5, 20)]
    assert [item.id for item in answer_first(items, [], top_k=5)] == ["old", "new"]
    asked = asked_slots("where do I live?")
    assert [item.id for item in answer_first(items, [], top_k=5, asked=asked)] == ["new", "old"]


@pytest.mark.parametrize(("query", "thing"), [("when is my MOT?", "mot"), ("When's my recital?", "recital")])
def test_an_appointment_of_any_name_is_asked_by_its_thing(query: str, thing: str) -> None:
    assert thing in asked_slots(query).things


def test_a_living_earned_asks_no_home() -> None:
    assert "lives_in" not in asked_slots("what do I do for a living?").keys
