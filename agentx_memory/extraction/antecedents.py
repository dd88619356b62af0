"""What a copula's pronoun subject stands for: "which", "it", "that" point back to a thing the sentence
named. Pure functions over a spaCy parse."""

from __future__ import annotations

from typing import Any

__all__ = ["copula_subject", "words_before_clause"]


def copula_subject(predicate: Any, subject: Any | None) -> Any | None:
    """The thing ``subject`` stands for: the noun a relative clause hangs on ("The Remains of the Day,
    which … is now my favourite novel"), a name said earlier ("obsessed with Wingspan, it's my …"), or
    the subject of the clause a "since"/"because" clause explains ("Parasite goes last since it's my
    favourite"); else ``subject`` itself."""
    if subject is None:
        return None
    if subject.lower_ in {"which", "who", "that"} and predicate.dep_ == "relcl":
        return predicate.head
    if subject.lower_ not in {"it", "that"}:
        return subject
    # the clause explained comes first: a thing named in the sentence before is further away
    if predicate.dep_ in {"advcl", "conj"}:
        main = [c for c in predicate.head.children if c.dep_ in {"nsubj", "nsubjpass"}]
        if main and main[0].pos_ in {"NOUN", "PROPN"} and main[0].i < subject.i:
            return main[0]
    if (named := _named_before(subject)) is not None:
        return named
    return subject


def words_before_clause(noun: Any, clause: Any) -> str:
    """``noun``'s words before the relative clause ``clause`` that hangs on it, without the comma:
    "The Remains of the Day" of "The Remains of the Day, which … is my favourite"."""
    start = min(t.i for t in clause.subtree)
    kept = [t for t in noun.subtree if t.i < start and not (t.is_punct and t.i == start - 1)]
    return "".join(t.text_with_ws for t in kept).strip(" ,")


def _named_before(pronoun: Any) -> Any | None:
    """What "it" points back to in its sentence or the one before: the thing last done to ("Tried the
    Ethiopian place on Elm Street, it's my favourite now", "I just read Circe. It's my new favourite
    book."), else the name last said ("obsessed with Wingspan, it's my …"); no one met ("met Tom at Kiln")."""
    doc, sentence = pronoun.doc, pronoun.sent
    before = [s for s in doc.sents if s.end <= sentence.start]
    window = doc[before[-1].start if before else sentence.start : pronoun.i]
    done_to = [
        t
        for t in window
        if t.dep_ == "dobj"
        and t.pos_ in {"NOUN", "PROPN"}
        and t.head.pos_ == "VERB"
        and t.ent_type_ != "PERSON"
    ]
    if done_to:
        return done_to[-1]
    if any(t.dep_ == "dobj" and t.lower_ in {"it", "this", "that", "them"} for t in window):
        return None  # "I make it with almond flour … It's my favourite": "it" was never named
    names = [t for t in window if t.pos_ == "PROPN"]  # the small model calls many a game a person
    return names[-1] if names else None
