"""Walking a spaCy parse: the verb a word's clause hangs on, the possessive a word carries. Pure."""

from __future__ import annotations

from typing import Any, Final

from .frame_fits import SUBJECTS
from .given_names import known_first_name
from .lexicon import RELATION_NOUNS

__all__ = [
    "a_name",
    "clause_verb",
    "mine",
    "name_of",
    "named_relations",
    "not_now",
    "only_weighed",
    "others_doing",
    "said_with_me",
    "whose",
]

#: Words before a relation noun that make the relation past or not (yet) real: "my ex-wife", "my late
#: husband", "my old boss", "my future wife", "my first husband".
_NOT_NOW: Final = frozenset(
    ["ex", "ex-", "former", "late", "old", "future", "first", "previous", "deceased", "dead", "would-be"]
)


def clause_verb(token: Any) -> Any:
    """The verb (or auxiliary) whose clause ``token`` is part of: the first up its chain of heads."""
    verb = token
    while verb.pos_ not in {"VERB", "AUX"} and verb.head.i != verb.i:
        verb = verb.head
    return verb


def whose(token: Any) -> str:
    """The possessive that ``token`` carries ("my", "her", "Tom"), lower-cased; "" when none."""
    return next((c.lower_ for c in token.children if c.dep_ == "poss"), "")


def said_with_me(predicate: Any) -> list[Any]:
    """Who is said together with the speaker as the subject ("Mia and I broke up", "Henrik and I got
    married"), however the parse joined them; [] when the speaker is not among the subjects."""
    own = any(c.dep_ in SUBJECTS for c in predicate.children)
    holder = predicate.head if predicate.dep_ in {"acomp", "xcomp", "conj"} and not own else predicate
    tokens = [t for s in holder.children if s.dep_ in SUBJECTS for t in (s, *s.conjuncts)]
    if not tokens:  # "Tom and I got engaged": the small model hangs "Tom [and I]" on the verb as a modifier
        tokens = [
            t
            for s in holder.children
            if s.dep_ in {"npadvmod", "dep"}
            and s.i < holder.i
            and any(c.lower_ in {"i", "me"} for c in s.conjuncts)
            for t in (s, *s.conjuncts)
        ]
    # "me and Jas broke up" is said in chat as often as "Jas and I"
    if not any(t.lower_ in {"i", "me"} for t in tokens):
        return []
    # "me and my bf Dan": the name the relation noun is given
    tokens = [_named(t) for t in tokens]
    found = [t for t in tokens if t.lower_ not in {"i", "me"} and _nominal(t)]
    return found or [name for t in tokens if (name := _named_before_and_i(t)) is not None]


def _named(token: Any) -> Any:
    """The name a relation noun is given beside it ("my bf Dan"), else the token itself."""
    if token.pos_ != "NOUN":
        return token
    return next((c for c in token.children if c.dep_ in {"appos", "npadvmod"} and c.pos_ == "PROPN"), token)


def _named_before_and_i(i: Any) -> Any | None:
    """ "Valentina and I are an item": the name just before "and I", however the parse hung it."""
    doc = i.doc
    if i.lower_ != "i" or i.i < 2 or doc[i.i - 1].lower_ != "and":
        return None
    before = doc[i.i - 2]
    return before if before.text[:1].isupper() and _nominal(before) else None


def _nominal(token: Any) -> bool:
    """A noun, or a name the tagger took for something else ("Tomás" is tagged an adjective)."""
    return token.pos_ in {"PROPN", "NOUN"} or token.ent_type_ == "PERSON"


def mine(token: Any) -> bool:
    """ "my sister", "our neighbour", "a coworker of mine"; a grandparent or parent named with no word
    before ("grandad Stan is obsessed with his allotment", "Mum's taken up pottery")."""
    if token.lower_ in _FAMILY_AS_NAME and not any(c.dep_ in {"poss", "det"} for c in token.children):
        return True
    return any(child.dep_ == "poss" and child.lower_ in {"my", "our"} for child in token.children) or any(
        child.dep_ == "prep"
        and child.lower_ == "of"
        and any(g.lower_ in {"mine", "ours"} for g in child.children)
        for child in token.children
    )


#: Kin called by what they are, as a name is said: one's own.
_FAMILY_AS_NAME: Final = frozenset(
    ["mum", "mom", "mam", "dad", "nan", "nana", "nanna", "gran", "granny", "grandma", "grandad", "granddad",
     "grandpa", "grampa", "grandmother", "grandfather"]
)  # fmt: skip


def name_of(token: Any) -> str:
    """A name with the compounds before it: "Mott MacDonald", "Sun Hee"."""
    parts = [c for c in token.children if c.dep_ == "compound" and c.pos_ == "PROPN" and c.i < token.i]
    return " ".join(t.text for t in [*parts, token])


def named_relations(sentence: Any, speaker: str) -> list[tuple[str, str]]:
    """The people a sentence names as the speaker's own, wherever they stand in it: "a gift for my wife
    Jo?", "Valentine's ideas for my new girlfriend Sofia", "cook for my boyfriend Tom tonight" (the
    parser may hang the name anywhere; it follows the noun). A relation said in passing is taken for
    granted, so a question tells it as much as a statement does. (name, relation) pairs."""
    found: list[tuple[str, str]] = []
    doc = sentence.doc
    for token in sentence:
        relation = token.lemma_.casefold()
        if token.pos_ != "NOUN" or relation not in RELATION_NOUNS or relation == "ex":
            continue
        if not (mine(token) or _got_by_the_speaker(token)) or not_now(token) or token.i + 1 >= sentence.end:
            continue
        name = doc[token.i + 1]
        if name.text == "," and token.i + 2 < sentence.end and doc[token.i + 2].dep_ == "appos":
            name = doc[token.i + 2]  # "I've got a new girlfriend, Rosa"
        if name.pos_ != "PROPN" or not name.text[:1].isupper() or name.ent_type_ in {"DATE", "TIME"}:
            continue
        # "my wife Jo Ann": the first name is a compound of the last
        whole = name_of(name.head) if name.dep_ == "compound" and name.head.pos_ == "PROPN" else name.text
        if whole.casefold() != speaker.casefold():
            found.append((whole, relation))
    return found


def _got_by_the_speaker(relation: Any) -> bool:
    """ "I've got a new girlfriend", "I have a boyfriend now": the speaker's by having it, said as so."""
    verb = relation.head
    if relation.dep_ != "dobj" or verb.lemma_ not in {"have", "get"} or verb.tag_ == "VB":
        return False
    said = list(verb.children)
    if any(c.dep_ == "neg" or c.tag_ == "MD" for c in said):
        return False
    return any(c.dep_ in {"nsubj", "nsubjpass"} and c.lower_ == "i" for c in said)


def not_now(relation: Any) -> bool:
    """A relation noun said as past or not yet real: "my late husband", "my future wife", "my old boss"."""
    return any(c.lower_ in _NOT_NOW for c in relation.children)


def a_name(token: Any) -> bool:
    """A proper name, or a capitalised word the small model took for a common noun that is no relation
    ("Siobhán and I got engaged": Siobhán, a noun to it; not "Mum and I"), or for another word
    (:func:`misread_name`)."""
    if token.pos_ == "PROPN" or misread_name(token):
        return True
    return (
        token.pos_ == "NOUN"
        and token.text[:1].isupper()
        and not token.text.isupper()
        and token.lemma_.casefold() not in RELATION_NOUNS
    )


def misread_name(token: Any) -> bool:
    """A person's name the small model tagged as an adverb or an adjective ("Raj has taken up cricket":
    "Raj" an adverb to it): capitalised, and a person to its recogniser or a first name of the census."""
    if not (
        token.pos_ in {"ADV", "ADJ", "INTJ", "VERB"}
        and token.text[:1].isupper()
        and token.text.isalpha()
        and not token.text.isupper()
    ):
        return False
    if token.ent_type_ == "PERSON" or known_first_name(token.text):
        return True
    # first in its sentence and right before an auxiliary ("Raj has …", "Tomasz is …"), where an adverb
    # seldom stands without a comma
    after = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    return (
        token.i == token.sent.start
        and after is not None
        and after.pos_ == "AUX"
        and not token.lower_.endswith("ly")
        and token.lower_ not in _ADVERBS_BEFORE_VERBS
    )


#: Adverbs chat opens a subjectless clause with, before an auxiliary: "Still is", "Now has".
_ADVERBS_BEFORE_VERBS: Final = frozenset(
    ["just", "also", "still", "never", "always", "now", "then", "today", "yesterday", "even", "only",
     "already", "so", "here", "there", "maybe", "perhaps", "anyway", "well", "yes", "no", "ok", "okay",
     "sometimes"]
)  # fmt: skip


def only_weighed(head: Any) -> bool:
    """A present head of a doing as its subject that weighs it rather than tells it: "(moving to
    Denver) is on the cards / is the plan / makes sense"; not one that tells how it is or was ("working
    at Ocado is a dream", "living in Lisbon is great", "… has been amazing", "… was the best decision")."""
    if head.tag_ not in {"VBZ", "VBP"} or any(c.dep_ == "aux" for c in head.children):
        return False
    if head.lemma_ != "be":
        return str(head.lemma_) in _WEIGHING
    said = [c for c in head.children if c.dep_ == "attr"]
    said += [g for c in head.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj"]
    return any(word.lemma_.casefold() in _WEIGHED for word in said)


#: What a doing is when it is only weighed: "the plan", "an option", "on the cards", "on the table".
_WEIGHED: Final = frozenset(
    ["plan", "option", "possibility", "idea", "goal", "aim", "hope", "thought", "consideration",
     "alternative", "choice", "step", "card", "table", "horizon", "agenda", "list", "question"]
)  # fmt: skip
#: Verbs that weigh a doing: "makes sense", "sounds good", "appeals", "tempts me".
_WEIGHING: Final = frozenset(["make", "seem", "sound", "appeal", "tempt"])


#: Subjects that are someone other than the speaker.
_OTHERS: Final = frozenset(["you", "he", "she", "they"])


def others_doing(verb: Any) -> bool:
    """A participle before the clause it hangs on whose subject is someone else: "Taking in kids in need
    - you're so kind" is the listener's doing; not before an empty "it" ("Starting at Ocado on Monday,
    it's all a bit scary")."""
    if verb.dep_ != "advcl" or verb.i > verb.head.i:
        return False
    main = [c for c in verb.head.children if c.dep_ in SUBJECTS]
    return bool(main) and (main[0].lower_ in _OTHERS or main[0].pos_ == "PROPN")
