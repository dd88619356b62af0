"""What a turn gives in answer to the speaker's own turn before: "New SIM, so my number's different" …
"07700 900314"; "The physio clinic rang, they've had to give me a different slot" … "The 11th, same
time." The turn before leaves a question open (:func:`speaks_of_contact`, :func:`appointment_asked`);
the next, said alone, closes it (``contact_atoms(..., asked=True)``, :func:`appointment_given`)."""

from __future__ import annotations

import re
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_changes import DAY_ALONE, on_coming_day, thing_key
from .frame_values import slot_atom
from .lexicon import Frame

__all__ = [
    "ASKED_WHERE",
    "appointment_asked",
    "appointment_given",
    "home_given",
    "move_asked",
    "speaks_of_contact",
]


def speaks_of_contact(sentence: Any) -> bool:
    """Whether the sentence speaks of the speaker's number without saying one ("my number's different",
    "can you update my number?")."""
    mine = [
        t
        for t in sentence
        if t.lemma_.casefold() in {"number", "phone", "mobile", "cell", "sim"}
        and not any(c.dep_ == "compound" for c in t.children)  # "my order number": no phone
        and (any(c.lower_ in {"my", "new"} for c in t.children) or t.lower_ == "sim")
    ]
    return bool(mine) and not any(t.like_num for t in sentence)


#: Words of a turn that says an appointment changed without saying to when ("the clinic rang, they've
#: had to give me a different slot"): the next turn may give the time alone.
_CHANGED_SLOT: Final = frozenset(
    [
        "different",
        "rang",
        "called",
        "moved",
        "rescheduled",
        "reschedule",
        "change",
        "changed",
        "new",
        "cancel",
    ]
)


def appointment_asked(doc: Any, atoms: list[FactAtom]) -> str | None:
    """The appointment a turn said changed without its new time (``appointment_<key>``'s key), if any."""
    if any(atom.key.startswith("appointment_") for atom in atoms):
        return None
    if not {t.lemma_.casefold() for t in doc} & _CHANGED_SLOT:
        return None
    return next((key for t in doc if t.pos_ == "NOUN" and (key := thing_key(t)) is not None), None)


def appointment_given(doc: Any, key: str, subject: str, turn: TurnText, speaker: str) -> FactAtom | None:
    """The new time of the appointment the speaker's turn before said changed, given alone: "The 11th,
    same time.", "Yeah, Thursday the 17th at 11." (a short turn whose day is a day of the month)."""
    if len([t for t in doc if t.is_alpha]) > 8 or doc.text.rstrip().endswith("?"):
        return None
    day = DAY_ALONE.search(doc.text.casefold())
    if day is None:
        return None
    times = doc.text.strip().rstrip(".!")
    times = re.sub(r"^(?:yeah|yes|yep|ok|okay|so|it's|its)[,!]?\s+", "", times, flags=re.IGNORECASE)
    label = " ".join(key.split("_"))
    statement = f"{subject}'s {label} is on {times[:1].lower() + times[1:]}"
    ctx = Context(turn=turn, subject=subject, correction=True, is_speaker=subject == speaker)
    atom = build_atom("event", f"appointment_{key}", times, statement, ctx, [], False, "explicit")
    return on_coming_day(atom, int(day.group(1)), turn.timestamp)


#: Words of a turn that tells of the speaker's move without saying where ("Finally done with the move",
#: "the movers dropped off the last boxes"): the next turn may name the place alone.
_MOVING: Final = frozenset(["move", "mover", "relocate", "relocation", "unpack", "housewarming"])
_NEW_HOME: Final = Frame("move", "prep", "residence", change=True)


def move_asked(doc: Any, atoms: list[FactAtom]) -> bool:
    """Whether the turn told of the speaker's move without saying where to."""
    if any(atom.key == "lives_in" for atom in atoms) or doc.text.rstrip().endswith("?"):
        return False
    return any(t.lemma_.casefold() in _MOVING and _ours(t) for t in doc)


def _ours(word: Any) -> bool:
    """ "we moved", "the move", "our movers", "Finally done with the move"; not "helping my sister move"."""
    subjects = [c for c in word.children if c.dep_ in {"nsubj", "nsubjpass"}]
    owners = [c for c in word.children if c.dep_ == "poss"]
    return all(t.lower_ in {"i", "we"} for t in subjects) and all(t.lower_ in {"my", "our"} for t in owners)


#: The listener's question the place answers: "Where did you end up?", "Which city did you land in?"
ASKED_WHERE: Final = re.compile(r"\b(?:where|which|what)\b[^?]*\?", re.IGNORECASE)


def home_given(doc: Any, subject: str, turn: TurnText, speaker: str) -> FactAtom | None:
    """The place the speaker moved to, named alone at the start of the next turn: "Leipzig. Right by the
    zoo", "Raleigh! Humid already" (a place name said as a sentence of its own)."""
    first = next(iter(doc.sents), None)
    if first is None:
        return None
    words = [t for t in first if not t.is_punct]
    place = words[-1] if words else None
    if place is None or len(words) > 3 or place.pos_ != "PROPN" or place.ent_type_ in {"DATE", "TIME"}:
        return None
    if any(t.pos_ not in {"PROPN", "INTJ"} for t in words):
        return None  # "Leipzig." or "Oh, Raleigh!"; not a sentence that says more
    return slot_atom(_NEW_HOME, place, subject, turn, True, speaker, False)
