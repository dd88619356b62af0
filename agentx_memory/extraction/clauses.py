"""Whether a learned statement is a clause: a subject and a finite verb of its own. Pure functions over
the statement as learned (third person).

Splitting a turn at commas and conjunctions leaves pieces that are no clause:

- a leading conjunction ("so Dana is proud of the garden", "but Dana and others will keep trying"):
  dropped, and the statement opens with a capital;
- no subject: the piece opens on its verb, after adverbs at most ("Even made a quilt for Dana's
  niece", "Won't let anything stop Dana"): the subject that was dropped may be anyone;
- no finite verb: a noun phrase ("A way for Dana to unwind after work"), a noun phrase whose only verb
  is its relative clause's ("The advice Dana got from a nurse", "a sign that Dana is on track") or a
  subordinate clause alone ("Since Dana was twelve", "When Dana was living in Oslo").

A finite verb is told by its form, without a tagger: spaCy's would cost more than the whole extractor
(~2 ms a turn), and the facts must not depend on whether it is installed. Finite are a form of be,
have or do, a modal, a contraction of one ("it's", "they'll"), a past (:func:`.verbs.past_form`), an
-s form after a word that does not open a noun phrase ("Cooking relaxes Dana" but "Dana's old
friends"), and a base form after a plural subject ("Dana and others love hiking"); none of them after
a determiner ("the cost") or "to" ("a way to relax"). Each subordinating word ("that", "who", "when",
"since" …) takes the first finite verb after it for its own clause, and so does a relative clause with
no "that" after a noun phrase that opens the statement ("The advice Dana got"); the main clause
needs one more.
"""

from __future__ import annotations

import re
from typing import Final

from .english import ADVERBS
from .verbs import PAST_FORMS, ing_form, past_form

__all__ = ["as_clause", "gerund_subject", "not_a_clause"]

_TOKEN: Final = re.compile(r"['’]?[A-Za-z0-9][\w'’-]*")
#: A conjunction left at the start of a piece cut from a longer sentence.
_OPENER: Final = re.compile(r"^(?:(?:so|but|and|or|because|plus|yet|cause|cuz)\b[\s,]*)+", re.IGNORECASE)
_AUXILIARIES: Final = frozenset(
    [
        "is", "are", "was", "were", "am", "has", "have", "had", "do", "does", "did", "can", "could",
        "will", "would", "shall", "should", "may", "might", "must", "cannot", "ought", "isn't",
        "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't", "don't", "doesn't", "didn't",
        "can't", "couldn't", "won't", "wouldn't", "shouldn't", "mustn't", "ain't"
    ]
)  # fmt: skip
#: A pronoun's contracted auxiliary: always finite ("it's", "they'll", "there've").
_CONTRACTION: Final = re.compile(
    r"^[a-z]+['’](?:re|m|ve|ll|d)$|^(?:it|that|there|here|what|he|she|who)['’]s$"
)
#: After a noun's "'s", what makes it "is"/"has" rather than a possessive ("the garden's been …").
_AFTER_IS: Final = frozenset(
    [
        "been", "got", "gotten", "going", "not", "a", "an", "the", "so", "really", "very", "just",
        "always", "still", "pretty", "such", "definitely", "also", "never", "finally", "now", "too",
        "quite", "all", "kind", "more", "less"
    ]
)  # fmt: skip
#: Words after which a verb form is a noun or an adjective ("the cost", "a set", "her tired eyes"),
#: or an infinitive ("to relax").
_NOUN_OPENERS: Final = frozenset(
    [
        "a", "an", "the", "his", "her", "their", "its", "our", "my", "your", "some", "any", "every",
        "each", "no", "several", "many", "few", "both", "all", "another", "other", "such", "this",
        "that", "these", "those", "to", "of", "for", "with", "in", "on", "at", "by", "from", "about",
        "and", "or", "new", "old", "good", "great", "big", "small", "little", "best", "favorite",
        "favourite", "own", "same", "different", "more", "most", "one", "two", "three", "four", "five"
    ]
)  # fmt: skip
#: Participles in PAST_FORMS that are never finite on their own.
_PARTICIPLES: Final = frozenset(["been", "seen", "done", "gone"])
_PLURAL_PRONOUNS: Final = frozenset(
    ["others", "they", "we", "you", "people", "children", "men", "women", "folks"]
)
#: Words that follow a plural subject without being its verb.
_NOT_VERBS: Final = frozenset(
    [
        "a", "an", "the", "and", "or", "but", "so", "of", "to", "for", "with", "in", "on", "at", "by",
        "from", "about", "as", "than", "like", "that", "which", "who", "when", "where", "while",
        "today", "tonight", "yesterday", "tomorrow", "now", "then", "here", "there", "again", "lately",
        "too", "all", "both", "whose", "into", "over", "after", "before", "around", "through",
        "are", "were", "this", "these", "those", "their", "his", "her", "its", "my", "our", "your",
        "near", "across", "under", "behind", "beside", "inside", "outside", "towards", "toward", "past",
        "without", "within", "against", "among", "between", "beyond", "via", "per", "except", "onto",
        "upon", "during", "despite", "along", "off", "up", "down", "out", "not", "no", "very", "so"
    ]
)  # fmt: skip
#: Words that open a subordinate or relative clause, which takes a finite verb of its own.
_SUBORDINATORS: Final = frozenset(
    [
        "that", "which", "who", "whom", "whose", "when", "where", "while", "since", "because",
        "although", "though", "if", "unless", "until", "till", "whether", "whereas", "after", "before",
        "once", "whenever", "wherever", "so"
    ]
)  # fmt: skip
#: Subordinators that are also prepositions: before a noun phrase they open no clause ("after the
#: exams Dana wants a break").
_PREPOSITIONS: Final = frozenset(["after", "before", "since", "until", "till"])
#: Adverbs in -s, which are no verbs ("Sometimes Dana swims").
_S_ADVERBS: Final = frozenset(
    ["sometimes", "always", "perhaps", "besides", "nevertheless", "regardless", "afterwards",
     "towards", "nowadays", "outdoors", "indoors", "upstairs", "downstairs", "thus", "plus", "yes",
     "this", "his", "its", "ours", "theirs", "hers", "yours", "less", "unless", "lots", "as", "us"]
)  # fmt: skip
_ADVERB_OPENERS: Final = ADVERBS | frozenset(["even", "never", "sometimes", "often", "again", "too"])
#: What follows a verb that opens a piece with its subject dropped: an object or "to".
_OBJECT_START: Final = frozenset(
    ["a", "an", "the", "to", "me", "him", "her", "them", "it", "us", "some", "my", "his", "their", "our"]
)


def _s_form(lower: str) -> bool:
    return (
        len(lower) > 3
        and lower.endswith("s")
        and not lower.endswith(("ss", "us", "is", "'s", "’s"))
        and lower not in _S_ADVERBS
    )


def _verb_form(tokens: list[str], index: int) -> bool:
    """Whether ``tokens[index]`` has the form of a finite verb where it stands (its subject unread)."""
    word = tokens[index]
    lower = word.casefold()
    before = tokens[index - 1].casefold() if index else ""
    after = tokens[index + 1].casefold() if index + 1 < len(tokens) else ""
    if lower in _AUXILIARIES or _CONTRACTION.match(lower):
        return not (before == "to" and lower in {"have", "do"})
    if lower.endswith(("'s", "’s")) and after in _AFTER_IS:
        return True
    if before in _NOUN_OPENERS or before.endswith(("'s", "’s")) or (index and word[:1].isupper()):
        return False
    # "Kim and others fly out to Japan": "we" said in the third person takes the plain form
    if before == "others" and index >= 2 and tokens[index - 2].casefold() == "and" and lower.isalpha():
        return lower not in _NOUN_OPENERS | _SUBORDINATORS and not ing_form(lower)
    if _after_auxiliary(tokens, index) or lower in _PARTICIPLES:
        return False  # "won't let", "has really made", "been": the auxiliary is the finite verb
    return (lower in PAST_FORMS or past_form(lower) or _s_form(lower)) and not ing_form(lower)


def _finite(tokens: list[str], index: int) -> bool:
    """Whether ``tokens[index]`` reads as a finite verb where it stands."""
    word = tokens[index]
    if index == 0:
        # A capital before a verb is its subject: "James plays", "Jared moved".
        return _verb_form(tokens, 0) and not (
            word[:1].isupper() and len(tokens) > 1 and _verb_form(tokens, 1)
        )
    if _verb_form(tokens, index):
        return True
    # A base form after a plural subject: "Dana and others love hiking", "their kids adore the sea",
    # "patience and humour keep Dana sane".
    lower, before = word.casefold(), tokens[index - 1].casefold()
    plural = (
        before in _PLURAL_PRONOUNS
        or (_s_form(before) and not _verb_form(tokens, index - 1))
        or (index > 1 and tokens[index - 2].casefold() == "and" and before not in _NOUN_OPENERS | _NOT_VERBS)
    )
    return (
        plural
        and lower.isalpha()
        and lower not in _NOT_VERBS
        and not lower.endswith("ly")
        and not ing_form(lower)
    )


def _after_auxiliary(tokens: list[str], index: int) -> bool:
    back = index - 1
    while back >= 0 and (tokens[back].casefold() in ADVERBS or tokens[back].casefold().endswith("ly")):
        back -= 1
    word = tokens[back].casefold() if back >= 0 else ""
    return word in _AUXILIARIES or bool(_CONTRACTION.match(word))


def _opens_no_clause(tokens: list[str], index: int, following: str) -> bool:
    """A subordinator that opens no clause here: a preposition before a noun phrase or a gerund
    ("after the exams", "after finishing the course"), or "that" as a pronoun subject ("… and that
    was a relief")."""
    word = tokens[index].casefold()
    if word in _PREPOSITIONS:
        return following in _NOUN_OPENERS or ing_form(following)
    before = tokens[index - 1].casefold() if index else ""
    return (
        word == "that"
        and before in {"", "and", "but", "so", "or"}
        and index + 1 < len(tokens)
        and _verb_form(tokens, index + 1)
    )


def _main_verbs(tokens: list[str]) -> set[int]:
    """The finite verbs left for the main clause once each subordinate clause has its own."""
    finite = [index for index in range(len(tokens)) if _finite(tokens, index)]
    claimed: set[int] = set()
    for index, word in enumerate(tokens):
        following = tokens[index + 1].casefold() if index + 1 < len(tokens) else ""
        if word.casefold() in _SUBORDINATORS and not _opens_no_clause(tokens, index, following):
            own = next((verb for verb in finite if verb > index and verb not in claimed), None)
            if own is not None:
                claimed.add(own)
    # "The advice Dana got from a nurse": a noun phrase opening the statement, then a relative clause
    # with no "that" (a subject and its verb right after the noun).
    if tokens and tokens[0].casefold() in _NOUN_OPENERS - {"to", "of", "for", "with", "in", "on", "at"}:
        for index in range(2, min(len(tokens) - 1, 5)):
            if tokens[index][:1].isupper() and index + 1 in finite and not tokens[index - 1][:1].isupper():
                claimed.add(index + 1)
                break
    return set(finite) - claimed


#: Words before a verb that make it a second predicate of the same subject ("… and had a great time").
_COORDINATORS: Final = frozenset(["and", "or", "but", "then", "nor"])
#: Words that end a noun phrase no relative clause can follow without "that": function words.
_NOT_NOUNS: Final = _NOUN_OPENERS | _NOT_VERBS | _SUBORDINATORS | _AUXILIARIES


def _own_subject(tokens: list[str], index: int, opener: int) -> bool:
    """Whether the finite verb at ``index`` has a subject of its own: not a predicate coordinated with
    the one before ("skated and had fun"), nor the verb of a relative clause with no "that" after a
    noun that follows the ``opener`` verb ("the friend Dana met in Oslo": a name or pronoun between
    a noun and its verb)."""
    back = index - 1
    while back > 0 and tokens[back].casefold() in _ADVERB_OPENERS:
        back -= 1
    if tokens[back].casefold() in _COORDINATORS:
        return False
    subject_start = index - 1
    # A subject of two names: "the wall Dana and Mo found".
    if subject_start > 2 and tokens[subject_start - 1].casefold() == "and":
        subject_start -= 2 if tokens[subject_start - 2][:1].isupper() else 0
    subject, noun = tokens[subject_start], tokens[subject_start - 1] if subject_start > opener + 1 else ""
    relative = (subject[:1].isupper() or subject.casefold() in {"he", "she", "they", "we", "i"}) and (
        noun[:1].islower() and noun.isalpha() and noun.casefold() not in _NOT_NOUNS
    )
    return not relative


def not_a_clause(statement: str, subject: str) -> str | None:
    """Why ``statement`` (third person, any opening conjunction dropped) is no clause, or None."""
    tokens = _TOKEN.findall(statement)
    if not tokens:
        return "no verb"
    start = 0
    while start < len(tokens) - 1 and (
        tokens[start].casefold() in _ADVERB_OPENERS
        or (tokens[start].casefold().endswith("ly") and not _verb_form(tokens, start + 1))
    ):
        start += 1
    opener = tokens[start].casefold()
    after = tokens[start + 1].casefold() if start + 1 < len(tokens) else ""
    names_subject = statement.startswith(subject) or (start + 1 < len(tokens) and _finite(tokens, start + 1))
    opens_on_verb = (
        opener in _AUXILIARIES
        or opener in PAST_FORMS
        or (past_form(opener) and not ing_form(opener))
        or (_s_form(opener) and after in _OBJECT_START | {subject.split()[0].casefold()})
    )
    verbs = _main_verbs(tokens)
    # A verb after the opening one with a subject of its own makes the opening word part of a
    # subject phrase ("Painted pottery is Dana's hobby"); a relative clause's or a coordinated one's
    # does not ("Skated with the friend Dana met in Oslo and had fun": whose skating is not said).
    own = [verb for verb in verbs if verb > start + 1 and _own_subject(tokens, verb, start)]
    if opens_on_verb and not names_subject and (len(verbs) <= 1 or not own):
        return "no subject"
    if not verbs:
        return "no verb"
    return None


def as_clause(statement: str, subject: str) -> str | None:
    """``statement`` without a leading conjunction and with a capital, or None when it is no clause."""
    text = _OPENER.sub("", statement.strip())
    if not text or not_a_clause(text, subject) is not None:
        return None
    return text[:1].upper() + text[1:]


def gerund_subject(clause: str) -> bool:
    """Whether ``clause`` opens with an "-ing" phrase that is its subject ("Learning another language is
    tough", "Being surrounded by teammates creates a bond"): no "I'm" was dropped before it."""
    # "Plus, playing with my teammates … is awesome": a one-word opener set off by a comma is no subject
    clause = re.sub(r"^\s*(?!\w+ing\b)\w+,\s*", "", clause)
    head = re.split(r"[,;:]|\s+(?:but|so)\s+", clause, maxsplit=1)[0]
    tokens = _TOKEN.findall(head)
    if not tokens or not ing_form(tokens[0].casefold()):
        return False
    return any(
        _verb_form(tokens, index)
        and tokens[index][:1].islower()  # "in May": a month, no modal
        and not ing_form(tokens[index].casefold())
        for index in range(1, len(tokens))
    )
