"""The speaker's own slot said by its noun: "my new employer is the city council", "the day job is dog
grooming", "My day job: driving instructor", "Deloitte is my new employer", "my diet is pescatarian now" (a
vehicle noun, "my car is a Clio", is :func:`.frame_things.thing_atom`'s).

The noun names the slot, so the value needs no verb of the slot's own: any predicate noun of the copula
(or the noun a colon or dash gives it) that can fill the slot fills it. Only the speaker's noun ("my",
"our"; "the day job" in the speaker's own sentence) and only a statement: a question, a wish, a
condition or a negation is read elsewhere or not at all. Pure functions over a spaCy parse.
"""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import TurnText
from .frame_fits import SUBJECTS, a_post, a_post_word, diet_named
from .lexicon import JUDGING, Frame
from .slot_atoms import slot_atom

__all__ = ["slot_noun_atoms"]

#: Nouns that name a slot of their owner's.
_SLOT_NOUNS: Final = {
    "employer": "employer",
    "company": "employer",
    "firm": "employer",
    "workplace": "employer",
    "job": "occupation",
    "occupation": "occupation",
    "profession": "occupation",
    "career": "occupation",
    "diet": "diet",
}
#: The copula's values that tell no slot however they are parsed: "my job is a nightmare".
_NOT_VALUES: Final = frozenset(["nightmare", "joke", "mess", "drag", "grind", "pain", "hell", "dream"])


def slot_noun_atoms(sentence: Any, speaker: str, turn: TurnText, correction: bool) -> list[FactAtom]:
    """The typed facts the speaker's slot nouns are said to be in ``sentence`` (a statement)."""
    if any(t.dep_ == "neg" or t.lower_ in {"never", "not", "n't"} for t in sentence):
        return []
    atoms: list[FactAtom] = []
    for noun in sentence:
        for post in _working_as(noun):  # "got my first paycheque as a paramedic", "my living as a …"
            atoms.append(
                slot_atom(
                    Frame("work", "prep", "occupation"), post, speaker, turn, correction, speaker, False
                )
            )
        slot = _slot_of(noun)
        if slot is None or not _owned(noun):
            continue
        for value in _values(noun):
            if _fills(slot, value):
                frame = Frame("be", "attr", slot)
                atoms.append(slot_atom(frame, value, speaker, turn, correction, speaker, False))
                break
        for place in _job_at(noun):  # "my new job is at a law firm in Leeds", "… is with Arup"
            if _fills("employer", place) or any(c.dep_ == "det" for c in place.children):
                frame = Frame("be", "attr", "employer")
                atoms.append(slot_atom(frame, place, speaker, turn, correction, speaker, False))
                break
    return atoms


#: The speaker's things that are had by working as something: "my first shift as a nurse".
_WORKED_FOR: Final = frozenset(
    ["paycheque", "paycheck", "payslip", "salary", "wage", "living", "shift", "stint", "contract", "week",
     "month", "day", "year", "job", "season"]
)  # fmt: skip
#: … but not one that tells it is over: "my last day as a teacher".
_OVER: Final = frozenset(["last", "final", "old", "former", "previous"])


def _working_as(noun: Any) -> list[Any]:
    """The post the speaker's pay, living or shift is had "as": "my first paycheque as a paramedic", "I
    make my living as a carpenter", "my first week as a staff nurse"; not a last day, nor a post that is
    no job ("my first day as a dad")."""
    if noun.lemma_.casefold() not in _WORKED_FOR or not any(
        c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in noun.children
    ):
        return []
    if any(c.lower_ in _OVER for c in noun.children):
        return []
    posts = [
        g
        for c in noun.children
        if c.dep_ == "prep" and c.lower_ == "as"
        for g in c.children
        if g.dep_ == "pobj"
    ]
    # the tagger takes a job for an adjective: "as a paramedic"
    return [g for g in posts if (g.pos_ in {"NOUN", "ADJ"} and a_post_word(g)) or _fills("occupation", g)][:1]


def _job_at(noun: Any) -> list[Any]:
    """Where the speaker's job is said to be: the copula's "at" or "with" ("my new job is at Arup")."""
    head = noun.head
    if noun.lemma_ not in {"job", "role", "position"} or noun.dep_ not in SUBJECTS or head.lemma_ != "be":
        return []
    if _guarded(head):
        return []
    return [g for c in head.children if c.dep_ == "prep" and c.lower_ in {"at", "with"} for g in c.children]


def _slot_of(noun: Any) -> str | None:
    if noun.pos_ != "NOUN":
        return None
    return _SLOT_NOUNS.get(noun.lemma_.casefold())


def _owned(noun: Any) -> bool:
    """The speaker's: "my new employer", "our car"; "the day job" when no one else is named its owner."""
    if any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in noun.children):
        return True
    day = any(c.dep_ == "compound" and c.lower_ == "day" for c in noun.children)
    the = any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children)
    return noun.lemma_ == "job" and day and the


def _values(noun: Any) -> list[Any]:
    """What the noun is said to be: the copula's predicate noun when it is the subject ("my new employer
    is the city council"), the copula's subject when it is the predicate noun ("Deloitte is my new
    employer"), what a colon or dash gives it ("My day job: driving instructor")."""
    head = noun.head
    found: list[Any] = []
    if noun.dep_ in SUBJECTS and head.lemma_ == "be" and not _guarded(head):
        found += [
            c
            for c in head.children
            if c.i > head.i and c.dep_ in {"attr", "ccomp", "xcomp", "nsubj", "appos"}
        ]
    if noun.dep_ == "attr" and head.lemma_ == "be" and not _guarded(head):
        found += [c for c in head.children if c.dep_ in SUBJECTS and c.i < noun.i]
    colon = noun.i + 1 < len(noun.doc) and noun.doc[noun.i + 1].text in {":", "-", "–", "—"}
    if colon:
        found += [c for c in noun.children if c.dep_ == "appos" and c.i > noun.i]
    return found


def _guarded(predicate: Any) -> bool:
    """A modal, a wish or a question on the copula: "my next car will be a Volvo"."""
    return any(c.tag_ == "MD" or c.dep_ == "mark" for c in predicate.children)


def _fills(slot: str, value: Any) -> bool:
    if value.lower_ in _NOT_VALUES or any(t.lower_ in JUDGING for t in value.subtree):
        return False
    if slot == "employer":
        return (
            value.ent_type_ == "ORG"
            or value.pos_ == "PROPN"
            or (value.pos_ == "NOUN" and any(c.lower_ == "the" for c in value.children))
        )
    if slot == "occupation":
        # "dog grooming", "nursing": a doing is the job said; not "killing me", "driving me mad"
        doing = value.tag_ == "VBG" and not any(
            c.dep_ in {"dobj", "xcomp", "oprd", "acomp", "ccomp"} for c in value.children
        )
        return doing or (value.pos_ == "NOUN" and a_post(value))
    return slot == "diet" and diet_named(value) is not None
