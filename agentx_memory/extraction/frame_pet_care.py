"""A pet told by the care it gets: "Rosie has her first vet visit Thursday", "booked Luna in for her
desexing next week". Only an animal sees a vet or is desexed, so a name the care is of is a pet, and the
speaker's unless the sentence gives it another keeper ("my sister's Rosie", "walking Bo for my
neighbour"). Its kind is the one kind of pet the turn names ("a 10 week old springer", "she's a kelpie"),
else a pet of no kind said. Pure functions over a spaCy parse."""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import TurnText
from .frame_pets import pet_said
from .lexicon import PET_KIND, RELATION_NOUNS
from .parse_paths import a_name, clause_verb

__all__ = ["pets_cared_for"]

#: What only a pet gets: a vet, desexing, worming, a groomer.
_CARE: Final = frozenset(
    ["vet", "vets", "veterinarian", "desexing", "desex", "desexed", "spay", "spayed", "spaying", "neuter",
     "neutered", "neutering", "worming", "wormer", "microchip", "microchipped", "groomer", "groomers"]
)  # fmt: skip
#: Titles of a person: "Dr Patel" is no pet.
_TITLES: Final = frozenset(["dr", "doctor", "mr", "mrs", "ms", "miss", "prof", "nurse"])
#: Words that make the animal someone else's charge: minded, walked or fed for another.
_MINDING: Final = frozenset(["sit", "sitting", "mind", "minding", "look", "looking", "neighbour", "neighbor"])


def pets_cared_for(sentence: Any, speaker: str, turn: TurnText, people: dict[str, str]) -> list[FactAtom]:
    """The speaker's pets the sentence names by the care they get (see the module); ``people``: the
    turn's named relations so far (a person the turn calls a sister is no pet)."""
    words = {t.lower_ for t in sentence} | {t.lemma_.casefold() for t in sentence}
    if not words & _CARE or words & _MINDING:
        return []
    if any(t.dep_ == "poss" and t.lower_ not in {"my", "our", "her", "his", "its"} for t in sentence):
        return []  # "my sister's Rosie has the vet on Monday"
    found = []
    for care in (t for t in sentence if t.lower_ in _CARE or t.lemma_.casefold() in _CARE):
        if care.dep_ in {"appos", "attr"}:
            continue  # "Dr Patel the vet", "Patel is our vet": the vet is the person
        for verb in _holders(care):
            for name in verb.children:
                if not _a_pet_name(name, verb) or name.text in people or name.text == speaker:
                    continue
                found.append(pet_said(speaker, _the_kind(sentence.doc, name), name.text, turn))
    return list({atom.value: atom for atom in found}.values())


def _holders(care: Any) -> list[Any]:
    """The clause of the care word and the clauses it hangs in: "booked Luna in for her desexing",
    "Pickle is booked in to be spayed"."""
    verbs = [clause_verb(care)]
    while verbs[-1].dep_ in {"pobj", "pcomp", "xcomp", "advcl"} and verbs[-1].head.i != verbs[-1].i:
        verbs.append(clause_verb(verbs[-1].head))
    return verbs


def _a_pet_name(token: Any, verb: Any) -> bool:
    """A name the clause of the care is about: its subject or object ("Rosie has …", "booked Luna in")."""
    if not a_name(token) or token.lemma_.casefold() in RELATION_NOUNS or token.ent_type_ in {"GPE", "ORG"}:
        return False
    if any(c.dep_ == "compound" and c.lower_.rstrip(".") in _TITLES for c in token.children):
        return False  # "Dr Patel"
    return token.head.i == verb.i and token.dep_ in {"nsubj", "nsubjpass", "dobj"} and token.text.isalpha()


def _the_kind(doc: Any, name: Any) -> str:
    """The one kind of pet the turn names, not one someone else keeps; "pet" when none or several."""
    kinds = {
        PET_KIND[t.lemma_.casefold()]
        for t in doc
        if t.lemma_.casefold() in PET_KIND
        and t.pos_ == "NOUN"
        and not any(c.dep_ == "poss" and c.lower_ not in {"my", "our"} for c in t.children)
    }
    return next(iter(kinds)) if len(kinds) == 1 else "pet"
