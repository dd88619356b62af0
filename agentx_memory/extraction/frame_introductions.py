"""A sentence that does nothing but name the speaker: "I'm Dana.", "Dana here.", "Call me Bea.", "Name's
Theo, by the way", "Oh and I'm Kemi, forgot to say"; adjectives, states and whom the speaker addresses
("I'm tired", "I'm sorry, Dave") are no names. Pure functions over a spaCy parse."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .frame_values import set_off
from .given_names import known_first_name
from .introductions import NOT_NAMES, introduces, name_given
from .parse_paths import mine, name_of

__all__ = ["introduction"]


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
    for words in _pieces(sentence):
        if (name := _introduced(words, speaker)) is not None:
            return name
    return None


def _pieces(sentence: Any) -> Iterator[list[Any]]:
    """The sentence's words, then those of each piece a comma or dash sets apart, without the openers of
    chat ("oh and", "so", "also"): "Name's Theo, by the way", "Oh and I'm Kemi, forgot to say"."""
    yield [token for token in sentence if not token.is_punct and token.pos_ != "INTJ"]
    piece: list[Any] = []
    for token in [*sentence, None]:
        if token is None or token.text in {",", ";", "-", "–", "—", "..."}:
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
    ]
    if not names or len(words) > 5 or any(token.ent_type_ in {"NORP", "GPE", "ORG"} for token in names):
        return None
    name = " ".join(token.text for token in names)
    first = names[0]
    lemmas = [token.lemma_.casefold() for token in words]
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
    if not said or first.text in NOT_NAMES or not introduces(name, speaker):
        return None
    # "Hi, I'm Marco": words before the clause are greetings only ("hi", "hey", "hello", "oh").
    return name
