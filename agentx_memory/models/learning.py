"""Models of learning from conversations: what a consolidation did, and contradictions under review."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .semantic import Fact

__all__ = ["CompactionResult", "ConsolidationReport", "ContradictionReview"]


class ConsolidationReport(BaseModel):
    """What one ``consolidate_conversation`` call did (also kept as its job record in Redis)."""

    conversation_id: str
    job_id: str
    #: ``done``: every turn read; ``skipped``: nothing new; ``locked``: another run holds it;
    #: ``failed``: a chunk could not be extracted and was left for the next run.
    status: Literal["done", "skipped", "locked", "failed", "running"] = "running"
    extractor: str = "rules"
    turns_read: int = 0
    chunks: int = 0
    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    facts_added: int = 0
    facts_updated: int = 0
    facts_unchanged: int = 0
    facts_superseded: int = 0
    contradictions_flagged: int = 0
    entities: int = 0
    #: Strategies proposed for review (from the conversation's tool calls, or the LLM's candidates).
    strategies_proposed: int = 0
    mentions: int = 0
    #: Turns no memory was taken from, by the gate's reason (small talk, tool output, recall echo …).
    refused: dict[str, int] = Field(default_factory=dict)
    #: Turns that read as instructions to the agent; audited, never stored as facts.
    flagged: int = 0
    duration_ms: float = 0.0
    error: str | None = None


class ContradictionReview(BaseModel):
    """Two current facts that disagree, kept both until someone decides (``resolve_contradiction``)."""

    new: Fact
    old: Fact
    reason: str


class CompactionResult(BaseModel):
    """What ``compact`` did to a session's working memory."""

    compacted: bool
    #: The session's summary after the call (None when nothing was ever compacted).
    summary: str | None = None
    #: Turns folded into the summary: they stay in the ledger and are candidates for consolidation.
    memory_candidates: list[str] = Field(default_factory=list)
    tokens_before: int = 0
    tokens_after: int = 0

    @property
    def removed_turn_ids(self) -> list[str]:
        """The turns that left working memory: the same ids as :attr:`memory_candidates`."""
        return self.memory_candidates
