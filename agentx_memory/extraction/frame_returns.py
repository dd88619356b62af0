"""Endings told by what the speaker gave back.

What one hands back is what one had: "Handed back my laptop and pass at Accenture" (the job's things,
so the job), "took the Golf back to the dealer at the end of the lease" (the car), "handed back my
Flyefit key fob" (whatever the speaker had of Flyefit), "gave back the keys to the flat on Mercer
Street" (that home). A last day, shift or week at a place that is past is the job's end too ("My last
day at Tesco was Friday", "worked my last shift at the hospital"; not "my last day at Tesco is Friday",
a plan, nor "my last day at the beach"). Each is an ending of the facts it names, as of when it was
said. Nothing of a thing without a name or a slot ("returned the library books", "handed back the
essay"), nor of someone else's giving. Pure functions over a spaCy parse."""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .english import third_person
from .frame_fits import SUBJECTS
from .frame_lapses import a_receiver
from .lexicon import DWELLINGS, VEHICLE_MAKES, VEHICLE_MODELS, VEHICLE_NOUNS

__all__ = ["given_back", "gone_to_others", "last_day"]

#: Verbs of giving a thing back, each with the particle it needs ("" for none).
_GIVING_BACK: Final = frozenset(
    [("hand", "back"), ("hand", "in"), ("give", "back"), ("turn", "in"), ("take", "back"), ("send", "back"),
     ("drop", "off"), ("drop", "back"), ("return", "")]
)  # fmt: skip
#: What a job lends one: given back to the employer, the job is over.
_WORK_THINGS: Final = frozenset(
    ["laptop", "pass", "badge", "lanyard", "uniform", "id", "card", "keycard", "phone", "key", "keys", "fob",
     "equipment", "kit", "van", "locker"]
)  # fmt: skip
_JOB_KEYS: Final = ["works_at", "works_as"]
#: Words that make the giving back no parting: a swap, a repair, a loan.
_NOT_PARTING: Final = frozenset(
    ["new", "replacement", "repair", "fix", "fixed", "borrow", "borrowed", "swap"]
)


def given_back(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """The ending a clause of giving something back tells, if it tells one (see the module)."""
    lemma = predicate.lemma_.casefold()
    children = list(predicate.children)
    particle = next(
        (c.lower_ for c in children if c.dep_ in {"prt", "advmod"} and c.lower_ in {"back", "in", "off"}), ""
    )
    if (lemma, particle) not in _GIVING_BACK:
        return None
    if any(c.dep_ == "neg" or c.tag_ == "MD" for c in children):
        return None
    subjects = [c for c in children if c.dep_ in SUBJECTS]
    if subjects and subjects[0].lower_ not in {"i", "we"}:
        return None  # "she handed my laptop back": hers to give
    # the things given: the object and what is joined to it, and a verb the parse made of a noun joined
    # to the clause ("handed back my laptop and pass at Accenture")
    joined = [c for c in children if c.dep_ == "conj" and not any(g.dep_ in SUBJECTS for g in c.children)]
    things = [t for c in children if c.dep_ == "dobj" for t in (c, *c.conjuncts)]
    things += [c for c in joined if c.lemma_.casefold() in _WORK_THINGS]
    if not things or any(t.lemma_.casefold() == "notice" for t in things):
        return None  # "handed in my notice" is read with the job's other endings
    if any(t.lower_ in _NOT_PARTING for t in predicate.sent):
        return None
    holders = [predicate, *joined, *things, *(c for c in children if c.lower_ == "back")]
    places = [
        g
        for holder in holders
        for c in holder.children
        if c.dep_ == "prep" and c.lower_ in {"at", "to", "from"}
        for g in c.children
        if g.dep_ == "pobj"
    ]
    keys, words = _what_ended(things, places)
    if not keys and not words:
        return None
    others = {
        t.i for c in children if c.dep_ in {"conj", "cc", "advcl", "parataxis", "ccomp"} for t in c.subtree
    }
    kept_joined = [c for c in joined if c in things]
    others -= {t.i for c in kept_joined for t in c.subtree}
    others -= {c.i for c in children if c.dep_ == "cc" and any(c.i < j.i for j in kept_joined)}
    kept = [t for t in predicate.subtree if t.i not in others and t.i >= predicate.i]
    said = "".join(t.text_with_ws for t in kept).strip(" ,.;!")
    said = said[:1].lower() + said[1:]
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    atom = build_atom(
        "statement", "ended", said, third_person(f"I {said}", speaker), ctx, [], False, "explicit"
    )
    return atom.model_copy(update={"ends": keys, "ends_words": words, "temporal": "past"})


def _what_ended(things: list[Any], places: list[Any]) -> tuple[list[str], list[str]]:
    """The slots and the words of what giving ``things`` back (to or at ``places``) ends."""
    names = [t.text for thing in things for t in _own_words(thing) if _a_name(t)]
    lemmas = {thing.lemma_.casefold() for thing in things}
    if lemmas & VEHICLE_NOUNS or any(n.casefold() in VEHICLE_MODELS | VEHICLE_MAKES for n in names):
        return ["drives"], names  # "took the Golf back to the dealer", "handed the car back"
    employers = list(dict.fromkeys(p.text for p in places if _a_name(p)))
    at_work = any(c.lower_ == "work" for thing in things for c in thing.children if c.dep_ == "compound")
    if lemmas & _WORK_THINGS and (employers or at_work) and not names:
        return _JOB_KEYS, employers  # "returned my badge and laptop to Deloitte", "my work phone"
    homes = [p for p in places if p.lemma_.casefold() in DWELLINGS]
    if lemmas & {"key", "keys"} and homes:  # "gave back the keys to the flat on Mercer Street"
        streets = [t.text for home in homes for t in home.subtree if _a_name(t)]
        return (["lives_in"], streets) if streets else ([], [])
    return [], names  # "handed back my Flyefit key fob": whatever of Flyefit the speaker had


def _own_words(thing: Any) -> list[Any]:
    """The words of ``thing`` itself, not of a place it was given at or to ("pass at Accenture")."""
    return [
        t
        for t in thing.subtree
        if not any(a.dep_ == "prep" and a.head.i == thing.i for a in t.ancestors)
        and not (t.dep_ == "prep" and t.head.i == thing.i)
    ]


def _a_name(token: Any) -> bool:
    """A name inside a sentence: a proper noun, or a capitalised word the small model took for a common
    noun ("the Golf"); a model's number ("the i30")."""
    if token.dep_ == "poss" or token.pos_ in {"PRON", "DET", "ADP"} or token.lower_ in _WORK_THINGS:
        return False
    capital = token.text[:1].isupper() and not token.is_sent_start and token.pos_ in {"PROPN", "NOUN"}
    return capital or (any(ch.isdigit() for ch in token.text) and any(ch.isalpha() for ch in token.text))


def gone_to_others(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """A vehicle of the speaker's that is going or went to someone else: "The Fiesta's off to the scrappy
    next week", "the chap who bought my A3 says …": it ends the facts that name it. (Gone already, "the
    i30 went to my cousin", is :func:`.frame_lapses.handed_on`'s, whose receivers these are.)"""
    children = list(predicate.children)
    lemma = predicate.lemma_.casefold()
    if any(c.dep_ == "neg" or c.tag_ == "MD" for c in children):
        return None
    things: list[Any] = []
    if lemma == "be" and any(c.lower_ == "off" for c in children):
        # (the small model may make "the scrappy next week" a week: every word after "to" counts)
        to = [
            g
            for c in children
            if c.lower_ == "off"
            for p in (c, *c.children)
            if p.lower_ == "to"
            for g in p.subtree
        ] + [g for c in children if c.dep_ == "prep" and c.lower_ == "to" for g in c.subtree]
        to += [c for c in children if c.dep_ == "xcomp"]  # "off to auction": an infinitive to the model
        if any(a_receiver(g) for g in to):  # the ones a thing of the speaker's goes to for good
            things = [c for c in children if c.dep_ in SUBJECTS]
    elif lemma in {"buy", "purchase"}:
        subjects = [c for c in children if c.dep_ in SUBJECTS]
        # only a stranger's buying: "the chap who bought my A3" (not "Dad bought my first car": for me)
        if predicate.dep_ == "relcl" and subjects and subjects[0].lower_ in {"who", "that"}:
            # "the chap who bought my A3": the speaker's, bought by someone else
            things = [
                c
                for c in children
                if c.dep_ == "dobj" and any(p.dep_ == "poss" and p.lower_ == "my" for p in c.children)
            ]
    vehicles = [t for t in things if _a_vehicle(t)]
    if not vehicles:
        return None
    names = [t.text for t in vehicles[0].subtree if _a_name(t) or t.lower_ in VEHICLE_MODELS | VEHICLE_MAKES]
    said = "".join(t.text_with_ws for t in predicate.subtree if t.dep_ not in {"relcl"} or t.i == predicate.i)
    said = said.strip(" ,.;!")
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    told = said if lemma == "be" else f"someone bought {speaker}'s {vehicles[0].text}"
    atom = build_atom("statement", "ended", said, told, ctx, [], False, "explicit")
    return atom.model_copy(update={"ends": ["drives"], "ends_words": names, "temporal": "past"})


def _a_vehicle(token: Any) -> bool:
    lower = token.lower_
    return lower in VEHICLE_MODELS | VEHICLE_MAKES | VEHICLE_NOUNS or (
        _a_name(token) and any(ch.isdigit() for ch in token.text)  # "my A3", "the i30"
    )


#: Spans of work whose last one ends the job: "my last day at Tesco", "my final shift at the Ivy".
_WORK_SPANS: Final = frozenset(["day", "shift", "week", "month", "stint"])


def last_day(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """The job's ending a clause of the speaker's last day, shift or week at a workplace tells: said in
    the past tense, or as today (see the module)."""
    children = list(predicate.children)
    if any(c.dep_ == "neg" or c.tag_ == "MD" for c in children):
        return None
    aux = {c.lower_ for c in children if c.dep_ in {"aux", "auxpass"}}
    past = (predicate.tag_ in {"VBD", "VBN"} and not aux & {"will", "'ll", "gonna"}) or any(
        c.lower_ in {"today", "yesterday"} for c in predicate.subtree if c.head in {predicate, *children}
    )
    if not past or predicate.sent.text.rstrip().endswith("?"):
        return None
    spans = [c for c in children if c.dep_ in {"dobj", "attr", *SUBJECTS} and _a_last_span(c)]
    if not spans or not _speakers_span(spans[0], children):
        return None
    # "at Tesco" on the span, or on the verb ("I worked my last shift at Tesco on Friday")
    places = [
        g
        for h in (spans[0], predicate)
        for c in h.children
        if c.dep_ == "prep" and c.lower_ == "at"
        for g in c.children
    ]
    employers = [p.text for p in places if p.dep_ == "pobj" and _a_name(p)]
    if not employers:
        return None
    said = "".join(t.text_with_ws for t in predicate.sent if not t.is_punct).strip()
    said = said[:1].lower() + said[1:] if said.split()[0] not in {"I", "My"} else said
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    statement = f"{speaker} has left {employers[0]}"
    atom = build_atom("statement", "ended", said, statement, ctx, [], False, "explicit")
    return atom.model_copy(update={"ends": _JOB_KEYS, "ends_words": employers[:1], "temporal": "past"})


def _a_last_span(noun: Any) -> bool:
    """ "my last day", "our final shift": a span of work, the last one."""
    return noun.lemma_.casefold() in _WORK_SPANS and any(
        c.dep_ == "amod" and c.lower_ in {"last", "final"} for c in noun.children
    )


def _speakers_span(span: Any, children: list[Any]) -> bool:
    """The speaker's: "my last day" or an "I" subject ("I worked my last shift")."""
    owners = [c.lower_ for c in span.children if c.dep_ == "poss"]
    if owners:
        return owners[0] in {"my", "our"}
    return any(c.dep_ in SUBJECTS and c.lower_ in {"i", "we"} for c in children)
