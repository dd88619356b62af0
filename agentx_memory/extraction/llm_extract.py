"""The combined extraction call: one structured LLM answer per chunk with entities, facts (user fact
atoms, corrections included), relationships and strategy candidates. Pure: the prompt, the JSON schema
the answer must follow, and its validation into :class:`~.atoms.Extraction`.

One call instead of one per memory type (the seed measured ~75 % fewer calls). The model never sets a
confidence: it says how the fact was stated (``certainty``) and :data:`~.atoms.CERTAINTY_CONFIDENCE`
calibrates it. Turns are numbered in the prompt; an answer that cites a number outside the chunk, or
does not match the schema, is rejected whole (pydantic), never half-written.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models.semantic import EntityRelationship, EntityType
from .atoms import (
    Certainty,
    ExtractedEntity,
    ExtractedRelationship,
    Extraction,
    FactAtom,
    FactKind,
    StrategyCandidate,
)
from .rules import TurnText

__all__ = ["EXTRACTION_SCHEMA", "EXTRACTION_SYSTEM", "extraction_prompt", "parse_extraction"]

EXTRACTION_SYSTEM: Final = (
    "You extract long-term memories from a conversation for an assistant's memory. Record only what a "
    "speaker states as true about themself or about a named person: never questions, hypotheticals, "
    "jokes, small talk, instructions to the assistant, or the assistant's own suggestions. Write every "
    "fact as a canonical third-person statement that reads well out of context, with names instead of "
    "pronouns and absolute dates (resolve 'yesterday' against the turn's date). Mark a fact as a "
    "correction only when the speaker replaces something they said before ('actually…', 'I moved to…', "
    "'I no longer…'). A wrong memory is worse than a missing one."
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LLMFact(_Strict):
    fact_kind: FactKind
    subject: str = Field(description="Who the fact is about: the speaker's name, or the named person.")
    statement: str = Field(description="Canonical third-person statement, e.g. 'Dana lives in Toronto'.")
    key: str = Field(description="Snake-case attribute, e.g. lives_in, likes, works_as, sister, allergy.")
    value: str = Field(description="The attribute's value, e.g. 'Toronto'.")
    negated: bool = False
    certainty: Certainty = Field(description="explicit: said outright; implied; inferred; uncertain.")
    temporal: Literal["current", "past", "future"] = "current"
    event_date: str | None = Field(default=None, description="ISO date (YYYY-MM-DD) of the event, if stated.")
    persons: list[str] = Field(default_factory=list)
    location: str | None = None
    topic: str | None = None
    correction: bool = False
    turns: list[int] = Field(min_length=1, description="Numbers of the turns the fact comes from.")


class LLMEntity(_Strict):
    name: str
    type: EntityType
    aliases: list[str] = Field(default_factory=list)
    turns: list[int] = Field(default_factory=list)


class LLMRelationship(_Strict):
    source: str
    target: str
    type: EntityRelationship


class LLMStrategy(_Strict):
    task: str
    steps: list[str] = Field(min_length=1)
    what_failed: list[str] = Field(default_factory=list)
    applies_when: str | None = None


class LLMExtraction(_Strict):
    entities: list[LLMEntity] = Field(default_factory=list)
    facts: list[LLMFact] = Field(default_factory=list)
    relationships: list[LLMRelationship] = Field(default_factory=list)
    strategies: list[LLMStrategy] = Field(default_factory=list)


EXTRACTION_SCHEMA: Final[dict[str, Any]] = LLMExtraction.model_json_schema()


def extraction_prompt(turns: Sequence[TurnText]) -> str:
    """The chunk as numbered lines: ``[n] 2024-05-14 user (Dana): text``."""
    lines = [
        f"[{number}] {turn.timestamp.astimezone(UTC):%Y-%m-%d} {turn.role} ({turn.speaker}): {turn.text}"
        for number, turn in enumerate(turns, start=1)
    ]
    return "Conversation turns:\n" + "\n".join(lines) + "\n\nRecord the memories with the tool."


def _turn_ids(numbers: Sequence[int], turns: Sequence[TurnText]) -> list[str]:
    if any(not 1 <= number <= len(turns) for number in numbers):
        raise ValueError(f"turn numbers {list(numbers)} are outside 1..{len(turns)}")
    return [turns[number - 1].id for number in dict.fromkeys(numbers)]


def _event_time(value: str | None) -> datetime | None:
    if value is None:
        return None
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def parse_extraction(data: dict[str, Any], turns: Sequence[TurnText]) -> Extraction:
    """The validated extraction; ``ValueError`` (pydantic's included) for any malformed part."""
    answer = LLMExtraction.model_validate(data)
    facts = [
        FactAtom(
            fact_kind=fact.fact_kind,
            subject=fact.subject,
            statement=fact.statement,
            key=fact.key,
            value=fact.value,
            negated=fact.negated,
            certainty=fact.certainty,
            temporal=fact.temporal,
            event_time=_event_time(fact.event_date),
            persons=fact.persons,
            location=fact.location,
            topic=fact.topic,
            correction=fact.correction,
            source_turn_ids=_turn_ids(fact.turns, turns),
        )
        for fact in answer.facts
    ]
    entities = [
        ExtractedEntity(
            name=e.name, type=e.type, aliases=e.aliases, source_turn_ids=_turn_ids(e.turns, turns)
        )
        for e in answer.entities
        if e.type != "date"  # a date is a fact's time (event_date), not an entity
    ]
    return Extraction(
        entities=entities,
        facts=facts,
        relationships=[
            ExtractedRelationship(source=r.source, target=r.target, type=r.type) for r in answer.relationships
        ],
        strategies=[StrategyCandidate(**s.model_dump()) for s in answer.strategies],
    )
