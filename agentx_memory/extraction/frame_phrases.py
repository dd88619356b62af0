"""Facts a noun phrase or an inverted clause tells, which no predicate frame holds: "the kitchen in our
new flat in Cardiff" (a home), "my first week at Diageo" (an employer), "Siemens poached me" (the
employer is the subject, the speaker the object); and habits, told by how often ("I smoke about ten a
day", "I row three mornings a week"; "I don't row anymore" ends one)."""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .english import third_person
from .frame_fits import SUBJECTS
from .frame_moved_on import moved_on, said_by_me
from .frame_said import told_atoms
from .frame_things import FAVOURITE_WORDS, NO_THING
from .frame_vehicles import (
    NEW_VEHICLE,
    made_vehicle,
    named_vehicle,
    owned_vehicle,
    vehicle_head,
)
from .frame_work import for_a_living
from .lexicon import (
    DWELLINGS,
    FRAMES,
    RELATION_NOUNS,
    SCHOOLS,
    VEHICLE_NOUNS,
    WISH_HEADS,
    Frame,
)
from .slot_atoms import slot_atom
from .verbs import conjugate, gerund

__all__ = ["habit_atom", "hired_by", "sentence_atoms"]

_HOME: Final = Frame("live", "prep", "residence")
_NEW_HOME: Final = Frame("move", "prep", "residence", change=True)
#: What chat calls the speaker's vehicle besides its kind: "my new ride", "new wheels".
_RIDES: Final = frozenset(["ride", "wheels", "motor", "whip", "daily"])
#: What happens to a new vehicle that leaves the speaker without it: "my new car got stolen".
_VEHICLE_LOST: Final = frozenset(["steal", "crash", "total", "write", "sell", "return", "scrap"])
_JOINED: Final = Frame("join", "dobj", "employer", change=True)
#: Dwellings one no longer lives in, or does not live in: "my old flat in Leeds", "our holiday flat".
_NOT_HOME: Final = frozenset(
    ["old", "former", "previous", "last", "childhood", "student", "holiday", "rental", "second", "first",
     "future", "dream", "parents", "mum", "mom", "dad", "airbnb", "hotel"]
)  # fmt: skip
#: The first stretch at a place of work: "my first week at Diageo".
_FIRST_SPANS: Final = frozenset(["day", "week", "month", "shift", "fortnight"])
#: Working for oneself: "I work freelance", "I went freelance".
_ON_ONES_OWN: Final = frozenset(["freelance", "freelancer"])
#: Verbs whose subject employs their object: "Siemens poached me", "Arup hired me in May".
_HIRING: Final = frozenset(["poach", "hire", "recruit", "headhunt", "employ"])
#: What a detached "my favourite …" can refer back to: the things the clause before it names.
_REFERENTS: Final = frozenset(["dobj", "pobj", "attr", "appos"])


def sentence_atoms(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """What a sentence the reader does not doubt tells by its phrases rather than its predicates."""
    return [
        *_dwellings(sentence, speaker, turn),
        *_first_days(sentence, speaker, turn),
        *moved_on(sentence, speaker, turn),
        *_single(sentence, speaker, turn),
        *_lost(sentence, speaker, turn),
        *_new_vehicles(sentence, speaker, turn),
        *_detached_favourites(sentence, speaker, turn),
        *_former(sentence, speaker, turn),
        *_not_for_a_while(sentence, speaker, turn),
        *for_a_living(sentence, speaker, turn),
        *made_vehicle(sentence, speaker, turn),
        *owned_vehicle(sentence, speaker, turn),
        *told_atoms(sentence, speaker, turn),
    ]


def _dwellings(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "our new flat in Cardiff", "my Glasgow tenement", "my flat in Edinburgh": the speaker's home
    (a move, when the dwelling is new); not an old, a holiday or a parents' one, nor one told in the
    past tense."""
    atoms: list[FactAtom] = []
    for noun in sentence:
        if noun.pos_ != "NOUN" or not (noun.lemma_.casefold() in DWELLINGS or noun.lower_ == "tenement"):
            continue
        acquired = _acquired(noun)
        if not acquired and not any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in noun.children):
            continue
        modifiers = {c.lower_ for c in noun.children if c.dep_ in {"amod", "compound", "nmod"}}
        if modifiers & _NOT_HOME or (_told_in_past(noun) and not acquired):
            continue
        # "my Glasgow tenement" (the small model may take Glasgow for a person: a name before a dwelling
        # is where it is)
        places = [c for c in noun.children if c.dep_ == "compound" and c.pos_ == "PROPN"]
        places += [
            g
            for c in noun.children
            if c.dep_ == "prep" and c.lower_ == "in"
            for g in c.children
            if g.dep_ == "pobj" and g.pos_ == "PROPN"
        ]
        if places:
            frame = _NEW_HOME if "new" in modifiers or acquired else _HOME
            atoms.append(slot_atom(frame, places[0], speaker, turn, False, speaker, False))
    return atoms


def _first_days(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "First week at Diageo has been chaos", "my first day at Arup": a new employer."""
    atoms: list[FactAtom] = []
    for span in sentence:
        if span.lemma_.casefold() not in _FIRST_SPANS or not any(c.lower_ == "first" for c in span.children):
            continue
        owners = [c for c in span.children if c.dep_ == "poss"]
        if owners and owners[0].lower_ not in {"my", "our"}:
            continue  # "her first week at Arup"
        # "my first week at Diageo"; "it's my first week at Deloitte" (the place hangs on the copula)
        holders = [span, span.head] if span.dep_ == "attr" else [span]
        for prep in (c for h in holders for c in h.children if c.dep_ == "prep" and c.lower_ == "at"):
            for place in (g for g in prep.children if g.dep_ == "pobj"):
                named = place.pos_ == "PROPN" or place.ent_type_ == "ORG"
                if named and not any(t.lower_ in SCHOOLS for t in place.subtree):
                    atoms.append(slot_atom(_JOINED, place, speaker, turn, True, speaker, False))
    return atoms


def hired_by(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """ "Siemens poached me", "Great Ormond Street poached me for their cardiac ward", "got poached by
    Dassault"; "I work freelance",
    "I went freelance", "I'm self-employed now" (one's own employer: a job somewhere replaces it)."""
    if (
        predicate.lemma_.casefold() in {"work", "go", "turn"}
        and any(
            c.lower_ in _ON_ONES_OWN and c.dep_ in {"dobj", "acomp", "advmod", "attr"}
            for c in predicate.children
        )
        and any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in predicate.children)
    ):
        ctx = Context(turn=turn, subject=speaker, correction=False, is_speaker=True)
        statement = f"{speaker} works freelance"
        return build_atom("identity", "works_at", "freelance", statement, ctx, [], False, "explicit")
    lemma = predicate.lemma_.casefold()
    taken_on = lemma == "take" and any(
        c.dep_ in {"prt", "prep"} and c.lower_ == "on" for c in predicate.children
    )
    if lemma not in _HIRING and not taken_on:  # "Rolls-Royce took me on as a trainee"
        return None
    if predicate.tag_ == "VBN":  # "(I) got poached by Dassault last month", "I was headhunted by Arup"
        children = list(predicate.children)
        subjects = [c for c in children if c.dep_ in SUBJECTS]
        told = [*children, *(g for c in children if c.dep_ == "auxpass" for g in c.children)]
        if any(c.dep_ == "neg" or c.tag_ == "MD" or c.lower_ in {"almost", "nearly"} for c in told) or not (
            all(c.lower_ == "i" for c in subjects) and any(c.dep_ == "auxpass" for c in children)
        ):
            return None
        agents = [g for c in children if c.dep_ == "agent" for g in c.children if g.dep_ == "pobj"]
        named = [g for g in agents if g.pos_ == "PROPN" or g.ent_type_ == "ORG"]
        return slot_atom(_JOINED, named[0], speaker, turn, True, speaker, False) if named else None
    if not any(c.dep_ == "dobj" and c.lower_ == "me" for c in predicate.children):
        return None
    employers = [
        c for c in predicate.children if c.dep_ in SUBJECTS and (c.pos_ == "PROPN" or c.ent_type_ == "ORG")
    ]
    if not employers:
        return None
    return slot_atom(_JOINED, employers[0], speaker, turn, True, speaker, False)


#: Verbs by which one comes to have a home: "closed on a house in Fort Worth", "got the keys to our new
#: place in Valencia", "bought a flat in Leith", "signed for a place in Bend".
_ACQUIRING: Final = frozenset(
    ["close", "buy", "get", "sign", "complete", "move", "rent", "find", "land", "take"]
)


def _acquired(noun: Any) -> bool:
    """Whether the speaker (I, we) came to have the dwelling ``noun``: the object of an acquiring verb,
    directly or through a preposition or "the keys to"; said as done, not wished, asked or denied."""
    node = noun
    while (
        node.dep_ in {"pobj", "prep", "dobj"} and node.head.i != node.i and node.pos_ not in {"VERB", "AUX"}
    ):
        node = node.head
    if node.pos_ != "VERB" or node.lemma_.casefold() not in _ACQUIRING:
        return False
    children = list(node.children)
    if any(c.dep_ == "neg" or c.tag_ == "MD" for c in children) or node.dep_ in {"xcomp", "relcl", "acl"}:
        return False
    mine = any(c.dep_ in SUBJECTS and c.lower_ in {"i", "we"} for c in children)
    dropped = not any(c.dep_ in SUBJECTS for c in children) and node.i == node.sent.start + _opening(node)
    return (mine or dropped) and node.tag_ in {"VBD", "VBN"}


def _opening(verb: Any) -> int:
    """How many words come before ``verb`` in its sentence that are adverbs ("Just closed on …")."""
    return sum(1 for t in verb.doc[verb.sent.start : verb.i] if t.pos_ in {"ADV", "PUNCT", "INTJ"})


def _told_in_past(noun: Any) -> bool:
    """Whether the clause the noun is part of is in the simple past ("my flat in Leeds was tiny")."""
    node = noun
    while node.head.i != node.i and node.pos_ not in {"VERB", "AUX"}:
        node = node.head
    return bool(node.tag_ == "VBD")


#: Words that say how often: "ten a day", "three mornings a week", "every Sunday", "most evenings".
_HOW_OFTEN: Final = frozenset(
    ["day", "week", "month", "morning", "evening", "night", "weekend", "daily", "weekly", "every", "often",
     "usually", "regularly", "twice", "times", "sunday", "monday", "tuesday", "wednesday", "thursday",
     "friday", "saturday", "lot", "loads", "lately", "constantly", "most"]
)  # fmt: skip
#: Verbs no habit is told by (states, sayings, the frames' own verbs).
_NOT_HABITS: Final = frozenset(
    ["be", "have", "do", "go", "get", "make", "take", "say", "think", "feel", "want", "need", "like", "love",
     "hate", "know", "see", "mean", "guess", "hope", "wish", "try", "use", "come", "let", "tell", "ask",
     "call", "text", "miss", "forget", "remember", "look", "seem", "spend", "pay", "cost", "wake", "sleep",
     "eat", "drink", "cook", "check", "keep", "help", "find", "give", "put", "send", "bring", "buy"]
)  # fmt: skip
#: The frames' own verbs tell a habit only alone: "I run every morning", not "I run a café" (the frame's).
_FRAME_VERBS: Final = frozenset(frame.lemma for frame in FRAMES)
#: The auxiliaries of a habit kept up now: "I've been swimming a lot", "I'm cycling loads these days".
_KEPT_UP: Final = frozenset(["have", "'ve", "be", "been", "am", "'m"])


def habit_atom(predicate: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """ "I smoke about ten a day" (the habit ``smoking``), "I don't row anymore" (its negation, which
    ends it); said in the present simple by the speaker, with how often (or "anymore")."""
    lemma = predicate.lemma_.casefold()
    if predicate.pos_ != "VERB" or predicate.tag_ not in {"VBP", "VB", "VBG"} or lemma in _NOT_HABITS:
        return None
    if predicate.lower_.removesuffix("ing") + "e" in WISH_HEADS:
        return None  # "I'm hoping for …": the small model's lemma is "hop"
    if predicate.dep_ in {"relcl", "acl"} or any(c.lower_ == "where" for c in predicate.children):
        return None  # "a job I enjoy every day", "Etsy is where I work these days": no pastime
    children = list(predicate.children)
    if not any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in children):
        return None
    if lemma in _FRAME_VERBS and any(c.dep_ in {"prep", "dobj", "attr", "dative", "prt"} for c in children):
        return None
    auxiliaries = [c for c in children if c.dep_ in {"aux", "auxpass"}]
    if predicate.tag_ == "VBG" and not (auxiliaries and all(a.lower_ in _KEPT_UP for a in auxiliaries)):
        return None  # "I'm running tomorrow" has its "am" and no how-often: refused below
    # an object that is a count or a stretch of time ("ten a day", "three mornings a week") is how often
    counts = {"DATE", "TIME", "CARDINAL", "QUANTITY"}
    if any(
        c.dep_ in {"dobj", "xcomp", "ccomp"} and c.pos_ != "NUM" and c.ent_type_ not in counts
        for c in children
    ):
        return None  # "I play tennis every Sunday", "I call my mum every Sunday": the rules read those
    if predicate.tag_ != "VBG" and any(a.lower_ not in {"do", "don't"} for a in auxiliaries):
        return None  # "I'll run", "I've run": no present habit
    negated = any(c.dep_ == "neg" for c in children)
    anymore = any(c.lower_ in {"anymore", "longer"} for c in children)
    if negated != anymore:
        return None  # "I don't smoke" alone says less than a habit ended; "I smoke anymore" is no English
    clause = [t for t in predicate.subtree if t.dep_ not in {"ccomp", "advcl", "conj", "parataxis"}]
    if not anymore and not any(t.lower_ in _HOW_OFTEN or t.lemma_.casefold() in _HOW_OFTEN for t in clause):
        return None
    if any(t.lower_ in {"this", "next", "tomorrow", "tonight", "later"} for t in clause):
        return None  # "I'm surfing this weekend": one occasion, not a habit
    doing = gerund(lemma)
    ctx = Context(turn=turn, subject=speaker, correction=anymore, is_speaker=True)
    start = min([predicate.i, *(a.i for a in auxiliaries if predicate.tag_ == "VBG")])
    said = "".join(t.text_with_ws for t in predicate.subtree if t.i >= start and not t.is_punct).strip()
    told = f"I{said}" if said[:1] in "'’" else f"I {said}"  # "I" + "'ve been swimming a lot"
    statement = f"{speaker} no longer {conjugate(lemma)}" if negated else third_person(told, speaker)
    return build_atom("preference", "habit", doing, statement, ctx, [], negated, "explicit")


def _single(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "I'm single": the speaker has no partner (a later partner replaces it, and it them)."""
    for token in sentence:
        copula = token.head
        if token.lower_ == "single" and token.dep_ == "acomp" and copula.lemma_ == "be":
            children = list(copula.children)
            if any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in children) and not any(
                c.dep_ == "neg" or c.tag_ == "MD" for c in children
            ):
                ctx = Context(turn=turn, subject=speaker, correction=False, is_speaker=True)
                statement = f"{speaker} is single"
                return [
                    build_atom("relationship", "partner", "single", statement, ctx, [], False, "explicit")
                ]
    return []


#: Verbs by which a thing is lost to its owner, with the particle they need: "someone nicked the Fiesta",
#: "my bike was stolen", "the Mini got written off".
_LOSING: Final = {"steal": "", "nick": "", "pinch": "", "nab": "", "total": "", "write": "off", "wreck": ""}


#: Things one owns that can be stolen or written off, besides vehicles.
_BELONGINGS: Final = frozenset(["bike", "bicycle", "phone", "laptop", "wallet", "watch", "ring", "camera"])


def _lost(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The speaker's thing stolen or written off, which ends what names it: the thing is "the" or "my"
    one, the subject of a passive ("my bike was stolen") or the object of someone else's act ("someone
    nicked the Fiesta"; "I nicked a pen" loses nothing)."""
    atoms: list[FactAtom] = []
    for verb in sentence:
        lemma = verb.lemma_.casefold()
        if verb.pos_ != "VERB" or lemma not in _LOSING:
            continue
        particle = _LOSING[lemma]
        if particle and not any(c.dep_ == "prt" and c.lower_ == particle for c in verb.children):
            continue
        subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
        if any(c.dep_ == "neg" or c.tag_ == "MD" for c in verb.children) or any(
            s.lower_ == "i" for s in subjects
        ):
            continue
        things = [c for c in verb.children if c.dep_ == "nsubjpass"] or [
            c for c in verb.children if c.dep_ == "dobj"
        ]
        for thing in things:
            if not any(
                c.dep_ in {"det", "poss"} and c.lower_ in {"the", "my", "our"} for c in thing.children
            ):
                continue
            owned = thing.pos_ == "PROPN" or thing.lemma_.casefold() in VEHICLE_NOUNS | _BELONGINGS
            words = [t.text for t in thing.subtree if t.pos_ in {"PROPN", "NOUN"}]
            if not owned or not words:
                continue  # "the report was written off": no belonging of the speaker's
            said = " ".join(t.lower_ if t.lower_ in {"the", "my", "our"} else t.text for t in thing.subtree)
            ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
            statement = f"{speaker} lost {said.replace('my ', 'the ').replace('our ', 'the ')}"
            atom = build_atom("statement", "ended", said, statement, ctx, [], False, "explicit")
            keys = ["drives"] if thing.lemma_.casefold() in VEHICLE_NOUNS else []
            atoms.append(atom.model_copy(update={"ends": keys, "ends_words": words, "temporal": "past"}))
    return atoms


def _new_vehicles(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "Check out my new ride: a 2019 Jeep Wrangler", "New car alert: Tesla Model Y": the speaker's
    new vehicle is the maker-led name the sentence gives (not "my sister's new car")."""
    new = [
        noun
        for noun in sentence
        if noun.lemma_.casefold() in VEHICLE_NOUNS | _RIDES
        # "New ride alert": the parser may hang "new" on the word the vehicle noun modifies
        and any(
            c.lower_ == "new"
            for c in [*noun.children, *(noun.head.children if noun.dep_ == "compound" else ())]
        )
        and not any(c.dep_ == "poss" and c.lower_ not in {"my", "our"} for c in noun.children)
        and not _got_by_someone_else(noun)
    ]
    makes = [t for t in sentence if named_vehicle(t)]
    lost = any(t.lemma_.casefold() in _VEHICLE_LOST for t in sentence if t.pos_ == "VERB")
    if not new or not makes or lost:
        return []
    return [slot_atom(NEW_VEHICLE, vehicle_head(makes[0]), speaker, turn, True, speaker, False)]


def _got_by_someone_else(noun: Any) -> bool:
    """ "My dad got a new car, a Volvo": the clause's subject is someone other than the speaker (not the
    vehicle itself: "my new car is a Volvo")."""
    verb = noun.head
    while verb.pos_ not in {"VERB", "AUX"} and verb.head.i != verb.i:
        verb = verb.head
    if any(t.lower_ == "between" for t in noun.sent):
        return True  # "torn between a Kia Sportage and a Hyundai Tucson": a choice, no one's car yet
    # "Helping my dad pick a new car": whose the clause is, when it is the complement of a verb of helping
    while verb.dep_ in {"xcomp", "ccomp", "advcl"} and verb.head.i != verb.i:
        helped = [c for c in verb.head.children if c.dep_ in {"dobj", "nsubj"} and c.i < verb.i]
        if any(c.lemma_.casefold() in RELATION_NOUNS or c.ent_type_ == "PERSON" for c in helped):
            return True
        verb = verb.head
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS and c.i != noun.i]
    return any(
        (c.pos_ == "PRON" and c.lower_ not in {"i", "we"})
        or (c.ent_type_ == "PERSON" and not named_vehicle(c))  # "Kia Niro" is no person
        or c.lemma_.casefold() in RELATION_NOUNS
        for c in subjects
    )


def _kind_of(noun: Any) -> str:
    return str(noun.lemma_).casefold()


def _detached_favourites(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "I'm all about matcha lattes now, my favourite drink by miles", "Had pho last night, my
    favourite food": a "my favourite Y" set off by a comma at the end of a clause is the thing that
    clause named last (whatever the verb), so it is the speaker's favourite Y."""
    for noun in sentence:
        favourite = any(c.lower_ in FAVOURITE_WORDS for c in noun.children) and not any(
            t.lower_ in {"least", "second", "old", "former", "ex", "previous", "childhood"}
            for t in noun.children
        )
        mine = any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in noun.children)
        opener = min((t.i for t in noun.subtree if not t.is_punct), default=noun.i)
        if not (favourite and mine and noun.pos_ == "NOUN") or opener == 0:
            continue
        if noun.doc[opener - 1].text not in {",", "-", "–", "—", ":"} or (
            noun.dep_ == "nsubj" and noun.head.lemma_ == "be"
        ):
            continue  # "my favourite drink is …" is read by its copula
        verb = noun.head if noun.head.pos_ in {"VERB", "AUX"} else sentence.root
        before = [
            t
            for t in noun.doc[sentence.start : opener - 1]
            if t.dep_ in _REFERENTS and t.pos_ in {"NOUN", "PROPN"} and t.ent_type_ not in {"DATE", "TIME"}
        ]
        if _kind_of(noun) in NO_THING or not before or any(c.dep_ == "neg" for c in verb.children):
            continue
        # "a table at Dishoom, my favourite restaurant": the parse may already say which
        thing = noun.head if noun.dep_ == "appos" and noun.head.pos_ in {"NOUN", "PROPN"} else before[-1]
        if any(t.lower_ in {"i", "me", "my", "we", "our", "you", "your"} for t in _own_words(thing, noun)):
            continue  # "my favourite …" after "your lasagne" or "my mum's cooking": not one thing said
        said = " ".join(
            t.text for t in _own_words(thing, noun) if t.dep_ not in {"det", "poss"} and not t.is_punct
        )
        kind = _kind_of(noun)
        ctx = Context(turn=turn, subject=speaker, correction=False, is_speaker=True)
        statement = f"{speaker}'s favourite {kind} is {said}"
        return [build_atom("preference", f"favourite_{kind}", said, statement, ctx, [], False, "explicit")]
    return []


def _own_words(thing: Any, favourite: Any) -> list[Any]:
    """``thing``'s words without the "my favourite …" that may hang on it."""
    said = {t.i for t in favourite.subtree}
    return [t for t in thing.subtree if t.i not in said]


#: Words that make the speaker's thing a past one: "biology was my old job", "Tom's my ex".
_FORMER: Final = frozenset(["old", "former", "previous", "ex", "ex-"])


def _former(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "biology was my old job", "Barclays was my previous employer", "Tom is my ex": what the subject
    names is over for the speaker; it ends the stored facts that name it."""
    for copula in sentence:
        if copula.lemma_ != "be" or any(c.dep_ == "neg" or c.tag_ == "MD" for c in copula.children):
            continue
        subject = next((c for c in copula.children if c.dep_ in SUBJECTS), None)
        attr = next((c for c in copula.children if c.dep_ == "attr"), None)
        if subject is None or attr is None or subject.pos_ not in {"NOUN", "PROPN"}:
            continue
        mine = any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in attr.children)
        former = [c for c in attr.children if c.lower_ in _FORMER] or ([attr] if attr.lower_ == "ex" else [])
        if not (mine and former) or any(t.lower_ in {"my", "our", "i"} for t in subject.subtree):
            continue
        words = [t.text for t in subject.subtree if t.pos_ in {"NOUN", "PROPN"}]
        said = " ".join(t.text for t in subject.subtree)
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        statement = f"{said} was {speaker}'s {' '.join(t.lower_ for t in attr.subtree if t.dep_ != 'poss')}"
        statement = statement[:1].upper() + statement[1:]  # "Biology was Sam's old job"
        atom = build_atom("statement", "ended", said, statement, ctx, [], False, "explicit")
        return [atom.model_copy(update={"ends_words": words, "temporal": "past"})]
    return []


#: Stretches of time that, without doing something, mean one has stopped: "in three months".
_STRETCHES: Final = frozenset(["days", "weeks", "months", "years", "ages", "while", "year", "month", "week"])


def _not_for_a_while(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """ "I haven't smoked in three months", "haven't had a drink for a year": the speaker stopped doing
    it; it ends the stored facts that name the doing (or what was done)."""
    for verb in sentence:
        children = list(verb.children)
        perfect = any(c.dep_ == "aux" and c.lemma_ == "have" for c in children)
        if verb.pos_ != "VERB" or not perfect or not any(c.dep_ == "neg" for c in children):
            continue
        if verb.dep_ in {"relcl", "acl"}:
            continue  # "loads of books I haven't read in years": the books, no habit stopped
        if not said_by_me(verb) or any(c.tag_ == "MD" for c in children):
            continue
        spans = [g for c in children if c.dep_ == "prep" and c.lower_ in {"in", "for"} for g in c.children]
        if not any(g.lemma_.casefold() in _STRETCHES or g.lower_ in _STRETCHES for g in spans):
            continue
        people = [t for c in children if c.dep_ in {"dobj", "prep", "dative"} for t in c.subtree]
        if any(t.pos_ == "PRON" or t.ent_type_ == "PERSON" for t in people):
            continue  # "haven't seen him in years": someone not seen, no habit stopped
        things = [c for c in children if c.dep_ == "dobj" and c.pos_ == "NOUN"]
        done = gerund(verb.lemma_)
        said = " ".join([done, *(f"{t.lower_}" for t in things)]) if verb.lemma_ != "have" else ""
        said = said or " ".join(t.lower_ for t in things)
        if not said:
            continue
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        atom = build_atom("statement", "ended", said, f"{speaker} stopped {said}", ctx, [], False, "explicit")
        # what was done ends the facts that name it ("meat", not every fact with "eat" in it)
        words = [t.text for t in things] or [verb.lemma_]
        return [atom.model_copy(update={"ends_words": words, "temporal": "past"})]
    return []
