"""The speaker's thing named by a copula: "My car is a Clio", "Kiln is my new favourite restaurant", "my
girlfriend now is Elena". Pure functions over a spaCy parse."""

from __future__ import annotations

from typing import Any, Final

from .antecedents import copula_subject, words_before_clause
from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_fits import SUBJECTS, a_post, person_like
from .frame_values import phrase
from .given_names import known_first_name
from .lexicon import PARTNER_NOUNS, PET_NOUNS, RELATION_NOUNS, ROLES, VEHICLE_NOUNS, Frame
from .slot_atoms import slot_atom

__all__ = ["FAVOURITE_WORDS", "NO_THING", "thing_atom"]

#: A favourite that names no kind: "Iron Man is my top pick", "my number one choice".
_KINDLESS: Final = frozenset(["pick", "choice", "option", "one"])
#: The speaker's post, said as a thing: "my job title is now Senior Data Engineer", "my role is …".
_POSTS: Final = frozenset(["title", "role", "position", "job", "profession", "occupation", "post"])
_POST: Final = Frame("be", "attr", "occupation")


#: Heads that name no kind of thing: "my favourite one is …", "my favourite part".
NO_THING: Final = frozenset(["one", "part", "thing", "bit", "kind", "sort", "type", "moment", "way"])


def _someone_named(value: Any) -> bool:
    """A person, as a relation's value: "Elena" (whatever entity the model made of her), "he"; not "a Kia
    EV6", "a nurse"."""
    if value.lower_ in {"he", "she"}:
        return True
    if any(c.lower_ in {"a", "an"} for c in value.children):
        return False  # "a Kia EV6": one of many, no one
    if person_like(value):
        return True
    return bool(value.pos_ == "PROPN" and (known_first_name(value.text) or value.ent_type_ in {"", "PERSON"}))


#: Words that make a thing the one before: "my old car", "my previous job", "my ex-favourite".
_BEFORE_NOW: Final = frozenset(["old", "previous", "former", "last", "first", "ex"])


def thing_atom(
    predicate: Any, speaker: str, turn: TurnText, last_person: str | None = None
) -> FactAtom | None:
    """ "My car is a Clio", "my daily driver is a Yaris now", "my girlfriend now is Elena",
    "Kiln is my new favourite restaurant", "my favourite film is Heat": the speaker's thing and its
    value, from a copula whose one side is the speaker's thing."""
    if predicate.lemma_ not in {"be", "become"} or any(
        c.dep_ == "neg" or c.tag_ == "MD" for c in predicate.children
    ):
        return None
    if predicate.lemma_ == "be" and predicate.tag_ == "VBD":
        return None  # "My old car was a Fiesta", "my favourite film was Heat": no longer so
    # the subject nearest the verb: "Forget Friends, The Office is my comfort show now" parses with two
    subjects = [c for c in predicate.children if c.dep_ in SUBJECTS]
    if not subjects and predicate.dep_ == "xcomp" and predicate.head.lemma_ in {"have", "get"}:
        subjects = [c for c in predicate.head.children if c.dep_ in SUBJECTS]  # "… has to be Severance"
    # not a time the parse took for one ("My ride these days is a Kia Niro")
    before = [c for c in subjects if c.i < predicate.i and c.ent_type_ != "DATE"]
    subject = copula_subject(predicate, before[-1] if before else next(iter(subjects), None))
    attr = next((c for c in predicate.children if c.dep_ in {"attr", "acomp"}), None)
    if attr is None:
        return None
    said_it = any(c.lower_ == "it" for c in subjects)
    if said_it and attr.pos_ in {"NOUN", "PROPN"} and (kind := _favourite_before(predicate)):
        # "Pizza used to be my favourite but these days it's tacos": "it" is the favourite now
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        said = phrase(attr)
        key = "favourite" if kind == "favourite" else f"favourite_{kind}"
        statement = f"{speaker}'s favourite {'' if kind == 'favourite' else kind + ' '}is {said}"
        return build_atom("preference", key, said, statement.replace("  ", " "), ctx, [], False, "explicit")
    if subject is None:
        return None
    if (theirs := _someone_elses(subject, attr, turn)) is not None:
        return theirs  # "My wife Jo's new car is a Kia EV6": Jo drives a Kia EV6
    for thing, value in ((subject, attr), (attr, subject)):
        ranked = [g for rank in _ranks(thing) for g in rank.children]  # "my number one band"
        if not any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in [*thing.children, *ranked]):
            continue
        head = thing.lemma_.casefold()
        if head in RELATION_NOUNS and not _someone_named(value):
            return None  # "My wife Jo's new car is a Kia EV6": the car is the wife's, no wife is a car
        if any(c.dep_ == "amod" and c.lower_ in _BEFORE_NOW for c in thing.children):
            return None  # "the old car is in the garage again": the one before, not the one now
        being = [c for c in value.children if c.dep_ == "attr"] if value.lemma_ == "be" else []
        if head in _POSTS and being:  # "day job these days is being a paralegal"
            value = being[0]
        # "my drink of choice", "ramen is my thing now", "my jam"
        of_choice = any(
            c.dep_ == "prep" and c.lower_ == "of" and any(g.lower_ == "choice" for g in c.children)
            for c in thing.children
        )
        mine_alone = head in {"thing", "jam"} and all(
            c.dep_ in {"poss", "det"} or c.lower_ == "new" for c in thing.children
        )
        favourite = (
            any(c.lower_ in FAVOURITE_WORDS for c in thing.children) or bool(_ranks(thing)) or of_choice
        )
        if mine_alone and value.pos_ in {"NOUN", "PROPN"}:
            head, favourite = "favourite", True
        person = value.lower_ in {"he", "she"} and last_person is not None  # "he's my husband now"
        gerund = value.tag_ == "VBG" and head in {"hobby", "pastime", "passion", "obsession"}
        if (
            value.pos_ not in {"NOUN", "PROPN", "ADJ"} and not person and not gerund
        ) or value.lemma_.casefold() in {
            "favourite",
            "favorite",
        }:
            return None  # "my favourite part is seeing …": a clause, no thing
        relative = value.i == predicate.head.i and predicate.dep_ == "relcl"  # "X, which is my favourite"
        words = [t for t in value.subtree if not relative or t.i < predicate.i]
        if (head in NO_THING and not mine_alone) or any(
            t.lower_ in {"i", "my", "me", "we", "our"} for t in words
        ):
            return None
        said = _titled(value) or phrase(value)
        said = last_person if value.lower_ in {"he", "she"} and last_person else said
        said = words_before_clause(value, predicate) if relative else said
        ctx = Context(turn=turn, subject=speaker, correction=False, is_speaker=True)
        if favourite and head not in {"favourite", "favorite", *_KINDLESS}:
            key, statement = f"favourite_{head}", f"{speaker}'s favourite {head} is {said}"
            return build_atom("preference", key, said, statement, ctx, [], False, "explicit")
        if head in {"favourite", "favorite", *_KINDLESS}:  # "Wingspan is my favourite now", "my top pick"
            statement = f"{speaker}'s favourite is {said}"
            return build_atom("preference", "favourite", said, statement, ctx, [], False, "explicit")
        if head in {"hobby", "pastime", "passion", "obsession"}:  # "my new hobby is knitting"
            if value.pos_ == "ADJ":
                return None  # "(my passion …) It's been bumpy": how it goes, not what it is
            return build_atom(
                "preference", "hobby", said, f"{speaker}'s {head} is {said}", ctx, [], False, "explicit"
            )
        daily = head in {"daily", "ride"} or (
            head == "driver" and "daily" in {c.lower_ for c in thing.children}
        )
        if head in VEHICLE_NOUNS or daily:  # "my car is a Clio", "my daily (driver) is the Triumph now"
            return build_atom(
                "identity", "drives", said, f"{speaker} drives {said}", ctx, [], False, "explicit"
            )
        named = value.pos_ == "PROPN" or person
        if head in PARTNER_NOUNS and named:
            statement = f"{speaker}'s {head} is {said}"
            atom = build_atom("relationship", head, said, statement, ctx, [said], False, "explicit")
            return atom
        changed = any(c.lower_ == "new" for c in thing.children) or any(
            c.lower_ == "now" for c in predicate.children
        )
        if head in _POSTS and a_post(value):  # "my job title is now Senior Data Engineer"
            return slot_atom(_POST, value, speaker, turn, changed, speaker, False)
        if head in ROLES and named:  # "my editor is Clara"; "my new roommate is Inès" replaces the last
            statement = f"{speaker}'s {head} is {said}"
            atom = build_atom("relationship", head, said, statement, ctx, [said], False, "explicit")
            return atom.model_copy(update={"ends": [head], "correction": True}) if changed else atom
        if head in PET_NOUNS and value.pos_ == "PROPN":  # "our rabbit is called Snowball" reads elsewhere
            return build_atom(
                "relationship", head, said, f"{speaker}'s {head} is {said}", ctx, [], False, "explicit"
            )
    return None


def _favourite_before(predicate: Any) -> str | None:
    """The kind of the speaker's favourite a clause before said "used to be" ("Pizza used to be my
    favourite", "my favourite colour used to be blue"): "favourite" when it names no kind; None if none."""
    for token in predicate.sent:
        if token.i >= predicate.i or token.lower_ not in FAVOURITE_WORDS:
            continue
        used = any(t.lemma_ == "use" and t.i < predicate.i for t in predicate.sent)
        kind = token.head if token.dep_ == "amod" and token.head.pos_ == "NOUN" else None
        mine = any(c.lower_ == "my" for c in [*token.children, *(kind.children if kind is not None else ())])
        if used and mine:
            return str(kind.lemma_.casefold()) if kind is not None else "favourite"
    return None


def _titled(value: Any) -> str | None:
    """A title joined by "and" ("Pride and Prejudice", "Tom and Jerry"), read whole, not its first name."""
    joined = [c for c in value.children if c.dep_ == "conj" and c.pos_ == "PROPN" and c.text[:1].isupper()]
    if value.pos_ not in {"PROPN", "NOUN"} or not value.text[:1].isupper() or not joined:
        return None
    return str(value.doc[value.left_edge.i : joined[0].right_edge.i + 1].text)


#: Words that make a thing the speaker's favourite: "my favourite film", "my fave snack".
FAVOURITE_WORDS: Final = frozenset(["favourite", "favorite", "fave", "fav"])


def _ranks(thing: Any) -> list[Any]:
    """The words that rank a thing first: "my number one band", "my go-to lunch" (the parser may hang
    the possessive on them)."""
    return [
        c
        for c in thing.children
        if c.dep_ in {"nmod", "compound", "amod"}
        and (
            (c.lower_ == "number" and any(t.lower_ == "one" for t in [*c.children, *thing.children]))
            or (c.lower_ == "go" and any(t.lower_ == "to" for t in c.children))
            or c.lower_ in {"go-to", "top", "comfort"}  # "Piranesi is my top book now", "my comfort show"
        )
    ]


def _someone_elses(thing: Any, value: Any, turn: TurnText) -> FactAtom | None:
    """A named person's car or job said by its noun: "My wife Jo's new car is a Kia EV6" (Jo drives it),
    "Jo's new job is at Deloitte" (Jo works there); filed under them, not the speaker."""
    # "My wife Jo's new car": the small model makes "wife" the subject and the car its apposition
    thing = next((c for c in thing.children if c.dep_ == "appos"), thing)
    owner = next((c for c in thing.children if c.dep_ == "poss" and c.pos_ == "PROPN"), None)
    if owner is None or not (owner.ent_type_ == "PERSON" or known_first_name(owner.text)):
        return None
    if any(c.dep_ == "amod" and c.lower_ in _BEFORE_NOW for c in thing.children):
        return None  # "Jo's old car was …"
    ctx = Context(turn=turn, subject=owner.text, correction=False, is_speaker=False)
    head = thing.lemma_.casefold()
    named = value.pos_ == "PROPN" or (value.pos_ == "NOUN" and value.text[:1].isupper())
    if head in VEHICLE_NOUNS and named:  # a make or model ("a Golf"): not "Tom's car is a mess"
        said = phrase(value)
        told = f"{owner.text} drives {said}"
        return build_atom("identity", "drives", said, told, ctx, [], False, "explicit")
    if head in {"job", "role", "position"}:  # "Jo's new job is at Deloitte"
        holders = [value, value.head] if value.dep_ in {"attr", "acomp", "pobj"} else [value]
        at = [
            g
            for h in holders
            for c in (h, *h.children)
            if c.dep_ == "prep" and c.lower_ in {"at", "with"}
            for g in c.children
            if g.pos_ == "PROPN"
        ]
        if at:
            said = phrase(at[0])
            told = f"{owner.text} works at {said}"
            return build_atom("identity", "works_at", said, told, ctx, [], False, "explicit")
    return None
