"""A vehicle named by its maker that the speaker came to have, whatever the verb: "picked up a Mini
Cooper on Saturday", "went for a Hyundai Ioniq 5 this time round", "replaced the Jeep with a Ford
Mustang Mach-E". Pure functions over a spaCy parse."""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_fits import SUBJECTS, now_said
from .lexicon import VEHICLE_MAKES, VEHICLE_MODELS, WISH_HEADS, Frame
from .parse_paths import clause_verb
from .slot_atoms import slot_atom

__all__ = [
    "NEW_VEHICLE",
    "made_vehicle",
    "named_vehicle",
    "owned_vehicle",
    "vehicle_head",
    "vehicle_in_use",
    "vehicle_name",
]

NEW_VEHICLE: Final = Frame("get", "dobj", "vehicle", change=True)
#: Verbs of coming to have something, and the preposition the new thing hangs on, if any.
_GETTING: Final = {
    "get": None, "buy": None, "pick": None, "lease": None, "take": None, "order": None, "choose": None,
    "go": "for", "opt": "for", "settle": "on", "replace": "with", "upgrade": "to", "switch": "to",
    "swap": "for", "trade": "for", "change": "to", "grab": None, "nab": None, "snap": None, "snag": None,
    "score": None, "bag": None, "collect": None, "purchase": None, "inherit": None,
}  # fmt: skip
#: Verbs of having a vehicle for a while, told in the present ("leasing a Polestar 2 from this month");
#: "drive" and "ride" with an object are the frames' own.
_KEEPING: Final = frozenset(["lease", "rent"])
#: Words that put a present progressive in the future ("picking up a Kia tomorrow") or a vehicle in
#: someone else's hands ("in a Tesla taxi").
_LATER: Final = frozenset(["tomorrow", "next", "soon", "weekend", "tonight", "later", "week", "month"])
_NOT_MINE: Final = frozenset(["taxi", "cab", "uber", "rental", "hire", "loan", "courtesy", "bus", "test"])


def vehicle_name(token: Any) -> Any | None:
    """The head of a maker-led vehicle name that ``token`` is part of ("Volvo XC40", "Ford Mustang
    Mach-E", "Toyota Tacoma"), or None when no maker leads it."""
    makers = [t for t in token.subtree if named_vehicle(t)]
    return vehicle_head(makers[0]) if makers else None


def named_vehicle(token: Any) -> bool:
    """A maker's name ("Volvo") or a model's that needs none ("Yaris"), or a maker's with the model's
    number run on ("MG4"), as a name (capitalised)."""
    lower = token.lower_
    named = lower in VEHICLE_MAKES | VEHICLE_MODELS or (
        lower.rstrip("0123456789") in VEHICLE_MAKES and lower[-1:].isdigit()
    )
    # "the Model Y", "my Model 3": Tesla's models said without the maker
    following = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    named = named or (lower == "model" and following is not None and following.text in {"3", "Y", "S", "X"})
    return bool(named and token.text[:1].isupper() and token.pos_ in {"PROPN", "NOUN"})


def vehicle_head(maker: Any) -> Any:
    """The word that heads the name a maker leads: "Jeep Wrangler", "Tesla Model Y", "Skoda Octavia
    estate" (the last word of the compound)."""
    name = maker
    while name.dep_ == "compound" and name.head.pos_ in {"PROPN", "NOUN", "NUM"} and name.head.i > name.i:
        name = name.head
    return name


#: Verbs of passing a thing on to someone for good: "Mum gave me her old Nissan Micra", "Dad handed his
#: Prius down to me", "my uncle left me his Land Rover", "work gave me a BMW i4" ("lent" is for a while).
_GIVING: Final = frozenset(["give", "hand", "pass", "gift", "leave", "sell"])


def _to_me(verb: Any) -> bool:
    """The speaker is who the verb passes its thing to: "gave me", "handed … down to me", "I got given
    …" (the passive's subject)."""
    if any(c.dep_ in {"dative", "nsubjpass"} and c.lower_ in {"me", "us", "i", "we"} for c in verb.children):
        return True
    return any(
        g.lower_ in {"me", "us"}
        for c in verb.children
        if c.dep_ in {"prep", "dative"} and c.lower_ == "to"
        for g in c.children
    )


def made_vehicle(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The maker-led vehicle the speaker came to have in this sentence, read as a change: got by them,
    or given to them."""
    for verb in sentence:
        lemma = str(verb.lemma_).casefold()
        if lemma in _GIVING and verb.pos_ == "VERB" and _to_me(verb) and not _only_wished(verb):
            for held in (c for c in verb.children if c.dep_ == "dobj"):
                name = vehicle_name(held)
                if name is not None and name.i == held.i:  # the thing given; not "a lift in his BMW"
                    return [slot_atom(NEW_VEHICLE, held, speaker, turn, True, speaker, False)]
        if verb.pos_ != "VERB" or lemma not in _GETTING or not _mine(verb) or _only_wished(verb):
            continue
        prep = _GETTING[lemma]
        holders = (
            [
                g
                for c in verb.children
                if c.dep_ == "prep" and c.lower_ == prep
                for g in c.children
                if g.dep_ == "pobj"
            ]
            if prep
            else [c for c in verb.children if c.dep_ == "dobj"]
        )
        if any(h.lower_ == "it" for h in holders) and verb.dep_ == "conj":
            # "Found a 2019 Subaru Outback … and grabbed it": "it" is what the verb before it found
            holders = [c for c in verb.head.children if c.dep_ == "dobj"]
        for held in holders:
            name = vehicle_name(held)
            if name is not None:
                return [slot_atom(NEW_VEHICLE, name, speaker, turn, True, speaker, False)]
    return []


def vehicle_in_use(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The vehicle the speaker gets about in or keeps now, whatever the verb: "I'm getting around in a
    Hyundai i20 now", "commuting on a Yamaha Tracer these days", "Leasing a Polestar 2 from this month";
    not a plan ("picking up a Kia tomorrow"), a taxi, a wish or someone else's."""
    for token in sentence:
        if not named_vehicle(token):
            continue
        head = vehicle_head(token)
        if any(t.lower_ in _NOT_MINE for t in head.subtree):
            continue
        if _it_is_now(head):  # "oh the Fiesta's long gone, it's a Mazda CX-5 these days"
            return [slot_atom(NEW_VEHICLE, head, speaker, turn, True, speaker, False)]
        verb = head.head.head if head.dep_ == "pobj" and head.head.lower_ in {"in", "on"} else head.head
        kept = head.dep_ == "dobj" and verb.lemma_.casefold() in _KEEPING
        # "I'm in a Toyota Yaris now", "I'm on a Triumph Trident these days": being in one, told as news
        riding = verb.lemma_ == "be" and head.dep_ == "pobj" and now_said(verb) and not _this_moment(verb)
        if not (verb.pos_ == "VERB" or riding) or not (kept or head.dep_ == "pobj"):
            continue
        if verb.tag_ not in {"VBG", "VBP", "VBZ"}:
            continue
        told = [t for c in verb.children for t in c.subtree if c.dep_ not in {"conj", "advcl", "ccomp"}]
        if any(t.dep_ == "neg" or t.tag_ == "MD" or t.lower_ in _LATER - {"month"} for t in told):
            continue
        if any(c.dep_ == "aux" and c.tag_ == "VBD" for c in verb.children):
            continue  # "I was getting around in a Nissan Leaf back then"
        if any(t.lower_ == "next" for t in told) or (not _mine(verb) and not _opens(verb)):
            continue
        return [slot_atom(NEW_VEHICLE, head, speaker, turn, True, speaker, False)]
    return []


def _it_is_now(head: Any) -> bool:
    """ "it's a Mazda MX-5 now", "it's a Polestar these days": what "it" (the speaker's vehicle, talked
    of) is now; not asked, denied or told of the past."""
    verb = head.head
    if head.dep_ != "attr" or verb.lemma_ != "be" or verb.tag_ not in {"VBZ", "VBP"} or not now_said(verb):
        return False
    said = list(verb.children)
    subject = [c for c in said if c.dep_ in SUBJECTS]
    return bool(subject and subject[0].lower_ == "it" and not any(c.dep_ == "neg" for c in said))


def _this_moment(verb: Any) -> bool:
    """ "I'm in a Toyota Yaris right now": where one sits this minute, not what one drives."""
    return any(t.lower_ == "right" and t.head.lower_ == "now" for t in verb.subtree)


def _opens(verb: Any) -> bool:
    """A present participle opening a sentence with no subject: chat's dropped "I'm" ("getting around on
    a Yamaha Tracer these days")."""
    if any(c.dep_ in SUBJECTS for c in verb.children) or verb.tag_ != "VBG":
        return False
    before = [t for t in verb.doc[verb.sent.start : verb.i] if not (t.is_punct or t.pos_ in {"ADV", "INTJ"})]
    return not before


_OWNED: Final = Frame("drive", "dobj", "vehicle")
#: What makes a vehicle of the speaker's one they no longer have: "my old Volvo", "my last car".
_GONE_BY: Final = frozenset(["old", "former", "previous", "last", "ex", "first"])


def owned_vehicle(sentence: Any, speaker: str, turn: TurnText, *, asked: bool = False) -> list[FactAtom]:
    """The speaker's vehicle named by its maker in passing: "My Ford Fiesta needs new brake pads", "my
    Volvo V70 is brilliant in the snow" (what the speaker drives now); not an old one, one told in the
    past ("my Micra was a tank") or denied. In a question (``asked``) it is taken for granted whatever
    the question's tense or modal: "Where can I charge my Tesla near Cardiff?"."""
    for token in sentence:
        if not named_vehicle(token):
            continue
        head = vehicle_head(token)
        if head.lemma_ == "owner":  # "I'm a Tesla Model Y owner now": what the speaker drives
            return _owner_of(head, speaker, turn)
        words = [*head.children, *token.children]
        if not any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in words) and not _in_use(head):
            continue
        if any(c.lower_ in _GONE_BY for c in words):
            return []
        verb = clause_verb(head)
        told = [verb, *verb.children]
        if any(t.dep_ == "neg" for t in told):
            return []
        if not asked and (verb.tag_ in {"VBD", "VBN"} or any(t.tag_ == "MD" for t in told)):
            return []
        return [slot_atom(_OWNED, head, speaker, turn, False, speaker, False)]
    return []


#: Verbs of using one's own vehicle: "Taking the Skoda Octavia up to Skye", "charging the Model Y".
_USING: Final = frozenset(["take", "drive", "ride", "charge", "park", "insure", "tax", "wash", "valet"])
#: Trips a vehicle is "in": "First road trip in the Model Y".
_TRIPS: Final = frozenset(["trip", "drive", "journey", "commute", "run", "spin"])


def _in_use(head: Any) -> bool:
    """ "the Octavia" the speaker is using (taking, driving, charging) or on a trip in: theirs, though said
    with "the"."""
    if not any(c.dep_ == "det" and c.lower_ == "the" for c in head.children):
        return False
    if head.dep_ == "pobj" and head.head.lower_ == "in" and head.head.head.lemma_.casefold() in _TRIPS:
        return True  # "First road trip in the Model Y this weekend"
    verb = head.head
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    mine = all(c.lower_ in {"i", "we"} for c in subjects)
    # in use now ("Taking the Octavia up to Skye", "charging the Model 3"); a habit ("I take the Fiesta to
    # the coast every weekend") tells of the car but is read as the statement it is
    return head.dep_ == "dobj" and verb.lemma_.casefold() in _USING and mine and verb.tag_ == "VBG"


def _owner_of(owner: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    if owner.dep_ != "attr" or not any(c.lower_ == "i" for c in owner.head.children):
        return []
    names = [t for t in owner.doc[owner.left_edge.i : owner.i] if t.pos_ in {"PROPN", "NUM"} or t.is_title]
    if not names:
        return []
    said = owner.doc[names[0].i : owner.i].text
    ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
    atom = build_atom("identity", "drives", said, f"{speaker} drives a {said}", ctx, [], False, "explicit")
    return [atom.model_copy(update={"temporal": "current", "event_time": None})]


def _mine(verb: Any) -> bool:
    """Said by the speaker ("I went for …", "we picked up …"), or opening the sentence with no subject
    ("Picked up a Mini Cooper on Saturday"), or sharing the subject of a verb of theirs ("… and I went
    for a Hyundai")."""
    node = verb
    while node.dep_ == "conj" and not any(c.dep_ in SUBJECTS for c in node.children):
        node = node.head
    subjects = [c for c in node.children if c.dep_ in SUBJECTS]
    if subjects:
        return subjects[0].lower_ in {"i", "we"}
    before = [
        t
        for t in node.doc[node.sent.start : node.i]
        if not (t.is_punct or t.pos_ in {"ADV", "INTJ", "CCONJ"})
    ]
    return not before and node.tag_ in {"VBD", "VBN"}


def _only_wished(verb: Any) -> bool:
    """Not said as done: only a past or a perfect tells a vehicle come by ("picked up", "have got"); a
    denial, a modal or a wish above it ("want to get", "thinking of buying") says it was not."""
    if verb.tag_ not in {"VBD", "VBN"} or any(c.dep_ == "neg" or c.tag_ == "MD" for c in verb.children):
        return True
    node = verb
    # not through an adverbial clause: "grabbed a Mazda CX-5, the i30 went to my cousin" hangs the
    # purchase on "went", which is no plan to go
    while node.dep_ in {"xcomp", "ccomp", "pcomp", "prep"} and node.head.i != node.i:
        if node.dep_ == "ccomp" and node.i < node.head.i:
            break  # a clause said before its head is one of its own
        node = node.head
        if node.lemma_ in WISH_HEADS:
            return True
    return False
