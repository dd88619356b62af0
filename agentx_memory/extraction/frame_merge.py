"""The parse reader's say over the rules' facts: where the reader judged a typed slot, its call stands;
an untyped statement must name a thing by the turn's parse; one whose subject is no person is the
speaker's when it names them, else no one's."""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .frames import FRAME_KEYS, Reading
from .lexicon import ABSTRACTIONS, PET_KINDS
from .stored import in_slots, value_tokens

__all__ = ["merged", "says_something"]

_DETERMINERS: Final = frozenset(["the", "a", "an", "my", "his", "her", "our", "their", "your"])


#: Verbs whose "-ing" complement is an activity: "went camping", "loves hiking", "took up running".
_ACTIVITY_HEADS: Final = frozenset(["go", "love", "enjoy", "like", "hate", "start", "take", "try", "quit"])


def _activity(token: Any) -> bool:
    """ "went camping" (the parser may make "gone" the auxiliary of "fishing"), "loves hiking"."""
    if token.tag_ != "VBG":
        return False
    after_go = token.i > 0 and token.nbor(-1).lower_ in {"go", "goes", "went", "gone", "going"}
    return after_go or (token.head.lemma_ in _ACTIVITY_HEADS and token.dep_ in {"xcomp", "dobj", "advcl"})


def says_something(statement: str, doc: Any, subject: str) -> bool:
    """Whether an untyped statement names a thing, by the parse of the turn it came from: a name or a
    number, or a noun that is not an abstraction ("Jon is going to keep going", "Gina has got something
    to share", "Jon wants to savor all the good vibes" name none; "Jon is wrapping up the business
    plan" does). Words the parse did not see (the subject put in for "I") count for nothing."""
    seen = {token.lower_: token for token in doc}
    # the subject's name; the relation of "Kim's grandma" is a thing the statement names
    names = {part.casefold() for part in subject.split("'s ")[0].split()}
    for word in statement.casefold().replace("'s ", " ").split():
        if "-" in word.strip("-") and word.strip(".,!?;:'\"") in doc.text.casefold():
            return True  # a hyphenated word said as one: "me-time", "self-care", "follow-up"
        token = seen.get(word.strip(".,!?;:'\""))
        if token is None or token.lower_ in names:
            continue
        # a name ("Glad", "Startin'" opening a sentence take a capital, not a name)
        named = token.pos_ == "PROPN" and (token.ent_type_ != "" or not token.is_sent_start)
        if named or (token.pos_ == "NUM" and token.ent_type_ != "DATE"):
            return True
        if _activity(token):
            return True  # "has gone camping", "loves hiking": an activity names a thing done
        # a noun, or a word after an article or possessive ("got the tattoo": the tagger said adverb)
        # (the last word of its phrase: in "the good vibes" "good" is not the thing)
        before = token.nbor(-1).lower_ if token.i > 0 else ""
        after = token.nbor(1).pos_ if token.i + 1 < len(token.doc) else ""
        guessed = (
            token.pos_ not in {"PRON", "DET"}
            and before in _DETERMINERS
            and after not in {"NOUN", "PROPN", "ADJ"}
        )
        nounish = token.pos_ == "NOUN" or guessed
        # "this story", "that place": pointing at what was said before, which the statement does not say
        pointed = any(
            c.dep_ == "det" and c.lower_ in {"this", "that", "these", "those"} for c in token.children
        )
        if (
            nounish
            and not pointed
            and token.lemma_.casefold() not in ABSTRACTIONS
            and token.ent_type_ != "DATE"
        ):
            return True
    return False


def merged(reading: Reading, ruled: list[FactAtom], doc: Any, speaker: str) -> list[FactAtom]:
    """The rules' facts where the parse reader did not judge: a typed slot the reader judged for a
    subject (read, or refused as a wish, a question, the past, another person's) is its call; a
    statement that restates a fact it read is dropped, and (given the turn's parse ``doc``) an untyped
    statement that names no thing (:func:`says_something`); one whose subject the parse does
    not take for a person is the speaker's when it names them ("Dance is Gina's stress fix"), else no
    one's ("Porto is great in summer")."""
    # A relationship read (a pet's name, a partner) adds to what the rules said of it ("got another cat
    # named Bailey" tells more than "Melanie's cat is called Bailey"); a slot restates it.
    words = {
        (atom.subject, word)
        for atom in reading.atoms
        if atom.fact_kind != "relationship"
        for word in value_tokens(atom.value)
    }
    favourites = [value_tokens(atom.value) for atom in reading.atoms if atom.key.startswith("favourite")]
    kept = []
    for atom in ruled:
        said = value_tokens(atom.value)
        if (atom.key in FRAME_KEYS or atom.key in PET_KINDS) and any(
            (subject, key) == (atom.subject, atom.key) and judged & said
            for subject, key, judged in reading.vetoes
        ):
            continue
        if atom.key == "likes" and said in favourites:
            continue  # "I prefer ramen now, sushi's been replaced": the favourite told against the old
        if atom.fact_kind in {"statement", "experience", "event"} and any(
            (atom.subject, word) in words for word in value_tokens(atom.value)
        ):
            continue
        # a goal says what it aims at ("learn to surf"); an untyped past action is held to a statement's
        # bar ("Nate has not decided yet" names nothing)
        untyped = atom.fact_kind == "statement" or (atom.fact_kind == "experience" and atom.key == "did")
        if doc is not None and untyped and not says_something(atom.statement, doc, atom.subject):
            continue
        theirs = atom.subject.startswith(f"{speaker}'s ")  # "Helen's brother": one of the speaker's people
        if doc is not None and atom.subject != speaker and not theirs and not _a_person(atom.subject, doc):
            if speaker not in atom.statement:
                continue  # "Porto is great in summer": of the world, no one's memory
            atom = atom.model_copy(update={"subject": speaker})  # "Dance is Gina's stress fix"
        kept.append(atom)
    return kept


def _a_person(name: str, doc: Any) -> bool:
    """Whether the parse takes ``name`` for someone: a person the recogniser found, or a proper noun
    ("Dance", "Nature" opening a sentence are common nouns)."""
    first = name.split()[0]
    return any(token.ent_type_ == "PERSON" or token.pos_ == "PROPN" for token in doc if token.text == first)


def without_what_ended(facts: list[FactAtom]) -> list[FactAtom]:
    """The turn's facts less a value its own ending ends: "retired today after 31 years at the Post
    Office" tells the Post Office no longer holds, though "years at the Post Office" reads as a job."""
    endings = [fact for fact in facts if fact.key == "ended" and fact.ends]
    return [
        fact
        for fact in facts
        if not any(
            ending.subject == fact.subject
            and in_slots(fact.key, ending.ends)
            and value_tokens(fact.value) <= value_tokens(ending.statement)
            for ending in endings
        )
    ]
