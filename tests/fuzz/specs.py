"""What to generate for each public method of ``AgentMemory``: its keyword arguments as a strategy.

Each value mixes valid input (so that calls reach the stores) with hostile input (strategies.py).
``lifecycle`` methods (``open``, ``close``, ``__enter__``…) are not fuzzed: they take no input.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from tests.fuzz.strategies import (
    any_value,
    floats,
    ids,
    ints,
    json_objects,
    maybe,
    nasty_text,
    string_lists,
    text,
    timestamps,
)
from tests.fuzz.world import BOB_MARKER, World

__all__ = ["SPECS", "UNFUZZED"]

Kwargs = st.SearchStrategy[dict[str, Any]]
Spec = Callable[[World], Kwargs]

#: Public methods without input, or that only hand out another object.
UNFUZZED = frozenset({"open", "close", "recall_stats"})


def _args(**strategies: st.SearchStrategy[Any]) -> Kwargs:
    return st.fixed_dictionaries(strategies)


def _flag() -> st.SearchStrategy[Any]:
    return maybe(st.booleans())


def _choice(*valid: str) -> st.SearchStrategy[Any]:
    return maybe(st.sampled_from(valid))


def _ids(kind: str) -> Callable[[World], st.SearchStrategy[Any]]:
    """Ids of one kind (``"facts"``…): alice's own, bob's, random or garbage."""
    return lambda w: ids(getattr(w.alice, kind), getattr(w.bob, kind))


_conversations, _turns, _facts = _ids("conversations"), _ids("turns"), _ids("facts")
_entities, _goals, _strategies = _ids("entities"), _ids("goals"), _ids("strategies")


def _id_lists(w: World) -> st.SearchStrategy[Any]:
    return st.one_of(st.lists(_entities(w), max_size=4), any_value())


def _channels() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.lists(maybe(st.sampled_from(["_global", "proj-a", "bob"])), max_size=3), any_value()
    )


def _namespace(read: bool = False) -> st.SearchStrategy[Any]:
    # only reads name bob's namespace: alice writing the marker would look like a leak
    labels = ["ns", "a.b", *([BOB_MARKER] if read else [])]
    return st.one_of(st.lists(text(labels), max_size=3), any_value())


def _space() -> st.SearchStrategy[Any]:
    return _choice("fuzz", "langgraph", "openai_agents")


def _turn_specs() -> st.SearchStrategy[Any]:
    turn = st.fixed_dictionaries(
        {"role": _choice("user", "assistant"), "content": text()},
        optional={"metadata": json_objects(), "timestamp": timestamps(), "turn_index": ints()},
    )
    return st.one_of(st.lists(st.one_of(turn, any_value()), max_size=3), any_value())


def _records(w: World) -> st.SearchStrategy[Any]:
    dumps = st.sampled_from([w.alice_dump, w.bob_dump])

    def mutate(dump: list[dict[str, Any]], index: int, key: str, value: Any) -> list[dict[str, Any]]:
        copy = [dict(record) for record in dump]
        if copy:
            copy[index % len(copy)][key] = value
        return copy

    return st.one_of(
        dumps,
        st.builds(
            mutate,
            dumps,
            st.integers(0, 100),
            st.sampled_from(["id", "user_id", "type", "content"]),
            any_value(),
        ),
        st.lists(json_objects(), max_size=3),
        any_value(),
    )


SPECS: dict[str, Spec] = {
    # episodic
    "new_conversation": lambda w: _args(
        title=st.one_of(st.none(), text()),
        metadata=json_objects(),
        conversation_id=st.one_of(st.none(), _conversations(w)),
    ),
    "store_turn": lambda w: _args(
        conversation_id=_conversations(w),
        role=_choice("user", "assistant", "system", "tool"),
        content=text(),
        timestamp=timestamps(),
        turn_index=st.one_of(st.none(), ints(0, 50)),
        metadata=json_objects(),
    ),
    "store_turns": lambda w: _args(conversation_id=_conversations(w), turns=_turn_specs()),
    "get_conversation": lambda w: _args(conversation_id=_conversations(w)),
    "get_recent_turns": lambda w: _args(hours=floats(0.1, 100.0), limit=ints(1, 50)),
    "remember": lambda w: _args(
        query=text(),
        top_k=ints(1, 20),
        channels=_channels(),
        include_episodic=_flag(),
        include_semantic=_flag(),
        include_procedural=_flag(),
        time_window_hours=st.one_of(st.none(), floats(0.1, 1000.0)),
        metadata=json_objects(),
    ),
    "working": lambda w: _args(conversation_id=_conversations(w)),
    "for_user": lambda w: _args(
        user_id=maybe(st.sampled_from(["carol", "dave.x"])), channel=st.one_of(st.none(), _choice("proj-a"))
    ),
    "get_context": lambda w: _args(
        prompt=text(), budget_tokens=ints(100, 4000), conversation_id=st.one_of(st.none(), _conversations(w))
    ),
    "compact": lambda w: _args(conversation_id=_conversations(w), max_tokens=ints(1, 500)),
    "timeline": lambda w: _args(
        since=timestamps(),
        until=timestamps(),
        kinds=st.one_of(
            st.none(),
            st.lists(_choice("turn", "fact", "entity", "goal", "strategy"), max_size=3),
            any_value(),
        ),
        limit=ints(1, 50),
        channels=_channels(),
    ),
    # semantic
    "upsert_entity": lambda w: _args(
        name=text(),
        type=_choice("tool", "person", "concept"),
        aliases=string_lists(["hx", "helix"]),
        description=st.one_of(st.none(), text()),
        properties=json_objects(),
    ),
    "create_relationship": lambda w: _args(
        source_id=_entities(w),
        target_id=_entities(w),
        rel_type=_choice("RELATED_TO", "KNOWS"),
        properties=json_objects(),
    ),
    "get_entity_graph": lambda w: _args(entity_ids=_id_lists(w), depth=ints(1, 4)),
    "get_entity_info": lambda w: _args(
        name_or_id=st.one_of(_entities(w), text(["Helix", f"Helix {BOB_MARKER}", f"hx{BOB_MARKER}"]))
    ),
    "search_entities": lambda w: _args(query=text(["Helix", f"Rust {BOB_MARKER}"]), top_k=ints(1, 20)),
    "learn_fact": lambda w: _args(
        claim=text(),
        confidence=floats(),
        source=_choice("user_stated", "inferred"),
        about=st.one_of(st.lists(_entities(w), max_size=2), string_lists(["Helix"])),
        source_turn_id=st.one_of(st.none(), _turns(w)),
        temporal=_choice("current", "past", "future", "timeless"),
        priority=_choice("low", "medium", "high", "critical"),
    ),
    "search_facts": lambda w: _args(
        query=text(["Helix", BOB_MARKER]), top_k=ints(1, 20), min_confidence=floats()
    ),
    "list_facts": lambda w: _args(limit=ints(1, 50), offset=ints(0, 10), include_history=_flag()),
    "confirm_fact": lambda w: _args(fact_id=_facts(w)),
    "correct_fact": lambda w: _args(fact_id=_facts(w), new_claim=text()),
    "undo_correction": lambda w: _args(fact_id=_facts(w)),
    "memory_stats": lambda w: _args(),
    "health": lambda w: _args(timeout_s=floats(0.5, 5.0)),
    "forget_fact": lambda w: _args(fact_id=_facts(w)),
    "forget_turn": lambda w: _args(turn_id=_turns(w)),
    "forget_conversation": lambda w: _args(conversation_id=_conversations(w)),
    "forget_user": lambda w: _args(),
    # channels, learning
    "promote_to_global": lambda w: _args(fact_id=_facts(w), reason=text()),
    "promotion_candidates": lambda w: _args(),
    "consolidate_conversation": lambda w: _args(conversation_id=_conversations(w)),
    "consolidate_pending": lambda w: _args(
        exclude=st.one_of(st.none(), _conversations(w)), idle_only=_flag()
    ),
    "consolidation_status": lambda w: _args(job_id=ids(w.alice.conversations, w.bob.conversations)),
    "review_queue": lambda w: _args(limit=ints(1, 50)),
    "resolve_contradiction": lambda w: _args(
        new_id=_facts(w), old_id=_facts(w), keep=_choice("new", "old", "both")
    ),
    # procedural
    "learn_strategy": lambda w: _args(
        description=text(),
        context_pattern=text(),
        tool_sequence=string_lists(),
        from_conversation_id=st.one_of(st.none(), _conversations(w)),
        success=_flag(),
    ),
    "propose_strategy": lambda w: _args(
        description=text(),
        context_pattern=text(),
        tool_sequence=string_lists(),
        what_failed=string_lists(["retrying blindly"]),
        applies_when=st.one_of(st.none(), text()),
        from_conversation_id=st.one_of(st.none(), _conversations(w)),
    ),
    "propose_from_conversation": lambda w: _args(conversation_id=_conversations(w)),
    "proposed_strategies": lambda w: _args(limit=ints(1, 50)),
    "publish_strategy": lambda w: _args(strategy_id=_strategies(w)),
    "reject_strategy": lambda w: _args(strategy_id=_strategies(w), reason=st.one_of(st.none(), text())),
    "reinforce_strategy": lambda w: _args(strategy_id=_strategies(w), success=_flag()),
    "find_strategies": lambda w: _args(task_description=text(["a bug", BOB_MARKER]), top_k=ints(1, 10)),
    "record_invocation": lambda w: _args(
        conversation_id=_conversations(w),
        turn_index=st.one_of(st.none(), ints(0, 5)),
        tool_name=_choice("git", "py-spy", "a.b_c"),
        tool_input=json_objects(),
        tool_output=st.one_of(json_objects(), nasty_text()),
        success=_flag(),
        latency_ms=floats(0.0, 1000.0),
        error_message=st.one_of(st.none(), text()),
    ),
    "get_tool_stats": lambda w: _args(task_type=st.one_of(st.none(), text())),
    # goals
    "add_goal": lambda w: _args(
        description=text(),
        priority=ints(-5, 5),
        deadline=timestamps(),
        parent_id=st.one_of(st.none(), _goals(w)),
    ),
    "get_goal": lambda w: _args(goal_id=_goals(w)),
    "active_goals": lambda w: _args(limit=ints(1, 50)),
    "complete_goal": lambda w: _args(
        goal_id=_goals(w),
        status=_choice("completed", "abandoned", "blocked"),
        result=st.one_of(st.none(), text()),
    ),
    "block_goal": lambda w: _args(goal_id=_goals(w), blocked_by_id=_goals(w)),
    "set_goal_parent": lambda w: _args(goal_id=_goals(w), parent_id=_goals(w)),
    # profile
    "get_profile": lambda w: _args(),
    "update_profile": lambda w: _args(
        preferences=json_objects(),
        expertise_areas=st.one_of(st.none(), string_lists(["rust"])),
        communication_style=st.one_of(st.none(), text()),
    ),
    # documents
    "put_document": lambda w: _args(
        space=_space(),
        namespace=_namespace(),
        key=text(["doc", "k1"]),
        value=json_objects(),
        index_texts=st.one_of(st.none(), st.dictionaries(text(["v"]), text(), max_size=2), any_value()),
        ttl_minutes=st.one_of(st.none(), floats(0.1, 100.0)),
    ),
    "get_document": lambda w: _args(
        space=_space(), namespace=_namespace(read=True), key=text(["doc"]), refresh_ttl=_flag()
    ),
    "delete_document": lambda w: _args(space=_space(), namespace=_namespace(read=True), key=text(["doc"])),
    "delete_document_namespace": lambda w: _args(space=_space(), namespace=_namespace(read=True)),
    "document_namespaces": lambda w: _args(space=_space()),
    "scan_documents": lambda w: _args(
        space=_space(), prefix=_namespace(read=True), query=st.one_of(st.none(), text())
    ),
    # portability
    "export_user": lambda w: _args(embeddings=_flag()),
    "import_user": lambda w: _args(records=_records(w), re_embed=_flag()),
}
