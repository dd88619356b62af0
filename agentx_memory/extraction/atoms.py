"""What extraction produces: user fact atoms, entities, relationships and strategy candidates.

Pure pydantic models shared by the offline extractor, the LLM extractor (whose structured answer is
validated into them) and consolidation (which writes them through the memory subsystems). The
confidence of an atom comes from how it was said (:data:`CERTAINTY_CONFIDENCE`), never from the model.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from ..models.semantic import EntityRelationship, EntityType

__all__ = [
    "CERTAINTY_CONFIDENCE",
    "FACT_KINDS",
    "SINGLE_VALUED_KEYS",
    "Certainty",
    "ExtractedEntity",
    "ExtractedRelationship",
    "Extraction",
    "FactAtom",
    "FactKind",
    "StrategyCandidate",
]

#: The eight typed kinds of seed 003, and ``statement``: what a speaker said of themself that no rule
#: could type ("Melanie is swamped with the kids and work") — kept, but never taken for a typed fact.
FactKind = Literal[
    "preference",
    "relationship",
    "experience",
    "skill",
    "goal",
    "constraint",
    "identity",
    "event",
    "statement",
]
FACT_KINDS: Final = frozenset(get_args(FactKind))

#: How a fact was said → its confidence (seed 001's calibration).
Certainty = Literal["explicit", "implied", "inferred", "uncertain"]
CERTAINTY_CONFIDENCE: Final[dict[str, float]] = {
    "explicit": 0.95,
    "implied": 0.85,
    "inferred": 0.70,
    "uncertain": 0.50,
}

#: Keys a subject has one current value of: a new value for one of them contradicts the old one
#: (a user's correction supersedes it; an inferred one is flagged for review).
SINGLE_VALUED_KEYS: Final = frozenset(
    {
        "name",
        "age",
        "lives_in",
        "works_as",
        "works_at",
        "hometown",
        "nationality",
        "partner",
        "email",
        "phone",
        "diet",
        "drives",
    }
)


class FactAtom(BaseModel):
    """One fact about one subject, with a canonical statement that reads well out of context."""

    model_config = ConfigDict(frozen=True)

    fact_kind: FactKind
    #: Who the fact is about: the speaker's name (or "the user"), or another person named in the turn.
    subject: str
    #: "Dana lives in Toronto", not "I moved there".
    statement: str
    #: What the fact is about, e.g. ``lives_in``, ``likes``, ``sibling``; with ``value`` it identifies
    #: the fact for dedup and contradiction checks.
    key: str
    value: str
    negated: bool = False
    certainty: Certainty = "explicit"
    temporal: Literal["current", "past", "future"] = "current"
    event_time: datetime | None = None
    #: People and other entities the fact names (besides the subject).
    persons: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    location: str | None = None
    topic: str | None = None
    #: The user said this to replace what was known ("actually…", "I moved to…", "I no longer…").
    correction: bool = False
    #: The stored fact this one is said in place of, when the correction named it by its word alone
    #: ("no, I meant Piranesi": see :mod:`.substitutions`).
    replaces: str | None = None
    #: What an ending ends ("I quit my job", "sold the BMW"): the slots its object stands for, and
    #: the words that name the stored facts it ends (see :mod:`.frame_changes`).
    ends: list[str] = Field(default_factory=list)
    ends_words: list[str] = Field(default_factory=list)
    source_turn_ids: list[str] = Field(default_factory=list)

    @property
    def confidence(self) -> float:
        return CERTAINTY_CONFIDENCE[self.certainty]


class ExtractedEntity(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    type: EntityType
    aliases: list[str] = Field(default_factory=list)
    source_turn_ids: list[str] = Field(default_factory=list)


class ExtractedRelationship(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str
    target: str
    type: EntityRelationship


class StrategyCandidate(BaseModel):
    """A way of doing a task that worked, proposed for review (never recalled until published)."""

    model_config = ConfigDict(frozen=True)

    task: str
    steps: list[str]
    what_failed: list[str] = Field(default_factory=list)
    applies_when: str | None = None


class Extraction(BaseModel):
    """Everything learned from one chunk of turns."""

    entities: list[ExtractedEntity] = Field(default_factory=list)
    facts: list[FactAtom] = Field(default_factory=list)
    relationships: list[ExtractedRelationship] = Field(default_factory=list)
    strategies: list[StrategyCandidate] = Field(default_factory=list)
    #: Turn ids whose content was refused by a quality gate, with the gate's reason.
    refused: dict[str, str] = Field(default_factory=dict)
    #: Turn ids that looked like instructions to the agent ("ignore previous instructions"): audited.
    flagged: dict[str, str] = Field(default_factory=dict)

    def merge(self, other: Extraction) -> Extraction:
        return Extraction(
            entities=[*self.entities, *other.entities],
            facts=[*self.facts, *other.facts],
            relationships=[*self.relationships, *other.relationships],
            strategies=[*self.strategies, *other.strategies],
            refused={**self.refused, **other.refused},
            flagged={**self.flagged, **other.flagged},
        )
