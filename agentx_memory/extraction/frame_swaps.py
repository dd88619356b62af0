"""Values told by the shape of the clause, not its verb. Pure helpers of :mod:`.frame_phrases`.

- **What one speaks as**: "As a chef I never see my family at weekends", "as a vegan I struggle to get
  protein": the role a clause of the speaker's is said in is the speaker's job or diet.
- **Left for a job**: "I left the NHS in the summer to be a wedding photographer full-time", "Quit tech
  to become a maths teacher": what one left to be is one's job now.
- **One value traded for another**: "Swapped Denver for Phoenix at the end of summer", "traded my Corsa
  for a Yaris", "I've switched from Monzo to Starling": the new value is the speaker's, the old one ends;
  the slot is the one the values are of (a city, an employer, a job, a diet, a vehicle).
"""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import TurnText
from .frame_fits import SUBJECTS, a_post, diet_named
from .frame_vehicles import named_vehicle, vehicle_head, vehicle_name
from .lexicon import FIELDS, NOT_PASTIMES, VEHICLE_NOUNS, Frame
from .slot_atoms import slot_atom

__all__ = ["left_to_be", "spoken_as", "swapped"]

_SPOKEN_AS: Final = {
    "occupation": Frame("as", "prep", "occupation"),
    "diet": Frame("as", "prep", "diet"),
}
_SWAPPED: Final = {
    slot: Frame("swap", "prep", slot, change=True)
    for slot in ("residence", "employer", "occupation", "diet", "vehicle", "hobby")
}
#: What makes a role one had, not one held: "as a former nurse", "as an ex-smoker".
_NOT_NOW: Final = frozenset(["former", "ex", "retired", "old", "past", "future", "aspiring", "wannabe"])
#: Verbs of trading one thing for another, and the preposition the new one takes.
_TRADING: Final = {
    "swap": "for",
    "trade": "for",
    "exchange": "for",
    "switch": "to",
    "change": "to",
    "go": "to",  # "I've gone from teaching to UX design" (a field for a field only)
    "pivot": "to",
    "move": "into",  # "I've moved into project management"
    "transition": "to",
    # one value left for another of the same slot: "left Amazon for Stripe", "ditched Leeds for Bath"
    "leave": "for",
    "ditch": "for",
    "quit": "for",
}
#: Verbs of leaving that trade only a value for one of the same slot (not "left the office for lunch").
_LEFT_FOR_ANOTHER: Final = frozenset(["leave", "ditch", "quit"])


def spoken_as(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The role the speaker's clause opens with: "As a chef I …", "as a vegan, I …"; not one had ("as a
    former nurse"), a child's ("as a kid I …": no post) or someone else's ("as a nurse, my sister …")."""
    words = [t for t in sentence if not (t.is_punct or t.lower_ in _OPENERS)]
    if len(words) < 4 or words[0].lower_ != "as" or words[1].lower_ not in {"a", "an"}:
        return []
    # the role: the words up to "I"; the parse may hang "I …" under the role, so it is read by position
    said = next((i for i, t in enumerate(words[2:6], start=2) if t.lower_ == "i"), None)
    if said is None:
        return []
    role = words[said - 1]
    if any(t.lower_ in _NOT_NOW for t in words[2 : said - 1]):
        return []
    if diet_named(role):
        return [slot_atom(_SPOKEN_AS["diet"], role, speaker, turn, False, speaker, False)]
    if a_post(role):
        return [slot_atom(_SPOKEN_AS["occupation"], role, speaker, turn, False, speaker, False)]
    return []


#: Words a chat sentence may open with before what it says: "so as a nurse I …", "well, as a vegan …".
_OPENERS: Final = frozenset(["so", "well", "and", "but", "honestly", "obviously", "like", "ok", "okay"])


def swapped(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """A value the speaker traded an old one for: "Swapped Denver for Phoenix", "switched from nursing
    to teaching"; the slot is the one both values are of, or the one the new value is of when the old is
    a common noun ("swapped the city for Bath")."""
    for verb in sentence:
        into = _TRADING.get(verb.lemma_.casefold())
        if into is None or verb.pos_ != "VERB" or not _the_speakers(verb) or verb.tag_ not in {"VBD", "VBN"}:
            continue
        children = list(verb.children)
        # "I've swapped running for swimming": a gerund the parse makes the verb's complement
        olds = [c for c in children if c.dep_ == "dobj" or (c.dep_ == "xcomp" and c.tag_ == "VBG")]
        olds += [g for c in children if c.dep_ == "prep" and c.lower_ == "from" for g in c.children]
        loose = verb.lemma_.casefold() in _FIELD_VERBS  # "gone from A to B", "moved into B": fields only
        news = [g for c in children if c.dep_ == "prep" and c.lower_ == into for g in c.children]
        news += [
            g for o in olds for c in o.children if c.dep_ == "prep" and c.lower_ == into for g in c.children
        ]
        for new in (n for n in news if n.dep_ == "pobj"):
            slot = _slot_of(new) if not loose else ("occupation" if _field(new) else None)
            old_slot = next((_slot_of(o) for o in olds if _slot_of(o)), None)
            if _field(new) and (not olds or any(_field(o) or _slot_of(o) == "occupation" for o in olds)):
                slot, old_slot = "occupation", None  # "switched from accounting to data science"
            if slot is None and _doing(new) and olds and all(_doing(o) for o in olds):
                slot, old_slot = "hobby", "hobby"  # "swapped surfing for mountain biking"
            left = verb.lemma_.casefold() in _LEFT_FOR_ANOTHER
            if left and slot is None and old_slot in {"employer", "residence"} and new.pos_ == "PROPN":
                slot = old_slot  # "left Amazon for Stripe": a name for a name, of the kind the old one is
            if slot is None or (old_slot is not None and old_slot != slot):
                continue
            if left and old_slot != slot:
                continue
            if slot == "residence" and not olds:
                continue  # "I've switched to Monzo": a town is swapped for a town, not switched to alone
            value = vehicle_head(new) if slot == "vehicle" else new
            atom = slot_atom(_SWAPPED[slot], value, speaker, turn, True, speaker, False)
            gone = [o.text for o in olds if o.pos_ == "PROPN" or _slot_of(o) or slot == "hobby"]
            return [atom.model_copy(update={"ends_words": gone})] if gone else [atom]
    return []


def left_to_be(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The job the speaker left something to be: "left the NHS to be a wedding photographer", "quit tech
    in spring to become a maths teacher"; not a plan ("I'll quit to be …"), someone else's, or a job
    only hoped for ("quit to try to be an actor")."""
    for verb in sentence:
        if verb.lemma_.casefold() not in _LEAVING or verb.tag_ not in {"VBD", "VBN", "VBP"}:
            continue
        if not _the_speakers(verb):
            continue
        # the aim may hang on what was left ("left accounting to become a chef": on "accounting")
        left = [c for c in verb.children if c.dep_ in {"dobj", "xcomp"}]
        aims = [c for c in verb.children if c.dep_ in {"advcl", "xcomp"}]
        aims += [g for c in left for g in c.children if g.dep_ == "advcl"]
        for aim in aims:
            if aim.lemma_ not in {"be", "become"} or not any(c.tag_ == "TO" for c in aim.children):
                continue
            for role in (c for c in aim.children if c.dep_ == "attr" and a_post(c)):
                return [slot_atom(_LEFT_FOR["occupation"], role, speaker, turn, True, speaker, False)]
    return []


#: Verbs of leaving a job or a field.
_LEAVING: Final = frozenset(["leave", "quit", "resign", "retire", "ditch", "pack"])
_LEFT_FOR: Final = {"occupation": Frame("become", "attr", "occupation", change=True)}


#: Verbs that trade a field of work only (of anything else they say something else: "moved to Leeds").
_FIELD_VERBS: Final = frozenset(["go", "move", "pivot", "transition"])


def _field(value: Any) -> bool:
    """A field of work: "data science", "UX design", "teaching", "accounting"; not a place or a name."""
    if value.ent_type_ in {"GPE", "LOC", "PERSON", "ORG", "DATE"} and value.lemma_.casefold() not in FIELDS:
        return False
    words = {value.lower_, value.lemma_.casefold()}
    return bool(words & FIELDS) or (value.tag_ == "VBG" and value.lower_.endswith("ing"))


def _slot_of(value: Any) -> str | None:
    """The slot a value can only be of: a city, a diet, a job, a vehicle, an organisation."""
    if vehicle_name(value) is not None or value.lemma_.casefold() in VEHICLE_NOUNS:
        return "vehicle"  # first: the model takes some names for towns ("a Transit Custom")
    if value.ent_type_ in {"GPE"}:
        return "residence"
    if diet_named(value):
        return "diet"
    if a_post(value):
        return "occupation"
    if named_vehicle(value):
        return "vehicle"
    if value.ent_type_ == "ORG":
        return "employer"
    return None


def _doing(value: Any) -> bool:
    """A pastime's doing: "surfing", "mountain biking" (a gerund, to the tagger a noun or a verb)."""
    doing = value.lower_.endswith("ing") and value.pos_ in {"NOUN", "VERB"}
    return doing and value.lower_ not in NOT_PASTIMES


def _the_speakers(verb: Any) -> bool:
    """A clause of the speaker's ("I", or none in chat), told as so: not denied, wished or asked."""
    children = list(verb.children)
    if any(c.dep_ == "neg" or c.tag_ == "MD" or c.lower_ in {"if", "when", "would"} for c in children):
        return False
    subjects = [c for c in children if c.dep_ in SUBJECTS]
    return all(c.lower_ in {"i", "we"} for c in subjects) and verb.dep_ not in {"xcomp", "relcl", "acl"}
