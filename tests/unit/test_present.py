"""Recall shows the present, the pure part: acknowledgements say nothing (``is_chatter``), stale turns
leave the context block unless nothing else is left (then marked and dated), the facts near the prompt
join the facts section, and the rows of ``stale_turns`` parse."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from agentx_memory.memory.graph_hits import stale_turns
from agentx_memory.models import Fact, MemoryItem
from agentx_memory.retrieval.chatter import is_chatter
from agentx_memory.retrieval.context_render import (
    STALE_MARK,
    ContextSections,
    at_present,
    nearby_facts,
    render_context,
)
from agentx_memory.retrieval.tokens import default_token_counter

SAID = datetime(2024, 3, 5, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    "text",
    [
        "Okay, will do!",
        "You've got this.",
        "Sure, no problem.",
        # Known misses: an idiom's noun or adjective ("mind", "fair") is a content word to this rule;
        # a turn that reads as saying something is kept (precision before coverage, DESIGN §8).
        pytest.param("I'll keep that in mind.", marks=pytest.mark.xfail(strict=True, reason="idiom")),
        "Thanks so much!",
        "Happy to help :)",
        "That's great!",
        "I see.",
        pytest.param("Haha, fair enough... well ok", marks=pytest.mark.xfail(strict=True, reason="idiom")),
    ],
)
def test_acknowledgements_and_pleasantries_are_chatter(text: str) -> None:
    assert is_chatter(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'll be in Lisbon on Friday.",
        "Will do, the dentist at 4.",
        "Noted: you prefer aisle seats.",
        "Got it, no peanuts for Maya.",
        "Yes, Toronto.",
        "We adopted a puppy",
        "Call me at 7",
        "You got this, the marathon is only a long run with friends.",
    ],
)
def test_a_turn_that_names_something_is_not_chatter(text: str) -> None:
    assert not is_chatter(text)


def turn(content: str, *, stale: bool = False, score: float = 0.5) -> MemoryItem:
    return MemoryItem(
        kind="episodic",
        id=str(uuid.uuid4()),
        content=content,
        score=score,
        channel="_global",
        timestamp=SAID,
        role="user",
        stale=stale,
        superseded_by=["f-new"] if stale else [],
    )


def test_stale_turns_and_chatter_leave_the_block_while_a_current_turn_remains() -> None:
    old = turn("I live in Montreal.", stale=True, score=0.9)
    new = turn("Actually I moved to Toronto.", score=0.6)
    ack = turn("Noted.", score=0.7)
    fact = MemoryItem(
        kind="fact", id="f-new", content="The user lives in Toronto", score=0.8, channel="_global"
    )
    assert at_present([old, ack, fact, new]) == [fact, new]


def test_stale_turns_stay_marked_and_dated_when_no_other_turn_is_left() -> None:
    old = turn("I live in Montreal.", stale=True)
    kept = at_present([old, turn("Will do.")])
    assert kept == [old]
    block = render_context(
        ContextSections(facts=(), turns=kept, strategies=(), goals=()), 400, default_token_counter()
    )
    [line] = [line for line in block.text.splitlines() if "Montreal" in line]
    assert line.startswith(f"- 2024-03-05 {STALE_MARK} user: I live in Montreal.")


def fact(claim: str, *, ended: bool = False) -> Fact:
    return Fact(
        id=str(uuid.uuid4()),
        user_id="alice",
        channel="_global",
        claim=claim,
        confidence=0.9,
        source="user",
        created_at=SAID,
        valid_until=SAID if ended else None,
    )


def test_nearby_facts_are_the_closest_current_ones_over_the_floor_not_already_recalled() -> None:
    home, food, band, old = (
        fact("The user lives in Toronto"),
        fact("The user loves ramen"),
        fact("The user likes Radiohead"),
        fact("The user lives in Montreal", ended=True),
    )
    seen = [(band, 0.05), (food, 0.17), (home, 0.15), (old, 0.3), (food, 0.17)]
    chosen = nearby_facts(seen, known=set(), floor=0.1, limit=3)
    assert [item.id for item in chosen] == [food.id, home.id]
    assert all(item.kind == "fact" for item in chosen)
    assert [item.id for item in nearby_facts(seen, known={food.id}, floor=0.1, limit=3)] == [home.id]
    assert len(nearby_facts(seen, known=set(), floor=0.0, limit=1)) == 1
    assert nearby_facts(seen, known=set(), floor=0.1, limit=0) == []


def test_stale_turn_rows_parse_by_turn_with_each_current_replacement_once() -> None:
    current: dict[str, Any] = {
        "id": "f3",
        "user_id": "alice",
        "channel": "_global",
        "claim": "The user lives in Toronto",
        "confidence": 0.9,
        "source": "user",
        "created_at": 1_700_000_000_000,
    }
    rows: list[dict[str, Any]] = [
        {"id": "t1", "superseded_by": "f3", "item": current, "about": [], "turns": ["t1", "t2"]},
        {"id": "t1", "superseded_by": "f2", "item": current, "about": [], "turns": ["t1", "t2"]},
        {"id": "t9", "superseded_by": "f8", "item": None, "about": [], "turns": []},
    ]
    found = stale_turns(rows)
    assert found["t1"].superseded_by == ["f2", "f3"]
    assert [f.id for f in found["t1"].current] == ["f3"]
    assert found["t1"].current[0].source_turn_ids == ["t1", "t2"]
    assert found["t9"].superseded_by == ["f8"]
    assert found["t9"].current == []
