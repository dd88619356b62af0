"""Pure decisions of the ``resolve_entities`` job: how strong the evidence that two look-alike entities
are one is, and what becomes of their ``SAME_AS`` candidate link.

Evidence (:class:`Evidence`): the similarity resolution measured when it linked them (0.85–0.90, the
candidate band), and what each side has accumulated since — alias keys they share, facts about both (or
with the same claim: counted once), neighbours they share. :func:`evidence_score` weighs it::

    score = min(1, 0.5·similarity + 0.3·aliases + 0.2·facts + 0.15·neighbours)

so the similarity alone (≈ 0.44) never merges, one shared alias with a shared fact or neighbour does
(≥ ``maintenance.resolve_merge_score``, 0.75), and so do two shared facts and a neighbour. Outcomes
(:func:`decide`): different types → *dismissed*; score ≥ merge → *merge* (confirmed by the LLM when one
is configured: "no" dismisses, no answer keeps it for the next run); a link reviewed before whose
evidence has not changed → *unchanged* (no write) until it is ``resolve_dismiss_days`` old; weak (below
``resolve_keep_score``, 0.5: nothing beyond the similarity) and that old → *dismissed*; else *kept*
(``reviewed_at`` and the evidence fingerprint recorded).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final, Literal

from ..memory.entity_merge_pure import EntitySide

__all__ = [
    "CONFIRM_SYSTEM",
    "Decision",
    "Evidence",
    "confirmation",
    "confirmation_prompt",
    "decide",
    "evidence_of",
    "evidence_score",
    "winner_and_loser",
]

Decision = Literal["merge", "keep", "dismiss", "unchanged"]

SIMILARITY_WEIGHT: Final = 0.5
ALIAS_WEIGHT: Final = 0.3
FACT_WEIGHT: Final = 0.2
NEIGHBOUR_WEIGHT: Final = 0.15

CONFIRM_SYSTEM: Final = (
    "You check a personal memory for duplicate entries. Answer 'yes' if the two entries describe the "
    "same real-world person or thing, 'no' if they do not, then one short reason."
)


@dataclass(frozen=True)
class Evidence:
    similarity: float
    shared_aliases: int
    shared_facts: int
    shared_neighbours: int
    same_type: bool

    @property
    def fingerprint(self) -> str:
        """What a review saw; a later review with the same fingerprint has nothing new to weigh."""
        return f"a{self.shared_aliases}:f{self.shared_facts}:n{self.shared_neighbours}"


def evidence_of(a: EntitySide, b: EntitySide, similarity: float) -> Evidence:
    """The evidence between two sides (each other left out of their neighbours)."""
    facts = len(a.claims & b.claims)  # a fact about both has its claim on both sides
    neighbours = (a.neighbours - {b.entity.id}) & (b.neighbours - {a.entity.id})
    return Evidence(
        similarity=similarity,
        shared_aliases=len(a.alias_keys & b.alias_keys),
        shared_facts=facts,
        shared_neighbours=len(neighbours),
        same_type=a.entity.type == b.entity.type,
    )


def evidence_score(evidence: Evidence) -> float:
    raw = (
        SIMILARITY_WEIGHT * max(0.0, evidence.similarity)
        + ALIAS_WEIGHT * evidence.shared_aliases
        + FACT_WEIGHT * evidence.shared_facts
        + NEIGHBOUR_WEIGHT * evidence.shared_neighbours
    )
    return min(1.0, raw)


def decide(
    evidence: Evidence,
    *,
    previous: str | None,
    linked_at: datetime | None,
    now: datetime,
    merge_score: float,
    keep_score: float,
    dismiss_after: timedelta,
) -> Decision:
    """What becomes of a candidate link (see the module's docstring)."""
    if not evidence.same_type:
        return "dismiss"
    score = evidence_score(evidence)
    if score >= merge_score:
        return "merge"
    stale = linked_at is not None and now - linked_at >= dismiss_after
    if score < keep_score and stale:
        return "dismiss"
    if previous == evidence.fingerprint:
        return "unchanged"
    return "keep"


def winner_and_loser(a: EntitySide, b: EntitySide) -> tuple[EntitySide, EntitySide]:
    """The entity that stays: the one with more facts and neighbours, then the older, then the id."""

    def weight(side: EntitySide) -> tuple[int, float, str]:
        held = len(side.fact_ids) + len(side.neighbours)
        return (-held, side.entity.created_at.timestamp(), side.entity.id)

    first, second = sorted((a, b), key=weight)
    return first, second


def _describe(side: EntitySide) -> str:
    entity = side.entity
    aliases = f" (also: {', '.join(entity.aliases)})" if entity.aliases else ""
    about = f"; {entity.description}" if entity.description else ""
    facts = "".join(f"\n  - {claim}" for claim in sorted(side.claims)[:5])
    return f"{entity.type} '{entity.name}'{aliases}{about}{facts}"


def confirmation_prompt(a: EntitySide, b: EntitySide, evidence: Evidence) -> str:
    return (
        f"Entry 1: {_describe(a)}\nEntry 2: {_describe(b)}\n"
        f"They share {evidence.shared_aliases} alias(es), {evidence.shared_facts} fact(s) and "
        f"{evidence.shared_neighbours} related entity(ies). Same person or thing?"
    )


def confirmation(answer: str) -> bool | None:
    """The LLM's yes (True) or no (False) from the start of its answer; None when it said neither."""
    words = answer.strip().casefold().split()
    first = words[0].strip(".,:;!*'\"") if words else ""
    if first in ("yes", "same"):
        return True
    if first in ("no", "different"):
        return False
    return None
