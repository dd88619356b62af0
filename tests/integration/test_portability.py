"""Export / import of one user's memory: a lossless round trip through every store, idempotent, scoped."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from agentx_memory import AgentMemory
from agentx_memory.errors import EmbeddingDimensionError, InvalidInputError
from agentx_memory.memory.portability_pure import VOLATILE_HEADER_FIELDS


def populate(memory: AgentMemory) -> dict[str, str]:
    """A user with something in every store: turns with metadata, consolidated facts, a correction
    chain, entities with a relationship, goals with a subgoal, a strategy with tools, a profile and
    access statistics."""
    start = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    conversation = memory.new_conversation(title="Trip planning", metadata={"source": "chat"})
    lines = [
        ("user", "I moved to Lisbon last year and I work at Acme as a data engineer."),
        ("assistant", "Noted: Lisbon, Acme, data engineering."),
        ("user", "My sister Maria lives in Porto and she loves hiking."),
    ]
    for index, (role, text) in enumerate(lines):
        memory.store_turn(
            conversation, role, text, timestamp=start + timedelta(minutes=index), metadata={"speaker": role}
        )
    memory.consolidate_conversation(conversation)
    fact = memory.learn_fact("The user prefers window seats", confidence=0.8, source="user_stated")
    corrected = memory.correct_fact(fact.id, "The user prefers aisle seats")
    acme = memory.upsert_entity(
        "Acme", "organization", aliases=["Acme Corp"], description="the employer", properties={"hq": "Lyon"}
    )
    lisbon = memory.upsert_entity("Lisbon", "location", description="a city in Portugal")
    memory.create_relationship(acme.id, lisbon.id, "LOCATED_IN", {"since": 2020})
    goal = memory.add_goal("Plan the trip to Porto", priority=2)
    sub = memory.add_goal("Book the train", parent_id=goal.id)
    memory.complete_goal(sub.id, result="booked")
    memory.record_invocation(conversation, 1, "search_trains", {"to": "Porto"}, {"found": 3}, True, 12.5)
    memory.learn_strategy(
        "Book a train", "travel between cities", ["search_trains", "book"], conversation, True
    )
    memory.update_profile(
        preferences={"seat": "aisle"}, expertise_areas=["data"], communication_style="brief"
    )
    # documents (a LangGraph store's items, an agents session's): exact values, ranked by their texts
    memory.put_document(
        "langgraph",
        ("memories",),
        "diet",
        {"text": "vegetarian", "n": 7.002895247839731e16, "b": 1.0},
        index_texts={"$": "The user is vegetarian"},
    )
    memory.put_document("langgraph", ("memories",), "plain", {"z": [1, {"y": None}]}, ttl_minutes=600)
    # a NUL in a key and a string (the json column keeps it; jsonb would refuse it), and its escape
    memory.put_document("langgraph", ("memories",), "nul", {"k\x00": "a\x00b", "path": "C:\\u0000"})
    memory.remember("Where does the user work?")
    memory._open_backends().pending  # noqa: B018 - reinforcement runs at once in the sync API
    return {"conversation": conversation, "fact": corrected.id, "goal": goal.id}


def normalised(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A dump without the fields that legitimately differ between two exports."""
    out = copy.deepcopy(records)
    for field in VOLATILE_HEADER_FIELDS:
        out[0].pop(field)
    return out


def without_vectors(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = normalised(records)
    for record in out:
        if record["type"] == "node":
            record["embedding"] = None
        elif record["type"] in ("turn", "document_vector"):
            record["data"]["embedding"] = None
    return out


def test_export_forget_import_export_is_identical_and_idempotent(memory: AgentMemory) -> None:
    populate(memory)
    bob = memory.for_user("bob")
    bob.store_turn(bob.new_conversation(), "user", "Bob's own memory stays put.")
    bob_before = normalised(bob.export_user())

    dump = memory.export_user()
    kinds = {record["type"] for record in dump}
    assert kinds >= {
        "header", "conversation", "turn", "tool_invocation", "profile", "access", "timeline", "document",
        "document_vector",
    }  # fmt: skip
    labels = {record["label"] for record in dump if record["type"] == "node"}
    assert labels >= {"User", "Conversation", "Turn", "Fact", "Entity", "Goal", "Strategy", "Tool"}
    rels = {record["rel"] for record in dump if record["type"] == "edge"}
    assert rels >= {"SUPERSEDES", "DERIVED_FROM", "SUBGOAL_OF", "LOCATED_IN", "USES_TOOL", "HAS_TURN"}
    assert dump[0]["embedding_dimensions"] == 384

    memory.forget_user()
    assert memory.export_user()[1:] == []
    counts = memory.import_user(dump)
    assert counts["nodes"] > 0
    assert counts["edges"] > 0
    assert counts["turn"] == 3
    assert normalised(memory.export_user()) == normalised(dump)

    again = memory.import_user(dump)
    assert set(again.values()) == {0}  # nothing was missing, nothing was written
    assert normalised(memory.export_user()) == normalised(dump)
    assert normalised(bob.export_user()) == bob_before

    diet = memory.get_document("langgraph", ("memories",), "diet")
    assert diet is not None
    assert list(diet.value.items()) == [("text", "vegetarian"), ("n", 7.002895247839731e16), ("b", 1.0)]
    assert [d.key for d in memory.scan_documents("langgraph", ())] == ["diet", "plain", "nul"]  # order kept
    nul = memory.get_document("langgraph", ("memories",), "nul")
    assert nul is not None
    assert nul.value == {"k\x00": "a\x00b", "path": "C:\\u0000"}
    assert memory.scan_documents("langgraph", ("memories",), query="what does the user eat?")[0].key == "diet"
    memory.put_document("langgraph", ("memories",), "later", {"v": 1})
    assert [d.key for d in memory.scan_documents("langgraph", ())] == ["diet", "plain", "nul", "later"]
    # the restored memory works: recall finds the turns and the current fact
    found = memory.remember("aisle seats", top_k=5)
    assert any("aisle" in item.content for item in found.items)


def test_import_without_vectors_embeds_them_and_a_foreign_model_is_refused(memory: AgentMemory) -> None:
    populate(memory)
    full = memory.export_user()
    bare = memory.export_user(embeddings=False)
    assert all(record.get("embedding") is None for record in bare[1:] if record["type"] == "node")
    memory.forget_user()
    memory.import_user(bare)
    restored = memory.export_user()
    # every vector is back (embedded from the text its subsystem embeds; an entity merged after it was
    # created keeps its first text's vector in the original, so vectors are compared by presence)
    assert without_vectors(restored)[1:] == without_vectors(full)[1:]
    assert all(
        record["embedding"]
        for record in restored
        if record["type"] == "node" and record["label"] in {"Fact", "Entity", "Goal", "Strategy"}
    )
    # a turn's vector lives in the ledger only (its graph node carries none)
    assert all(
        record["data"]["embedding"] for record in restored if record["type"] in ("turn", "document_vector")
    )
    assert not any(record["embedding"] for record in restored if record.get("label") == "Turn")
    assert memory.scan_documents("langgraph", ("memories",), query="diet")[0].key == "diet"

    foreign = copy.deepcopy(full)
    foreign[0]["embedding_model"] = "another-model"
    memory.forget_user()
    with pytest.raises(EmbeddingDimensionError, match="re-embed"):
        memory.import_user(foreign)
    assert memory.export_user()[1:] == []  # nothing imported
    memory.import_user(foreign, re_embed=True)
    assert len(memory.export_user()) == len(full)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop(0), "header"),
        (lambda d: d[0].update(version=99), "version"),
        (lambda d: d[0].update(user_id="bob"), "not 'alice'"),
        (lambda d: d[-1].update(rel="OWNS"), "not a relationship"),
        (lambda d: d.append({"type": "node", "label": "Secret", "data": {}}), "label"),
        (lambda d: d[2]["data"].update(user_id="bob"), "row of user"),
    ],
)
def test_a_bad_dump_changes_nothing(memory: AgentMemory, edit: Any, message: str) -> None:
    conversation = memory.new_conversation()
    memory.store_turn(conversation, "user", "Only this turn.")
    dump = memory.export_user()
    memory.forget_user()
    edit(dump)
    with pytest.raises(InvalidInputError, match=message):
        memory.import_user(dump)
    assert memory.export_user()[1:] == []
