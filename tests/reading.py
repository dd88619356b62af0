"""What the offline reader learns from one user turn, for the extraction tests: the spaCy reader (the
model `make setup` installs) and the facts of a sentence as (key, value, statement)."""

from __future__ import annotations

from datetime import UTC, datetime

from agentx_memory.extraction.names import NameRecognizer, name_recognizer
from agentx_memory.extraction.rules import TurnText, extract_turns

#: The time every test turn is said at unless a test gives its own.
SAID_AT = datetime(2025, 9, 2, 9, 0, tzinfo=UTC)


def spacy_reader() -> NameRecognizer:
    recognizer = name_recognizer("spacy")
    assert recognizer is not None, "the spaCy model is installed by `make setup`"
    return recognizer


def read_facts(
    parser: NameRecognizer, text: str, *, speaker: str = "Kim", at: datetime = SAID_AT
) -> list[tuple[str, str, str]]:
    facts = extract_turns([TurnText("t1", "user", text, at, speaker)], recognizer=parser).facts
    return [(fact.key, fact.value, fact.statement) for fact in facts]
