"""The inspector's pure parts: fact chains, graph elements, readable durations and the bind rule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory.errors import ConfigurationError
from agentx_memory.models import Fact
from agentx_memory.models.semantic import Entity, EntityEdge, EntityGraph
from agentx_memory.ui import check_bind, is_loopback, views

_T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _fact(fact_id: str, minutes: int, superseded_by: str | None = None) -> Fact:
    until = _T0 + timedelta(minutes=minutes + 1) if superseded_by else None
    return Fact(
        id=fact_id,
        user_id="u",
        channel="_global",
        claim=f"claim {fact_id}",
        confidence=0.9,
        source="user",
        created_at=_T0 + timedelta(minutes=minutes),
        valid_until=until,
        superseded_by=superseded_by,
    )


def _entity(entity_id: str) -> Entity:
    return Entity(id=entity_id, user_id="u", channel="_global", name=entity_id.upper(), type="person",
                  created_at=_T0, updated_at=_T0)  # fmt: skip


def test_all_is_guarded() -> None:
    assert sorted(views.__all__) == [
        "FactChain",
        "entity_ids",
        "fact_chains",
        "graph_elements",
        "human_duration",
        "learned_from",
        "turn_line",
        "when",
    ]


def test_fact_chains_follow_every_correction_back() -> None:
    facts = [
        _fact("a", 0, "b"),
        _fact("b", 1, "c"),
        _fact("c", 2),
        _fact("x", 3),
        _fact("gone", 4, "forgotten"),
    ]
    chains = views.fact_chains(facts)
    assert [(chain.head.id, [f.id for f in chain.history]) for chain in chains] == [
        ("x", []),
        ("c", ["b", "a"]),
        ("gone", []),  # its successor is not listed (forgotten): a past fact on its own
    ]
    assert [chain.current for chain in chains] == [True, True, False]


def test_fact_chains_survive_a_cycle() -> None:
    chains = views.fact_chains([_fact("a", 0, "b"), _fact("b", 1, "a")])
    assert chains == []  # both superseded by a listed fact: no head, and no endless walk


def test_graph_elements_keep_only_edges_between_drawn_nodes() -> None:
    graph = EntityGraph(
        nodes=[_entity("a"), _entity("b")],
        edges=[
            EntityEdge(source_id="a", target_id="b", type="KNOWS"),
            EntityEdge(source_id="a", target_id="elsewhere", type="KNOWS"),
        ],
    )
    elements = views.graph_elements(graph)
    assert [element["group"] for element in elements] == ["nodes", "nodes", "edges"]
    assert elements[0]["data"]["label"] == "A"
    assert elements[2]["data"] | {"id": None} == {"id": None, "source": "a", "target": "b", "label": "KNOWS"}


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(None, "-"), (42, "42 s"), (420, "7 min"), (329220.775, "3.8 d"), (3 * 3600, "3.0 h")],
)
def test_lag_reads_in_human_units(seconds: float | None, shown: str) -> None:
    assert views.human_duration(seconds) == shown


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.4.5", "::1", "[::1]", "localhost", "LOCALHOST"])
def test_loopback_needs_no_token(host: str) -> None:
    assert is_loopback(host)
    check_bind(host, None)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "example.com", ""])
def test_any_other_address_needs_a_token(host: str) -> None:
    assert not is_loopback(host)
    with pytest.raises(ConfigurationError, match="needs a token"):
        check_bind(host, None)
    with pytest.raises(ConfigurationError):
        check_bind(host, "")
    check_bind(host, "a-token")
