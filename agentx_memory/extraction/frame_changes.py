"""The parse reader's changes and things: endings, contacts, appointments, and "my <thing> is <value>".

- An **ending** ("I quit my job", "sold the BMW", "Mia and I broke up", "I gave up chess") ends what it
  names: the slots its object stands for (a job is an employer and an occupation, a car a vehicle, a
  partner a partner) or the stored facts whose words it names (the choir, chess). Dedup decides which
  stored facts end (:func:`agentx_memory.extraction.dedup.decide`).
- A **contact** (a phone number, an email) is found by its form (the parse cannot read digits), in a
  sentence that says it is the speaker's.
- An **appointment** ("the dentist on Tuesday at 10am", "physio moved to Monday 4pm", "rescheduled my
  haircut to the 14th") is one slot per thing, its value the time: a later time supersedes.
- **"My car is a Clio"**, **"my girlfriend now is Elena"**, **"Kiln is my new favourite restaurant"**.

Pure helpers of :mod:`.frames` over spaCy tokens.
"""

from __future__ import annotations

import re
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_values import SUBJECTS, is_time, phrase
from .lexicon import APPOINTMENTS, ENDING_VERBS, PARTNER_NOUNS, PET_NOUNS, SLOT_OF_THING, VEHICLE_NOUNS

__all__ = ["appointment_atom", "contact_atoms", "ending_atom", "thing_atom"]

_PHONE: Final = re.compile(r"(?<![\w@])\+?\(?\d[\d ().-]{6,}\d(?![\w@])")
_EMAIL: Final = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_CONTACT_CUES: Final = frozenset(
    ["number", "phone", "mobile", "cell", "landline", "text", "call", "reach", "whatsapp", "digits"]
)
_TIME_PREPS: Final = frozenset(["on", "at", "for", "to", "till", "until"])
_MOVES: Final = frozenset(
    ["move", "push", "reschedule", "postpone", "shift", "bump", "bring", "change", "book", "schedule"]
)


def _ctx(turn: TurnText, subject: str, speaker: str) -> Context:
    return Context(turn=turn, subject=subject, correction=True, is_speaker=subject == speaker)


def _yours(phrase_text: str, subject: str) -> str:
    """ "my job" said by Dana is "Dana's job"."""
    return re.sub(r"\b(?:my|our)\b", f"{subject}'s", phrase_text, flags=re.IGNORECASE)


def ending_atom(predicate: Any, subject: str, turn: TurnText, speaker: str) -> FactAtom | None:
    """ "I quit my job", "we sold the Jazz", "I gave up chess", "Mia and I broke up": a statement
    that ends what it names, with the slots and words it ends; None when the predicate ends nothing."""
    lemma = predicate.lemma_.casefold()
    particles = {c.lower_ for c in predicate.children if c.dep_ in {"prt", "prep"}}
    if lemma not in ENDING_VERBS or not (ENDING_VERBS[lemma] <= particles or not ENDING_VERBS[lemma]):
        return None
    objects = [c for c in predicate.children if c.dep_ in {"dobj", "xcomp", "pcomp"}]
    objects += [
        g
        for c in predicate.children
        if c.dep_ == "prep" and c.lower_ in {"with", "from", "of"}
        for g in c.children
        if g.dep_ in {"pobj", "pcomp"}
    ]
    partners = [c for s in predicate.children if s.dep_ in SUBJECTS for c in s.conjuncts if c.lower_ != "i"]
    if lemma in {"split", "break", "divorce", "separate"} or (lemma == "end" and not objects):
        keys = sorted(PARTNER_NOUNS)
        words = [t.text for t in [*objects, *partners] if t.pos_ == "PROPN"]
    elif not objects:
        return None
    else:
        thing = objects[0]
        head = thing.lemma_.casefold()
        keys = list(SLOT_OF_THING.get(head, ()))
        if head in VEHICLE_NOUNS:
            keys = ["drives"]
        words = [
            t.lemma_.casefold() if t.pos_ != "PROPN" else t.text
            for t in thing.subtree
            if t.pos_ in {"NOUN", "PROPN"} and t.lemma_.casefold() not in SLOT_OF_THING
        ]
        if not keys and not words:
            return None
    said = " ".join(t.text for t in predicate.subtree if t.i >= predicate.i and not t.is_punct)
    statement = f"{subject} {_yours(said, subject)}"
    atom = build_atom(
        "statement", "ended", said, statement, _ctx(turn, subject, speaker), [], False, "explicit"
    )
    return atom.model_copy(update={"ends": keys, "ends_words": words, "temporal": "past"})


def contact_atoms(sentence: Any, subject: str, turn: TurnText, speaker: str) -> list[FactAtom]:
    """The speaker's phone number or email said in the sentence ("New number: 07700 900456", "reach
    me at jo@x.io", "switched to mark@icloud.com"); none when it is someone else's ("my mum's number")."""
    text = sentence.text
    if any(t.dep_ == "poss" and t.lower_ not in {"my", "our"} for t in sentence) or text.rstrip().endswith(
        "?"
    ):
        return []
    words = {t.lemma_.casefold() for t in sentence}
    atoms = []
    for key, pattern, cue in (("email", _EMAIL, True), ("phone", _PHONE, bool(words & _CONTACT_CUES))):
        match = pattern.search(text)
        if match is None or not cue or (key == "phone" and sum(ch.isdigit() for ch in match.group()) < 7):
            continue
        value = match.group().strip(" .,")
        label = "email address" if key == "email" else "phone number"
        statement = f"{subject}'s {label} is {value}"
        ctx = Context(turn=turn, subject=subject, correction=False, is_speaker=subject == speaker)
        atoms.append(build_atom("identity", key, value, statement, ctx, [], False, "explicit"))
    return atoms


def _thing_key(thing: Any) -> str | None:
    """ "dentist appointment" → "dentist", "Milo's vet appointment" → "vet", "parents evening" →
    "parents_evening"; None for what is no appointment."""
    words = [c for c in thing.children if c.dep_ == "compound" and c.i < thing.i]
    head = thing.lemma_.casefold()
    if head not in APPOINTMENTS and not any(w.lemma_.casefold() in APPOINTMENTS for w in words):
        return None
    named = [w.lemma_.casefold() for w in words] + ([] if head == "appointment" else [head])
    return "_".join(named) or None


def _when(predicate: Any) -> list[Any]:
    """The time phrases of a predicate: its prepositions with a date or time, and bare dates."""
    return [
        c
        for c in predicate.children
        if (c.dep_ == "prep" and c.lower_ in _TIME_PREPS and is_time(c))
        or (c.dep_ in {"npadvmod", "advmod", "nummod"} and c.ent_type_ in {"DATE", "TIME"})
    ]


def appointment_atom(
    predicate: Any, subject: str, turn: TurnText, speaker: str, last_thing: Any | None
) -> tuple[FactAtom | None, Any | None]:
    """An appointment and its time ("I have a dentist appointment on Tuesday at 10am", "physio moved to
    Monday 4pm", "it's on the 19th now" after the thing was named), and the thing it is about."""
    lemma = predicate.lemma_.casefold()
    things = [c for c in predicate.children if c.dep_ in {"dobj", *SUBJECTS}]
    things += [c for c in predicate.children if c.dep_ == "prep" for c in c.children if c.dep_ == "pobj"]
    thing = next((t for t in things if _thing_key(t) is not None), None)
    if (
        thing is None
        and last_thing is not None
        and any(c.dep_ in SUBJECTS and c.lower_ in {"it", "that"} for c in predicate.children)
    ):
        thing = last_thing
    when = _when(predicate)
    if thing is None:
        return None, None
    key = _thing_key(thing)
    if not when or key is None or lemma not in {"be", "have", "get", "book", *_MOVES}:
        return None, thing
    if lemma in _MOVES - {"book", "schedule"}:
        when = [c for c in when if c.lower_ not in {"on", "at"} or c.i > thing.i] or when
        when = [c for c in when if c.lower_ in {"to", "till", "until"}] or when
    times = " ".join(phrase(c) if c.dep_ == "prep" else c.text for c in when)
    times = re.sub(r"^(?:to|till|until|for)\s+", "on ", times) if times[:3] != "on " else times
    if re.match(r"^\w+day\b|^the \d", times):
        times = "on " + times
    label = " ".join(
        [*key.split("_"), *(["appointment"] if thing.lemma_.casefold() == "appointment" else [])]
    )
    statement = f"{subject}'s {label} is {times}"
    ctx = Context(turn=turn, subject=subject, correction=False, is_speaker=subject == speaker)
    atom = build_atom("event", f"appointment_{key}", times, statement, ctx, [], False, "explicit")
    return atom, thing


def thing_atom(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """ "My car is a Clio", "my daily driver is a Yaris now", "my girlfriend now is Elena",
    "Kiln is my new favourite restaurant", "my favourite film is Heat": the speaker's thing and its
    value, from a copula whose one side is the speaker's thing."""
    if predicate.lemma_ != "be" or any(c.dep_ == "neg" or c.tag_ == "MD" for c in predicate.children):
        return None
    subject = next((c for c in predicate.children if c.dep_ in SUBJECTS), None)
    attr = next((c for c in predicate.children if c.dep_ in {"attr", "acomp"}), None)
    if subject is None or attr is None:
        return None
    for thing, value in ((subject, attr), (attr, subject)):
        if not any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in thing.children):
            continue
        head = thing.lemma_.casefold()
        favourite = any(c.lower_ in {"favourite", "favorite"} for c in thing.children)
        if value.pos_ == "PRON" or value.lemma_.casefold() in {"favourite", "favorite"}:
            return None
        said = phrase(value)
        ctx = Context(turn=turn, subject=speaker, correction=False, is_speaker=True)
        if favourite and head not in {"favourite", "favorite"}:
            key, statement = f"favourite_{head}", f"{speaker}'s favourite {head} is {said}"
            return build_atom("preference", key, said, statement, ctx, [], False, "explicit")
        if head in VEHICLE_NOUNS or (head == "driver" and "daily" in {c.lower_ for c in thing.children}):
            return build_atom(
                "identity", "drives", said, f"{speaker} drives {said}", ctx, [], False, "explicit"
            )
        if head in PARTNER_NOUNS and value.pos_ == "PROPN":
            statement = f"{speaker}'s {head} is {said}"
            atom = build_atom("relationship", head, said, statement, ctx, [said], False, "explicit")
            return atom
        if head in PET_NOUNS and value.pos_ == "PROPN":  # "our rabbit is called Snowball" reads elsewhere
            return build_atom(
                "relationship", head, said, f"{speaker}'s {head} is {said}", ctx, [], False, "explicit"
            )
    return None
