"""Whether a value can fill a slot: a place a name or a determined noun phrase, an occupation a known
one or said like one, a diet a known one, a partner a name, a vehicle a vehicle, a pastime a doing; and
the small readings of a clause the judgement needs (its subjects, "now", a time, a habit).

Pure helpers of :mod:`.frame_values` over spaCy tokens (typed ``Any``: spaCy is an optional dependency).
"""

from __future__ import annotations

from typing import Any, Final

from .frame_places import a_business, frame_moves, settled_in
from .given_names import known_first_name
from .lexicon import (
    ABSTAINING,
    BUSINESSES,
    DIETS,
    DWELLINGS,
    FIELDS,
    FREE_OF,
    JUDGING,
    LESSONS,
    MEATS,
    NOT_JOBS,
    NOT_PASTIMES,
    OCCUPATIONS,
    PASTIME_GROUPS,
    SCHOOLS,
    VEHICLE_MAKES,
    VEHICLE_MODELS,
    VEHICLE_NOUNS,
)
from .places import known_town

__all__ = [
    "AGENTIVE",
    "OBJECTS",
    "OWNING",
    "PEOPLE",
    "PREDICATIVE",
    "STOPPING",
    "SUBJECTS",
    "a_post",
    "a_post_word",
    "classifying",
    "diet_named",
    "done_for_a_living",
    "fits_slot",
    "given_up",
    "hyphenated",
    "is_time",
    "meats_said",
    "now_said",
    "person_like",
]

SUBJECTS: Final = ("nsubj", "nsubjpass", "csubj")
PREDICATIVE: Final = ("attr", "acomp", "oprd")
OBJECTS: Final = ("dobj", "obj")


_NOW: Final = frozenset(["now", "currently", "nowadays", "days", "anymore", "longer", "today"])


_NOT_VALUES: Final = frozenset(
    ["it", "that", "this", "them", "there", "here", "home", "myself", "yourself", "one", "you", "work"]
)


#: Nouns that introduce a person by name: "this woman, Julia", "a guy called Ben".
#: Someone not yet named: "a guy called Ben", "this woman, Julia", "someone called Priya".
PEOPLE: Final = frozenset(
    ["woman", "man", "guy", "girl", "boy", "someone", "somebody", "person", "lady", "bloke", "fella"]
)


#: Nouns of a stretch of time: "been working on it for a while" is for no employer.
_SPANS: Final = frozenset(
    ["while", "time", "year", "month", "week", "day", "hour", "bit", "living", "ages", "decade"]
)


#: Determiners of no particular thing: "a sucker for any superhero" names no employer.
_ANY: Final = frozenset(["any", "every", "each", "some", "no", "all", "such"])


def _named(value: Any) -> bool:
    """ "a fintech startup called Lumo": a thing with its name said."""
    return any(
        c.dep_ == "acl" and c.lemma_ in {"call", "name"} and any(g.pos_ == "PROPN" for g in c.subtree)
        for c in value.children
    )


def fits_slot(slot: str, value: Any, predicate: Any) -> bool:
    """Whether ``value`` can fill ``slot``: a place is a name or a determined noun phrase, an
    occupation a known one, a diet a known one, a partner a name, a vehicle a vehicle."""
    head = value.lemma_.casefold()
    if value.lower_ in _NOT_VALUES or value.pos_ == "PRON":
        return False
    taught_year = predicate.lemma_ == "teach" and head in _SCHOOL_YEARS  # "I teach Year 5": a DATE to it
    if _a_time(value) and slot != "hobby" and not taught_year:
        return False  # "Physio moved to the 19th": a day, no home
    # "a small bakery", "my parents' place", "Tesco head office": a determined or named noun phrase
    determined = any(
        c.dep_ in {"det", "poss"} or (c.dep_ == "compound" and c.pos_ == "PROPN") for c in value.children
    )
    if slot == "residence":
        if predicate.lemma_ == "stay" and (predicate.tag_ not in {"VBP", "VBZ"} or value.pos_ != "PROPN"):
            return False  # "I stay in Pune"; not "I'm staying in Pune this week", "stayed in Rome"
        if predicate.lemma_ == "be" and value.dep_ == "pobj":
            return settled_in(value, predicate)
        if predicate.lemma_ == "be" and not any(
            c.dep_ in SUBJECTS and c.lower_ == "home" for c in predicate.children
        ):
            return False
        if frame_moves(predicate) and (a_business(value) or _from_a_firm(predicate, value)):
            return False  # "moved to Deloitte", "moved over from Google to Stripe": a new employer
        if head in VEHICLE_NOUNS:
            return False  # "living in a van now": how one lives, no town to be found at
        if head in DWELLINGS and any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in value.children):
            return False  # "We moved into our first place together": a home, and no town to file
        return value.pos_ == "PROPN" or (value.pos_ == "NOUN" and determined)
    if slot == "employer":
        if predicate.lemma_ in {"move", "transfer"}:
            return a_business(value) or (_from_a_firm(predicate, value) and value.pos_ == "PROPN")
        if predicate.lemma_ == "work" and value.head.lower_ == "in":
            # "working in TCS Chennai", "work in Deloitte"; not "in London", "in tech", "in a team"
            named = any(
                c.dep_ == "compound" and c.ent_type_ == "ORG" for c in value.children
            )  # "TCS Chennai"
            return value.pos_ == "PROPN" and (value.ent_type_ == "ORG" or named)
        if any(c.lower_ in _ANY for c in value.children) or _a_time(value) or head in _SPANS:
            return False  # "a sucker for any superhero"; "working on it for a while"
        if predicate.lemma_ in {
            "join",
            "switch",
            "do",  # "I do IT support for Deutsche Bahn"; not "I do it for my kids"
        }:  # "joined Stripe"; "joined a gym", "switched to a vegan diet"
            # "the NHS trust": a noun the organisation's name makes one
            named = any(c.dep_ == "compound" and c.ent_type_ == "ORG" for c in value.children)
            if predicate.lemma_ == "switch" and value.ent_type_ in {"GPE", "LOC"} and known_town(value.text):
                return False  # "switched from Leeds to York": a town
            # a name as written: the tagger calls some lowercase words names ("I've switched to padel")
            return bool(
                (value.pos_ == "PROPN" and not value.text.islower()) or value.ent_type_ == "ORG" or named
            )
        after = value.doc[value.right_edge.i + 1] if value.right_edge.i + 1 < len(value.doc) else None
        studied = any(t.lower_ in SCHOOLS for t in value.subtree) or (
            after is not None and after.lower_ in SCHOOLS
        )
        if studied and predicate.pos_ != "NOUN":  # "a teacher at a primary school" works there
            return False  # "started at Leeds uni": a student, not an employee
        if predicate.lemma_ == "be":  # "I'm at Google now", not "I'm at the gym" nor "with Karim";
            # "I've been at Deloitte for three years": still there
            # a capitalised word the small model took for a common noun ("I'm at Arup these days")
            company = value.ent_type_ == "ORG" or (
                value.pos_ in {"PROPN", "NOUN"}
                and value.is_title
                and value.i > 0
                and value.lower_ != value.text
            )
            if value.head.lower_ == "with" and value.ent_type_ != "ORG" and person_like(value):
                return False  # "I'm with Nadia now": a partner, not an employer
            lasting = any(c.lower_ in {"'ve", "have", "has", "'s"} for c in predicate.children) and any(
                c.dep_ == "prep" and c.lower_ in {"for", "since"} for c in predicate.children
            )
            return (company or _named(value)) and (now_said(predicate) or lasting)
        # a capitalised word mid-sentence the small model took for a common noun ("an offer from Spotify")
        written = value.pos_ == "NOUN" and value.is_title and value.i > 0 and value.lower_ != value.text
        named = value.pos_ == "PROPN" or value.ent_type_ == "ORG"
        return named or (value.pos_ == "NOUN" and determined) or written
    if slot == "occupation":
        return _occupation(value, predicate)
    if slot == "diet":
        return diet_named(value) is not None
    if slot == "partner":
        if predicate.lemma_ == "see" and predicate.tag_ != "VBG":
            return False
        if predicate.lemma_ == "be":  # "I'm with Nadia now", "been with Karim for two months now"
            # "with" a name now is an employer as often as a partner ("I'm with Stripe these days"): a
            # person's name only
            return person_like(value) and (now_said(predicate) or _lasting(predicate))
        # "this woman, Julia", "a guy called Ben": a person, whatever the recogniser guessed
        introduced = value.head.lemma_.casefold() in PEOPLE or value.head.head.lemma_.casefold() in PEOPLE
        if predicate.lemma_ in {"see", "date"} and (
            (
                value.ent_type_ in {"ORG", "GPE", "FAC", "EVENT", "WORK_OF_ART", "PRODUCT", "LOC"}
                and not introduced
                # the model calls many a first name a place ("seeing Marcus", "seeing Lerato"): a place
                # is a town the gazetteer knows and no first name
                and not (
                    value.ent_type_ in {"GPE", "LOC"}
                    and (known_first_name(value.text) or not known_town(value.text))
                )
            )
            or _on_occasion(predicate)
        ):
            return False  # "seeing Muse on the 22nd": a band on a night out, not a partner
        return bool(value.pos_ == "PROPN")
    if slot == "hobby" and value.head.lower_ == "into" and value.head.i > 0:
        before = value.doc[value.head.i - 1].lemma_.casefold()
        if before in {"day", "week", "month", "year", "way", "hour", "minute"}:
            return False  # "a couple of weeks into the diet": how far along, no pastime
    if slot == "hobby":  # a pastime: an activity or a thing done, not a job, a place or a person
        if head in NOT_PASTIMES or value.ent_type_ in {"PERSON", "GPE", "ORG", "DATE", "TIME", "MONEY"}:
            return False
        if head in LESSONS:  # "taking salsa lessons", "doing pottery classes": what is taught is the pastime
            return any(c.dep_ in {"compound", "amod"} and c.pos_ in {"NOUN", "PROPN"} for c in value.children)
        if predicate.lemma_ == "take" and not any(c.dep_ == "prt" for c in predicate.children):
            return False  # only lessons are taken without "up": not "taking the bus", "taking a break"
        if predicate.lemma_ in {"start", "begin"} and value.tag_ != "VBG":
            return False  # only lessons are started so: not "started a new job", "started a fight"
        if predicate.lemma_ == "go" and not _habitual(predicate):
            return False  # "I go climbing every weekend"; not "we're going camping next week"
        if predicate.lemma_ == "pick":  # "picked up knitting"; not "picked up the kids", "some milk"
            return value.tag_ == "VBG" or (value.lower_.endswith("ing") and not _determined(value))
        if predicate.lemma_ == "join":  # "joined a running club"; not "joined Google", "joined the queue"
            return head in PASTIME_GROUPS and value.pos_ == "NOUN"
        if value.tag_ == "VBG":
            # an activity ("bouldering", "learning the piano"), not a task ("writing some of my favorite
            # memories down": a pronoun or a long object tells what was done, not a pastime)
            when = {t.i for c in value.children if c.dep_ in {"prep", "npadvmod"} for t in c.subtree}
            subtree = [t for t in value.subtree if t.i not in when]  # "learning the piano in February"
            if len(subtree) > 4 or any(t.pos_ == "PRON" for t in subtree):
                return False
            return not any(
                c.dep_ in {"dobj", "prep"} and c.lemma_.casefold() in NOT_PASTIMES for c in value.children
            )
        if predicate.lemma_ == "get" and any(c.dep_ == "det" for c in value.children):
            return False  # "got into climbing", not "got into a bad spot", "got into the habit"
        if predicate.dep_ in {"csubj", "csubjpass"}:
            return False  # "Doing research makes sense": advice about a doing, no pastime taken up
        if predicate.lemma_ == "do":  # "I do (hot) yoga"; not "the dishes", "my homework", "keto", "IT
            # support for Deutsche Bahn" (work done for someone)
            return (
                value.pos_ == "NOUN"
                and head not in FIELDS  # "doing law" at uni: a field studied, no pastime
                # "hot yoga"; a doing's kind too: "sea swimming", "trail running" (not "data entry")
                and all(
                    c.dep_ == "amod" or (c.dep_ == "compound" and value.lower_.endswith("ing"))
                    for c in value.children
                )
                and not any(
                    c.dep_ == "prep" and c.lower_ in {"for", "at", "with"} for c in predicate.children
                )
                and diet_named(value) is None
            )
        return bool(value.pos_ == "NOUN" or (value.pos_ == "PROPN" and predicate.lemma_ != "be"))
    if slot == "vehicle":
        if value.pos_ == "ADJ":
            return False  # "got a new BMW, jealous!": the parse's object is the mood, not the car
        if predicate.lemma_ == "take":  # "took delivery of the Kia EV6": a name delivered is the vehicle
            return value.pos_ == "PROPN" or head in VEHICLE_NOUNS
        if predicate.lemma_ == "drive":  # "I drive a Golf", "a van"; not "driving test", "drive me crazy"
            return (
                value.pos_ == "PROPN"
                # a model the tagger took for a common noun: "driving a Hilux these days"
                or (value.text[:1].isupper() and any(c.lower_ in {"a", "an"} for c in value.children))
                or head in VEHICLE_NOUNS
                or any(t.lower_ in VEHICLE_MAKES | VEHICLE_MODELS for t in value.subtree)
            )
        if head in VEHICLE_NOUNS or any(
            t.lower_ in VEHICLE_MAKES | VEHICLE_MODELS for t in value.subtree if t.pos_ == "PROPN"
        ):
            return True  # "bought a Tesla", "got a Honda CB500"
        # "traded in the Corolla for a Tesla"; "sold the clio and bought a Skoda Octavia"; a name
        # bought anywhere else may be anything ("bought a Dyson")
        sentence = {t.lemma_.casefold() for t in predicate.sent}
        if value.ent_type_ in {"GPE", "LOC"}:
            return False  # "swapped Denver for Phoenix": a town traded for a town
        return value.pos_ == "PROPN" and bool(
            (predicate.lemma_ in {"trade", "swap"} and _trades_a_vehicle(predicate))
            or sentence & ({"sell", "drive", "trade"} | VEHICLE_NOUNS)
        )
    return False


def _trades_a_vehicle(verb: Any) -> bool:
    """ "traded in the Corolla for …", "swapped the van for …": a trade-in, or a vehicle given; not
    "swapped Barclays for Monzo" (a bank for a bank)."""
    given = [c for c in verb.children if c.dep_ == "dobj"]
    return any(c.dep_ == "prt" and c.lower_ == "in" for c in verb.children) or any(
        t.lemma_.casefold() in VEHICLE_NOUNS or t.lower_ in VEHICLE_MAKES | VEHICLE_MODELS
        for g in given
        for t in g.subtree
    )


#: Whom one teaches, which is no subject taught: "I teach kids", "I teach classes".
_TAUGHT_PEOPLE: Final = frozenset(
    ["kid", "child", "student", "pupil", "people", "class", "lesson", "adult", "teen", "beginner", "year"]
)


#: Agent-noun endings: with a compound before them ("software tester", "solar panel installer") or a
#: workplace after them ("a tester at a small agency") they name jobs the lexicon does not list.
#: The verbs of an occupation frame whose object is a business the subject owns (lexicon.FRAMES).
OWNING: Final = frozenset(["run", "own", "open", "launch", "found", "start", "set"])


AGENTIVE: Final = ("er", "or", "ist", "ian", "ant", "ent", "eer", "ier")


#: What a school's years are called.
_SCHOOL_YEARS: Final = frozenset(["year", "grade", "form", "class", "standard", "p", "ks"])


def _a_field(value: Any) -> bool:
    """A field of work, said by itself or before what one does in it ("insurance claims")."""
    named = [value, *(c for c in value.children if c.dep_ in {"compound", "amod"})]
    return any(t.lemma_.casefold() in FIELDS or t.lower_ in FIELDS for t in named) and not any(
        c.dep_ in {"det", "poss"} for c in value.children
    )


def _a_school_year(value: Any) -> bool:
    """ "Year 5", "Grade 10": a school year and its number (not "year 9s", people taught)."""
    return value.lemma_.casefold() in _SCHOOL_YEARS and any(
        c.dep_ == "nummod" and c.like_num for c in value.children
    )


def _occupation(value: Any, predicate: Any) -> bool:
    """A job: a known occupation, or an agent noun said like one; after "work as", "retrain as" any
    noun; what one teaches, a subject ("teach maths"; not "teach my kids"). "I'm a big reader", "I'm
    the one", "I'm a mess" are none."""
    if predicate.lemma_ == "work" and value.dep_ == "pobj" and value.head.lower_ == "in":
        # "I work in marketing", "in insurance claims": a field; not "in London", "in a café"
        return value.pos_ == "NOUN" and _a_field(value)
    if predicate.lemma_ == "teach":
        # "I teach biology"; not a one-off ("got to teach people ice cream recipes on my show")
        once = predicate.dep_ == "xcomp" and predicate.head.lemma_ in {"get", "have"}
        taught_whom = any(c.dep_ == "dative" for c in predicate.children)
        return bool(
            not once
            and not taught_whom
            and value.pos_ in {"NOUN", "PROPN"}
            and (value.lemma_.casefold() not in _TAUGHT_PEOPLE or _a_school_year(value))
            and not any(c.dep_ in {"poss", "det"} for c in value.children)
            # "I teach Year 5", "teaching Grade 10": a school year is a subject taught; "teach 30 kids" none
            and (
                value.lemma_.casefold() in _SCHOOL_YEARS
                or not any(c.dep_ == "nummod" for c in value.children)
            )
            and (not value.ent_type_ or value.lemma_.casefold() in _SCHOOL_YEARS)  # "Year 5": a DATE to it
        )
    # the tagger takes a job for an adjective: "qualified as a paramedic"
    noun_said = (
        value.pos_ == "ADJ" and value.dep_ == "pobj" and any(c.lower_ in {"a", "an"} for c in value.children)
    )
    if value.pos_ != "NOUN" and not noun_said:
        return False
    head = value.lemma_.casefold()
    # "run a café", not "run a marathon" or "started a podcast"
    if predicate.lemma_ in OWNING and value.dep_ == "dobj":
        return head in BUSINESSES and not any(
            c.dep_ == "poss" and c.lower_ not in {"my", "our"} for c in value.children
        )
    if head in NOT_JOBS:
        return False  # "a member at PureGym", "a regular at the Crown": no job
    if predicate.lemma_ == "make":  # "I was made a partner"; not "made a cake", "made a friend"
        passive = any(c.dep_ == "auxpass" for c in predicate.children)
        return passive and (head in OCCUPATIONS or a_post(value))
    known = head in OCCUPATIONS or head.rstrip("s") in OCCUPATIONS
    # "a warehouse lead", "the tech lead": a lead of something is a post ("the lead" alone is none)
    known = known or (head == "lead" and any(c.dep_ in {"compound", "amod"} for c in value.children))
    if predicate.lemma_ not in {"be", "become", "start"}:
        return True  # "work as", "retrain as", "qualify as": the frame says it is a job
    if any(c.lower_ in JUDGING for c in value.subtree):
        return False  # a judgement ("such an inspiring writer", "a natural teacher"), not a job said
    if any(c.dep_ == "poss" and not classifying(c) for c in value.children):
        return False  # "Beyoncé is my favourite artist": what she is to the speaker, not her job
    if head == "owner" and not any(t.lemma_.casefold() in BUSINESSES for t in value.subtree):
        return False  # "a Tesla Model Y owner", "a dog owner": what one has, not a job
    article = any(c.lower_ in {"a", "an"} for c in value.children)
    compound = any(c.dep_ == "compound" for c in value.children)
    if not article:  # "I'm head chef now", "I'm the manager now": a known occupation needs no article
        the = any(c.lower_ == "the" for c in value.children) and now_said(predicate)
        return known and (the or any(c.dep_ in {"compound", "amod"} for c in value.children))
    at_work = any(c.dep_ == "prep" and c.lower_ in {"at", "with"} for c in value.children)
    return known or (value.text.casefold().endswith(AGENTIVE) and (compound or at_work))


def a_post_word(value: Any) -> bool:
    """A known occupation by its word, whatever the tagger called it ("a paramedic" as an adjective)."""
    return value.lemma_.casefold() in OCCUPATIONS or value.lower_ in OCCUPATIONS


def a_post(value: Any) -> bool:
    """A post's name: a known occupation, an agent noun ("Senior Data Engineer") or the head of something
    ("head of marketing"); "a nightmare", "boring", "a bit of a drag" are none, nor is a place's resident
    ("a Rotterdam resident", "a London local": where one lives)."""
    placed = value.lower_ in {"resident", "local", "native"} and any(
        c.dep_ == "compound" and c.pos_ == "PROPN" for c in value.children
    )
    return bool(
        not placed
        and value.pos_ in {"NOUN", "PROPN"}
        and (
            value.lemma_.casefold() in OCCUPATIONS
            # an agent noun; a name only with words before it ("Senior Data Engineer"; "a Rivian" is a car)
            or (
                value.lower_.endswith(AGENTIVE)
                and (value.pos_ == "NOUN" or any(c.dep_ == "compound" for c in value.children))
            )
            or (value.lower_ == "head" and any(c.dep_ == "prep" and c.lower_ == "of" for c in value.children))
        )
    )


def done_for_a_living(verb: Any) -> bool:
    """ "driving lorries for a living": the doing is the speaker's work."""
    return any(
        c.dep_ == "prep" and c.lower_ == "for" and any(g.lower_ == "living" for g in c.children)
        for c in verb.children
    )


def now_said(predicate: Any) -> bool:
    """ "now" said of the predicate; the parse may hang it lower ("I'm at a startup called Lumo now":
    on "called"), but not inside a clause with a subject of its own."""
    return any(token.lower_ in _NOW and _within_clause(token, predicate) for token in predicate.subtree)


def _within_clause(token: Any, predicate: Any) -> bool:
    node = token.head
    while node.i != predicate.i:
        if node.dep_ in {"ccomp", "advcl", "conj", "relcl", "parataxis"} and any(
            c.dep_ in SUBJECTS for c in node.children
        ):
            return False
        if node.head.i == node.i:
            return False
        node = node.head
    return True


def person_like(value: Any) -> bool:
    """A name that is a person's: the model's PERSON, or a census first name the model did not call an
    organisation."""
    if value.pos_ != "PROPN" or value.ent_type_ in {"ORG", "PRODUCT"}:
        return False
    return value.ent_type_ == "PERSON" or known_first_name(value.text)


def _determined(value: Any) -> bool:
    return any(c.dep_ in {"det", "poss"} for c in value.children)


def _lasting(predicate: Any) -> bool:
    """A perfect that lasts to now: "(I've) been with Jordan since March", "… for two years"."""
    if predicate.tag_ != "VBN":
        return False
    return any(
        c.dep_ == "prep"
        and any(
            g.dep_ == "pobj"
            and g.ent_type_ != "TIME"
            and (c.lower_ == "since" or g.lemma_.casefold() in _SPANS)
            for g in c.children
        )
        for c in predicate.children
        if c.lower_ in {"since", "for"}
    )


def _from_a_firm(predicate: Any, value: Any) -> bool:
    """ "moved over from Google to Stripe", "moved over to Airbus after eight years at Boeing", "moved to
    Monzo for a senior role": a move to what the model calls an organisation (no town), from another
    or told with a job, is to an employer; "moved to Leeds for a job at Arup" is to a town."""
    if value.ent_type_ in {"GPE", "LOC"} or known_town(value.text):
        return False
    froms = [
        g for t in predicate.subtree if t.lower_ in {"from", "at"} for g in t.children if g.dep_ == "pobj"
    ]
    if any(g.ent_type_ == "ORG" and not known_town(g.text) for g in froms):
        return True
    return any(t.lemma_.casefold() in _JOB_WORDS for t in predicate.subtree)


#: Words of a job, with which a move is to an employer.
_JOB_WORDS: Final = frozenset(
    ["job", "role", "position", "contract", "offer", "salary", "promotion", "employer", "recruiter", "hire"]
)


def _a_time(value: Any) -> bool:
    """A day or a time: the head of the model's date or time ("the 19th"), not a word its span swallowed
    ("I work as a paramedic these days" is one DATE to the model)."""
    entity = next((e for e in value.doc.ents if e.start <= value.i < e.end), None)
    return entity is not None and entity.label_ in {"DATE", "TIME", "ORDINAL"} and entity.root.i == value.i


def _habitual(predicate: Any) -> bool:
    """A verb of a habit: the simple present ("I go climbing"), or "have been going"."""
    aux = {c.lower_ for c in predicate.children if c.dep_ == "aux"}
    return (predicate.tag_ in {"VBP", "VBZ"} and not aux & {"will", "'ll"}) or (
        predicate.tag_ == "VBG" and "been" in aux
    )


def _on_occasion(predicate: Any) -> bool:
    """ "on the 22nd", "at 8", "tonight", "tomorrow": one occasion, not a standing state ("for a few
    weeks now" is one)."""
    for child in predicate.children:
        if child.dep_ == "prep" and child.lower_ in {"on", "at"} and is_time(child):
            return True
        if child.lower_ in {"tonight", "tomorrow", "today"} or (
            child.dep_ == "npadvmod" and child.ent_type_ in {"DATE", "TIME"}
        ):
            return True
    return False


def is_time(prep: Any) -> bool:
    return any(t.ent_type_ in {"DATE", "TIME"} for t in prep.subtree)


#: Verbs that end a doing given as their complement: "stopped eating meat", "quit having dairy".
STOPPING: Final = frozenset(["stop", "quit"])


def given_up(food: Any) -> str | None:
    """The diet without ``food``: "dairy" dairy-free, "meat" vegetarian, "animal products" vegan."""
    lemma = food.lemma_.casefold()
    if lemma == "product" and any(c.lower_ == "animal" for c in food.children):
        return "vegan"
    return FREE_OF.get(lemma)


def diet_named(value: Any) -> str | None:
    """The diet a value names: "vegan", "gluten-free", "a vegan diet"; a food given up ("cut out
    dairy") names the diet free of it."""
    off = value.head.lower_ == "off" and value.head.head.lemma_ == "be"  # "I'm off dairy"
    # "stopped eating meat", "quit having dairy": the eating is what ended
    stopped = value.head.dep_ == "xcomp" and value.head.head.lemma_.casefold() in STOPPING
    if (off or stopped or value.head.lemma_.casefold() in ABSTAINING) and (diet := given_up(value)):
        return diet
    if off:
        return None  # "off work", "off sick": no diet
    # "I only eat fish now": fish and no other meat
    only = any(c.lower_ == "only" for c in (*value.head.children, *value.children))
    if only and value.head.lemma_.casefold() == "eat" and value.lemma_.casefold() in {"fish", "seafood"}:
        return "pescatarian"
    if _meat(value):
        return "meat-eater"
    for word in (
        hyphenated(value),
        value.lemma_,
        *(hyphenated(c) for c in value.children if c.dep_ in {"amod", "compound"}),
    ):
        if word.casefold() in DIETS:
            return _SAME_DIET.get(str(word.casefold()), str(word.casefold()))
    return None


#: One diet under two names: the later statement of it is the same value, not a change.
_SAME_DIET: Final = {"veggie": "vegetarian", "meat-free": "vegetarian", "pescetarian": "pescatarian"}


_EATERS: Final = frozenset(["guy", "girl", "person", "eater", "man", "woman", "lover", "fan"])


def _meat(value: Any) -> bool:
    """ "I eat a lot of red meat", "steak twice a week", "I'm a meat and potatoes guy": a diet with
    meat in it, which a later vegetarian or vegan one replaces."""
    said = list(value.head.children)
    if any(c.lower_ == "no" for c in value.children):
        return False  # "fish now, no other meat"
    if any(c.dep_ == "neg" for c in said) and not any(c.lower_ in {"anymore", "longer"} for c in said):
        return False  # "I don't eat pork" says what is not eaten; "I don't eat meat anymore" ends a diet
    if value.head.lemma_.casefold() == "eat" and value.dep_ in OBJECTS:
        nouns = [value, *(g for c in value.children if c.lower_ == "of" for g in c.children)]
        # "I only eat halal meat": the diet is the kind of meat
        return any(
            n.lemma_.casefold() in MEATS and not any(c.lower_ in DIETS for c in n.children) for n in nouns
        )
    if value.dep_ in PREDICATIVE and value.lemma_.casefold() in _EATERS:
        modifiers = (c for c in value.children if c.dep_ in {"compound", "amod", "nmod"})
        return any(c.lemma_.casefold() in MEATS for c in modifiers)
    return False


def meats_said(value: Any) -> str:
    """The meats the sentence names, "red meat and lamb", so the diet's history keeps the foods it told."""
    meats = [t for t in value.sent if t.lower_.removesuffix("s") in MEATS or t.lemma_.casefold() in MEATS]
    said = [" ".join([*(c.lower_ for c in t.children if c.dep_ == "amod"), t.lower_]) for t in meats]
    return " and ".join(dict.fromkeys(said)) or "meat"


def hyphenated(value: Any) -> str:
    """The value with the words hyphenated to it: "gluten-free" (parsed "gluten - free")."""
    start = value.i
    while start >= 2 and value.doc[start - 1].text == "-":
        start -= 2
    return str(value.doc[start : value.i + 1].text)


def classifying(possessive: Any) -> bool:
    """A plural possessive that says what kind, not whose: "a children's librarian", "a women's health
    physio" (no one of its own before it: "a" is the head noun's, whatever the parse hangs it on; "my
    kids' school" is the kids')."""
    return possessive.tag_ == "NNS" and not any(
        c.dep_ == "poss" or (c.dep_ == "det" and c.lower_ not in {"a", "an"}) for c in possessive.children
    )
