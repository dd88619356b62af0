"""What a pronoun stands for: "which", "it", "that" point back to a thing the sentence named; "she" and
"he" to the last person named, unless someone else was named since. Pure functions over a spaCy parse."""

from __future__ import annotations

from typing import Any

from .atoms import FactAtom
from .given_names import known_first_name
from .lexicon import PARTNER_NOUNS
from .parse_paths import name_of

__all__ = ["copula_subject", "named_last", "person_referent", "words_before_clause"]


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


def person_referent(predicate: Any, last_person: str | None) -> str | None:
    """Who the "she"/"he" subject of ``predicate`` is: ``last_person`` (the last subject named), or with
    none the one person named in the sentence or the one before; unless another person's name came
    between it and the pronoun ("Me and Lou broke up, I'm with Kat now and
    she is a vet": Kat or Lou, not to be guessed)."""
    pronouns = [
        c for c in predicate.children if c.dep_ in {"nsubj", "nsubjpass"} and c.lower_ in {"she", "he"}
    ]
    if not pronouns:
        return last_person
    doc, pronoun = predicate.doc, pronouns[0]
    before = [s for s in doc.sents if s.end <= pronoun.sent.start]
    window = doc[before[-1].start if before else pronoun.sent.start : pronoun.i]
    if last_person is None:  # "Bumped into Callum, he lives in Leeds now": the one person named
        # a first name the pronoun takes for a person, whatever the model guessed ("Callum": ORG)
        people = {name_of(t) for t in window if t.dep_ != "compound" and t.pos_ == "PROPN" and _a_person(t)}
        return people.pop() if len(people) == 1 else None
    words = set(last_person.split())
    said = [t.i for t in window if t.text in words]
    since = [
        t
        for t in window
        if t.pos_ == "PROPN"
        and t.text not in words
        and t.ent_type_ not in _NOT_PEOPLE
        and (not said or t.i > said[-1])
    ]
    return None if said and since else last_person


def _a_person(token: Any) -> bool:
    """A name a "he"/"she" can stand for: the model's person, a census first name, or a name met,
    talked to or bumped into (the small model calls "Callum" an organisation); not one a place is."""
    if token.ent_type_ == "PERSON" or known_first_name(token.text):
        return True
    if token.ent_type_ not in {"", "ORG"}:
        return False
    if token.dep_ == "pobj":
        return token.head.lower_ in {"into", "with", "to", "from"}
    return token.dep_ in {"dobj", "nsubj"}


def named_last(sentence: Any, last_person: str | None, atoms: list[FactAtom], speaker: str) -> str | None:
    """Who a "she"/"he" in the next sentence is: a partner the sentence named as its object ("Orla and I
    are finished, and I'm seeing a girl called Saoirse now. She's into hiking") when named after the
    last subject."""
    text = sentence.text
    named = [atom.value for atom in atoms if atom.subject == speaker and atom.key in PARTNER_NOUNS]
    if not named or named[-1] not in text:
        return last_person
    if last_person is not None and text.rfind(last_person) > text.rfind(named[-1]):
        return last_person
    return named[-1]


#: What the model names that is no person.
_NOT_PEOPLE = frozenset(
    ["ORG", "GPE", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART", "DATE", "TIME", "NORP"]
)


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
