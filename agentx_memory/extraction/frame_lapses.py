"""Endings told without a verb of stopping.

A pastime or a liking that lapsed, told by what is said of the speaker's interest: "my marathon days are
over", "my five-a-side days are behind me", "I've lost interest in knitting", "fallen out of love with
running", "got bored of crosswords". Each names no slot: it ends the speaker's facts that name the thing
(a hobby, a habit, a liking), as of when it was said.

A parting told by what it did to the slot's thing (:func:`parted`): an employer that let the speaker go
("Jaguar Land Rover let me go on Friday"), an engagement broken or called off (by either of them), a
home given up or moved out of ("gave up the flat in Glasgow", "moved out of my Seattle apartment for
good"). Pure functions over a spaCy parse."""

from __future__ import annotations

import re
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .english import third_person
from .frame_fits import SUBJECTS
from .frame_things import FAVOURITE_WORDS
from .frame_values import frames_of
from .lexicon import DWELLINGS, PARTNER_NOUNS, RELATION_NOUNS, SLOTS, VEHICLE_NOUNS

__all__ = ["a_receiver", "exes", "lapsed", "never_again", "new_owner", "parted", "used_to"]

#: What a diet without meat keeps out: eaten again, it ends.
_MEATS: Final = frozenset(["meat", "fish", "dairy", "chicken", "bacon", "steak", "beef", "pork", "burger"])
#: What the speaker can lose for a thing: "lost interest in", "lost my love for".
_KEENNESS: Final = frozenset(["interest", "love", "passion", "enthusiasm", "appetite", "taste", "patience"])
#: What a person's "days" of a thing can be: "over", "behind me", "done", "gone", "numbered".
_DAYS_GONE: Final = frozenset(["over", "behind", "done", "gone", "finished"])
#: Words that make the clause no lapse: a wish, a doubt, a denial.
_NOT_SO: Final = frozenset(["not", "n't", "never", "if", "maybe", "might", "hope", "think", "almost"])


def lapsed(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The things the speaker's interest in lapsed in this sentence, each as an ending of them."""
    atoms = []
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    meat = [token for token in sentence if _meat_again(token)]
    if meat:
        verb = meat[0]
        while verb.head.i != verb.i and not any(c.dep_ in SUBJECTS for c in verb.children):
            verb = verb.head  # up to the clause that says whose: "I've gone back to eating meat"
        others = {t.i for c in verb.children if c.dep_ in {"conj", "cc", "advcl"} for t in c.subtree}
        said = "".join(t.text_with_ws for t in verb.subtree if t.i not in others).strip(" .!,")
        said = said.rsplit(": ", 1)[-1]  # "heads up for recipes: I'm back on meat and dairy"
        atom = build_atom("statement", "ended", said, third_person(said, speaker), ctx, [], False, "explicit")
        atoms.append(atom.model_copy(update={"ends": ["diet"], "temporal": "past"}))
    for token in sentence:
        thing = _lapse(token)
        if thing is None or not _holds(token):
            continue
        words = [
            t.text for t in thing.subtree if t.pos_ in {"NOUN", "PROPN", "VERB", "NUM"} and len(t.text) > 2
        ]
        said = "".join(t.text_with_ws for t in thing.subtree).strip()
        if not words or not said:
            continue
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        atom = build_atom(
            "statement",
            "ended",
            said,
            f"{speaker} {'is done with' if token.lemma_ == 'be' else 'lost interest in'} {said}",
            ctx,
            [],
            False,
            "explicit",
        )
        atoms.append(atom.model_copy(update={"ends_words": words, "temporal": "past"}))
    return atoms


def _lapse(token: Any) -> Any | None:
    """The thing ``token`` says the speaker's interest in lapsed, if it heads such a clause."""
    lemma = token.lemma_.casefold()
    children = list(token.children)
    mine = any(c.dep_ in SUBJECTS and c.lower_ in {"i", "we"} for c in children)
    # "I've lost interest in knitting", "lost my love for running"
    if lemma == "lose" and token.pos_ == "VERB":
        keen = [c for c in children if c.dep_ == "dobj" and c.lemma_.casefold() in _KEENNESS]
        return _object_of(keen[0], {"in", "for"}) if keen and (mine or _opens(token)) else None
    # "My knees have given up on running": the speaker's body gave up the thing
    if lemma == "give" and any(c.lower_ == "up" for c in children) and _my_body(children):
        return _object_of(token, {"on"})
    # "Photography has taken a back seat", "running's on the back burner"
    if (lemma == "take" and any(_back(c, "seat") for c in children)) or (
        lemma == "be"
        and any(c.lower_ == "on" and any(_back(g, "burner") for g in c.children) for c in children)
    ):
        subjects = [c for c in children if c.dep_ in SUBJECTS and c.pos_ in {"NOUN", "PROPN"}]
        mine = any(
            t.lower_ in {"i", "my", "me", "i'm", "i've"} for t in token.sent
        )  # "Safety took a back seat"
        return subjects[0] if mine and subjects and subjects[0].lemma_.casefold() not in _BODY else None
    # "I've fallen out of love with running"
    if lemma == "fall" and any(c.lower_ == "out" for c in children) and (mine or _opens(token)):
        return _object_of(token, {"with"})
    # "got bored of crosswords", "I'm sick of padel" ("I'm done with Tinder" is an ending of the rules')
    if lemma in {"bore", "sick", "tired"} and token.tag_ in {"VBN", "JJ"}:
        owner = token.head if token.dep_ == "acomp" else token
        subjects = [c for c in [*children, *owner.children] if c.dep_ in SUBJECTS]
        if subjects and subjects[0].lower_ in {"i", "we"}:
            return _object_of(token, {"of", "with"})
        return None
    # "keto's out", "Siemens is old news", "Steph is ancient history": a thing of the speaker's put behind
    if lemma == "be" and token.pos_ == "AUX" and (gone := _put_behind(token)) is not None:
        return gone
    # "my marathon days are over", "my five-a-side days are behind me"
    if lemma == "be" and token.pos_ == "AUX":
        days = [c for c in children if c.dep_ in SUBJECTS and c.lower_ == "days"]
        gone = any(c.lower_ in _DAYS_GONE for c in children)
        if days and gone and any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in days[0].children):
            named = [c for c in days[0].children if c.dep_ in {"compound", "amod", "nmod"}]
            return named[-1] if named else None
    return None


#: A body's parts that can give up on a pastime for the speaker.
_BODY: Final = frozenset(
    ["knee", "knees", "back", "body", "hip", "hips", "ankle", "ankles", "foot", "feet", "shoulder",
     "shoulders", "leg", "legs", "joint", "joints", "lung", "lungs", "wrist", "wrists", "elbow", "elbows"]
)  # fmt: skip


def _my_body(children: list[Any]) -> bool:
    """The clause's subject is the speaker's body: "my knees have given up on running"."""
    return any(
        c.dep_ in SUBJECTS
        and c.lemma_.casefold() in _BODY
        and any(p.dep_ == "poss" and p.lower_ == "my" for p in c.children)
        for c in children
    )


def _back(token: Any, noun: str) -> bool:
    """ "a back seat", "the back burner"."""
    return token.lemma_.casefold() == noun and any(c.lower_ == "back" for c in token.children)


def never_again(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """What the speaker says they will not take up again: "I'm not picking the guitar up again", "never
    playing rugby again", "I won't be touching golf again": an ending of the facts that name it."""
    atoms = []
    for verb in sentence:
        children = list(verb.children)
        again = any(c.lower_ == "again" for c in children) or any(
            c.lower_ == "again" for c in sentence if c.head.i == verb.i or c.head.head.i == verb.i
        )
        denied = any(c.dep_ == "neg" or c.lower_ in {"never", "no"} for c in children)
        if verb.pos_ != "VERB" or not (again and denied) or verb.lemma_.casefold() not in _TAKING_UP:
            continue
        subjects = [c for c in children if c.dep_ in SUBJECTS]
        if subjects and subjects[0].lower_ not in {"i", "we"}:
            continue
        if any(t.ent_type_ in {"DATE", "TIME"} for t in verb.subtree):
            continue  # "not picking the kids up again today": one day's, no pastime
        things = [
            c
            for c in children
            if c.dep_ == "dobj"
            and c.pos_ in {"NOUN", "PROPN"}
            and c.lemma_.casefold() not in RELATION_NOUNS | _PEOPLE
            and not any(d.lower_ in {"that", "this", "those", "these"} for d in c.children)
        ]  # not "the kids", "that song"
        words = [
            t.text
            for thing in things
            for t in thing.subtree
            if t.pos_ in {"NOUN", "PROPN"} and len(t.text) > 2
        ]
        if not words:
            continue
        others = {t.i for c in children if c.dep_ in {"cc", "conj"} for t in c.subtree}
        said = "".join(t.text_with_ws for t in verb.subtree if t.i not in others).strip(" .,!")
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        told = third_person(said if subjects else f"I {said}", speaker)
        atom = build_atom("statement", "ended", said, told, ctx, [], False, "explicit")
        atoms.append(atom.model_copy(update={"ends_words": words, "temporal": "past"}))
    return atoms


#: People one picks up or drops off, no pastime.
_PEOPLE: Final = frozenset(["kid", "kids", "child", "children", "baby", "people", "friend", "friends"])
#: Verbs of doing a pastime the speaker says they will never do again.
_TAKING_UP: Final = frozenset(["pick", "play", "touch", "do", "ride", "run", "climb", "swim", "surf", "go"])


def _put_behind(copula: Any) -> Any | None:
    """The subject of "X is out / over / old news / ancient history", a name or a thing (not "it", not
    "the meeting is over" with no name: a thing the speaker had is named)."""
    children = list(copula.children)
    subjects = [c for c in children if c.dep_ in SUBJECTS]
    if not subjects or subjects[0].pos_ not in {"PROPN", "NOUN"} or subjects[0].lower_ == "days":
        return None
    named = subjects[0].pos_ == "PROPN" or any(c.dep_ == "poss" for c in subjects[0].children)
    if not named and any(c.dep_ == "det" for c in subjects[0].children):
        return None  # "the meeting is over": nothing of the speaker's named
    if any(c.dep_ == "poss" and c.lower_ not in {"my", "our"} for c in subjects[0].children):
        return None  # "her marriage is over"
    # "keto's out", "cobalt is out": one thing, no longer; not "stairs and long hikes are out for now",
    # "most burger places are out" (what the speaker cannot do or eat: a constraint)
    one = subjects[0].tag_ in {"NN", "NNP"} and not any(
        c.dep_ in {"det", "conj"} for c in subjects[0].children
    )
    out = one and any(c.dep_ in {"advmod", "acomp", "prt"} and c.lower_ in {"out", "over"} for c in children)
    out = out and "for now" not in copula.sent.text.casefold()
    history = any(
        c.dep_ == "attr"
        and (c.lemma_ == "history" or (c.lemma_ == "news" and any(a.lower_ == "old" for a in c.children)))
        for c in children
    )
    return subjects[0] if out or history else None


#: "my first steak in twelve years", "first burger in ages": the first for a long while.
_FIRST_IN_AGES: Final = re.compile(
    r"\bfirst\b[^.!?;]{0,40}\bin\s+(?:\w+\s+)?(?:years|ages|a\s+decade|decades|forever|a\s+long\s+time)\b",
    re.IGNORECASE,
)


def _meat_again(token: Any) -> bool:
    """ "I've gone back to eating meat", "I'm back on meat and dairy", "eating fish again": the diet that
    kept them out ends."""
    eaten = token.head if token.dep_ == "compound" else token  # "my first bacon sandwich"
    if token.lemma_.casefold() not in _MEATS or eaten.dep_ not in {"dobj", "pobj"}:
        return False
    clause = token.sent
    # "had my first bacon sandwich in twelve years": eaten again after a long time
    back = (
        any(t.lower_ in {"back", "again"} for t in clause) or _FIRST_IN_AGES.search(clause.text) is not None
    )
    mine = any(t.dep_ in SUBJECTS and t.lower_ in {"i", "we"} for t in clause) or not any(
        t.dep_ in SUBJECTS for t in clause
    )
    return back and mine and not any(t.dep_ == "neg" or t.tag_ == "MD" for t in clause)


def _object_of(head: Any, preps: set[str]) -> Any | None:
    for prep in head.children:
        if prep.dep_ == "prep" and prep.lower_ in preps:
            held = [c for c in prep.children if c.dep_ in {"pobj", "pcomp"}]
            if held:
                return held[0]
    return None


def _opens(verb: Any) -> bool:
    """No subject: chat's dropped "I" ("Lost interest in golf")."""
    return not any(c.dep_ in SUBJECTS for c in verb.children)


def _holds(token: Any) -> bool:
    """Said as so: not denied, wished or doubted ("I haven't lost interest", "if I lose interest")."""
    verb = token if token.pos_ in {"VERB", "AUX"} else token.head
    return not any(c.lower_ in _NOT_SO or c.tag_ == "MD" for c in verb.children)


#: Verbs whose subject ends the speaker's job, with the particle or complement they need ("let me go",
#: "laid me off", "fired me").
_DISMISSING: Final = {"let": "go", "lay": "off", "fire": None, "sack": None, "dismiss": None, "axe": None}
#: What an engagement can be: broken off, called off.
_PROMISES: Final = frozenset(["engagement", "wedding"])
_JOB_KEYS: Final = ["works_at", "works_as"]


def parted(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """Endings of the speaker's job, engagement or home told by what was done to them."""
    atoms = []
    for verb in sentence:
        if verb.pos_ != "VERB" or not _holds(verb):
            continue
        found = _job_ended(verb) or _engagement_ended(verb) or _home_left(verb)
        if found is None:
            continue
        keys, words = found
        # not the clause said before it: "I'm with Siemens now, the old firm let me go"
        others = {
            t.i
            for c in verb.children
            if c.dep_ in {"conj", "cc"}
            or (c.dep_ in {"ccomp", "parataxis", "advcl", "punct"} and c.i < verb.i)
            for t in c.subtree
        }
        said = "".join(t.text_with_ws for t in verb.subtree if t.i not in others).strip(" ,.;")
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        dropped = not any(c.dep_ in SUBJECTS for c in verb.children)  # "gave up the flat in Glasgow"
        statement = third_person(f"I {said}" if dropped else said, speaker)
        atom = build_atom("statement", "ended", said, statement, ctx, [], False, "explicit")
        atoms.append(atom.model_copy(update={"ends": keys, "ends_words": words, "temporal": "past"}))
    return atoms


def _job_ended(verb: Any) -> tuple[list[str], list[str]] | None:
    """ "Jaguar Land Rover let me go", "they laid me off", "Monzo fired me": the job ends, all of it."""
    lemma = verb.lemma_.casefold()
    if lemma not in _DISMISSING:
        return None
    needed = _DISMISSING[lemma]
    children = list(verb.children)
    me = [c for c in verb.subtree if c.lower_ == "me" and c.dep_ in {"dobj", "nsubj"}]
    done = needed is None or any(c.lemma_.casefold() == needed for c in verb.subtree)
    by = [c for c in children if c.dep_ in SUBJECTS and c.lower_ not in {"i", "we", "you"}]
    return (_JOB_KEYS, []) if me and done and by else None


def _engagement_ended(verb: Any) -> tuple[list[str], list[str]] | None:
    """ "I broke off the engagement with Jonah", "Brooke called off the engagement"."""
    if verb.lemma_.casefold() not in {"break", "call"} or not any(c.lower_ == "off" for c in verb.children):
        return None
    promised = [c for c in verb.children if c.dep_ == "dobj" and c.lemma_.casefold() in _PROMISES]
    if not promised or any(
        p.lower_ not in {"my", "our"} for c in promised for p in c.children if p.dep_ == "poss"
    ):
        return None  # "my sister called off her engagement"
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    if (
        subjects
        and subjects[0].pos_ != "PROPN"
        and subjects[0].lower_ not in {"i", "we", "she", "he", "they"}
    ):
        return None
    named = [g.text for c in verb.children if c.lower_ == "with" for g in c.children if g.pos_ == "PROPN"]
    named += [s.text for s in subjects if s.pos_ == "PROPN"]
    return sorted(PARTNER_NOUNS), named


def _home_left(verb: Any) -> tuple[list[str], list[str]] | None:
    """ "gave up the flat in Glasgow", "moved out of my Seattle apartment for good": that home ends."""
    lemma = verb.lemma_.casefold()
    particles = {c.lower_ for c in verb.children if c.dep_ in {"prt", "prep"}}
    others = {t.i for c in verb.children if c.dep_ in {"conj", "advcl"} for t in c.subtree}
    homes = [
        t for t in verb.subtree if t.lemma_.casefold() in DWELLINGS and t.pos_ == "NOUN" and t.i not in others
    ]
    if lemma == "move" and "out" in particles and not homes:  # "we moved out of Leeds": the town itself
        towns = [
            g.text
            for c in verb.subtree
            if c.lower_ == "of" and c.head.lower_ == "out"
            for g in c.children
            if g.pos_ == "PROPN" and g.ent_type_ in {"GPE", "LOC", ""}
        ]
        mine = not any(c.dep_ in SUBJECTS and c.lower_ not in {"i", "we"} for c in verb.children)
        return (["lives_in"], towns) if towns and mine else None
    if not homes or not (
        (lemma == "give" and "up" in particles)
        or (lemma == "move" and "out" in particles)
        or lemma in {"vacate"}
    ):
        return None
    if any(c.dep_ in SUBJECTS and c.lower_ not in {"i", "we"} for c in verb.children):
        return None  # "my landlord gave up the flat"
    # "my Seattle apartment", "the Leicester house" (the small model may not call a name before a home a
    # place), "the flat in Glasgow"
    places = [
        t.text
        for h in homes
        for t in h.subtree
        if t.pos_ == "PROPN" and (t.ent_type_ == "GPE" or (t.dep_ == "compound" and t.head.i == h.i))
    ]
    places += [g.text for c in verb.children if c.lower_ == "in" for g in c.children if g.ent_type_ == "GPE"]
    return (["lives_in"], places) if places else None


def used_to(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """What the speaker says they "used to" do or be, as an ending of it: "I used to live in Paris" (the
    home there ended), "I used to be vegetarian", "I used to drive a Clio". A habit said of the past
    tells it holds no more; what holds now is told elsewhere. Only a clause of the speaker's own, read
    through the lexicon's frames; None otherwise."""
    head = predicate.head
    if predicate.dep_ != "xcomp" or head.lemma_ != "use" or head.tag_ != "VBD":
        return None
    if not any(c.dep_ == "aux" and c.lower_ == "to" for c in predicate.children):
        return None
    subjects = [c for c in head.children if c.dep_ in SUBJECTS]
    if not subjects or any(c.dep_ == "neg" for c in head.children):
        return None
    keys, words = [], []
    if subjects[0].lower_ != "i":
        # "Pizza used to be my favourite", "Muse used to be my favourite band": the favourite ended
        favourite = [
            c
            for c in predicate.children
            if c.dep_ == "attr" and _my_favourite(c) and predicate.lemma_ == "be"
        ]
        if not favourite:
            return None
        kind = favourite[0].lemma_.casefold() if favourite[0].pos_ == "NOUN" else None
        keys = ["favourite", *([f"favourite_{kind}"] if kind else [])]
        words = [t.text for t in subjects[0].subtree if t.pos_ in {"PROPN", "NOUN"} and len(t.text) > 2]
    for frame, value, fits in frames_of(predicate) if subjects[0].lower_ == "i" else ():
        if fits:
            keys.append(SLOTS[frame.slot].key)
            words += [t.text for t in value.subtree if t.pos_ in {"PROPN", "NOUN", "ADJ"} and len(t.text) > 2]
    if not keys:
        return None
    others = {t.i for c in head.children if c.dep_ in {"conj", "cc", "advcl", "parataxis"} for t in c.subtree}
    kept = [t for t in head.subtree if t.i >= subjects[0].i and t.i not in others and not t.is_punct]
    said = "".join(t.text_with_ws for t in kept).strip()
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    atom = build_atom("statement", "ended", said, third_person(said, speaker), ctx, [], False, "explicit")
    return atom.model_copy(update={"ends": sorted(set(keys)), "ends_words": words, "temporal": "past"})


def _my_favourite(token: Any) -> bool:
    """ "my favourite", "my favourite band" (the favourite word on the noun or the noun itself)."""
    words = [token, *token.children]
    return any(t.lower_ in FAVOURITE_WORDS for t in words) and any(
        t.dep_ == "poss" and t.lower_ == "my" for t in words
    )


#: Words that may stand between "my ex" and the name: "my ex-girlfriend Jas", "my ex, Karan".
_EX_BETWEEN: Final = frozenset(
    ["-", ",", "husband", "wife", "partner", "boyfriend", "girlfriend", "bf", "gf"]
)


def exes(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "my ex Karan keeps texting me", "my ex-girlfriend Jas": the speaker and the one named are no
    longer together, whatever the sentence goes on to say of them; it ends a partner fact naming them."""
    found: list[FactAtom] = []
    doc = sentence.doc
    for token in sentence:
        if token.lower_ not in {"ex", "ex-"} or token.i == 0 or doc[token.i - 1].lower_ != "my":
            continue
        after = [t for t in doc[token.i + 1 : token.i + 5] if t.lower_ not in _EX_BETWEEN]
        name = after[0] if after and after[0].pos_ == "PROPN" and after[0].text[:1].isupper() else None
        if name is None:
            continue
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        statement = f"{speaker} and {name.text} are no longer together"
        atom = build_atom(
            "statement", "ended", f"ex {name.text}", statement, ctx, [name.text], False, "explicit"
        )
        found.append(atom.model_copy(update={"ends": sorted(PARTNER_NOUNS), "ends_words": [name.text]}))
    return found


def apart(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """ "Ravi and I are no longer together", "we're not together anymore": the speaker's partner (named,
    or whoever is current) is no longer theirs."""
    children = list(predicate.children)
    if predicate.lemma_ != "be" or not any(c.dep_ == "advmod" and c.lower_ == "together" for c in children):
        return None
    denied = any(c.dep_ == "neg" for c in children) or any(
        c.lower_ == "longer" and any(g.dep_ == "neg" for g in c.children) for c in children
    )
    subjects = [c for c in children if c.dep_ in {"nsubj", "nsubjpass"}]
    if not denied or not subjects or any(c.tag_ == "MD" for c in children):
        return None
    both = [subjects[0], *(c for c in subjects[0].children if c.dep_ == "conj")]
    if not any(t.lower_ in {"i", "we", "me"} for t in both):
        return None  # "my parents aren't together anymore": theirs
    names = [t.text for t in both if t.pos_ == "PROPN" or (t.ent_type_ == "PERSON" and t.text[:1].isupper())]
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    other = f" and {names[0]}" if names else ""
    statement = (
        f"{speaker}{other} are no longer together" if other else f"{speaker} is no longer with their partner"
    )
    atom = build_atom(
        "statement", "ended", "no longer together", statement, ctx, names[:1], False, "explicit"
    )
    return atom.model_copy(
        update={"ends": sorted(PARTNER_NOUNS), "ends_words": names[:1], "temporal": "past"}
    )


#: Verbs of handing a thing of one's own on to someone: "gave my old Corolla to my nephew".
_HANDING: Final = frozenset(["give", "hand", "pass"])


def handed_on(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """A thing of the speaker's now someone else's: "I gave my old Corolla to my nephew", "the i30 went
    to my cousin", "sold the Golf to a mate": it ends the facts that name it."""
    children = list(predicate.children)
    lemma = predicate.lemma_.casefold()
    to = [
        g
        for c in children
        if c.dep_ in {"prep", "dative"} and c.lower_ == "to"
        for g in c.children
        if g.dep_ == "pobj"
    ]
    if not to or not a_receiver(to[0]) or any(c.dep_ == "neg" or c.tag_ == "MD" for c in children):
        return None
    subjects = [c for c in children if c.dep_ in {"nsubj", "nsubjpass"}]
    if lemma in _HANDING:
        things = [c for c in children if c.dep_ == "dobj"]
        if not subjects or subjects[0].lower_ not in {"i", "we"}:
            return None
    elif lemma == "go" and predicate.tag_ in {"VBD", "VBN"}:
        things = subjects  # "the i30 went to my cousin"
    else:
        return None
    if not things or not _a_thing_of_mine(things[0]):
        return None
    names = [t.text for t in things[0].subtree if t.pos_ == "PROPN" or any(ch.isdigit() for ch in t.text)]
    words = names or [things[0].lemma_]
    # its own clause, without the clauses the parse hung on it ("grabbed a CX-5, the i30 went to …")
    others = {
        t.i for c in children if c.dep_ in {"ccomp", "advcl", "conj", "parataxis", "cc"} for t in c.subtree
    }
    kept = [t for t in predicate.subtree if t.i not in others and not t.is_punct]
    kept = [t for t in kept if lemma == "go" or t.i >= predicate.i]  # the giver is the speaker, said as "I"
    said = " ".join(t.text for t in kept)
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    told = third_person(said if lemma == "go" else f"I {said}", speaker)
    atom = build_atom("statement", "ended", said, told, ctx, [], False, "explicit")
    if not names and things[0].lemma_.casefold() in VEHICLE_NOUNS:  # "gave my car to my sister": the car
        return atom.model_copy(update={"ends": ["drives"], "temporal": "past"})
    return atom.model_copy(update={"ends_words": words, "temporal": "past"})


def a_receiver(token: Any) -> bool:
    """Someone a thing goes to: "my nephew", "a mate", "Tom", "a dealer", "a farmer in Perthshire"; not
    somewhere it goes for a while ("the garage", "the menders")."""
    return token.lemma_.casefold() in RELATION_NOUNS | _RECEIVERS or (token.ent_type_ == "PERSON")


#: Those a thing of the speaker's goes to for good.
_RECEIVERS: Final = frozenset(
    ["mate", "friend", "buyer", "neighbour", "neighbor", "dealer", "dealership", "farmer", "collector",
     "stranger", "guy", "bloke", "lad", "chap", "woman", "man", "family", "couple", "student", "owner",
     "scrapyard", "scrapper", "scrap", "charity", "auction", "home", "scrappy", "scrapheap", "breaker",
     "breakers", "wreckers", "crusher"]
)  # fmt: skip


def new_owner(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """A thing of the speaker's that has a new owner: "The Fiesta's new owner messaged asking where the
    spare key is", "the flat's new owners moved in": it ends the facts that name it."""
    found = []
    for owner in sentence:
        if owner.lemma_.casefold() != "owner" or not any(c.lower_ == "new" for c in owner.children):
            continue
        things = [c for c in owner.children if c.dep_ == "poss" and c.lower_ not in _PRONOUNS]
        if not things or not _a_thing_of_mine(things[0]):
            continue
        names = [t.text for t in things[0].subtree if t.pos_ == "PROPN" or any(ch.isdigit() for ch in t.text)]
        thing = " ".join(t.text for t in things[0].subtree if t.dep_ != "case")
        told = f"{thing[:1].upper()}{thing[1:]} has a new owner"
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        atom = build_atom("statement", "ended", thing, told, ctx, [], False, "explicit")
        if not names and things[0].lemma_.casefold() in VEHICLE_NOUNS:  # "the car's new owner"
            found.append(atom.model_copy(update={"ends": ["drives"], "temporal": "past"}))
        else:
            found.append(
                atom.model_copy(update={"ends_words": names or [things[0].lemma_], "temporal": "past"})
            )
    return found


_PRONOUNS: Final = frozenset(["my", "our", "your", "his", "her", "their", "its"])


def _a_thing_of_mine(thing: Any) -> bool:
    """ "my old Corolla", "the i30", "the car": the speaker's, by "my"/"our" or a name or a vehicle."""
    if any(c.dep_ == "poss" and c.lower_ not in {"my", "our"} for c in thing.children):
        return False
    return (
        thing.pos_ == "PROPN"
        or thing.is_title
        or any(ch.isdigit() for ch in thing.text)
        or thing.lemma_.casefold() in VEHICLE_NOUNS
    )
