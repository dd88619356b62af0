"""Facts a noun phrase or an inverted clause tells, which no predicate frame holds: "the kitchen in our
new flat in Cardiff" (a home), "my first week at Diageo" (an employer), "Siemens poached me" (the
employer is the subject, the speaker the object)."""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import TurnText
from .frame_values import SUBJECTS, slot_atom
from .lexicon import DWELLINGS, SCHOOLS, Frame

__all__ = ["dwelling_atoms", "first_days", "hired_by"]

_HOME: Final = Frame("live", "prep", "residence")
_NEW_HOME: Final = Frame("move", "prep", "residence", change=True)
_JOINED: Final = Frame("join", "dobj", "employer", change=True)
#: Dwellings one no longer lives in, or does not live in: "my old flat in Leeds", "our holiday flat".
_NOT_HOME: Final = frozenset(
    ["old", "former", "previous", "last", "childhood", "student", "holiday", "rental", "second", "first",
     "future", "dream", "parents", "mum", "mom", "dad", "airbnb", "hotel"]
)  # fmt: skip
#: The first stretch at a place of work: "my first week at Diageo".
_FIRST_SPANS: Final = frozenset(["day", "week", "month", "shift", "fortnight"])
#: Verbs whose subject employs their object: "Siemens poached me", "Arup hired me in May".
_HIRING: Final = frozenset(["poach", "hire", "recruit", "headhunt", "employ"])


def dwelling_atoms(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "our new flat in Cardiff", "my Glasgow tenement", "my flat in Edinburgh": the speaker's home
    (a move, when the dwelling is new); not an old, a holiday or a parents' one, nor one told in the
    past tense."""
    atoms: list[FactAtom] = []
    for noun in sentence:
        if noun.pos_ != "NOUN" or not (noun.lemma_.casefold() in DWELLINGS or noun.lower_ == "tenement"):
            continue
        if not any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in noun.children):
            continue
        modifiers = {c.lower_ for c in noun.children if c.dep_ in {"amod", "compound", "nmod"}}
        if modifiers & _NOT_HOME or _told_in_past(noun):
            continue
        # "my Glasgow tenement" (the small model may take Glasgow for a person: a name before a dwelling
        # is where it is)
        places = [c for c in noun.children if c.dep_ == "compound" and c.pos_ == "PROPN"]
        places += [
            g
            for c in noun.children
            if c.dep_ == "prep" and c.lower_ == "in"
            for g in c.children
            if g.dep_ == "pobj" and g.pos_ == "PROPN"
        ]
        if places:
            frame = _NEW_HOME if "new" in modifiers else _HOME
            atoms.append(slot_atom(frame, places[0], speaker, turn, False, speaker, False))
    return atoms


def first_days(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "First week at Diageo has been chaos", "my first day at Arup": a new employer."""
    atoms: list[FactAtom] = []
    for span in sentence:
        if span.lemma_.casefold() not in _FIRST_SPANS or not any(c.lower_ == "first" for c in span.children):
            continue
        owners = [c for c in span.children if c.dep_ == "poss"]
        if owners and owners[0].lower_ not in {"my", "our"}:
            continue  # "her first week at Arup"
        # "my first week at Diageo"; "it's my first week at Deloitte" (the place hangs on the copula)
        holders = [span, span.head] if span.dep_ == "attr" else [span]
        for prep in (c for h in holders for c in h.children if c.dep_ == "prep" and c.lower_ == "at"):
            for place in (g for g in prep.children if g.dep_ == "pobj"):
                named = place.pos_ == "PROPN" or place.ent_type_ == "ORG"
                if named and not any(t.lower_ in SCHOOLS for t in place.subtree):
                    atoms.append(slot_atom(_JOINED, place, speaker, turn, True, speaker, False))
    return atoms


def hired_by(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """ "Siemens poached me", "Great Ormond Street poached me for their cardiac ward"."""
    if predicate.lemma_.casefold() not in _HIRING or predicate.tag_ == "VBN":
        return None
    if not any(c.dep_ == "dobj" and c.lower_ == "me" for c in predicate.children):
        return None
    employers = [
        c for c in predicate.children if c.dep_ in SUBJECTS and (c.pos_ == "PROPN" or c.ent_type_ == "ORG")
    ]
    if not employers:
        return None
    return slot_atom(_JOINED, employers[0], speaker, turn, True, speaker, False)


def _told_in_past(noun: Any) -> bool:
    """Whether the clause the noun is part of is in the simple past ("my flat in Leeds was tiny")."""
    node = noun
    while node.head.i != node.i and node.pos_ not in {"VERB", "AUX"}:
        node = node.head
    return bool(node.tag_ == "VBD")
