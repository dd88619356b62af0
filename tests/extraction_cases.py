"""What the offline extractor learns from a few turns of one speaker: the helpers the extraction unit
tests share (one turn per text, all at one fixed time)."""

from __future__ import annotations

from datetime import UTC, datetime

from agentx_memory.extraction.atoms import FactAtom
from agentx_memory.extraction.dedup import StoredFact
from agentx_memory.extraction.rules import TurnText, extract_turns

NOW = datetime(2024, 5, 14, 10, tzinfo=UTC)  # a Tuesday


def facts_of(*texts: str, speaker: str = "Dana") -> list[FactAtom]:
    turns = [TurnText(f"t{i}", "user", text, NOW, speaker) for i, text in enumerate(texts)]
    return extract_turns(turns).facts


def statements(*texts: str, speaker: str = "Dana") -> list[str]:
    return [fact.statement for fact in facts_of(*texts, speaker=speaker)]


def as_stored(fact: FactAtom, similarity: float, stated_at: datetime | None = None) -> StoredFact:
    """``fact`` as dedup sees it once stored (learned from an earlier turn, said at ``stated_at``), at
    ``similarity`` to the atom it is compared with."""
    return StoredFact(
        "f1", fact.statement, fact.subject, fact.key, fact.value, fact.negated, ("earlier",), fact.fact_kind,
        similarity, fact.event_time, stated_at,
    )  # fmt: skip
