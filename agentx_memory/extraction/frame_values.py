"""The parse reader's values: which token fills a frame's slot and how it reads (whether it fits:
:mod:`.frame_fits`).

Pure helpers of :mod:`.frames` over spaCy tokens (typed ``Any``: spaCy is an optional dependency).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from .frame_fits import (
    OBJECTS,
    PREDICATIVE,
    STOPPING,
    SUBJECTS,
    done_for_a_living,
    fits_slot,
    given_up,
    hyphenated,
    is_time,
)
from .given_names import known_first_name
from .lexicon import DIETS, DWELLINGS, FRAMES, FREE_OF, UNITS, VEHICLE_NOUNS, Frame
from .stored import value_tokens

__all__ = ["frames_of", "person_named", "phrase", "set_off", "value_words"]


_CUT: Final = frozenset(["relcl", "advcl", "punct", "cc", "conj", "appos", "parataxis"])


#: Verbs of eating or drinking a food.
_CONSUMING: Final = frozenset(["eat", "consume", "have", "drink", "buy"])


def _where_it_is(predicate: Any) -> Any | None:
    """ "Etsy is where I work these days", "Leeds is where I live now": the name the clause is said of."""
    if predicate.dep_ not in {"advcl", "ccomp", "relcl"} or predicate.head.lemma_ != "be":
        return None
    if not any(c.lower_ == "where" and c.i < predicate.i for c in predicate.children):
        return None
    named = [
        c for c in predicate.head.children if c.dep_ == "nsubj" and c.pos_ == "PROPN" and c.i < predicate.i
    ]
    return named[0] if named else None


def frames_of(predicate: Any) -> Iterator[tuple[Frame, Any, bool]]:
    """The lexicon frames the predicate has, with the token heading the value and whether it fits the
    slot (a frame whose value does not fit is judged too: "started at Leeds uni" is no employer)."""
    lemma = predicate.lemma_.casefold()
    children = list(predicate.children)
    objects = [c for c in children if c.dep_ in OBJECTS]
    preps = [c for c in children if c.dep_ in {"prep", "agent", "prt"}]
    for frame in FRAMES:
        if frame.lemma != lemma:
            continue
        if frame.particle is not None and not any(
            c.dep_ == "prt" and c.lower_ == frame.particle for c in children
        ):
            continue
        if frame.slot == "hobby" and frame.particle is None and any(c.dep_ == "prt" for c in children):
            continue  # "taking in kids in need": a verb with its particle is another verb
        if frame.slot in {"hobby", "vehicle"} and done_for_a_living(predicate):
            continue  # "driving lorries for a living": work (frame_work), no car nor pastime
        if frame.via == "xcomp":  # "started bouldering", "started learning the piano"
            for activity in (c for c in children if c.dep_ == "xcomp" and c.tag_ == "VBG"):
                if not done_for_a_living(activity):
                    yield frame, activity, fits_slot(frame.slot, activity, predicate)
        elif frame.via == "dobj":
            # the tagger takes a food for a verb: "I've given up gluten" (advcl)
            foods = [
                c for c in children if c.dep_ in {"advcl", "xcomp", "ccomp", "dep"} and c.lower_ in FREE_OF
            ]
            # and a gerund for a verb's complement: "took up running" (xcomp), tagged a noun or not
            # ("Picked up knitting": NN)
            doings = [
                c
                for c in children
                if c.dep_ == "xcomp" and (c.tag_ == "VBG" or c.lower_.endswith("ing")) and not objects
            ]
            # "stopped eating meat", "quit having dairy": the food the doing that ended was of
            foods += [
                g
                for c in children
                if c.dep_ == "xcomp" and c.lemma_.casefold() in _CONSUMING and lemma in STOPPING
                for g in c.children
                if g.dep_ == "dobj" and given_up(g) is not None
            ]
            extra = foods if frame.slot == "diet" else doings if frame.slot == "hobby" else []
            for obj in [*objects, *extra]:
                if frame.slot == "employer" and obj.lemma_.casefold() in UNITS:
                    obj = _unit_of(obj, predicate)  # "joined the data team at Spotify"
                if frame.slot == "residence":
                    # "I call Leeds home"; "bought a place in Margate", "got a room in Bishan"
                    place = _dwelling_place(obj, predicate)
                    if place is obj and not any(
                        c.dep_ in {"oprd", "advmod"} and c.lower_ == "home" for c in children
                    ):  # "I call Austin home these days" ("home" an adverb to the parse)
                        continue
                    obj = place
                obj = person_named(obj) if frame.slot == "partner" else obj
                if frame.slot == "hobby" and obj.lemma_.casefold() in _AMOUNTS:
                    # "doing a bit of sea swimming": the pastime is what there is a bit of
                    obj = next((g for c in obj.children if c.lower_ == "of" for g in c.children), obj)
                if frame.slot == "vehicle" and obj.lemma_.casefold() in VEHICLE_NOUNS:
                    # "got a new car, a Skoda Octavia estate": the apposition names it
                    obj = next((c for c in obj.children if c.dep_ == "appos"), obj)
                yield frame, obj, fits_slot(frame.slot, obj, predicate)
        elif frame.via == "attr":
            if frame.slot == "residence" and any(
                c.dep_ in {"attr", "advmod"} and c.lower_ == "home" for c in children
            ):  # "Swansea is home now", "Dublin has been home since I was born": the place is the subject
                for place in (c for c in children if c.dep_ in SUBJECTS and c.pos_ == "PROPN"):
                    yield frame, place, True
                continue
            for attr in (c for c in children if c.dep_ in PREDICATIVE):
                # "I'm a nurse now, not a barista anymore": a value denied of itself is not what one is
                fits = fits_slot(frame.slot, attr, predicate) and not any(
                    c.dep_ == "neg" and c.i < attr.i for c in attr.children
                )
                yield frame, attr, fits
                if fits and frame.slot == "occupation":  # "a sous chef at Osteria Rossa"
                    yield from _workplace(attr)
            if frame.slot == "diet":  # the tagger takes a rare diet word for a verb: "gone veggie" (advcl)
                for word in (
                    c
                    for c in children
                    if c.dep_ not in PREDICATIVE and (c.lower_ in DIETS or hyphenated(c).casefold() in DIETS)
                ):  # "went plant-based" ("plant - based", an adverbial clause)
                    yield frame, word, True
        else:
            if frame.through and not any(o.lemma_.casefold() in frame.through for o in objects):
                continue
            if lemma in {"move", "relocate"} and objects and not any(o.lower_ == "me" for o in objects):
                continue  # "moved the meeting to Friday": something else moved; "relocated me to …" not
            # the preposition may hang on an object or an adverb: "moved back to Cork"
            held = [*objects, *(c for c in children if c.dep_ == "advmod")]
            if frame.slot == "residence":  # "living with my parents in Omaha": the place hangs on whom
                held += [g for c in preps if c.lower_ == "with" for g in c.children if g.dep_ == "pobj"]
            holders = [*preps, *(p for o in held for p in o.children if p.dep_ == "prep")]
            if frame.slot in {"employer", "residence"} and (said := _where_it_is(predicate)) is not None:
                yield frame, said, fits_slot(frame.slot, said, predicate)  # "Etsy is where I work now"
            for prep in holders:
                if prep.lower_ not in frame.preps:
                    continue
                if frame.particle == "in" and prep.head.dep_ != "pobj":
                    continue  # "moved in with Jo in Bath"; not "moved in May", "moved in together"
                inner = [
                    g for c in prep.children if c.dep_ == "prep" and c.lower_ == "of" for g in c.children
                ]
                # a pastime the small model tags as a verb is its object all the same ("into bouldering")
                said = [c for c in [*prep.children, *inner] if c.dep_ == "pobj"] or [
                    c
                    for c in prep.children
                    if c.dep_ == "pcomp" and frame.slot == "hobby" and not list(c.children)
                ]
                for value in said:
                    if frame.slot == "residence":
                        value = _named_place(_dwelling_place(value, predicate))
                    if frame.slot == "partner":  # "engaged to a guy called Théo"
                        value = person_named(value)
                    fits = fits_slot(frame.slot, value, predicate)
                    yield frame, value, fits
                    if fits and frame.slot == "occupation":  # "I work as a backend dev at a bank"
                        yield from _workplace(value)
            if frame.through and frame.slot == "employer":  # "accepted Stripe's offer": whose the job is
                for job in (o for o in objects if o.lemma_.casefold() in frame.through):
                    for owner in (c for c in job.children if c.dep_ == "poss" and c.pos_ == "PROPN"):
                        # not "accepted Tom's offer to help" (the model calls many a firm a person)
                        if not known_first_name(owner.text):
                            yield frame, owner, fits_slot(frame.slot, owner, predicate)


#: Where a predicate noun works: "a nurse at St Mary's".
_AT_WORK: Final = Frame("work", "prep", "employer", preps=("at", "with"))


def _unit_of(unit: Any, predicate: Any) -> Any:
    """The named employer a team belongs to ("the data team at Spotify"), else the team itself."""
    held = [*unit.children, *predicate.children]
    for prep in (c for c in held if c.dep_ == "prep" and c.lower_ in {"at", "of", "in"}):
        for name in (
            c for c in prep.children if c.dep_ == "pobj" and (c.pos_ == "PROPN" or c.ent_type_ == "ORG")
        ):
            return name
    return unit


def _workplace(job: Any) -> Iterator[tuple[Frame, Any, bool]]:
    """Where a job is done: "a nurse at St Mary's", "a backend dev at a bank"."""
    for prep in (c for c in job.children if c.dep_ == "prep" and c.lower_ in _AT_WORK.preps):
        for place in (c for c in prep.children if c.dep_ == "pobj"):
            yield _AT_WORK, place, fits_slot("employer", place, job)


def _named_place(value: Any) -> Any:
    """ "my hometown, Cork" → "Cork"; "Pune, Kothrud side" → "Pune" (the town the parse hung on a
    part of it)."""
    if value.lemma_.casefold() in {"side", "area", "end"}:
        town = next((c for c in value.children if c.dep_ == "nmod" and c.ent_type_ == "GPE"), None)
        if town is not None:
            return town
    return next((c for c in value.children if c.dep_ == "appos" and c.pos_ == "PROPN"), value)


def _dwelling_place(value: Any, predicate: Any) -> Any:
    """ "a house in Pflugerville" → "Pflugerville": the place of a dwelling (the parse may hang the
    place on the verb: "moved into a flat in Leith"), else the value itself."""
    if value.lemma_.casefold() not in DWELLINGS:
        return value
    held = [*value.children, *predicate.children]
    for prep in (c for c in held if c.dep_ == "prep" and c.lower_ in {"in", "near"}):
        for place in (c for c in prep.children if c.dep_ == "pobj" and c.pos_ == "PROPN"):
            return place
    return value


def phrase(value: Any, places: bool = True) -> str:
    """The value's words: its subtree without clauses, coordination, punctuation or time phrases (nor,
    without ``places``, where it is: "a nurse at St Mary's" is a nurse)."""
    dropped: set[int] = set()
    for child in value.children:
        where = (
            not places and child.dep_ == "prep" and child.lower_ in {"at", "for", "with", "in", "on", "by"}
        )
        # a clause on the value ("based in Berlin", "covering tech") is not it; its name is ("called Lumo")
        described = child.dep_ == "acl" and child.lemma_ not in {"call", "name"}
        timed = child.dep_ == "prep" and is_time(child)
        if _joining(child):
            continue  # "Rolls-Royce": the hyphen inside a name is part of it
        if value.tag_ == "VBG" and (child.dep_ == "aux" or (child.dep_ == "nsubj" and child.pos_ == "PRON")):
            dropped.update(t.i for t in child.subtree)  # "I'm mostly climbing": the doing is "climbing"
            continue
        if child.dep_ in _CUT or where or described or timed or set_off(value, child):
            dropped.update(t.i for t in child.subtree)
    words = [t for t in value.subtree if (t.i not in dropped and t.ent_type_ != "DATE") or t.i == value.i]
    while words and (words[0].is_punct or words[0].dep_ in {"cc", "advmod"}):
        words.pop(0)
    while words and (words[-1].is_punct or words[-1].dep_ in {"cc", "advmod"}):
        words.pop()
    words += _title_after(value, words)
    text = ""
    for before, word in zip([None, *words], words, strict=False):
        gap = before is not None and word.i != before.i + 1 and not text.endswith(" ")
        text += (" " if gap else "") + word.text_with_ws
    return " ".join(text.split())


def _title_after(value: Any, words: list[Any]) -> list[Any]:
    """Capitalised words right after a name that the parse hung elsewhere: "Love Actually" ("Actually" an
    adverb of the clause), "Pulp Fiction"."""
    if value.pos_ != "PROPN" or not words:
        return []
    after: list[Any] = []
    doc, last = value.doc, words[-1]
    while last.i + 1 < len(doc) and last.whitespace_:
        word = doc[last.i + 1]
        if not (word.is_alpha and word.text[:1].isupper() and word.pos_ != "PRON" and not word.is_sent_start):
            break
        if word.head.i == value.i or word in words:
            break  # already the value's own
        after.append(word)
        last = word
    return after


def _joining(token: Any) -> bool:
    """A hyphen written without spaces between two words ("Rolls-Royce")."""
    doc = token.doc
    return (
        token.text in {"-", "–"}
        and not token.whitespace_
        and token.i > 0
        and not doc[token.i - 1].whitespace_
        and token.i + 1 < len(doc)
    )


def set_off(head: Any, child: Any) -> bool:
    """Whether punctuation stands between a word and its dependent: "Nadia, freelance journalist",
    "an electrician, self-employed" (an aside, not the value)."""
    lo, hi = (child.i + 1, head.i) if child.i < head.i else (head.i + 1, child.i)
    return any(t.is_punct and t.text not in {"-", "'", "’"} for t in head.doc[lo:hi])


#: Amounts of a doing: "a bit of sea swimming", "a lot of climbing".
_AMOUNTS: Final = frozenset(["bit", "lot", "load", "spot"])


def value_words(value: Any) -> frozenset[str]:
    """The words of a value as dedup compares them (stemmed, no function words)."""
    return value_tokens(" ".join(t.text for t in value.subtree))


def person_named(value: Any) -> Any:
    """ "this woman, Julia", "a guy called Ben": the name of the person a noun introduces, else the
    value itself."""
    if value.pos_ == "PROPN":
        return value
    for child in value.children:
        if child.dep_ == "appos" and child.pos_ == "PROPN":
            return child
        if child.dep_ == "acl" and child.lemma_ in {"call", "name"}:
            return next((t for t in child.subtree if t.pos_ == "PROPN"), value)
    # "seeing someone new, Ana, she's lovely", "seeing someone now, Karan": the name set after the noun
    # (and the verb's adverb), hung on the verb
    doc = value.doc
    after = value.right_edge.i + 1
    while after < len(doc) and doc[after].dep_ == "advmod" and doc[after].head.i == value.head.i:
        after += 1
    if after + 1 < len(doc) and doc[after].text == "," and doc[after + 1].pos_ == "PROPN":
        name = doc[after + 1]
        if name.head.i == value.head.i and name.dep_ in {"npadvmod", "appos", "dobj", "attr"}:
            return name
    return value
