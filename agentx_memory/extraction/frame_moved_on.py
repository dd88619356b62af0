"""What the speaker has moved on from, said without a verb of ending: "no more freelancing", "not
Gippsland anymore", "a postie now, not a barista any more", "I'm off metformin now", "I don't do parkrun
anymore", "I no longer do pottery". Each ends the stored facts that name what was left. Pure functions
over a spaCy parse."""

from __future__ import annotations

import itertools
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_fits import SUBJECTS
from .lexicon import DIETS, OCCUPATIONS

__all__ = ["moved_on", "said_by_me"]


#: What follows "no more" / comes between "not" and "anymore" that names a thing.
_NAMING: Final = frozenset(["NOUN", "PROPN"])


def moved_on(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "no more freelancing", "not Gippsland anymore", "I'm off metformin now": a thing the speaker
    has moved on from, said without a verb of ending; it ends the stored facts that name it."""
    tokens = list(sentence)
    if any(t.lemma_ in _SAYING and not said_by_me(t) for t in tokens):
        return []  # "doc says no more running": someone else's word, not what the speaker gave up
    words: list[Any] = []
    for i, token in enumerate(tokens):
        before = tokens[i - 1].lower_ if i else ""
        if token.lower_ == "more" and before == "no":
            named = []
            for t in tokens[i + 1 :]:
                if t.pos_ not in _NAMING and t.tag_ != "VBG" and t.pos_ != "ADJ":
                    break
                named.append(t)
            # a doing, a name or a diet ("no more freelancing", "no more Netflix", "no more gluten-free for
            # me"); "no more excuses" ends nothing
            words += [
                t
                for t in named
                if t.pos_ == "PROPN" or t.tag_ == "VBG" or t.lower_.endswith("ing") or t.lower_ in DIETS
            ]
        if token.lower_ == "not" and (end := _anymore_after(tokens, i)) is not None:
            # a name, a job or a diet: "not Gippsland anymore", "a postie now, not a barista any more"
            words += [t for t in tokens[i + 1 : end] if t.pos_ == "PROPN" or _a_value_word(t)]
        # "I don't do parkrun anymore", "we don't go to Pilates any more", "I no longer do pottery": the
        # doing's thing
        doing = token.head.head if token.lower_ == "no" and token.head.lower_ == "longer" else token.head
        if token.dep_ == "neg" and doing.lemma_ in _DOINGS and _no_longer(doing) and _ours(doing):
            done = [c for c in doing.children if c.dep_ == "dobj"]
            done += [g for c in doing.children if c.lower_ == "to" for g in c.children if g.dep_ == "pobj"]
            # (the tagger takes some a verb: "parkrun")
            words += [t for t in done if t.pos_ not in {"PRON", "NUM", "DET"} and t.is_alpha]
        if (
            token.lower_ == "off"
            and token.dep_ == "prep"
            and token.head.lemma_ == "be"
            and _mine_now(token.head)
        ):
            words += [g for g in token.children if g.dep_ == "pobj" and g.pos_ in _NAMING and not g.ent_type_]
    if not words:
        return []
    said = " ".join(t.text for t in words)
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    atom = build_atom(
        "statement", "ended", said, f"{speaker} has moved on from {said}", ctx, [], False, "explicit"
    )
    return [atom.model_copy(update={"ends_words": [t.text for t in words], "temporal": "past"})]


#: Verbs that report another's words or wishes.
_SAYING: Final = frozenset(["say", "tell", "want", "recommend", "suggest", "insist", "order", "advise"])


def said_by_me(verb: Any) -> bool:
    return any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in verb.children)


#: Verbs of doing a thing one can stop doing: "I don't do parkrun anymore", "don't go to choir any more".
_DOINGS: Final = frozenset(["do", "go", "attend", "play"])


def _no_longer(verb: Any) -> bool:
    """ "… anymore", "… any more", "… no longer" said of ``verb``."""
    words = [t.lower_ for t in verb.subtree]
    pairs = set(itertools.pairwise(words))
    return "anymore" in words or ("any", "more") in pairs or ("no", "longer") in pairs


def _ours(verb: Any) -> bool:
    """The speaker's doing: an "I" or "we" subject."""
    return any(c.dep_ in SUBJECTS and c.lower_ in {"i", "we"} for c in verb.children)


def _a_value_word(token: Any) -> bool:
    """A job or a diet named: "barista", "vegan", "gluten-free"."""
    word = token.lower_
    return word in DIETS or word in OCCUPATIONS or word.removesuffix("s") in OCCUPATIONS


def _anymore_after(tokens: list[Any], i: int) -> int | None:
    """The index of "anymore" within four words after ``tokens[i]`` ("not Gippsland anymore")."""
    for j in range(i + 1, min(i + 6, len(tokens))):
        if tokens[j].lower_ in {"anymore", "any more"} or (
            tokens[j].lower_ == "any" and j + 1 < len(tokens) and tokens[j + 1].lower_ == "more"
        ):
            return j
        if tokens[j].pos_ in {"VERB", "AUX"}:
            return None  # "I'm not going anymore": a verb's negation, read elsewhere
    return None


def _mine_now(copula: Any) -> bool:
    """ "I'm off metformin now": the speaker's, said of now (not "I'm off on Thursday")."""
    mine = any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in copula.children)
    return mine and any(t.lower_ in {"now", "anymore", "completely"} for t in copula.subtree)
