"""Homes told by what goes with them rather than by a verb of living: an address typed out ("new address
is 14 Harbour Row, Falmouth, TR11 3QS"), an employer that moved the speaker ("work posted me to
Singapore", "the firm transferred me to the Atlanta office"); a hobby that is a doing ("my new hobby is
knitting"); and the one place the phrase readers of
values told whatever the verb are gathered for :func:`.frame_phrases.sentence_atoms`. Pure functions."""

from __future__ import annotations

import re
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_fits import SUBJECTS, diet_named
from .frame_lapses import lapsed, parted
from .frame_routines import routines
from .frame_swaps import left_to_be, spoken_as, swapped
from .frame_vehicles import vehicle_in_use
from .frame_work import a_job_named, employer_named, work_done_now, work_things
from .lexicon import Frame
from .slot_atoms import slot_atom

__all__ = ["city_of_address", "told_atoms"]

#: "new address is …", "my new home address: …": the speaker's own address and what follows it.
_ADDRESS: Final = re.compile(
    r"\b(?:(?P<my>my|our)\s+)?(?P<new>new\s+)?(?:home\s+|postal\s+|mailing\s+|street\s+)?address\s*(?:is|:|'s)\s+"
    r"(?P<said>[^()\n]+)",
    re.IGNORECASE,
)
#: A part of an address that is no town: a street, a flat, a postcode.
_STREET: Final = re.compile(
    r"\d|\b(?:st|street|rd|road|ave|avenue|lane|ln|row|way|drive|dr|close|court|ct|place|pl|terrace|crescent|"
    r"apt|apartment|flat|unit|suite|floor|blvd|boulevard|square|sq|hill|gardens|mews|walk)\b\.?",
    re.IGNORECASE,
)
_TOWN: Final = re.compile(
    r"^(?P<town>[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){0,2})(?:,?\s+[A-Z]{2})?(?:\s+\d{5})?$"
)
#: What a doing can be of the speaker's: "my new hobby is knitting".
_PASTIMES: Final = frozenset(["hobby", "pastime", "passion", "obsession"])
#: Verbs of an employer moving the speaker: "posted me to Singapore", "transferred me to the Atlanta office".
_MOVING_ME: Final = frozenset(["post", "transfer", "relocate", "second", "send", "station", "move"])


def told_atoms(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """What the readers of values told whatever the verb read in a sentence of the speaker's."""
    return [
        *vehicle_in_use(sentence, speaker, turn),
        *lapsed(sentence, speaker, turn),
        *parted(sentence, speaker, turn),
        *routines(sentence, speaker, turn),
        *_address_home(sentence, speaker, turn),
        *_posted_to(sentence, speaker, turn),
        *_pastime_doing(sentence, speaker, turn),
        *spoken_as(sentence, speaker, turn),
        *swapped(sentence, speaker, turn),
        *left_to_be(sentence, speaker, turn),
        *a_job_named(sentence, speaker, turn),
        *work_done_now(sentence, speaker, turn),
        *work_things(sentence, speaker, turn),
        *employer_named(sentence, speaker, turn),
        *_diet_owned_to(sentence, speaker, turn),
    ]


#: Verbs a speaker hedges a label of their own with: "so pescatarian I suppose".
_HEDGES: Final = frozenset(["suppose", "guess", "reckon"])
_DIET: Final = Frame("be", "attr", "diet")


def _diet_owned_to(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """A diet the speaker owns to with no verb of their own: a hedged label ("eating fish again, so
    pescatarian I suppose"), or a label that is the whole sentence ("Vegetarian, but still eating eggs and
    dairy."); not a question, nor a label with a subject ("Tom? Vegan, apparently" names Tom first)."""
    root = sentence.root
    found = []
    if root.lemma_.casefold() in _HEDGES and any(
        c.dep_ in SUBJECTS and c.lower_ == "i" for c in root.children
    ):
        found = [c for c in root.children if c.dep_ in {"dobj", "attr", "acomp", "ccomp"} and c.i < root.i]
    elif root.pos_ in {"ADJ", "NOUN"} and not any(c.dep_ in SUBJECTS for c in root.children):
        hedged = any(c.lemma_.casefold() in _HEDGES and _said_by_me(c) for c in root.children)
        found = [root] if root.i == sentence.start or hedged else []
    if sentence.text.rstrip().endswith("?") or any(t.dep_ == "neg" for t in sentence):
        return []
    return [
        slot_atom(_DIET, value, speaker, turn, True, speaker, False)
        for value in found[:1]
        if value.pos_ in {"ADJ", "NOUN"} and diet_named(value) is not None
    ]


def _said_by_me(verb: Any) -> bool:
    return any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in verb.children)


def city_of_address(said: str) -> str | None:
    """The town of an address typed out: "14 Harbour Row, Falmouth, TR11 3QS" → Falmouth; "2210 Larimer
    St, Apt 5, Denver CO 80205" → Denver; None when no part of it is a town."""
    towns = []
    for part in said.split(","):
        part = part.strip().rstrip(".!")
        found = _TOWN.match(part)
        if found and not _STREET.search(found["town"]):
            towns.append(found["town"])
    return towns[-1] if towns else None


def _address_home(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    found = _ADDRESS.search(sentence.text)
    if found is None or (found["my"] is None and found["new"] is None):
        return []  # "the address is …" may be anyone's
    before = sentence.text[: found.start()].casefold()
    if re.search(r"\b(?:his|her|their|mum's|mom's|dad's|sister's|brother's|friend's)\s*$", before):
        return []
    town = city_of_address(found["said"])
    if town is None:
        return []
    said = f"{speaker} moved to {town}" if found["new"] else f"{speaker} lives in {town}"
    return [_home(town, said, speaker, turn, bool(found["new"]))]


def _posted_to(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "work posted me to Singapore for two years", "the firm transferred me to the Atlanta office"."""
    for verb in sentence:
        if verb.lemma_.casefold() not in _MOVING_ME or verb.tag_ not in {"VBD", "VBN", "VBZ"}:
            continue
        if not any(
            c.dep_ in {"dobj", "nsubjpass"} and c.lower_ in {"me", "i", "us", "we"} for c in verb.children
        ):
            continue
        if any(c.dep_ == "neg" or c.tag_ == "MD" for c in verb.children):
            continue
        places = [
            t
            for c in verb.children
            if c.dep_ == "prep" and c.lower_ == "to"
            for t in c.subtree
            if t.ent_type_ == "GPE" and t.pos_ == "PROPN"
        ]
        if places and not any(
            c.dep_ in SUBJECTS and c.lower_ in {"they", "he", "she"} for c in verb.children
        ):
            town = " ".join(t.text for t in places if t.head.i == places[-1].i or t.i == places[-1].i)
            return [_home(town, f"{speaker} moved to {town}", speaker, turn, True)]
    return []


def _pastime_doing(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "My new hobby is knitting", "my passion is restoring old bikes": the parse reads "is knitting" as
    the hobby doing something; the doing is the hobby."""
    for verb in sentence:
        if verb.tag_ != "VBG" or not any(c.dep_ == "aux" and c.lemma_ == "be" for c in verb.children):
            continue
        held = [c for c in verb.children if c.dep_ in SUBJECTS and c.lemma_.casefold() in _PASTIMES]
        if not held or not any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in held[0].children):
            continue
        if any(c.dep_ == "neg" for c in verb.children):
            continue
        # "my passion for the project … is driving me": a passion for a thing, doing something to someone
        if any(c.dep_ in {"prep", "conj"} for c in held[0].children) or any(
            c.dep_ == "dobj" and c.pos_ == "PRON" for c in verb.children
        ):
            continue
        said = "".join(t.text_with_ws for t in verb.subtree if t.i >= verb.i).strip(" .!,")
        ctx = Context(turn=turn, subject=speaker, correction=False, is_speaker=True)
        statement = f"{speaker}'s {held[0].lemma_} is {said}"
        atom = build_atom("preference", "hobby", said, statement, ctx, [], False, "explicit")
        return [atom.model_copy(update={"temporal": "current"})]
    return []


def _home(town: str, said: str, speaker: str, turn: TurnText, moved: bool) -> FactAtom:
    ctx = Context(turn=turn, subject=speaker, correction=moved, is_speaker=True)
    atom = build_atom("identity", "lives_in", town, said, ctx, [], False, "explicit")
    return atom.model_copy(update={"temporal": "current", "event_time": None})
