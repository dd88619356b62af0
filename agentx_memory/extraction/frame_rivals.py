"""A new favourite told against the old one, in words that name no category: "Fontaines D.C. are my new
obsession", "can't get enough of Middlemarch — it's knocked Pride and Prejudice off the top spot", "The
Godfather's got nothing on Parasite", "forest green is top of my list now, cobalt is out".

The turn tells *that* something is now preferred, not *what kind* of favourite it is: the category is the
one of the stored favourite it is told against. So the reading is one "favourite" atom whose ending
names the favourite slots (:data:`FAVOURITES`) and the words of what it was told against; the write
matches them to the stored favourite, and :func:`in_category` files the new value under its key. Pure
functions over a spaCy parse."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_fits import SUBJECTS
from .frame_values import phrase

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
_DISPLACING: Final = frozenset(
    ["knock", "dethrone", "overtake", "topple", "oust", "usurp", "trump", "beat", "replace", "edge"]
)
#: Displacing verbs that displace a favourite only with a word of the top spot or "as my favourite".
_NEEDS_SPOT: Final = frozenset(["knock", "replace", "beat", "edge"])
#: What a favourite holds: "taken the top spot from …", "stolen the crown".
_SPOTS: Final = frozenset(["spot", "crown", "place", "title", "throne", "slot"])
#: How a copula says its value: "it's Ursula K. Le Guin" (attr), "it's mustard yellow" (acomp).
_SAID: Final = frozenset(["attr", "acomp"])
#: Verbs of choosing one thing over another: "I'd take a negroni over a Guinness any day".
_CHOOSING: Final = frozenset(["take", "choose", "pick", "prefer", "rather"])
#: Words that make a preference a change: "I prefer ramen now", "… these days".
_NOW: Final = frozenset(["now", "nowadays", "days"])
#: Determiners that point at a thing shown rather than say it.
_POINTING: Final = frozenset(["this", "that", "these", "those"])
#: Words that are no thing one can prefer.
_NOT_THINGS: Final = frozenset(
    ["it", "this", "that", "they", "them", "you", "i", "me", "something", "everything"]
)


def favoured(doc: Any, speaker: str, turn: TurnText, read: Sequence[FactAtom] = ()) -> list[FactAtom]:
    """The thing a turn of the speaker's says is now preferred, told against what it displaced (or the
    other things the turn names, when it names none); none in a question, a denial or a wish, nor when
    the turn's other readers (``read``) read a favourite already."""
    if any(atom.key.startswith("favourite") for atom in read):
        return []
    if (told := _favourite_told(doc.text)) is not None:  # what the small model parses wrongly
        value, kind = told
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        statement = f"{speaker}'s favourite {kind} is {value}"
        atom = build_atom("preference", f"favourite_{kind}", value, statement, ctx, [], False, "explicit")
        return [atom.model_copy(update={"temporal": "current"})]
    preferred: list[Any] = []
    rivals: list[Any] = []
    category: str | None = None
    for sentence in doc.sents:
        if sentence.text.rstrip().endswith("?"):
            continue
        for token in sentence:
            found = _preferred(token)
            if found is None:
                continue
            best, against, named = found
            if best is not None and best.lower_ in _NOT_THINGS:
                best = preferred[0] if preferred else _thing_before(token)
            if best is not None and any(c.dep_ == "det" and c.lower_ in _POINTING for c in best.children):
                best = None  # "this yummy honey garlic (chicken)": a thing shown, the words don't say it
            if best is not None and _a_thing(best):
                preferred.append(best)
            rivals += [r for r in against if _a_thing(r)]
            category = category or named
    if not preferred:
        return []
    best = preferred[0]
    said = phrase(best) or best.text
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    if category is not None:  # "the cortado has replaced the flat white as my favourite coffee"
        statement = f"{speaker}'s favourite {category} is {said}"
        atom = build_atom("preference", f"favourite_{category}", said, statement, ctx, [], False, "explicit")
        return [atom.model_copy(update={"temporal": "current"})]
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
    atom = build_atom(
        "preference", PREFERRED, said, f"{speaker} prefers {said} now", ctx, [], False, "implied"
    )
    return [atom.model_copy(update={"ends": [FAVOURITES], "ends_words": words, "temporal": "current"})]


_MY_FAVOURITE: Final = (
    r"my\s+(?:new\s+|current\s+|all-time\s+)?(?:favou?rite|fave|fav)\s+(?P<category>[a-z]+)"
)
_NAMED: Final = r"(?P<value>(?-i:[A-Z0-9])[\w'&.-]*(?:\s+(?-i:[A-Z0-9])[\w'&.-]*){0,3})"
#: Favourites the small model parses wrongly, each a whole sentence: "Sushi has overtaken pizza as my
#: favourite food", "Radiohead, hands down my favourite band now", "my favourite colour changed to green".
_FAVOURITE_TOLD: Final = (
    re.compile(
        rf"^{_NAMED}\s+(?:has|have|'s)\s+(?:now\s+|officially\s+)?(?:overtaken|replaced|beaten|dethroned|"
        rf"knocked\s+out|taken\s+over\s+from)\s+[\w' -]+?\s+as\s+{_MY_FAVOURITE}\s*[.!]*$",
        re.IGNORECASE,
    ),
    re.compile(
        rf"^{_NAMED},\s+(?:(?:hands\s+down|easily|definitely|officially|now)\s+)?{_MY_FAVOURITE}"
        r"(?:\s+(?:now|these\s+days|at\s+the\s+moment|by\s+far))?\s*[.!]*$",
        re.IGNORECASE,
    ),
    re.compile(
        rf"^{_MY_FAVOURITE}\s+(?:has\s+)?(?:changed|switched|moved)\s+to\s+(?P<value>[\w' -]+?)\s*[.!]*$",
        re.IGNORECASE,
    ),
)


def _favourite_told(text: str) -> tuple[str, str] | None:
    """(value, category) of a one-sentence turn that tells a new favourite in one of the shapes above."""
    said = text.strip()
    for shape in _FAVOURITE_TOLD:
        if (found := shape.match(said)) is not None:
            return found["value"].strip(), found["category"].casefold()
    return None


def in_category(atom: FactAtom, key: str) -> FactAtom:
    """The preferred value filed under the favourite slot it displaced ("favourite_band")."""
    category = key.removeprefix("favourite_").replace("_", " ")
    statement = f"{atom.subject}'s favourite {category} is {atom.value}."
    return atom.model_copy(update={"key": key, "statement": statement, "ends": [], "ends_words": []})


def _preferred(token: Any) -> tuple[Any | None, list[Any], str | None] | None:
    """(the preferred thing, what it was told against, the favourite's category if said) when ``token``
    heads a way of preferring; the thing is "it" when the clause says so ("it's knocked …")."""
    lemma = token.lemma_.casefold()
    children = list(token.children)
    subjects = [c for c in children if c.dep_ in SUBJECTS]
    objects = [c for c in children if c.dep_ == "dobj"]
    # "Fontaines D.C. are my new obsession", "forest green is top of my list now"
    if token.dep_ == "attr" and lemma in _FAVOURITE_NOUNS and _mine(token) and _holds(token.head):
        heads = [c for c in token.head.children if c.dep_ in SUBJECTS]
        return (heads[0], [], None) if heads else None
    # "I've been obsessed with Wet Leg lately, they're my new favourite band": what "they" points back to
    favourite = any(c.lower_ in {"favourite", "favorite", "fave", "fav"} for c in children)
    if token.dep_ == "attr" and token.pos_ == "NOUN" and favourite and _mine(token) and _holds(token.head):
        heads = [c for c in token.head.children if c.dep_ in SUBJECTS and c.lower_ in _NOT_THINGS]
        return (heads[0], [], lemma) if heads else None
    # "my favourite author used to be Sally Rooney, now it's Ursula K. Le Guin"
    if lemma == "be" and any(c.lower_ == "it" for c in subjects) and (was := _used_to_be(token)):
        attrs = [c for c in children if c.dep_ in _SAID]
        return (attrs[0], [was[1]], was[0]) if attrs else None
    # "can't get enough of Middlemarch"
    if lemma == "get" and any(c.dep_ == "neg" for c in children):
        enough = [c for c in children if c.lower_ == "enough"]
        held = [g for e in enough for p in e.children if p.lower_ == "of" for g in p.children]
        return (held[0], [], None) if held and _speakers(token) else None
    # "I'm all about SZA now"; "obsessed with Wordle", "hooked on Taskmaster"
    if token.dep_ == "prep" and _holds(token.head) and _speakers(token.head):
        # "I'm all about SZA" (the speaker, "all" right before); not "people get all upset about every move"
        about = (
            token.lower_ == "about"
            and token.i > 0
            and token.doc[token.i - 1].lower_ == "all"
            and token.head.lemma_ == "be"
            and any(c.dep_ in SUBJECTS and c.lower_ in {"i", "we"} for c in token.head.children)
        )
        taken = _TAKEN.get(token.head.lemma_.casefold()) == token.lower_
        held = [c for c in children if c.dep_ == "pobj"]
        return (held[0], [], None) if held and (about or taken) else None
    # "The Godfather's got nothing on Parasite"
    if lemma in {"get", "have"} and any(c.lower_ == "nothing" for c in objects):
        on = [g for c in children if c.lower_ == "on" for g in c.children if g.dep_ == "pobj"]
        return (on[0], subjects, None) if on else None
    # "I'd take a negroni over a Guinness any day", "I'd choose autumn over summer"
    if lemma in _CHOOSING and objects and _speakers(token):
        # "over" for any of them; "to" only after "prefer" ("I take the Fiesta to the coast" is a trip)
        against = {"over", "to"} if lemma == "prefer" else {"over"}
        over = [g for c in children if c.lower_ in against for g in c.children if g.dep_ == "pobj"]
        if over:
            return objects[0], over, None
        # "Honestly I prefer ramen now, sushi's been replaced": preferred now, against what the turn names
        # ("now" may hang on the next clause: the words right after the thing are read)
        after = token.doc[token.i + 1 : min(objects[0].i + 4, token.sent.end)]
        now = any(t.lower_ in _NOW for t in [*children, *after]) and not _asked(token)
        now = now and lemma == "prefer"
        return (objects[0], [], None) if now else None
    # "Thai food has knocked Italian off the top spot", "it's taken the top spot from The Dark Knight",
    # "the cortado has replaced the flat white as my favourite coffee"
    spot = [o for o in objects if o.lemma_.casefold() in _SPOTS]
    if token.pos_ == "VERB" and (lemma in _DISPLACING or (lemma == "take" and spot)):
        if any(c.lower_ in {"i", "we"} for c in subjects):
            return None  # "I replaced my Peugeot": no favourite
        # "knocked Italian off the top spot", "replaced The Office as my favourite show"; not "my cat
        # knocked my tablet off the desk", "the new router replaced the old one"
        off = [g for c in children if c.lower_ in {"off", "from"} for g in c.children]
        told = _as_favourite(token) or any(g.lemma_.casefold() in _SPOTS | {"top"} for g in off)
        if lemma in _NEEDS_SPOT and not (told or spot):
            return None
        fallen = [o for o in objects if o not in spot] + [
            g for o in (*spot, token) for c in o.children if c.lower_ == "from" for g in c.children
        ]
        named = _as_favourite(token)
        return (subjects[0] if subjects else None, fallen, named[0] if named else None)
    return None


def _as_favourite(verb: Any) -> list[str]:
    """The category of "… as my favourite coffee" on ``verb``: ["coffee"]."""
    return [
        g.lemma_.casefold()
        for c in verb.children
        if c.lower_ == "as"
        for g in c.children
        if g.dep_ == "pobj" and any(m.lemma_.casefold() in _FAVOURITE_NOUNS for m in g.children)
    ]


def _used_to_be(now: Any) -> tuple[str, Any] | None:
    """(the category, the old value) of "my favourite X used to be A" in the sentence of ``now``; chat
    drops the "my" ("favourite colour used to be blue"), which the parse then hangs loosely."""
    for noun in now.sent:
        if noun.pos_ != "NOUN" or not any(c.lemma_.casefold() in _FAVOURITE_NOUNS for c in noun.children):
            continue
        if any(c.dep_ == "poss" and c.lower_ not in {"my", "our"} for c in noun.children):
            continue  # "her favourite colour used to be blue"
        used = [v for v in (noun.head, *noun.children) if v.lemma_ == "use" and v.pos_ == "VERB"]
        old = [a for v in used for x in v.children if x.lemma_ == "be" for a in x.children if a.dep_ in _SAID]
        if old:
            return noun.lemma_.casefold(), old[0]
    return None


def _thing_before(token: Any) -> Any | None:
    """What "it" refers back to: the last thing named before ``token`` in its turn."""
    before = [t for t in token.doc[: token.i] if t.dep_ in {"dobj", "pobj", "nsubj"} and t.pos_ == "PROPN"]
    return before[-1] if before else None


def _mine(noun: Any) -> bool:
    """ "my new obsession", "top of my list"; not "my dad's favourite" (the noun's own possessor)."""
    own = [c for c in noun.children if c.dep_ == "poss"]
    owners = own or [c for c in noun.subtree if c.dep_ == "poss"]
    return bool(owners) and owners[0].lower_ in {"my", "our"}


def _asked(verb: Any) -> bool:
    """ "Do I prefer ramen now?": asked, not told."""
    return bool(verb.sent.text.rstrip().endswith("?"))


def _holds(verb: Any) -> bool:
    """Not denied, wished or a modal's."""
    return not any(c.dep_ == "neg" or c.tag_ == "MD" for c in verb.children) or verb.lemma_ == "get"


def _speakers(verb: Any) -> bool:
    """The speaker's: an "I"/"we" subject, or none (chat's dropped "I"); a verb joined to another
    shares its subject ("My daughter Ella is 7 and obsessed with horses": Ella's)."""
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    while not subjects and verb.dep_ in {"conj", "xcomp"} and verb.head.i != verb.i:
        verb = verb.head
        subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    return not subjects or subjects[0].lower_ in {"i", "we"}


def _a_thing(token: Any) -> bool:
    return token.lower_ not in _NOT_THINGS and token.pos_ in {"PROPN", "NOUN", "ADJ"}


def _words(token: Any) -> list[Any]:
    """The name a token heads: "Pride and Prejudice", "earl grey", "Arctic Monkeys"."""
    return [t for t in token.subtree if t.pos_ in {"PROPN", "NOUN", "ADJ"} and len(t.text) > 2]
