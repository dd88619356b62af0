"""A new favourite told against the old one, in words that name no category: "Fontaines D.C. are my new
obsession", "can't get enough of Middlemarch — it's knocked Pride and Prejudice off the top spot", "The
Godfather's got nothing on Parasite", "forest green is top of my list now, cobalt is out".

The turn tells *that* something is now preferred, not *what kind* of favourite it is: the category is the
one of the stored favourite it is told against. So the reading is one "favourite" atom whose ending
names the favourite slots (:data:`FAVOURITES`) and the words of what it was told against; the write
matches them to the stored favourite, and :func:`in_category` files the new value under its key. Pure
functions over a spaCy parse."""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_values import SUBJECTS, phrase

__all__ = ["FAVOURITES", "PREFERRED", "favoured", "in_category"]

#: The key of a value preferred before its category is known, and the slots it can end (a prefix).
PREFERRED: Final = "favourite"
FAVOURITES: Final = "favourite_*"
#: Nouns that make the subject of a copula the speaker's favourite: "X is my new obsession".
_FAVOURITE_NOUNS: Final = frozenset(
    ["obsession", "favourite", "favorite", "fave", "fav", "go-to", "jam", "addiction", "top", "one"]
)
#: Adjectives of being taken with something: "obsessed with X", "hooked on X", "addicted to X".
_TAKEN: Final = {"obsess": "with", "hook": "on", "addict": "to", "obsessed": "with", "hooked": "on"}
#: Verbs whose subject displaced their object: "it's knocked Pride and Prejudice off the top spot".
_DISPLACING: Final = frozenset(["knock", "dethrone", "overtake", "topple", "oust", "usurp", "trump", "beat"])
#: Words that are no thing one can prefer.
_NOT_THINGS: Final = frozenset(
    ["it", "this", "that", "they", "them", "you", "i", "me", "something", "everything"]
)


def favoured(doc: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The thing a turn of the speaker's says is now preferred, told against what it displaced (or the
    other things the turn names, when it names none); none in a question, a denial or a wish."""
    preferred: list[Any] = []
    rivals: list[Any] = []
    for sentence in doc.sents:
        if sentence.text.rstrip().endswith("?"):
            continue
        for token in sentence:
            found = _preferred(token)
            if found is not None and _a_thing(found[0]):
                preferred.append(found[0])
                rivals += [r for r in found[1:] if _a_thing(r)]
            if token.lemma_.casefold() in _DISPLACING and token.pos_ == "VERB":
                rivals += [c for c in token.children if c.dep_ == "dobj" and _a_thing(c)]
    if not preferred:
        return []
    best = preferred[0]
    said = phrase(best) or best.text
    # what it displaced, or else every name and every subject the turn has besides ("cobalt is out")
    against = rivals or [
        t
        for t in doc
        if (t.pos_ == "PROPN" or (t.dep_ in SUBJECTS and _a_thing(t)))
        and t.i not in {x.i for x in best.subtree}
    ]
    words = sorted({t.text for r in against for t in _words(r)} - set(said.split()))
    if not words:
        return []
    statement = f"{speaker} prefers {said} now"
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    atom = build_atom("preference", PREFERRED, said, statement, ctx, [], False, "implied")
    return [atom.model_copy(update={"ends": [FAVOURITES], "ends_words": words, "temporal": "current"})]


def in_category(atom: FactAtom, key: str) -> FactAtom:
    """The preferred value filed under the favourite slot it displaced ("favourite_band")."""
    category = key.removeprefix("favourite_").replace("_", " ")
    statement = f"{atom.subject}'s favourite {category} is {atom.value}."
    return atom.model_copy(update={"key": key, "statement": statement, "ends": [], "ends_words": []})


def _preferred(token: Any) -> tuple[Any, ...] | None:
    """(the preferred thing, what it was told against…) when ``token`` heads a way of preferring."""
    lemma = token.lemma_.casefold()
    children = list(token.children)
    # "Fontaines D.C. are my new obsession", "forest green is top of my list now"
    if token.dep_ == "attr" and lemma in _FAVOURITE_NOUNS and _mine(token) and _holds(token.head):
        subjects = [c for c in token.head.children if c.dep_ in SUBJECTS]
        return (subjects[0],) if subjects else None
    # "can't get enough of Middlemarch"
    if lemma == "get" and any(c.dep_ == "neg" for c in children):
        enough = [c for c in children if c.lower_ == "enough"]
        held = [g for e in enough for p in e.children if p.lower_ == "of" for g in p.children]
        return (held[0],) if held and _speakers(token) else None
    # "I'm all about SZA now"; "obsessed with Wordle", "hooked on Taskmaster"
    if token.dep_ == "prep" and _holds(token.head) and _speakers(token.head):
        about = token.lower_ == "about" and any(c.lower_ == "all" for c in token.head.children)
        taken = _TAKEN.get(token.head.lemma_.casefold()) == token.lower_
        objects = [c for c in children if c.dep_ == "pobj"]
        return (objects[0],) if objects and (about or taken) else None
    # "The Godfather's got nothing on Parasite"
    if lemma in {"get", "have"} and any(c.dep_ == "dobj" and c.lower_ == "nothing" for c in children):
        on = [g for c in children if c.lower_ == "on" for g in c.children if g.dep_ == "pobj"]
        put_down = [c for c in children if c.dep_ in SUBJECTS]
        return (on[0], *put_down) if on else None
    return None


def _mine(noun: Any) -> bool:
    """ "my new obsession", "top of my list"."""
    owners = [c for c in noun.subtree if c.dep_ == "poss"]
    return bool(owners) and owners[0].lower_ in {"my", "our"}


def _holds(verb: Any) -> bool:
    """Not denied, wished or a modal's."""
    return not any(c.dep_ == "neg" or c.tag_ == "MD" for c in verb.children) or verb.lemma_ == "get"


def _speakers(verb: Any) -> bool:
    """The speaker's: an "I"/"we" subject, or none (chat's dropped "I")."""
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    return not subjects or subjects[0].lower_ in {"i", "we"}


def _a_thing(token: Any) -> bool:
    return token.lower_ not in _NOT_THINGS and token.pos_ in {"PROPN", "NOUN", "ADJ"}


def _words(token: Any) -> list[Any]:
    """The name a token heads: "Pride and Prejudice", "earl grey", "Arctic Monkeys"."""
    return [t for t in token.subtree if t.pos_ in {"PROPN", "NOUN", "ADJ"} and len(t.text) > 2]
