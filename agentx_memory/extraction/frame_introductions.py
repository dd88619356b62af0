"""A sentence that does nothing but name the speaker: "I'm Dana.", "Dana here.", "Call me Bea.", "Name's
Theo, by the way", "Oh and I'm Kemi, forgot to say"; adjectives, states and whom the speaker addresses
("I'm tired", "I'm sorry, Dave") are no names. Pure functions over a spaCy parse."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from .clause_atoms import UNKNOWN_SPEAKER
from .frame_values import set_off
from .given_names import known_first_name
from .introductions import NOT_NAMES, introduces, name_given
from .parse_paths import mine, name_of

__all__ = ["introduction", "name_change"]

#: Words that make a name given by a speaker known by another a change: "I go by Maggie these days".
_NOW: Final = frozenset(["now", "these", "days", "nowadays", "instead", "from", "on", "please", "actually"])


def introduction(sentence: Any, speaker: str) -> str | None:
    """ "I'm Dana.", "Dana here.", "Call me Bea.", "Everyone calls me Jo.": the name, else None. A
    sentence of one clause that does nothing but name; adjectives and states are no names."""
    for token in sentence:  # "Oh, and my name is Tobias, by the way": a clause in a longer sentence
        if token.lower_ == "name" and token.dep_ == "nsubj" and token.head.lemma_ == "be" and mine(token):
            given = [c for c in token.head.children if c.dep_ == "attr" and c.pos_ == "PROPN"]
            if given and given[0].text not in NOT_NAMES and introduces(name_of(given[0]), speaker):
                return name_of(given[0])
    if (spoken := name_given(sentence)) is not None and introduces(spoken, speaker, surely=True):
        return spoken
    if (renamed := _name_now(sentence)) is not None and introduces(renamed, speaker, surely=True):
        return renamed
    for words in _pieces(sentence):
        if (name := _introduced(words, speaker)) is not None:
            return name
    return None


def name_change(sentence: Any, speaker: str) -> str | None:
    """The new name of a speaker known by another, given as a change: "I go by Maggie these days", "call
    me Mags from now on", "I've changed my name to Maggie"; None for the name they are known by, a name
    said without a word of change ("Max, my grandson, …"), or a question."""
    if speaker == UNKNOWN_SPEAKER or sentence.text.rstrip().endswith("?"):
        return None
    words = {t.lower_ for t in sentence}
    changed = any(t.lemma_ == "change" for t in sentence) and any(
        t.lemma_ == "name" and mine(t) for t in sentence
    )
    if changed:  # "I've changed my name to Maggie"
        given = [g for t in sentence if t.lower_ == "to" for g in t.children if g.pos_ == "PROPN"]
        return name_of(given[0]) if given and _a_name(given[0].text) else None
    # a name given to the speaker ("call me", "go by", "my name"), not "I call Austin home these days"
    if not words & _NOW or not words & {"me", "by", "name"} or "home" in words:
        return None
    for piece in _pieces(sentence):
        name = _introduced([t for t in piece if t.lower_ not in _NOW], UNKNOWN_SPEAKER)
        if name is not None and name.split()[0] != speaker.split()[0]:
            return name
    return None


def _name_now(sentence: Any) -> str | None:
    """The new name a sentence about the speaker's name gives as what "it" is now: "I've changed my name
    by deed poll, it's Danielle now"."""
    if not any(t.lemma_ == "name" and mine(t) for t in sentence):
        return None
    for token in sentence:
        head = token.head
        said_now = any(c.lower_ == "now" for c in head.children)
        it = any(c.dep_ == "nsubj" and c.lower_ == "it" for c in head.children)
        if token.dep_ == "attr" and token.pos_ == "PROPN" and head.lemma_ == "be" and it and said_now:
            return name_of(token) if _a_name(token.text) else None
    return None


def _a_name(word: str) -> bool:
    """A word a person is called: not a listed non-name, an acronym ("TBD") or a handle ("FoodieJo")."""
    # "FoodieJo", "gamer99": run-together words or digits; "McKenzie", "DeShawn", "MacLeod" are names
    handle = bool(re.search(r"[a-z]{4,}[A-Z]|\d", word))
    return word not in NOT_NAMES and not (word.isupper() and len(word) > 1) and not handle


def _pieces(sentence: Any) -> Iterator[list[Any]]:
    """The sentence's words, then those of each piece a comma or dash sets apart, without the openers of
    chat ("oh and", "so", "also"): "Name's Theo, by the way", "Oh and I'm Kemi, forgot to say"."""
    yield [token for token in sentence if not token.is_punct and token.pos_ != "INTJ"]
    piece: list[Any] = []
    for token in [*sentence, None]:
        # "Quick update: I go by Dani now", "I'm called Bartholomew but please don't …"
        apart = token is not None and token.lower_ in {"but", "so"} and token.pos_ == "CCONJ"
        if token is None or apart or token.text in {",", ";", ":", "-", "–", "—", "..."}:
            while piece and (piece[0].pos_ in {"CCONJ", "INTJ"} or piece[0].lower_ in {"so", "also", "the"}):
                piece.pop(0)
            if piece:
                yield [t for t in piece if not t.is_punct]
            piece = []
        else:
            piece.append(token)


def _introduced(words: list[Any], speaker: str) -> str | None:
    names = [
        token
        for token in words
        # a first name the tagger took for an adjective ("Hi, I'm Harriet. Can you …": Harriet, ADJ)
        if (token.pos_ == "PROPN" or (token.pos_ in {"ADJ", "NOUN"} and known_first_name(token.text)))
        and token.text[:1].isupper()
        and token.lower_ != "name"
        and not (token.i > 0 and token.doc[token.i - 1].lower_ == "not")  # "call me Margaret, not Maggie"
    ]
    if not names or len(words) > 5:
        return None
    lemmas = [token.lemma_.casefold() for token in words]
    # the model takes many a name for a place or a firm; "Name: Lakshmi" says what it is
    if lemmas[0] != "name" and any(token.ent_type_ in {"NORP", "GPE", "ORG"} for token in names):
        return None
    name = " ".join(token.text for token in names)
    first = names[-1] if names[0].dep_ == "compound" else names[0]  # "I'm Siobhan Adeyemi": the name's head
    said = (
        # "I'm Dana", "I am Dana Reyes"
        (
            first.dep_ in {"attr", "acomp", "npadvmod"}
            and first.head.lemma_ == "be"
            and lemmas[0] == "i"
            and not set_off(first.head, first)  # "I'm sorry, Dave": whom the speaker speaks to
        )
        # "Dana here", "Name's Olly"
        or (len(words) == len(names) + 1 and lemmas[-1] == "here")
        or (lemmas[0] == "name" and len(words) <= 3)
        # "call me Bea", "everyone calls me Jo", "people call me Jo", "I go by Jo"
        or ("call" in lemmas and "i" in lemmas and first.dep_ in {"oprd", "dobj", "npadvmod", "attr"})
        or (lemmas[:3] == ["i", "go", "by"])
        # "most people know me as Bex"
        or ("know" in lemmas and "as" in lemmas and "i" in lemmas and first.dep_ == "pobj")
    )
    if not said or not _a_name(first.text) or not introduces(name, speaker):
        return None
    # "Hi, I'm Marco": words before the clause are greetings only ("hi", "hey", "hello", "oh").
    return name
