"""``get_context`` end to end on the real servers: sections within the budget, ``[mem:id]`` tags, the
conversation in progress left out, recall echo, access reinforcement, isolation and bad input."""

from __future__ import annotations

from typing import Any

import pytest

from agentx_memory import AgentMemory, InvalidInputError
from agentx_memory.models import Scope
from agentx_memory.retrieval.context_render import HEADER, MIN_BUDGET_TOKENS, short_id
from agentx_memory.retrieval.tokens import default_token_counter
from agentx_memory.stores.falkordb import FalkorDBStore

ALICE = Scope(user_id="alice", channel="_global")
PROMPT = "Where should we go for Maya's birthday dinner?"


def tag(memory_id: str) -> str:
    return f"[mem:{short_id(memory_id)}]"


def test_the_block_has_a_section_per_kind_tagged_lines_and_fits_the_budget(memory: AgentMemory) -> None:
    fact = memory.learn_fact("Maya is allergic to peanuts", confidence=0.95, source="user")
    goal = memory.add_goal("Book Maya's birthday dinner", priority=1)
    past = memory.new_conversation(title="earlier")
    turn = memory.store_turn(past, "user", "For Maya's birthday dinner I want kaiseki in Osaka")
    maya = memory.upsert_entity("Maya", "person", description="Alice's sister")

    block = memory.get_context(PROMPT, budget_tokens=600)

    assert block.startswith(HEADER[:-1])
    for section, memory_id in (
        ("### Known facts", fact.id),
        ("### Relevant past conversation", turn.id),
        ("### Active goals", goal.id),
        ("### People and things", maya.id),
    ):
        assert section in block
        assert tag(memory_id) in block.split(section, 1)[1]
    assert default_token_counter().count(block) <= 600
    # A tight budget keeps the block within it by dropping lines, never by cutting one.
    small = memory.get_context(PROMPT, budget_tokens=MIN_BUDGET_TOKENS)
    assert default_token_counter().count(small) <= MIN_BUDGET_TOKENS
    assert len(small) < len(block)
    assert all(line.endswith("]") for line in small.splitlines() if line.startswith("- "))


def test_the_conversation_in_progress_is_left_out_and_what_was_injected_is_recorded(
    memory: AgentMemory,
) -> None:
    earlier = memory.new_conversation(title="earlier")
    said_before = memory.store_turn(earlier, "user", "The kaiseki restaurant for Maya is called Kitcho")
    current = memory.new_conversation(title="now")
    said_now = memory.store_turn(current, "user", "Is the kaiseki restaurant Kitcho open on Sundays?")

    block = memory.get_context("Which kaiseki restaurant did we pick?", conversation_id=current)

    assert tag(said_before.id) in block
    assert tag(said_now.id) not in block  # the agent already has its own conversation
    recalled = memory.working(current).recalled_ids()
    assert said_before.id in recalled
    assert said_now.id not in recalled
    # Without a conversation nothing is left out (and nothing is recorded anywhere).
    assert tag(said_now.id) in memory.get_context("Which kaiseki restaurant did we pick?")


def test_facts_learned_from_the_conversation_in_progress_are_not_injected_back(memory: AgentMemory) -> None:
    current = memory.new_conversation()
    said = memory.store_turn(current, "user", "I'm allergic to peanuts.")
    memory.consolidate_conversation(current)
    (learned,) = [fact for fact, _ in memory.search_facts("allergic to peanuts") if fact.source_turn_ids]
    prompt = "Which food allergy does the user have: peanuts?"
    own = memory.get_context(prompt, conversation_id=current)
    assert tag(learned.id) not in own
    assert tag(said.id) not in own
    other = memory.new_conversation()  # a later conversation has not seen it: it is memory there
    elsewhere = memory.get_context(prompt, conversation_id=other)
    assert tag(learned.id) in elsewhere or tag(said.id) in elsewhere


def test_the_relevance_floor_and_the_cap_keep_the_best_memories_only(memory: AgentMemory) -> None:
    past = memory.new_conversation()
    for text in ("Maya's birthday dinner is at the kaiseki place in Osaka", "I repainted the garage"):
        memory.store_turn(past, "user", text)
    for number in range(6):
        memory.learn_fact(
            f"Maya's birthday dinner guest number {number} is confirmed", confidence=0.9, source="user"
        )

    def context(**retrieval: float) -> str:
        update = {"retrieval": memory.settings.retrieval.model_copy(update=retrieval)}
        memory.settings = memory.settings.model_copy(update=update)
        return memory.get_context(PROMPT, budget_tokens=3000)

    everything = context(context_floor=0.0, context_max_items=25)
    capped = context(context_floor=0.0, context_max_items=3)
    assert everything.count("[mem:") > 3 == capped.count("[mem:")
    floored = context(context_floor=0.9, context_max_items=25)
    assert 1 <= floored.count("[mem:") < everything.count("[mem:")
    assert "garage" in everything
    assert "garage" not in floored


def test_injected_facts_count_one_more_access_and_the_others_do_not(
    memory: AgentMemory, graph: FalkorDBStore
) -> None:
    facts = [
        memory.learn_fact(
            f"Maya's favourite dessert number {n} is mochi with matcha", confidence=0.9, source="chat"
        )
        for n in range(12)
    ]
    block = memory.get_context("What desserts does Maya like?", budget_tokens=MIN_BUDGET_TOKENS)
    memory.close()  # waits for the reinforcement the async facade runs in the background; reopens on use

    stored = memory._open_backends().facts
    injected = [fact for fact in facts if tag(fact.id) in block]
    left_out = [fact for fact in facts if tag(fact.id) not in block]
    assert injected
    assert left_out  # the budget holds a few of the twelve
    assert all(stored.get(ALICE, fact.id).access_count == 1 for fact in injected)
    assert all(stored.get(ALICE, fact.id).access_count == 0 for fact in left_out)
    assert all(stored.get(ALICE, fact.id).last_accessed is not None for fact in injected)


def test_another_user_and_another_project_channel_see_nothing(memory: AgentMemory) -> None:
    shared = memory.learn_fact("Maya's birthday is on October 18th", confidence=0.9, source="user")
    trip = memory.for_user("alice", "trip")
    planned = trip.learn_fact("The birthday dinner is booked at Kitcho", confidence=0.9, source="user")
    work = memory.for_user("alice", "work")
    unrelated = work.learn_fact("The birthday party at work is on Friday", confidence=0.9, source="user")

    in_trip = trip.get_context("When is the birthday dinner?")
    assert tag(planned.id) in in_trip
    assert tag(shared.id) in in_trip  # the active channel and _global
    assert tag(unrelated.id) not in in_trip
    assert memory.for_user("bob").get_context("When is the birthday dinner?") == ""


@pytest.mark.parametrize(
    "arguments",
    [
        {"prompt": ""},
        {"prompt": "   "},
        {"budget_tokens": MIN_BUDGET_TOKENS - 1},
        {"budget_tokens": 10**6},
        {"budget_tokens": True},
        {"budget_tokens": 500.0},
        {"conversation_id": "not-a-uuid"},
    ],
)
def test_bad_input_is_refused_and_changes_nothing(memory: AgentMemory, arguments: dict[str, Any]) -> None:
    fact = memory.learn_fact("Maya is allergic to peanuts", confidence=0.95, source="user")
    call: dict[str, Any] = {"prompt": "What is Maya allergic to?", **arguments}
    with pytest.raises(InvalidInputError):
        memory.get_context(**call)
    # The refused call reinforced nothing: the only access counted is this search's own.
    [(found, _)] = memory.search_facts("Maya allergy", top_k=1)
    assert (found.id, found.access_count) == (fact.id, 1)
