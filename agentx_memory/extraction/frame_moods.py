"""The mood of a clause, from its parse: asked ("should I move…?", "where do I…"), supposed ("if I
had a dog I'd…", "I could eat it every day") or negated ("I'm not vegetarian anymore")."""

from __future__ import annotations

from typing import Any, Final

from .frame_fits import SUBJECTS

__all__ = ["CONDITIONS", "denied", "inverted", "supposed", "supposed_at", "told_news"]

CONDITIONS: Final = frozenset(["if", "unless", "whether", "suppose", "supposing", "assuming", "once"])


def supposed(sentence: Any) -> bool:
    """ "If I had a dog I'd call it Biscotto", "I would drive a Porsche": a sentence that supposes."""
    return any(_supposes(t) for t in sentence)


#: What tells of a world that is not so: a dream, a fantasy, a pretence.
_UNREAL: Final = frozenset(["dream", "nightmare", "imagine", "pretend", "fantasy", "fantasise", "fantasize"])


def supposed_at(predicate: Any) -> bool:
    """Whether a supposition governs this clause: its own "would"/"could"/"if", or one of the clauses
    it is part of; a clause said before its head is one of its own ("Sushi is my favourite food, I could
    eat it every day" parses as the complement of "eat")."""
    node = predicate
    while True:
        if any(_supposes(c) for c in node.children):
            return True
        head = node.head
        dreamt = head.lemma_.casefold() in _UNREAL or (
            node.dep_ == "ccomp"
            and any(c.dep_ == "dobj" and c.lemma_.casefold() in _UNREAL for c in head.children)
        )
        if dreamt and head.i != node.i:
            return True  # "had the weirdest dream that I'd moved to Tokyo", "imagine I lived in Rome"
        if node.head.i == node.i or (node.dep_ in {"ccomp", "parataxis"} and node.i < node.head.i):
            return False
        node = node.head


#: Adverbs that say a thing did not quite happen: "I almost moved to Leeds", "nearly took the job".
_NOT_QUITE: Final = frozenset(["almost", "nearly"])


def _supposes(token: Any) -> bool:
    """ "if", "would", "could" on the clause they hang on; "couldn't make the 8th" says what was not
    possible, "I'd say my favourite is …" says it; "almost"/"nearly" on a verb, what did not happen."""
    if token.dep_ == "advmod" and token.lower_ in _NOT_QUITE and token.head.pos_ in {"VERB", "AUX"}:
        return True
    return bool(token.dep_ == "mark" and token.lower_ in CONDITIONS) or bool(
        token.tag_ == "MD"
        and token.lower_ in {"would", "'d", "could"}
        and not denied(token.head)
        and token.head.lemma_ != "say"
        # "Could you suggest …", "would you mind …": a request to the listener supposes nothing
        and not any(c.dep_ == "nsubj" and c.lower_ == "you" for c in token.head.children)
    )


def inverted(sentence: Any) -> bool:
    """A question without its mark: "do you know…", "where do I…", "should I move…"."""
    first = next((token for token in sentence if not token.is_punct and token.pos_ != "INTJ"), None)
    if first is None:
        return False
    return first.tag_ in {"WP", "WRB", "WDT"} or (
        first.pos_ == "AUX"
        and any(child.dep_ in SUBJECTS for child in first.head.children)
        and first.i < min((c.i for c in first.head.children if c.dep_ in SUBJECTS), default=first.i)
    )


def denied(predicate: Any) -> bool:
    """ "I'm not vegetarian (anymore)", "I no longer live in Leeds", "I don't drive the Golf"."""
    return any(c.dep_ == "neg" or (c.lower_ == "longer" and c.dep_ == "advmod") for c in predicate.children)


def told_news(clause: Any) -> bool:
    """Someone's own news told on ("Priya told me that she's landed a job at Google"): a "she"/"he" under
    a third person's "told"/"said", past or perfect; not the speaker's ("my boss said I'd …")."""
    teller = [c for c in clause.head.children if c.dep_ in SUBJECTS]
    told = [c for c in clause.children if c.dep_ in SUBJECTS]
    return (
        clause.head.lemma_ in {"tell", "say", "mention"}
        and bool(teller)
        and teller[0].pos_ == "PROPN"
        and bool(told)
        and told[0].lower_ in {"she", "he"}
        and (clause.tag_ == "VBD" or any(c.lower_ in {"'s", "has", "have", "'ve"} for c in clause.children))
    )
