"""The resolve_entities job's pure decisions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from agentx_memory.maintenance.resolve_rules import (
    Evidence,
    confirmation,
    decide,
    evidence_of,
    evidence_score,
    winner_and_loser,
)
from agentx_memory.memory.entity_merge_pure import EntitySide
from agentx_memory.models.semantic import Entity

NOW = datetime(2026, 3, 9, tzinfo=UTC)


def _side(eid: str, *, kind: str = "person", age_days: int = 0, **sets: frozenset[str]) -> EntitySide:
    entity = Entity(
        id=eid, user_id="u", channel="_global", name=eid, type=kind,
        created_at=NOW - timedelta(days=age_days), updated_at=NOW,
    )  # fmt: skip
    empty: frozenset[str] = frozenset()
    return EntitySide(
        entity,
        sets.get("aliases", empty),
        sets.get("facts", empty),
        sets.get("claims", empty),
        sets.get("neighbours", empty),
    )


def _decide(evidence: Evidence, previous: str | None = None, age: int = 1) -> str:
    return decide(
        evidence,
        previous=previous,
        linked_at=NOW - timedelta(days=age),
        now=NOW,
        merge_score=0.75,
        keep_score=0.5,
        dismiss_after=timedelta(days=30),
    )


def test_evidence_counts_what_both_sides_share_but_not_each_other() -> None:
    a = _side("a", aliases=frozenset({"sis", "a"}), claims=frozenset({"x"}), neighbours=frozenset({"n", "b"}))
    b = _side("b", aliases=frozenset({"sis"}), claims=frozenset({"x", "y"}), neighbours=frozenset({"n", "a"}))
    evidence = evidence_of(a, b, 0.86)
    assert (evidence.shared_aliases, evidence.shared_facts, evidence.shared_neighbours) == (1, 1, 1)
    assert evidence_score(evidence) == 1.0  # capped


def test_decisions() -> None:
    weak = Evidence(0.87, 0, 0, 0, same_type=True)
    assert _decide(weak) == "keep"
    assert _decide(weak, previous=weak.fingerprint) == "unchanged"
    assert _decide(weak, previous=weak.fingerprint, age=30) == "dismiss"
    medium = Evidence(0.87, 0, 0, 1, same_type=True)
    assert _decide(medium, previous=medium.fingerprint, age=90) == "unchanged"  # some evidence: kept
    assert _decide(Evidence(0.87, 0, 1, 1, same_type=True)) == "merge"
    assert _decide(Evidence(0.87, 0, 0, 0, same_type=True), previous="a0:f0:n1") == "keep"
    assert _decide(Evidence(0.99, 3, 3, 3, same_type=False)) == "dismiss"


def test_the_richer_then_older_entity_wins() -> None:
    rich = _side("r", claims=frozenset({"x"}), facts=frozenset({"f1", "f2"}))
    old = _side("o", age_days=9)
    assert winner_and_loser(old, rich)[0] is rich
    assert winner_and_loser(_side("new"), old)[0] is old


def test_confirmation_reads_yes_or_no_first() -> None:
    assert confirmation("Yes - same person.") is True
    assert confirmation("**No**, two people") is False
    assert confirmation("I cannot tell") is None
