"""The access-statistics subsystem (``backends.access``) on the real ledger: counting, salience,
mentions, per-user isolation, bad kinds refused, deletion."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory import AgentMemory, InvalidInputError
from agentx_memory.models import Scope

ALICE = Scope(user_id="alice", channel="_global")
BOB = Scope(user_id="bob", channel="_global")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _ids(n: int) -> list[str]:
    return [str(uuid.uuid4()) for _ in range(n)]


def test_touch_counts_each_memory_once_per_call_and_keeps_the_last_time(memory: AgentMemory) -> None:
    access = memory._open_backends().access
    first, second = _ids(2)
    access.touch(ALICE, "fact", [first, second, first], T0)
    access.touch(ALICE, "fact", [first], T0 + timedelta(hours=1))
    found = access.get(ALICE, "fact", [first, second, str(uuid.uuid4())])
    assert set(found) == {first, second}
    assert (found[first].access_count, found[first].last_accessed) == (2, T0 + timedelta(hours=1))
    assert (found[second].access_count, found[second].last_accessed) == (1, T0)
    assert (found[first].mention_count, found[first].salience) == (0, None)


def test_kinds_are_separate_and_mentions_count_an_access_too(memory: AgentMemory) -> None:
    access = memory._open_backends().access
    (entity,) = _ids(1)
    access.mention(ALICE, "entity", [entity], T0)
    access.mention(ALICE, "entity", [entity], T0)
    access.touch(ALICE, "entity", [entity], T0)
    record = access.get(ALICE, "entity", [entity])[entity]
    assert (record.memory_type, record.mention_count, record.access_count) == ("entity", 2, 3)
    assert access.get(ALICE, "fact", [entity]) == {}


def test_a_recall_touches_its_facts_and_entities_at_once(memory: AgentMemory) -> None:
    access = memory._open_backends().access
    fact, entity, mentioned = _ids(3)
    access.mention(ALICE, "entity", [mentioned], T0)
    access.touch_recalled(
        ALICE, {"fact": [fact, fact], "entity": [entity, mentioned]}, T0 + timedelta(hours=1)
    )
    access.touch_recalled(ALICE, {"fact": [], "entity": []}, T0)  # nothing recalled: nothing written
    facts, entities = access.get(ALICE, "fact", [fact]), access.get(ALICE, "entity", [entity, mentioned])
    assert (facts[fact].access_count, facts[fact].last_accessed) == (1, T0 + timedelta(hours=1))
    assert (entities[entity].access_count, entities[entity].mention_count) == (1, 0)
    assert (entities[mentioned].access_count, entities[mentioned].mention_count) == (2, 1)
    assert access.get(BOB, "fact", [fact]) == {}


def test_salience_is_set_without_counting_an_access(memory: AgentMemory) -> None:
    access = memory._open_backends().access
    touched, quiet = _ids(2)
    access.touch(ALICE, "entity", [touched], T0)
    assert access.set_salience(ALICE, "entity", {touched: 0.8, quiet: 0.4}, T0 + timedelta(days=1)) == 2
    records = {record.memory_id: record for record in access.listing(ALICE, "entity")}
    assert (records[touched].salience, records[touched].access_count) == (0.8, 1)
    assert (records[quiet].salience, records[quiet].access_count) == (0.4, 0)
    assert records[quiet].salience_at == T0 + timedelta(days=1)
    assert records[quiet].last_accessed is None


def test_another_user_sees_and_changes_nothing(memory: AgentMemory) -> None:
    access = memory._open_backends().access
    (fact,) = _ids(1)
    access.touch(ALICE, "fact", [fact], T0)
    assert access.get(BOB, "fact", [fact]) == {}
    assert access.listing(BOB, "fact") == []
    assert access.delete(BOB, [fact]) == 0
    access.touch(BOB, "fact", [fact], T0)
    assert access.get(ALICE, "fact", [fact])[fact].access_count == 1


def test_an_unknown_kind_is_refused_and_nothing_is_written(memory: AgentMemory) -> None:
    access = memory._open_backends().access
    (memory_id,) = _ids(1)
    with pytest.raises(InvalidInputError):
        access.touch(ALICE, "turn", [memory_id], T0)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        access.set_salience(ALICE, "user", {memory_id: 0.5})  # type: ignore[arg-type]
    assert all(access.listing(ALICE, kind) == [] for kind in ("fact", "entity", "strategy", "goal"))


def test_delete_removes_every_kind_of_the_given_ids_only(memory: AgentMemory) -> None:
    access = memory._open_backends().access
    gone, kept = _ids(2)
    access.touch(ALICE, "fact", [gone, kept], T0)
    access.set_salience(ALICE, "entity", {gone: 0.3}, T0)
    assert access.delete(ALICE, [gone]) == 2
    assert set(access.get(ALICE, "fact", [gone, kept])) == {kept}
    assert access.get(ALICE, "entity", [gone]) == {}
