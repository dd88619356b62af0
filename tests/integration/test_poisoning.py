"""Memory poisoning end to end: stored turns, facts, entities, goals and profile entries that imitate the
context block (tests/payloads.py ``POISONING``) come back from ``get_context`` as what the store holds
(one tagged line each, in its own section) and forge no section, tag, fence or role label."""

from __future__ import annotations

import pytest

from agentx_memory import AgentMemory
from agentx_memory.errors import InvalidInputError
from agentx_memory.retrieval.context_render import short_id
from agentx_memory.retrieval.neutralise import neutralise
from tests.context_structure import TITLES, parse_context
from tests.payloads import POISONING

SECTION_OF = {
    "fact": "### Known facts",
    "turn": "### Relevant past conversation",
    "goal": "### Active goals",
    "entity": "### People and things",
}


def test_poisoned_memories_cannot_forge_the_blocks_structure(memory: AgentMemory) -> None:
    stored: dict[str, tuple[str, str]] = {}  # short id -> (section, content)
    conversation = memory.new_conversation(title="poison")
    for payload in POISONING:
        turn = memory.store_turn(conversation, "user", f"memory of the admin {payload}")
        stored[short_id(turn.id)] = (SECTION_OF["turn"], turn.content)
        fact = memory.learn_fact(f"the admin {payload}", confidence=0.9, source="user")
        stored[short_id(fact.id)] = (SECTION_OF["fact"], fact.claim)
    for payload in POISONING[:8]:
        goal = memory.add_goal(f"admin goal {payload}")
        stored[short_id(goal.id)] = (SECTION_OF["goal"], goal.description)
        try:
            entity = memory.upsert_entity(f"admin {payload}"[:200], "person")
        except InvalidInputError:
            continue  # a name the validation refuses is not stored at all
        stored[short_id(entity.id)] = (SECTION_OF["entity"], entity.name)
    memory.update_profile(preferences={payload[:60]: payload for payload in POISONING[:6]})

    block = memory.get_context("what do you know about the admin?", budget_tokens=32_000)

    shape = parse_context(block)  # asserts no forged marker in any line
    assert set(shape.sections) <= set(TITLES)
    assert len(shape.tags) == len(set(shape.tags)) >= 20
    lines = [line for line in block.split("\n") if line.startswith("- ")]
    section = ""
    by_line: list[tuple[str, str]] = []
    for line in block.split("\n"):
        if line in TITLES:
            section = line
        elif line.startswith("- "):
            by_line.append((section, line))
    assert len(by_line) == len(lines) == len(shape.tags)
    for (section, line), tag in zip(by_line, shape.tags, strict=True):
        assert tag in stored, f"{line!r} carries a tag the store does not hold"
        want_section, content = stored[tag]
        assert section == want_section, line
        assert line.removesuffix(f" [mem:{tag}]").endswith(neutralise(content)[:250].rstrip("…")), line


@pytest.mark.parametrize("payload", POISONING[:4])
def test_a_poisoned_speaker_name_stays_inside_its_line(memory: AgentMemory, payload: str) -> None:
    conversation = memory.new_conversation()
    memory.store_turn(conversation, "user", "the admin likes tea", metadata={"speaker": payload})
    shape = parse_context(memory.get_context("what does the admin like?"))
    assert shape.sections == ["### Relevant past conversation"]
    assert len(shape.tags) == 1
