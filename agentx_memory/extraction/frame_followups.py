"""What a turn gives in answer to the speaker's own turn before: "New SIM, so my number's different" …
"07700 900314"; "The physio clinic rang, they've had to give me a different slot" … "The 11th, same
time." The turn before leaves a question open (:func:`speaks_of_contact`, :func:`appointment_asked`);
the next, said alone, closes it (``contact_atoms(..., asked=True)``, :func:`appointment_given`)."""

from __future__ import annotations

import re
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_appointments import DAY_ALONE, on_coming_day, thing_key
from .frame_fits import AGENTIVE
from .frame_vehicles import vehicle_name
from .lexicon import DIETS, NOT_PASTIMES, OCCUPATIONS, PET_KIND, Frame
from .parse_paths import whose
from .places import known_town
from .slot_atoms import slot_atom

__all__ = [
    "answer_given",
    "appointment_asked",
    "appointment_given",
    "change_untold",
    "name_answered",
    "number_asked",
    "partner_named",
    "slot_asked",
    "speaks_of_contact",
]


#: Words of a question about the speaker's phone: a number, a phone, a way to reach or ring them.
_NUMBER_WORDS: Final = frozenset(["number", "phone", "mobile", "cell", "reach", "ring", "text", "whatsapp"])


def number_asked(question: str) -> bool:
    """Whether the listener's turn asks for the speaker's phone number ("What's your new number?", "the
    best number for you these days?"): a question of the speaker's with a word of phones in it; the next
    turn may give the number alone ("07398 221904, the old one's gone")."""
    for asked in re.findall(r"[^.!?]*\?", question):
        words = set(re.findall(r"[a-z]+", asked.casefold()))
        if words & _NUMBER_WORDS and words & {"you", "your"} and "order" not in words:
            return True
    return False


def speaks_of_contact(sentence: Any) -> bool:
    """Whether the sentence speaks of the speaker's number without saying one ("my number's different",
    "can you update my number?")."""
    mine = [
        t
        for t in sentence
        if t.lemma_.casefold() in {"number", "phone", "mobile", "cell", "sim"}
        and not any(c.dep_ == "compound" for c in t.children)  # "my order number": no phone
        and (any(c.lower_ in {"my", "new"} for c in t.children) or t.lower_ == "sim")
    ]
    return bool(mine) and not any(t.like_num for t in sentence)


#: Words of a turn that says an appointment changed without saying to when ("the clinic rang, they've
#: had to give me a different slot"): the next turn may give the time alone.
_CHANGED_SLOT: Final = frozenset(
    [
        "different",
        "rang",
        "called",
        "moved",
        "rescheduled",
        "reschedule",
        "change",
        "changed",
        "new",
        "cancel",
    ]
)


def appointment_asked(doc: Any, atoms: list[FactAtom]) -> str | None:
    """The appointment a turn said changed without its new time (``appointment_<key>``'s key), if any."""
    if any(atom.key.startswith("appointment_") for atom in atoms):
        return None
    if not {t.lemma_.casefold() for t in doc} & _CHANGED_SLOT:
        return None
    return next((key for t in doc if t.pos_ == "NOUN" and (key := thing_key(t)) is not None), None)


def appointment_given(doc: Any, key: str, subject: str, turn: TurnText, speaker: str) -> FactAtom | None:
    """The new time of the appointment the speaker's turn before said changed, given alone: "The 11th,
    same time.", "Yeah, Thursday the 17th at 11." (a short turn whose day is a day of the month)."""
    if len([t for t in doc if t.is_alpha]) > 8 or doc.text.rstrip().endswith("?"):
        return None
    day = DAY_ALONE.search(doc.text.casefold())
    if day is None:
        return None
    times = doc.text.strip().rstrip(".!")
    times = re.sub(r"^(?:yeah|yes|yep|ok|okay|so|it's|its)[,!]?\s+", "", times, flags=re.IGNORECASE)
    label = " ".join(key.split("_"))
    statement = f"{subject}'s {label} is on {times[:1].lower() + times[1:]}"
    ctx = Context(turn=turn, subject=subject, correction=True, is_speaker=subject == speaker)
    atom = build_atom("event", f"appointment_{key}", times, statement, ctx, [], False, "explicit")
    return on_coming_day(atom, int(day.group(1)), turn.timestamp)


#: Words of a turn that tells of the speaker's move without saying where ("Finally done with the move",
#: "the movers dropped off the last boxes"): the next turn may name the place alone.
_MOVING: Final = frozenset(["move", "mover", "relocate", "relocation", "unpack", "housewarming"])
#: The frame each slot an answer may fill is read as (a change: the answer tells what is now).
_ANSWERED: Final = {
    "residence": Frame("move", "prep", "residence", change=True),
    "employer": Frame("join", "dobj", "employer", change=True),
    "occupation": Frame("become", "attr", "occupation", change=True),
    "diet": Frame("go", "attr", "diet", change=True),
    "vehicle": Frame("get", "dobj", "vehicle", change=True),
    "partner": Frame("date", "dobj", "partner", change=True),
    # "What are you into?" — "Writing and hanging with friends!": a pastime held, not one newly taken up
    "hobby": Frame("do", "dobj", "hobby"),
}
#: The listener's question and the slot it asks about: "Where did you end up?" after a move, "Which
#: company did you end up at?", "What are you eating now?", "What's the new title?".
_ASKING: Final = (
    (
        "residence",
        re.compile(
            r"\b(?:where|which (?:city|town|country|area|part))\b.*\b(?:live|living|based|"
            r"move|moved|moving|settle|settled|home|land|end up|ended up)\b|"
            r"\b(?:are you )?still (?:in|around|living in|based in|down in|up in)\b",
            re.I,
        ),
    ),
    (
        "employer",
        re.compile(
            r"\b(?:which|what) (?:company|firm|employer|organi[sz]ation)\b|"
            r"\bwhere (?:are|do) you (?:working|work)\b|\bwho (?:are|do) you (?:work|working) for\b|"
            r"\b(?:are you )?still (?:at|with|working (?:at|for))\b",
            re.I,
        ),
    ),
    (
        "occupation",
        re.compile(
            r"\b(?:what(?:'s| is) (?:the|your) (?:new )?(?:title|role|job|position)|"
            r"what (?:are|do) you do(?:ing)? (?:now|these days|for (?:work|a living)))\b",
            re.I,
        ),
    ),
    ("diet", re.compile(r"\bwhat (?:are|do) you eat(?:ing)?\b|\b(?:your|the) (?:new )?diet\b", re.I)),
    (
        "name",
        re.compile(
            r"\bwhat(?:'s| is) your (?:first )?name\b|\bwhat (?:should|shall|can|do) I call you\b|"
            r"\bwho (?:am I|I'm) (?:talking|speaking|chatting) (?:to|with)\b|\bhow should I address you\b",
            re.I,
        ),
    ),
    (
        "vehicle",
        re.compile(r"\bwhat (?:car |vehicle )?(?:are|do) you (?:driving|drive)\b|\bwhat car do you\b", re.I),
    ),
    (
        "hobby",
        re.compile(
            r"\bwhat (?:are you|have you been|do you get) (?:\w+ )?into\b|\bwhat do you do for fun\b|"
            r"\bany (?:new )?hobbies\b|\bwhat(?:'s| is| are) your (?:new )?(?:hobby|hobbies)\b",
            re.I,
        ),
    ),
)
#: The listener asks a pet's name: "What's your dog called?", "what did you name the kitten?"
_NAMING: Final = frozenset(["call", "calling", "called", "name", "named", "naming"])
#: After the speaker told of someone new without a name, the listener asks who: "What's her name?"
_ASKED_WHO: Final = re.compile(
    r"\bwhat(?:'s| is) (?:her|his|their) name\b|\bwho(?:'s| is) (?:the lucky|she|he)\b", re.I
)
#: Someone the speaker is with, told without a name: "six months with my new girlfriend", "I'm finally
#: seeing someone".
_NEW_PARTNER: Final = frozenset(
    ["girlfriend", "boyfriend", "partner", "gf", "bf", "fiance", "fiancee", "fiancé", "fiancée"]
)
_SOMEONE: Final = frozenset(["see", "date", "meet"])


def change_untold(doc: Any, atoms: list[FactAtom]) -> str | None:
    """The slot whose change the turn told without its new value: a move without where to
    ("residence"), someone new without a name ("partner")."""
    if doc.text.rstrip().endswith("?"):
        return None
    if not any(atom.key == "lives_in" for atom in atoms) and any(
        t.lemma_.casefold() in _MOVING and _ours(t) for t in doc
    ):
        return "residence"
    if any(atom.fact_kind == "relationship" for atom in atoms):
        return None
    for t in doc:
        new_one = t.lower_ in _NEW_PARTNER and _the_speakers_partner(t)
        # "I'm seeing someone new" (the parse may hang "someone" on "new")
        verb = t.head if t.head.lemma_ in _SOMEONE or t.head.head.i == t.head.i else t.head.head
        someone = t.lower_ == "someone" and verb.lemma_ in _SOMEONE and _ours(verb)
        if new_one or someone:
            return "partner"
    return None


def _the_speakers_partner(noun: Any) -> bool:
    """ "my new girlfriend", "I've got a boyfriend", "we're seeing a new partner"? not "my sister has a
    new boyfriend"."""
    owner = whose(noun)
    if owner:
        return owner == "my"
    verb = noun.head
    return noun.dep_ in {"dobj", "attr"} and any(
        c.dep_ in {"nsubj", "nsubjpass"} and c.lower_ in {"i", "we"} for c in verb.children
    )


def _ours(word: Any) -> bool:
    """ "we moved", "the move", "our movers", "Finally done with the move"; not "helping my sister move"."""
    subjects = [c for c in word.children if c.dep_ in {"nsubj", "nsubjpass"}]
    owners = [c for c in word.children if c.dep_ == "poss"]
    if word.dep_ in {"ccomp", "xcomp"} and any(
        c.dep_ == "dobj" and c.lower_ not in {"me", "us"} for c in word.head.children
    ):
        return False  # "helping my sister move": hers
    return all(t.lower_ in {"i", "we"} for t in subjects) and all(t.lower_ in {"my", "our"} for t in owners)


def slot_asked(question: str, untold: str | None) -> str | None:
    """The slot of the speaker's that the listener's turn asks about, if it asks ("Where are you
    working now?"); after the speaker told of a move, any "where" question asks for the new home, and
    after someone new, "what's her name?" for the partner."""
    if "?" not in question:
        return None
    if untold == "residence" and re.search(
        r"\b(?:where|which (?:city|town|country|area|part))\b", question, re.I
    ):
        return "residence"
    if untold == "partner" and _ASKED_WHO.search(question):
        return "partner"
    if (kind := _pet_asked(question)) is not None:
        return f"pet:{kind}"  # answered by a name alone: "Pickle!"
    slot = next((slot for slot, asking in _ASKING if asking.search(question)), None)
    yours = re.search(r"\byou(?:r|'re)?\b", question, re.I) is not None
    return slot if yours or slot in {"occupation", "diet", "hobby"} else None  # "Which company is it with?"


def _pet_asked(question: str) -> str | None:
    """The kind of pet whose name the listener asks ("What's your dog called?", "what did you end up
    calling the new rabbit?"): a question with a word of naming, a pet and "you"/"your" in it."""
    for asked in re.findall(r"[^.!?]*\?", question):
        words = re.findall(r"[a-z]+", asked.casefold())
        if not set(words) & _NAMING or not set(words) & {"you", "your"}:
            continue
        for word in words:
            if (kind := PET_KIND.get(word.rstrip("s")) or PET_KIND.get(word)) is not None or word == "pet":
                return kind or "pet"
    return None


def answer_given(doc: Any, slot: str, subject: str, turn: TurnText, speaker: str) -> FactAtom | None:
    """The value the listener asked for, given as a fragment that opens a sentence of the next turn:
    "Leipzig. Right by the zoo", "Spotify, on the podcast analytics team.", "UX researcher.",
    "Vegetarian, but still eating eggs" (words up to the first stop or comma, no verb, the last the
    value's head)."""
    for sentence in list(doc.sents)[:2]:
        named = _name_given(sentence) if slot == "partner" else None
        if named is not None:  # "Her name's Marisol, we met at salsa class."
            return slot_atom(_ANSWERED[slot], named, subject, turn, True, speaker, False)
        run = _answer_run(sentence)
        verbs = [
            t
            for t in run
            if t.pos_ in {"VERB", "AUX"}
            and t.ent_type_ not in _NAMES
            and not _it_is(t)
            and not (t.dep_ == "acl" and t.lemma_ in {"call", "name"})  # "a startup called Lumio"
            and not (slot == "hobby" and t.tag_ == "VBG")  # "mostly climbing"
        ]
        if (
            not run
            or verbs
            or len(run) > 8
            or any(t.lower_ in {"no", "not", "never", "nothing"} for t in run)
        ):
            continue  # "No meat at all anymore": what was given up, not the new value
        if slot == "vehicle":
            head = next((n for t in run if (n := vehicle_name(t)) is not None), None)
        elif slot == "hobby":
            head = next((t for t in reversed(run) if t.pos_ in {"NOUN", "VERB"}), None)
        elif slot in {"residence", "employer"}:
            # "Norwich since February!", "UPS since november": the first name, not the time after it
            head = next(
                (t for t in run if t.ent_type_ not in {"DATE", "TIME"} and _fits_answer(slot, t)), None
            )
        else:
            head = run[-1]
        while head is not None and head.dep_ == "compound" and head.head in run:
            head = head.head  # "Mott MacDonald": the name's head, its compound with it
        if head is not None and head.ent_type_ not in {"DATE", "TIME"} and _fits_answer(slot, head):
            return slot_atom(_ANSWERED[slot], head, subject, turn, True, speaker, False)
    return None


def partner_named(doc: Any, speaker: str, turn: TurnText) -> FactAtom | None:
    """The partner a turn told of without a name names in a later sentence: "I've got a girlfriend! Her
    name's Ines.", "I'm dating someone new, her name is Leila"."""
    for sentence in doc.sents:
        if (named := _name_given(sentence)) is not None:
            return slot_atom(_ANSWERED["partner"], named, speaker, turn, True, speaker, False)
    return None


_NOT_PEOPLE: Final = frozenset(["GPE", "LOC", "ORG", "DATE", "TIME", "PRODUCT"])
#: Entity labels of a name the tagger may take for a verb ("Spotify").
_NAMES: Final = frozenset(["ORG", "GPE", "LOC", "PERSON", "FAC", "PRODUCT", "NORP"])


def _name_given(sentence: Any) -> Any | None:
    """ "Her name's Marisol": the name, when the sentence says whose name it is."""
    for token in sentence:
        if token.lower_ == "name" and any(c.lower_ in {"her", "his", "their"} for c in token.children):
            given = [c for c in token.head.children if c.dep_ == "attr" and c.pos_ == "PROPN"]
            if token.dep_ == "nsubj" and given:
                return given[0]
    return None


#: What may open an answer before the value: "no, Zoho for the last two months", "nah UPS since
#: november", "no no, it's a Mazda MX-5 now".
_ANSWER_OPENERS: Final = frozenset(
    ["no", "nah", "nope", "yes", "yeah", "yep", "yup", "oh", "well", "actually", "haha", "lol", "ha", "ah"]
)


def _answer_run(sentence: Any) -> list[Any]:
    """The words of an answer up to its first stop or comma, past the yes or no that opens it."""
    tokens = list(sentence)
    while tokens and (tokens[0].lower_ in _ANSWER_OPENERS or tokens[0].is_punct):
        tokens.pop(0)
    if (
        len(tokens) > 2
        and tokens[0].lower_ == "i"
        and tokens[1].lemma_ == "be"
        and tokens[2].tag_ in {"VBG", "RB"}
    ):
        tokens = tokens[2:]  # "mostly climbing": the reader of dropped subjects said it "I'm mostly climbing"
    run: list[Any] = []
    for token in tokens:
        if token.is_punct:
            break
        run.append(token)
    return run


def _it_is(token: Any) -> bool:
    """The "it's" of "it's a Mazda MX-5 now": a copula whose subject only points at the thing asked."""
    return token.lemma_ == "be" and any(
        c.dep_ in {"nsubj", "expl"} and c.lower_ in {"it", "that"} for c in token.children
    )


def _fits_answer(slot: str, head: Any) -> bool:
    if slot == "vehicle":
        return True  # a maker-led name (vehicle_name)
    if slot == "partner":
        return bool(head.pos_ == "PROPN" and head.ent_type_ not in _NOT_PEOPLE)
    if slot == "residence" and head.is_title and known_town(head.text):
        return True  # "Cardiff now": a town the small model took for a common noun
    if slot in {"residence", "employer"}:
        return bool(head.pos_ == "PROPN" or (head.ent_type_ in _NAMES and head.is_title))
    if slot == "hobby":
        # "mostly climbing", "pottery": a doing or a thing done, not "work" or "nothing much"
        return (
            head.lemma_.casefold() not in NOT_PASTIMES
            and head.lower_ not in {"nothing", "much", "stuff"}
            and (head.tag_ == "VBG" or head.pos_ == "NOUN")
        )
    if slot == "occupation":
        return head.pos_ == "NOUN" and (
            head.lemma_.casefold() in OCCUPATIONS or head.lower_.endswith(AGENTIVE)
        )
    return head.lower_ in DIETS or head.lemma_.casefold() in DIETS


def name_answered(doc: Any) -> str | None:
    """The name the speaker gives when the listener asked for it: "Femi. And hers is Bola", "oh,
    Marguerite is fine", "Just Jo" (a capitalised word among the first words of the turn)."""
    sentence = next(iter(doc.sents), None)
    if sentence is None or sentence.text.rstrip().endswith("?"):
        return None
    words = [t for t in sentence if not t.is_punct and t.pos_ != "INTJ" and t.lower_ not in {"just", "it's"}]
    first = words[0] if words else None
    if first is None or not first.text[:1].isupper() or first.pos_ not in {"PROPN", "NOUN"}:
        return None
    if first.ent_type_ in {"GPE", "DATE", "TIME", "ORG"} and first.ent_type_ != "PERSON":
        return None
    names = [first, *(t for t in words[1:2] if t.pos_ == "PROPN" and t.text[:1].isupper())]
    return " ".join(t.text for t in names)
