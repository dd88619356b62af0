"""The access overlay: table counts add to a node's legacy ones, the later access wins, a decayed
salience replaces the memory's own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agentx_memory.memory.access_pure import later, overlay_entities, overlay_facts
from agentx_memory.models.access import AccessRecord
from agentx_memory.models.semantic import Entity, Fact

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
FACT = Fact(id="f1", user_id="u", channel="_global", claim="c", confidence=0.9, source="chat", created_at=T0)
ENTITY = Entity(
    id="e1", user_id="u", channel="_global", name="Ada", type="person", created_at=T0, updated_at=T0
)


def test_later_of_two_optional_times() -> None:
    assert later(None, None) is None
    assert later(T0, None) == later(None, T0) == T0
    assert later(T0, T0 + timedelta(seconds=1)) == T0 + timedelta(seconds=1)


def test_a_memory_without_a_row_is_read_as_stored() -> None:
    assert overlay_facts([FACT], {}) == [FACT]
    assert overlay_entities([ENTITY], {}) == [ENTITY]


def test_counts_add_to_the_nodes_legacy_ones_and_the_later_access_wins() -> None:
    legacy = FACT.model_copy(update={"access_count": 3, "last_accessed": T0 + timedelta(days=2)})
    record = AccessRecord(memory_type="fact", memory_id="f1", access_count=2, last_accessed=T0)
    (fact,) = overlay_facts([legacy], {"f1": record})
    assert (fact.access_count, fact.last_accessed, fact.salience) == (5, T0 + timedelta(days=2), 0.5)


def test_entity_mentions_add_up_and_a_set_salience_replaces_the_default() -> None:
    record = AccessRecord(
        memory_type="entity", memory_id="e1", access_count=4, mention_count=3, salience=0.25, last_accessed=T0
    )
    (entity,) = overlay_entities([ENTITY], {"e1": record, "other": record})
    assert (entity.mention_count, entity.access_count, entity.salience) == (4, 4, 0.25)
    assert entity.last_accessed == T0
    assert ENTITY.salience == 1.0  # the model is frozen: the overlay made a copy
