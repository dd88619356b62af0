"""The failures the fuzzers found, shrunk and pinned: each call here broke a property before its fix.

Each goes through ``check_call`` (only an AgentMemoryError escapes, a refusal changes nothing, bob's
data is untouched) and states the refusal it now gets.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from agentx_memory import AgentMemoryError, ConflictError, InvalidInputError
from agentx_memory.timecodec import epoch_ms, from_epoch_ms
from tests.fuzz.strategies import deep
from tests.fuzz.test_facade_fuzz import check_call
from tests.fuzz.world import World

MINUS_12 = timezone(timedelta(hours=-12))

CASES: list[tuple[str, dict[str, Any], type[AgentMemoryError]]] = [
    # an unhashable value tested with ``in`` against a frozenset of names: TypeError
    (
        "create_relationship",
        {"source_id": str(uuid.uuid4()), "target_id": str(uuid.uuid4()), "rel_type": bytearray(b"x")},
        InvalidInputError,
    ),
    ("upsert_entity", {"name": "Helix", "type": ["tool"]}, InvalidInputError),
    (
        "learn_fact",
        {"claim": "a claim", "confidence": 0.5, "source": "user_stated", "temporal": {"a": 1}},
        InvalidInputError,
    ),
    ("complete_goal", {"goal_id": str(uuid.uuid4()), "status": []}, InvalidInputError),
    (
        "resolve_contradiction",
        {"new_id": str(uuid.uuid4()), "old_id": str(uuid.uuid4()), "keep": {}},
        InvalidInputError,
    ),
    # a lone surrogate reached FalkorDB's query encoder: UnicodeEncodeError
    ("get_entity_info", {"name_or_id": "\ud800"}, InvalidInputError),
    ("remember", {"query": "ok \udfff end"}, InvalidInputError),
    # not an iterable of records: TypeError
    ("import_user", {"records": 0}, InvalidInputError),
    # None for a list of ids: TypeError
    ("get_entity_graph", {"entity_ids": None}, InvalidInputError),
    # an int for a list of names: iterated, TypeError (found at 200 examples per method)
    ("remember", {"query": "hello", "channels": 1}, InvalidInputError),
    ("timeline", {"channels": 1}, InvalidInputError),
    ("timeline", {"kinds": 5}, InvalidInputError),
    # a deadline at datetime.max was stored, then its epoch milliseconds read back as year 10000
    # (ValueError), there and in every later remember/get_context (found at 500 examples per method)
    ("add_goal", {"description": "ship", "deadline": datetime.max.replace(tzinfo=UTC)}, InvalidInputError),
    # 9999-12-31 at UTC-12 overflowed in the conversion to UTC: OverflowError
    (
        "add_goal",
        {"description": "ship", "deadline": datetime(9999, 12, 31, 20, tzinfo=MINUS_12)},
        InvalidInputError,
    ),
    # a look-back before year 1: OverflowError
    ("get_recent_turns", {"hours": 1e308}, InvalidInputError),
    # metadata nested 2,000 deep: RecursionError from json
    ("new_conversation", {"metadata": deep(2_000)}, InvalidInputError),
    ("update_profile", {"preferences": deep(2_000)}, InvalidInputError),
    (
        "put_document",
        {"space": "fuzz", "namespace": ["ns"], "key": "k", "value": deep(2_000)},
        InvalidInputError,
    ),
]


@pytest.mark.parametrize(
    ("name", "kwargs", "error"), CASES, ids=[f"{case[0]}-{i}" for i, case in enumerate(CASES)]
)
def test_pinned_failure(
    world: World, name: str, kwargs: dict[str, Any], error: type[AgentMemoryError]
) -> None:
    check_call(world, name, kwargs)
    with pytest.raises(error):
        getattr(world.memory, name)(**kwargs)


def test_importing_another_users_ids_is_refused_before_anything_is_written(world: World) -> None:
    """bob's dump relabelled as alice's keeps bob's ids: the graph's unique keys refused it half-way,
    after the ledger rows were in (a refusal that changed the stores)."""
    check_call(world, "import_user", {"records": world.bob_dump})
    before = world.snapshot()
    with pytest.raises(ConflictError, match="another user"):
        world.memory.import_user(world.bob_dump)
    assert world.snapshot() == before


def test_graph_time_beyond_the_datetime_range_reads_as_its_end() -> None:
    """A deadline stored before moments were range-checked no longer breaks every read of it."""
    latest = datetime.max.replace(tzinfo=UTC)
    assert from_epoch_ms(epoch_ms(latest)) == latest
    assert from_epoch_ms(-(10**18)) == datetime.min.replace(tzinfo=UTC)
