"""A partner told by what the two have together, or by what is over between them, whatever the verb.

Together: "a 3-month anniversary with Iker", "celebrating two years with Marco", "Me and Jess hit a year
together", "Temi and I signed the lease on our first flat together", "meeting Liam's parents this
weekend", "a third date with Priya". Time together, a home together, the other's parents and a date are
what a couple has; these are read in a question too ("Ideas for a 3-month anniversary with Iker?" takes
the couple for granted). Not someone the sentence gives another relation ("my friend Sam and I signed
the lease …", "my sister and I …"), nor an organisation ("my work anniversary with Google").

Over: "Ollie is long gone", "Ollie's out of the picture", "things with Ollie fizzled out", "it ended
with Ollie", "Ollie and I went our separate ways", "we called it quits": an ending of the partner named,
or of the current one when none is. Pure functions over a spaCy parse."""

from __future__ import annotations

import re
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_fits import SUBJECTS
from .given_names import known_first_name
from .lexicon import PARTNER_NOUNS, RELATION_NOUNS, Frame
from .parse_paths import a_name, clause_verb, said_with_me
from .slot_atoms import slot_atom

__all__ = ["partner_gone", "partners_together"]

_PARTNER: Final = Frame("together", "dobj", "partner", change=True)
#: Spans of time a couple counts: "a year together", "two years with Marco", "our anniversary".
_TIME_TOGETHER: Final = frozenset(["year", "month", "week", "anniversary"])
#: Verbs that count time together: "hit a year together", "celebrating two years with Marco".
_COUNTING: Final = frozenset(["hit", "celebrate", "mark", "reach", "clock"])
#: Words of a home shared: "signed the lease on our first flat together", "bought a house together".
_SHARED_HOME: Final = frozenset(
    ["lease", "flat", "house", "home", "place", "apartment", "mortgage", "move", "keys", "condo"]
)
#: The other's people one meets as a couple: "meeting Liam's parents".
_THEIR_PEOPLE: Final = frozenset(["parents", "folks", "family", "mum", "mom", "dad"])
#: Words of parting or of no couple yet: nothing new is told beside them.
_NOT_TOGETHER: Final = frozenset(
    ["ex", "split", "break", "broke", "divorce", "separate", "gone", "over", "dump", "dumped", "friend",
     "friends", "mate", "mates", "colleague", "work", "business", "want", "hope", "wish", "if"]
)  # fmt: skip


def partners_together(sentence: Any, speaker: str, turn: TurnText, correction: bool) -> list[FactAtom]:
    """The partners the sentence takes the speaker to be with (see the module)."""
    words = {t.lower_ for t in sentence} | {t.lemma_.casefold() for t in sentence}
    if words & _NOT_TOGETHER or any(t.dep_ == "neg" for t in sentence):
        return []
    found: list[Any] = []
    for token in sentence:
        lemma = token.lemma_.casefold()
        if lemma in {"anniversary", "date"} and token.pos_ == "NOUN":
            found += _with(token)  # "anniversary with Iker", "a third date with Priya"
        if lemma in _COUNTING and token.pos_ == "VERB":
            together = [c for c in token.children if c.lower_ == "together"]
            # "hit a year together", "hit six months together" (the months hung on "together")
            counted = [
                c for h in (token, *together) for c in h.children if c.lemma_.casefold() in _TIME_TOGETHER
            ]
            if counted and (mine := _of_the_speaker(token)) is not None:
                # "celebrating five years with Unilever": time with an employer is counted too, so a person
                found += [p for p in _with(token) if p.ent_type_ == "PERSON" or known_first_name(p.text)]
                # "Me and Tomás are celebrating our anniversary": time the two count as theirs
                ours = any(c.dep_ == "poss" and c.lower_ == "our" for t in counted for c in t.children)
                found += mine if together or ours else []
        if token.lower_ == "together" and token.dep_ == "advmod":
            verb = clause_verb(token)  # "bought our first house together in March": "together" on "in"
            home = {t.lemma_.casefold() for t in verb.subtree} & _SHARED_HOME
            if home and (mine := _of_the_speaker(verb)):
                found += mine  # "Temi and I signed the lease on our first flat together"
        if token.lower_ in _THEIR_PEOPLE and token.i >= 2:
            owner = next((c for c in token.children if c.dep_ == "poss"), None)
            before = sentence.doc[max(sentence.start, token.i - 4) : token.i]
            if owner is not None and any(t.lower_.startswith("meet") for t in before):
                found.append(owner)  # "Meeting Liam's parents this weekend"
    atoms, seen = [], set()
    for person in found:
        if not _a_person(person) or person.text in seen or person.text == speaker:
            continue
        seen.add(person.text)
        atom = slot_atom(_PARTNER, person, speaker, turn, correction, speaker, False)
        if atom.value != person.text and not known_first_name(atom.value.split()[0]):
            # "Meeting Liam's parents": the small model made a name of the verb before the name
            update = {"value": person.text, "statement": atom.statement.replace(atom.value, person.text)}
            atom = atom.model_copy(update={**update, "persons": [person.text]})
        atoms.append(atom)
    return atoms


def _with(token: Any) -> list[Any]:
    return [
        g
        for c in token.children
        if c.dep_ == "prep" and c.lower_ == "with"
        for g in c.children
        if g.dep_ == "pobj"
    ]


def _of_the_speaker(verb: Any) -> list[Any] | None:
    """The others said with the speaker as the subject ("Temi and I"; [] for "we" or no subject); None
    when the subject is someone else's or a relation the sentence gives ("my friend Sam and I")."""
    subjects = [t for c in verb.children if c.dep_ in SUBJECTS for t in (c, *c.conjuncts)]
    if any(t.lemma_.casefold() in RELATION_NOUNS - PARTNER_NOUNS for t in subjects):
        return None
    # "Liv and I are celebrating …": the parse may hang the name apart, as the root
    if with_me := said_with_me(verb):
        return with_me
    if all(t.lower_ in {"i", "we"} for t in subjects):
        return []  # "I'm celebrating two years with Marco", "we hit a year together"
    return None


def _a_person(token: Any) -> bool:
    """A person's name: not an organisation or a place the recogniser is sure of, not a relation noun."""
    if token.lemma_.casefold() in RELATION_NOUNS or token.ent_type_ in {"GPE", "LOC", "FAC"}:
        return False
    if token.ent_type_ == "ORG" and (len(token.text) <= 3 or token.text.isupper()):
        return False  # "an anniversary with IBM"; the small model calls many a name ("Iker") an organisation
    return a_name(token) and token.text[:1].isupper()


#: "Ollie is long gone", "Ollie's out of the picture", "álvaro's in the past": a name and its going.
_GONE: Final = re.compile(
    r"(?:^|[\s(,;—-])(?P<name>[A-Za-zÀ-ÿ][a-zà-ÿ'-]+)(?:['’]s|\s+is|\s+was)\s+(?:long\s+|well\s+and\s+truly\s+)?"
    r"(?:gone|out\s+of\s+the\s+picture|in\s+the\s+past|a\s+thing\s+of\s+the\s+past)\b(?!\s+(?:from|to|for|at)\b)"
)
#: Verbs of a couple ending without a verb of parting: "fizzled out", "petered out", "it ended with Ollie".
_FADING: Final = {"fizzle": "out", "peter": "out", "petere": "out", "end": "", "finish": ""}


def partner_gone(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The endings of a partner the sentence tells (see the module)."""
    if sentence.text.rstrip().endswith("?"):
        return []
    names: list[str] = []
    said = ""
    for found in _GONE.finditer(sentence.text):
        name = found["name"]
        if known_first_name(name) or (name[:1].isupper() and name.casefold() not in _NOT_NAMES):
            names.append(name[:1].upper() + name[1:])
            said = found.group(0).strip(" (,;—-")
    for verb in sentence:
        if verb.pos_ != "VERB" or any(c.dep_ == "neg" or c.tag_ == "MD" for c in verb.children):
            continue
        if (ended := _couple_ended(verb)) is not None:
            names += ended
            said = "".join(t.text_with_ws for t in verb.subtree if t.dep_ != "punct").strip()
    if not said:
        return []
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    statement = (
        f"{speaker} and {names[0]} are no longer together"
        if names
        else f"{speaker} is no longer with their partner"
    )
    atom = build_atom("statement", "ended", said, statement, ctx, names[:1], False, "explicit")
    return [
        atom.model_copy(update={"ends": sorted(PARTNER_NOUNS), "ends_words": names[:1], "temporal": "past"})
    ]


#: Words the going pattern finds that are no one: "the snow is long gone", "it's gone".
_NOT_NAMES: Final = frozenset(["it", "that", "this", "he", "she", "they", "everything", "all", "summer"])


def _couple_ended(verb: Any) -> list[str] | None:
    """The names of a couple the clause ends ([] when it names none); None when it ends no couple."""
    lemma = verb.lemma_.casefold()
    children = list(verb.children)
    subjects = [c for c in children if c.dep_ in SUBJECTS]
    with_me = [t.text for t in said_with_me(verb) if a_name(t)]
    ours = bool(with_me) or any(s.lower_ == "we" for s in subjects)
    if lemma == "go" and any(
        c.dep_ == "dobj" and c.lower_ == "ways" and any(a.lower_ == "separate" for a in c.children)
        for c in children
    ):
        # "went our separate ways in June"; not "at the station" (a parting of a day)
        at = any(c.dep_ == "prep" and c.lower_ in {"at", "after"} for c in children)
        return with_me if ours and not at else None
    if lemma == "call" and any(t.lower_ == "quits" for t in verb.subtree):
        return with_me if ours else None
    if lemma in _FADING and (_FADING[lemma] == "" or any(c.lower_ == _FADING[lemma] for c in children)):
        named = [
            g.text
            for holder in (verb, *subjects)
            for c in holder.children
            if c.dep_ == "prep" and c.lower_ == "with"
            for g in c.children
            if g.dep_ == "pobj" and a_name(g) and not any(d.pos_ == "VERB" for d in g.children)
        ]  # not "the match ended with Ollie scoring"
        things = any(s.lower_ in {"things", "it", "stuff"} for s in subjects)
        if named and (things or not subjects):
            return named  # "things with Ollie fizzled out", "it ended with Ollie a while ago"
        if lemma != "end" and lemma != "finish" and ours:
            return with_me  # "Ollie and I fizzled out", "we petered out"
        if lemma != "end" and lemma != "finish" and len(subjects) == 1 and subjects[0].pos_ == "PROPN":
            return [subjects[0].text]  # "after Desmond fizzled out"
    return None
