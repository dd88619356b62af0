"""A typed fact from a slot's frame and its value, worded as the slot says ("Dana lives in Leeds", "Dana
is on a Mediterranean diet", "Dana drives a Ford Fiesta"): every reader of the parse builds its typed
facts here. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_fits import OWNING, diet_named, hyphenated, meats_said
from .frame_values import phrase
from .lexicon import FIELDS, PLAN_DIETS, SLOTS, Frame

__all__ = ["slot_atom"]


#: An owner before a vehicle's name, and what is said of it before the name: "my", "her old", "Dad's".
_OWNER: Final = re.compile(
    r"^(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[A-Z][\w-]*'s)\s+(?:[a-z][\w'’-]*\s+)*(?=[A-Z0-9])"
)


def _without_owner(said: str) -> str:
    """ "took delivery of my Triumph Bonneville", "Mum gave me her old Nissan Micra": the name (the
    owner and the age were the giver's, or go without saying)."""
    return _OWNER.sub("", said, count=1)


def slot_atom(
    frame: Frame, value: Any, subject: str, turn: TurnText, correction: bool, speaker: str, negated: bool
) -> FactAtom:
    slot = SLOTS[frame.slot]
    said = (
        (diet_named(value) or hyphenated(value))
        if frame.slot == "diet"
        else phrase(value, places=frame.slot != "occupation")
    )
    if frame.slot == "partner" and value.pos_ == "PROPN":  # "Her name's Marisol": the name alone
        said = " ".join(
            [*(c.text for c in value.children if c.dep_ == "compound" and c.i < value.i), value.text]
        )
    if frame.slot == "vehicle" and value.pos_ == "PROPN":  # "a Subaru Outback on Facebook Marketplace"
        after = {
            c.i
            for c in value.children
            if c.i > value.i
            and (c.dep_ in {"nummod", "compound"} or (c.dep_ == "appos" and c.i == value.i + 1))
        }  # "a Honda CB500", "a Yamaha MT-03"
        said = "".join(t.text_with_ws for t in value.subtree if t.i <= value.i or t.i in after).strip()
    said = said or value.text  # a word the phrase rules drop ("turned beekeeper", parsed as an adverb)
    if frame.slot == "employer":
        said = said.removesuffix("'s").removesuffix("’s")  # "on HSBC's payroll": HSBC
    if said.split(" ", 1)[0] in {"A", "An", "The"}:  # "A Volvo XC40, had it since March"
        said = said[:1].lower() + said[1:]
    if frame.slot in {"employer", "residence", "vehicle", "occupation"} and ", " in said:
        said = said.split(", ", 1)[0]  # "a Lidl in Bolton, shorter commute": the aside is no part of it
    if said.endswith(".") and said.rsplit(" ", 1)[-1].count(".") == 1:
        said = said[:-1]  # "Tesla Model Y.": the tokenizer kept the sentence's stop on a one-letter name
    if frame.slot == "hobby" and frame.lemma == "join":  # "a bouldering gym": bouldering; "the choir": choir
        named = [c for c in value.children if c.dep_ in {"compound", "amod"} and c.i < value.i]
        doing = [c for c in named if c.tag_ == "VBG" or c.lower_.endswith("ing")]
        said = doing[0].text if doing else " ".join([*(hyphenated(c) for c in named), value.text])
    if frame.slot == "hobby" and value.lemma_ in {"learn", "play", "practise", "practice", "do"}:
        objects = [c for c in value.children if c.dep_ == "dobj"]  # "learning the piano": the piano
        said = phrase(objects[0]) if objects else said
    if frame.lemma == "teach":  # "teaching maths": a maths teacher; "I teach Year 5": a Year 5 teacher
        year = [
            t
            for t in value.subtree
            if t.i == value.i or (t.head.i == value.i and t.dep_ in {"nummod", "compound"})
        ]
        school_year = any(ch.isdigit() for t in year for ch in t.text)  # the model calls "Year 5" a date
        taught = " ".join(t.text for t in year)
        if school_year:
            said = f"{taught} teacher" if taught[:1].isalpha() else "teacher"  # "year 9s": a teacher
        else:
            said = f"{said} teacher"
    if frame.slot == "occupation" and frame.lemma in OWNING and frame.via == "dobj":  # "runs a café"
        said = f"the owner of {said.replace('my own ', 'a ').replace('our own ', 'a ')}"
    # "the day job is dog grooming", "switched to data science": a doing or a field one works in
    gerund = frame.slot == "occupation" and (
        value.tag_ == "VBG"
        or value.lemma_.casefold() in FIELDS
        or (frame.lemma == "work" and frame.preps == ("in",))  # "works in insurance claims"
    )
    if frame.slot == "occupation" and not gerund and said.split()[0].casefold() not in {"a", "an", "the"}:
        said = ("an " if said[:1].casefold() in "aeiou" else "a ") + said
    if frame.slot == "vehicle":
        said = _without_owner(said)
    if frame.slot in {"employer", "residence"} and said.split()[0].casefold() in {"my", "our"}:
        said = f"{subject}'s {said.split(' ', 1)[1]}" if " " in said else said
    shown = f"a meat-eater who eats {meats_said(value)}" if said == "meat-eater" else said
    if frame.slot == "vehicle" and said.split()[0].casefold() not in {"a", "an", "the"}:
        shown = f"a {said}"  # "my Ford Fiesta needs …": Dana drives a Ford Fiesta
    text = (slot.negative if negated else slot.template).format(S=subject, V=shown)
    if frame.slot == "hobby" and not frame.change and not negated:
        text = f"{subject} enjoys {shown}"  # "I do yoga most mornings": held, not newly "taken up"
    if frame.slot == "residence" and frame.change:
        text = f"{subject} moved to {said}"  # build_atom words a move as the home it made
    if frame.slot == "diet" and said.casefold() in PLAN_DIETS and not negated:
        text = f"{subject} is on a {said} diet"  # "Harriet is Mediterranean" would be a nationality
    if frame.slot == "hobby" and frame.lemma == "join" and not negated:  # "Kim joined a writers group"
        # as written: "a service-focused online group" (joined with spaces, the hyphen became a dash)
        text = f"{subject} joined {''.join(t.text_with_ws for t in value.subtree if t.i <= value.i).strip()}"
    if gerund and not negated:
        text = f"{subject} works in {said}"
    key_value = said.split(" ", 1)[1] if frame.slot == "occupation" and not gerund else said
    ctx = Context(turn=turn, subject=subject, correction=correction, is_speaker=subject == speaker)
    persons: Sequence[str] = [value.text] if frame.slot == "partner" else []
    atom = build_atom(slot.kind, slot.key, key_value, text, ctx, persons, negated, "explicit")
    return atom.model_copy(update={"temporal": "current", "event_time": None})
