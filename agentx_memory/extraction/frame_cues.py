"""The slot a sentence tells by the words around a typed value, whatever its verb: "signed the lease on a
two-bed in Glasgow" (a dwelling word and a city: a home), "my badge for Monzo finally came through" (a
work word and an organisation: an employer). The frames of :mod:`.lexicon` name verbs, and every new verb
of moving or joining needs a row; these cues name the *things* around the change (a lease, keys, a
commute; a boss, a team, a first week), which vary less than the verbs do.

A fallback: read only for a sentence of the speaker's (an "I"/"we" subject or a "my"/"our" cue) that
the frames read nothing of that slot from, with one value of the slot's type and nothing that makes it
a stay, a trip, an application, someone else's or the past. Pure functions over a spaCy parse."""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import TurnText
from .frame_fits import PEOPLE, SUBJECTS, a_post, classifying
from .frame_places import a_business
from .lexicon import DIETS, ENDING_VERBS, PARTNER_NOUNS, PET_KIND, PLAN_DIETS, RELATION_NOUNS, Frame
from .parse_paths import a_name, clause_verb, said_with_me, whose
from .places import known_town
from .slot_atoms import slot_atom

__all__ = ["cue_atoms", "partners_told", "work_told"]

#: Words of a home: where one lives, how one came by it, what moving into it takes.
_HOME: Final = frozenset(
    ["home", "house", "flat", "apartment", "condo", "bungalow", "studio", "place", "lease", "keys", "key",
     "mortgage", "postcode", "zipcode", "neighbourhood", "neighborhood", "neighbours", "neighbors",
     "landlord", "landlady", "rent", "unpack", "box", "removal", "movers", "commute", "housewarming",
     "move", "relocate", "settle", "live", "based", "locals", "local", "bed", "bedroom",
     # what one has where one lives: a GP, a vote, a council; and "here in Leeds"
     "gp", "vote", "voter", "council", "here"]
)  # fmt: skip
#: Words that make a city a visit, not a home.
_AWAY: Final = frozenset(
    ["trip", "holiday", "holidays", "vacation", "visit", "flight", "fly", "weekend", "conference", "hotel",
     "airbnb", "honeymoon", "tour", "festival", "wedding", "cruise", "stay", "staying", "back", "parents",
     "mum", "mom", "dad", "family", "born", "grow", "from", "school", "uni", "university", "college",
     "study", "exchange"]
)  # fmt: skip
#: Words of a job: the people, the place and the first days of it.
_JOB: Final = frozenset(
    ["job", "work", "boss", "manager", "colleague", "coworker", "co-worker", "team", "office", "role",
     "position", "hire", "onboarding", "onboard", "badge", "contract", "offer", "employer", "payroll",
     "shift", "probation", "induction", "salary", "paycheck", "paycheque", "payslip", "employee", "staff",
     "join", "start", "first", "wage"]
)  # fmt: skip
_PAY: Final = frozenset(["paycheck", "paycheque", "payslip", "salary", "wage", "wages", "pay"])
_JOB_VERBS: Final = frozenset(["start", "join", "hire", "onboard", "work"])
#: Words of a plan, a wish or a doubt: nothing that holds yet.
_NOT_YET: Final = frozenset(
    ["think", "consider", "plan", "hope", "dream", "wish", "want", "maybe", "perhaps", "if", "apply", "might",
     # what is only thought of: "I love the idea of moving to Lisbon", "toying with the thought of …"
     "idea", "thought", "prospect", "possibility", "option", "tempt", "fantasise", "fantasize",
     # an offer is not a job until taken, nor one declined: "offered me a job at Amazon but I passed"
     "offer", "decline", "refuse", "reject"]
)  # fmt: skip
#: Words that make an organisation a customer's, an applicant's or a student's, not an employer.
_NOT_EMPLOYED: Final = frozenset(
    ["interview", "apply", "application", "applied", "customer", "client", "order", "delivery", "account",
     "shop", "shopping", "buy", "bought", "subscription", "refund", "complaint", "study", "degree",
     "course", "class", "student", "former", "old", "ex", "used", "quit", "leave", "left", "fire", "sack",
     "redundant", "reject", "visit", "tour", "friend", "sister", "brother", "husband", "wife", "partner",
     # a table or a treatment booked there: "my first steak in a decade is booked for Friday at Hawksmoor"
     "book", "booking", "reservation", "reserve", "table"]
)  # fmt: skip
#: Words of being someone's customer: they make a name no employer, and say nothing of one's job ("three
#: studios and some private clients").
_CUSTOMERS: Final = frozenset(
    ["customer", "client", "order", "delivery", "account", "shop", "shopping", "buy", "bought",
     "subscription", "refund", "complaint", "visit", "tour", "book", "booking", "reservation", "reserve",
     "table"]
)  # fmt: skip
#: Words that end a state or tell of one gone: the cue would read the wrong way.
_GONE: Final = frozenset(
    [
        "used",
        "ago",
        "grew",
        "growing",
        "born",
        "back",
        "then",
        "once",
        "miss",
        "former",
        "old",
        "previous",
        "end",
        "expire",
    ]
)

_RESIDENCE: Final = Frame("cue", "prep", "residence", change=True)
_HOME_SAID: Final = Frame("cue", "prep", "residence")
#: Words of moving into a home (the rest of :data:`_HOME` tell of one lived in).
_MOVING: Final = frozenset(
    ["lease", "keys", "key", "mortgage", "removal", "movers", "unpack", "box", "move", "relocate", "settle",
     "housewarming", "new", "completion"]
)  # fmt: skip
_EMPLOYER: Final = Frame("cue", "prep", "employer", change=True)
_OCCUPATION: Final = Frame("cue", "prep", "occupation", change=True)
_DIET: Final = Frame("cue", "attr", "diet")
_PARTNER: Final = Frame("date", "dobj", "partner", change=True)
#: Words of being with someone: "an item", "made it official", "engaged", "a couple".
_ROMANCE: Final = frozenset(["item", "official", "couple", "dating", "engaged", "married", "marry", "knot"])
#: Words of parting: what they tell of a person is no new partner.
_PARTED: Final = frozenset(
    ["break", "split", "separate", "part", "divorce", "ex", "old", "gone", "over", "dump", "lifetime", "news"]
)
#: Nouns a job is "as": "landed a role as a junior architect", "a contract as a site manager".
_POSTS: Final = frozenset(
    ["role", "job", "position", "post", "career", "shift", "contract", "placement", "apprenticeship",
     "internship", "gig", "stint", "vacancy", "living", "paycheque", "paycheck", "payslip", "week", "day"]
)  # fmt: skip


def cue_atoms(
    sentence: Any, speaker: str, turn: TurnText, correction: bool, read: set[str]
) -> list[FactAtom]:
    """A home or an employer told by the words around it, for a sentence the frames did not read that slot
    from (``read``: the slot keys they read or judged in it)."""
    if _others(sentence):
        return []
    # a diet is judged by its own clause (a long sentence may say "no ghee" or "maybe" of something else)
    diets = [] if "diet" in read else _diets_kept(sentence)
    if not _mine(sentence):  # chat's verbless "Fully vegan since.": no one but the speaker is in it
        before = sentence.doc[max(0, sentence.start - 12) : sentence.start]
        if any(t.lemma_.casefold() in RELATION_NOUNS or t.ent_type_ == "PERSON" for t in before):
            return []  # "My sister? vegan now": the one just spoken of
        return [_atom(_DIET, token, speaker, turn, correction) for token in diets if _diet_fragment(token)]
    atoms = [_atom(_DIET, token, speaker, turn, correction) for token in diets]
    if _negated(sentence):
        return atoms
    if _undecided(sentence):
        return atoms  # "I'm thinking about moving to Berlin", "I might take the job at Aldi"
    root = sentence.root
    if root.lemma_ == "be" and root.tag_ == "VBD":
        return atoms  # "My old flat in Leeds was tiny": a state gone
    # the words as written too, but not those :func:`_cue` refused ("my first open mic at the Crown")
    lemmas = {_cue(t) for t in sentence} | {t.lower_ for t in sentence if _cue(t) or t.lower_ not in _CUED}
    if lemmas & _GONE:
        return atoms
    home, job = (
        bool(lemmas & _HOME and not lemmas & _AWAY),
        bool(lemmas & _JOB and not lemmas & _NOT_EMPLOYED),
    )
    # a city said where one is ("a flat in Leeds", "my Leeds flat"), not one that acts ("Freja and I …")
    # (the small model calls some towns a location: "the new flat in Cardiff")
    places = [
        e
        for e in sentence.ents
        if (e.label_ == "GPE" or (e.label_ == "LOC" and known_town(e.text))) and _where(e.root)
    ]
    city = places[0] if len(places) == 1 and not any(a_business(t) for t in places[0]) else None
    # "my new manager at Ocado": the small model's "city" where a job is told is the employer
    if "lives_in" not in read and home and city is not None and not (job and _named_at(city.root)):
        moved = bool(lemmas & _MOVING)  # "signed the lease on …" is a move; "my place in Calgary" a home
        atoms.append(_atom(_RESIDENCE if moved else _HOME_SAID, city.root, speaker, turn, correction))
    # a name (the small model calls "the kids & work" an organisation too)
    bodies = [
        e.root for e in sentence.ents if e.label_ == "ORG" and _named_at(e.root) and e.root.text[:1].isupper()
    ] or [
        # the model's "city" told "at" ("at Ocado"); not a town naming an office ("the Melbourne office")
        e.root
        for e in sentence.ents
        if e.label_ == "GPE"
        and _named_at(e.root)
        and not home
        and not (e.root.dep_ == "compound" and known_town(e.text))
    ]
    # a name "at" which the job is told that the small model gives no type, or a person's ("onboarding at
    # Figma"): the job words say it is an employer
    bodies = bodies or [
        t
        for t in sentence
        if t.pos_ == "PROPN" and t.dep_ == "pobj" and t.head.lower_ == "at" and not t.ent_type_
    ]
    if "works_at" not in read and job and len(bodies) == 1:
        atoms.append(_atom(_EMPLOYER, bodies[0], speaker, turn, correction))
    posts = [g for t in sentence if t.lemma_.casefold() in _POSTS for g in _as_what(t)]
    if "works_as" not in read and len(posts) == 1 and not lemmas & _NOT_EMPLOYED - _CUSTOMERS:
        atoms.append(_atom(_OCCUPATION, posts[0], speaker, turn, correction))
    return atoms


#: The people and bodies a job has, whose wishes are theirs: "my manager at Google wants me to …".
_BOSSES: Final = frozenset(
    ["manager", "boss", "colleague", "coworker", "co-worker", "team", "company", "employer"]
)


#: Phrasal verbs of saying no to an offer: "turned down a role as a nurse", "passed on the job at Arup".
_REFUSING: Final = frozenset([("turn", "down"), ("pass", "on"), ("pass", "up")])


def _refused(verb: Any) -> bool:
    return any(
        (verb.lemma_.casefold(), c.lower_) in _REFUSING
        for c in verb.children
        if c.dep_ == "prt" or (c.dep_ == "prep" and c.lower_ == "on")
    )


def _undecided(sentence: Any) -> bool:
    """A plan, a wish or a doubt of the speaker's in the sentence; another's ("my manager at Google wants
    me to lead the project") leaves what the speaker is as it is."""
    for token in sentence:
        if not (token.tag_ == "MD" or token.lemma_.casefold() in _NOT_YET or _refused(token)):
            continue
        verb = token.head if token.tag_ == "MD" or token.dep_ in {"aux", "advmod", "mark"} else token
        subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
        # a person's, not the speaker's own thing ("My next job will be at Google": the speaker's plan)
        theirs = subjects and (
            subjects[0].pos_ == "PROPN" or subjects[0].lemma_.casefold() in RELATION_NOUNS | _BOSSES
        )
        if not theirs:
            return True
    return False


def _diets_kept(sentence: Any) -> list[Any]:
    """The diets the speaker keeps, whatever the verb: "I keep kosher now", "I follow a vegan diet",
    "my diet's pescatarian now", "doctor put me on the DASH diet"; not one left ("took me off keto",
    "paleo got old"), someone else's, a dish ("a vegan restaurant") or the past."""
    kept: dict[str, Any] = {}
    for token in sentence:
        word = token.lower_
        if word not in DIETS and word not in PLAN_DIETS:
            continue
        on_diet = token.head.lemma_.casefold() in {"diet", "plan"} and token.dep_ in {"amod", "compound"}
        said = token.dep_ in {"attr", "acomp", "dobj", "oprd", "xcomp"} or (
            token.dep_ == "pobj" and token.head.lower_ == "on"
        )
        if word in PLAN_DIETS and not on_diet:
            continue  # "a Mediterranean cruise", "dash"
        if _diet_fragment(token):
            kept.setdefault(word, token)  # "… never looked back — fully vegan since."
            continue
        if not (on_diet or said) or _left(token) or not _holds(token):
            continue
        kept.setdefault(word, token)
    return list(kept.values())


def _diet_fragment(token: Any) -> bool:
    """A diet said on its own, with no verb: "Fully vegan since.", "… — vegetarian these days"."""
    if any(t.pos_ in {"VERB", "AUX"} or t.dep_ == "neg" for t in token.subtree):
        return False
    if any(t.lower_ in {"not", "no", "never", "ex", "former", "used"} for t in token.subtree):
        return False
    if token.dep_ == "ROOT":
        return not any(t.pos_ in {"VERB", "AUX"} for t in token.sent)
    before = token.doc[token.left_edge.i - 1] if token.left_edge.i > token.sent.start else None
    return token.dep_ in {"conj", "dep", "appos"} and before is not None and before.text in {"-", "–", "—"}


def _holds(token: Any) -> bool:
    """The clause of ``token`` says it holds now: not denied, wished, a modal's or gone ("I used to be
    vegan", "I'm not vegan": the frames read those)."""
    verb = clause_verb(token)
    told = [verb, *verb.children, *(verb.head.children if verb.dep_ == "xcomp" else ())]
    if any(t.dep_ == "neg" or t.tag_ == "MD" or t.lemma_.casefold() in _NOT_YET | _GONE for t in told):
        return False
    # the speaker's alone ("I keep kosher", "my diet is …", "put me on …"), not "our house has gone vegan"
    subjects = [t for t in told if t.dep_ in SUBJECTS]
    mine = any(
        t.lower_ == "i" or t.lemma_.casefold() == "diet" or (t.dep_ == "dobj" and t.lower_ == "me")
        for t in told
    )
    return mine or (not subjects and verb.i == verb.sent.start)


def _left(token: Any) -> bool:
    """A diet governed by what leaves it: "took me off keto", "a break from paleo", "without dairy"."""
    node = token
    while node.head.i != node.i and node.pos_ not in {"VERB", "AUX"}:
        if node.head.lower_ in {"off", "from", "without", "instead"}:
            return True
        node = node.head
    return any(c.lower_ in {"off", "from"} and c.dep_ in {"prt", "prep"} for c in node.children) and any(
        t.i == token.i for c in node.children if c.lower_ in {"off", "from"} for t in c.subtree
    )


#: Verbs a post is lost or left by.
_LOSING: Final = frozenset(["lose", *ENDING_VERBS])


def _as_what(post: Any) -> list[Any]:
    """ "a role as a junior architect", "my shifts as a care assistant": the job the post is "as"; not one
    lost or left ("Lost my job as a banker yesterday": no banker now)."""
    if post.dep_ == "dobj" and post.head.lemma_.casefold() in _LOSING:
        return []
    # "earn my living as a yoga instructor": the "as" may hang on the verb the post is the object of
    holders = [post, post.head] if post.dep_ == "dobj" else [post]
    # after "a job / role / position as" any noun names the post: "a job as a clinical research associate"
    surely = post.lemma_.casefold() in {"job", "role", "position", "post", "career"}
    return [
        g
        for holder in holders
        for c in holder.children
        if c.dep_ == "prep" and c.lower_ == "as"
        for g in c.children
        if g.dep_ == "pobj" and (a_post(g) or (surely and g.pos_ == "NOUN" and not g.ent_type_))
    ]


def _where(place: Any) -> bool:
    """A city said where one is: "a flat in Leeds", "moved to Leeds", "my Leeds flat"; not one that acts or
    a time ("after Freja and I broke up")."""
    if place.dep_ == "pobj":
        return place.head.lower_ in {"in", "to", "into", "near", "outside", "around", "at"}
    # "a little ginger kitten, Marmalade": a name set beside a pet names the pet
    return place.dep_ in {"compound", "appos"} and place.head.lemma_.casefold() not in PET_KIND


def partners_told(sentence: Any, speaker: str, turn: TurnText, correction: bool) -> list[FactAtom]:
    """Someone new the speaker is with, whatever the verb: "Rosa and I are an item", "Chloe and I made it
    official", "tied the knot with Marcus", "moved in with Ingrid"; not a parting ("Freja and I broke
    up"), someone else's ("Tom and Jo are an item") or a plan."""
    atoms = [
        slot_atom(_PARTNER, person, speaker, turn, correction, speaker, False) for person in _dated(sentence)
    ]
    for verb in sentence:
        if verb.pos_ not in {"VERB", "AUX"} or any(c.dep_ == "neg" or c.tag_ == "MD" for c in verb.children):
            continue
        clause = [t for t in verb.subtree if t.dep_ not in {"conj", "advcl", "parataxis"}]
        words = {t.lemma_.casefold() for t in clause} | {t.lower_ for t in clause}
        if words & (_PARTED - {"over"} if "heels" in words else _PARTED) or words & _NOT_YET:
            continue  # a parting or a plan; "head over heels" is no "it's over"
        # "a couple of weeks" is no couple
        romance = words & _ROMANCE - (
            {"couple"} if any(t.lower_ == "couple" and _of(t) for t in clause) else set()
        )
        with_me = said_with_me(verb) if romance else []
        moved_in = verb.lemma_ == "move" and any(c.lower_ == "in" for c in verb.children)
        knot = verb.lemma_ == "tie" and any(c.dep_ == "dobj" and c.lower_ == "knot" for c in verb.children)
        mine = any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in verb.children) or not any(
            c.dep_ in SUBJECTS for c in verb.children
        )
        holders = [verb, *(c for c in verb.children if c.dep_ == "dobj" and c.lower_ == "knot")]
        joined = [
            g
            for holder in holders
            for c in holder.children
            if (moved_in or knot) and mine and c.dep_ == "prep" and c.lower_ == "with"
            for g in c.children
            if g.dep_ == "pobj"
        ]
        people = [
            *with_me,
            *joined,
            *_moved_in_with_me(verb),
            *_asked_to_be(verb),
            *_smitten_with(verb),
            *_seeing_someone_called(verb),
        ]
        for person in people:
            # the small model calls many a first name a place ("Marcus", "Valentina"): the frame says a person
            kin = person.lemma_.casefold() in RELATION_NOUNS  # "Mum and I …" is no partner
            if a_name(person) and person.text[:1].isupper() and not kin:
                atoms.append(slot_atom(_PARTNER, person, speaker, turn, correction, speaker, False))
    return atoms


def _of(token: Any) -> bool:
    return any(c.dep_ == "prep" and c.lower_ == "of" for c in token.children)


def _seeing_someone_called(verb: Any) -> list[Any]:
    """ "I'm seeing someone called Priya now", "dating a guy named Ben": the name given to the someone
    (the small model hangs "someone called Priya" on the verb as a clause of its own)."""
    if verb.lemma_ not in {"see", "date"} or verb.tag_ != "VBG":
        return []
    if any(c.dep_ == "aux" and c.tag_ == "VBD" for c in verb.children):
        return []  # "I was seeing someone called Priya last year": then
    if not any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in verb.children):
        return []
    return [
        name
        for called in verb.children
        if called.dep_ in {"ccomp", "xcomp", "dobj", "acl"}
        for part in (called, *called.children)
        if part.lemma_ in {"call", "name"}
        and any(s.lemma_.casefold() in PEOPLE for s in (*part.children, part.head))
        for name in part.children
        if name.dep_ in {"dobj", "oprd", "attr"} and name.pos_ == "PROPN"
    ]


def _dated(sentence: Any) -> list[Any]:
    """Whom the speaker has a date night with: "Date night with Alex tonight"; not someone else's ("Tom's
    date night with Ana"), a wish or a parting."""
    words = {t.lemma_.casefold() for t in sentence}
    if words & (_PARTED | _NOT_YET) or any(t.dep_ == "neg" for t in sentence):
        return []
    return [
        g
        for night in sentence
        if night.lemma_.casefold() == "night"
        and any(c.dep_ == "compound" and c.lower_ == "date" for c in night.children)
        and not any(c.dep_ == "poss" and c.lower_ not in {"my", "our"} for c in night.children)
        for c in night.children
        if c.dep_ == "prep" and c.lower_ == "with"
        for g in c.children
        if g.dep_ == "pobj" and g.pos_ == "PROPN"
    ]


def _asked_to_be(verb: Any) -> list[Any]:
    """Whom the speaker asked to be their partner, or who asked the speaker: "asked Hollie to be my
    girlfriend", "Sameer asked me to be his boyfriend"; not when the answer was no."""
    if verb.lemma_ != "ask" or any(t.lower_ in {"no", "declined", "refused"} for t in verb.sent):
        return []
    roles = [
        attr
        for be in verb.children
        if be.dep_ == "xcomp" and be.lemma_ == "be"
        for attr in be.children
        if attr.dep_ == "attr" and attr.lemma_.casefold() in PARTNER_NOUNS
    ]
    if not roles:
        return []
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    objects = [c for c in verb.children if c.dep_ == "dobj"]
    mine = whose(roles[0]) in {"my", "our"} and all(c.lower_ in {"i", "we"} for c in subjects)
    theirs = whose(roles[0]) in {"his", "her", "their"} and any(c.lower_ == "me" for c in objects)
    asked = objects if mine else subjects if theirs else []
    return [p for p in asked if p.pos_ == "PROPN"]


#: How one is with someone in love: "going out with Theo", "head over heels with Ivan", "in love with
#: Marta", "loved up with Zainab".
_SMITTEN: Final = frozenset(["heels", "love", "loved", "smitten", "besotted"])


def _smitten_with(verb: Any) -> list[Any]:
    """Someone the speaker is in love with or going out with, whatever the verb; not someone else's."""
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    if subjects and not all(c.lower_ in {"i", "we"} for c in subjects):
        return []
    going_out = verb.lemma_ == "go" and any(c.dep_ == "prt" and c.lower_ == "out" for c in verb.children)
    smitten = any(t.lower_ in _SMITTEN for t in verb.subtree if t.i < verb.i + 6)
    if not (going_out or (smitten and subjects)):
        return []
    found = []
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ == "with"):
        for held in prep.children:
            named = [g for c in held.children if c.dep_ == "acl" for g in c.children if g.pos_ == "PROPN"]
            found += [held] if held.pos_ == "PROPN" else named  # "a lovely man called Ivan"
    return found


def _moved_in_with_me(verb: Any) -> list[Any]:
    """Someone named who moved into the speaker's home: "Priyanka's moved all her stuff into my flat",
    "Jamal moved in with me"; not someone of a relation the sentence gives ("my flatmate Tom", "my sister
    Jo"), nor someone moving elsewhere."""
    if verb.lemma_ != "move":
        return []
    into_mine = any(
        c.dep_ == "prep"
        and c.lower_ in {"into", "in"}
        and any(g.lemma_.casefold() in _HOME and whose(g) in {"my", "our"} for g in c.children)
        for c in verb.children
    )
    with_me = any(
        c.dep_ == "prep" and c.lower_ == "with" and any(g.lower_ == "me" for g in c.children)
        for c in verb.children
    )
    if not (into_mine or with_me):
        return []
    movers = [c for c in verb.children if c.dep_ in SUBJECTS and c.pos_ == "PROPN" and c.text[:1].isupper()]
    return [
        m for m in movers if not any(t.lemma_.casefold() in RELATION_NOUNS for t in m.subtree if t is not m)
    ]


def work_told(sentence: Any, speaker: str, turn: TurnText, correction: bool) -> list[FactAtom]:
    """An employer or a job told by what goes with it: "I'm on HSBC's payroll now", "it's Aer Lingus
    paying my wages", "ex-hygienist turned beekeeper", "former lawyer turned yoga teacher"."""
    atoms = []
    for token in sentence:
        lemma = token.lemma_.casefold()
        payers = []
        # "I'm on HSBC's payroll", "officially on the Deloitte payroll"; not "my sister is on …"
        if lemma == "payroll" and (_said_of_me(token) or not any(t.dep_ in SUBJECTS for t in token.sent)):
            payers = [c for c in token.children if c.dep_ in {"poss", "compound"} and c.pos_ == "PROPN"]
        if lemma == "pay" and any(
            c.dep_ == "dobj" and c.lemma_.casefold() in {"wage", "salary"} and whose(c) == "my"
            for c in token.children
        ):  # "Aer Lingus paying my wages"
            payers = [c for c in token.children if c.dep_ in SUBJECTS and c.pos_ == "PROPN"]
        if (
            lemma == "jump"
            and any(c.lower_ == "ship" for c in token.children)
            and (_said_of_me(token) or _unowned(token.sent))
        ):  # "finally jumped ship to the BBC"
            payers = [g for c in token.children if c.lower_ == "to" for g in c.children if g.pos_ == "PROPN"]
        atoms += [_atom(_EMPLOYER, payer, speaker, turn, correction) for payer in payers[:1]]
        # "(I) went freelance as a translator"
        if lemma == "freelance" and (_said_of_me(token) or token.sent[0].lemma_ == "go"):
            preps = [c for c in (*token.children, *token.head.children) if c.lower_ == "as"]
            jobs = [g for c in preps for g in c.children if a_post(g)]
            atoms += [_atom(_OCCUPATION, job, speaker, turn, correction) for job in jobs[:1]]
        if lemma in _SWITCHING and token.pos_ == "VERB" and (_said_of_me(token) or _unowned(token.sent)):
            # "Went from accountant to chef", "I switched from nursing to … a paramedic": from one post to
            # another
            ends = {c.lower_: [g for g in c.children if g.dep_ == "pobj"] for c in token.children}
            if any(a_post(g) for g in ends.get("from", [])) and (
                posts := [g for g in ends.get("to", []) if a_post(g)]
            ):
                atoms.append(_atom(_OCCUPATION, posts[0], speaker, turn, correction))
        if lemma == "turn" and token.pos_ == "VERB":  # "ex-hygienist turned beekeeper": the new job
            before = [c for c in token.children if c.dep_ in SUBJECTS and a_post(c)]
            after = [c for c in token.children if c.dep_ in {"dobj", "attr", "oprd", "advmod"} and a_post(c)]
            if before and after:
                atoms.append(_atom(_OCCUPATION, after[0], speaker, turn, correction))
    return atoms


#: Verbs of going from one post to another.
_SWITCHING: Final = frozenset(["go", "switch", "move", "change", "transition", "pivot"])


def _said_of_me(token: Any) -> bool:
    """The clause ``token`` is part of has the speaker for its subject."""
    return any(c.dep_ in SUBJECTS and c.lower_ in {"i", "we"} for c in clause_verb(token).children)


def _named_at(value: Any) -> bool:
    """A name where one works is told "at"/"for"/"with" it, or names what one has there ("my Monzo
    badge"); the small model calls many a company a city ("Monzo", "Ocado")."""
    if value.dep_ == "pobj" and value.head.lower_ in {"at", "for", "with"}:
        return True
    if value.dep_ == "pobj" and value.head.lower_ == "from" and value.head.head.lemma_.casefold() in _PAY:
        return True  # "first paycheck from Microsoft"
    return value.dep_ == "compound" and value.head.lemma_.casefold() in _JOB and not _acts_on_me(value.head)


def _acts_on_me(body: Any) -> bool:
    """An office or a team that does something to the speaker is one they deal with ("the GI office put
    me down for March 6th", "the Barclays team called me back"), unless it is theirs ("my team")."""
    verb = body.head
    return (
        body.dep_ in SUBJECTS
        and not any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in body.children)
        and any(c.dep_ in {"dobj", "dative"} and c.lower_ in {"me", "us"} for c in verb.children)
    )


#: Words that are cues only as :func:`_cue` reads them.
_CUED: Final = frozenset(["first", "start", "join", "hire"])


def _cue(token: Any) -> str:
    """The token as a cue: a verb of joining is one only as a verb ("5am starts" starts no job), "first"
    only of the first days ("first week done")."""
    lemma = str(token.lemma_.casefold())
    if lemma in _JOB_VERBS and token.pos_ != "VERB":
        return ""
    if lemma == "first" and token.head.lemma_.casefold() not in {"day", "week", "month", "shift"}:
        return ""
    return lemma


def _atom(frame: Frame, value: Any, speaker: str, turn: TurnText, correction: bool) -> FactAtom:
    return slot_atom(frame, value, speaker, turn, correction, speaker, False)


def _mine(sentence: Any) -> bool:
    """The speaker is who the sentence is about: "I"/"we" a subject, or "my"/"our" a possessor; or chat's
    sentence with no one in it that opens with a doing or a job word ("onboarding at Ocado this week has
    been a blur", "First paycheck from Microsoft landed today")."""
    return _unowned(sentence) or any(
        (t.dep_ in SUBJECTS and t.lower_ in {"i", "we"})
        or (t.dep_ == "poss" and t.lower_ in {"my", "our"})
        or (t.dep_ == "dobj" and t.lower_ == "me" and t.head.lemma_ in {"put", "switch", "move", "get"})
        for t in sentence
    )


def _unowned(sentence: Any) -> bool:
    words = [t for t in sentence if not (t.is_punct or t.pos_ in {"ADV", "INTJ", "DET", "ADJ", "NUM"})]
    if not words or any(t.pos_ == "PRON" and t.lower_ not in {"it", "this", "that"} for t in sentence):
        return False
    first = words[0]
    opens = first.tag_ in {"VBG", "VBD"} and not any(c.dep_ in SUBJECTS for c in first.children)
    # "First week at Stripe done": the first days of a job
    started = first.lemma_.casefold() in {"week", "day", "shift", "month"} and any(
        t.lower_ == "first" for t in sentence if t.i < first.i
    )
    return opens or first.lemma_.casefold() in _JOB or started


def _others(sentence: Any) -> bool:
    """Someone else is a subject ("my sister just moved to Leeds", "Tom's new place in Leeds")."""
    for token in sentence:
        person = token.ent_type_ == "PERSON" or token.lemma_.casefold() in RELATION_NOUNS
        at_work = token.lemma_.casefold() in _JOB and any(c.lower_ in {"my", "our"} for c in token.children)
        about_me = any(c.dep_ == "dobj" and c.lower_ == "me" for c in token.head.children)
        # "my new manager at Ocado" is the speaker's news, and so is "the doctor put me on keto"
        if token.dep_ in SUBJECTS and person and not at_work and not about_me:
            return True
        # "they live in Spain now" (a landlord's message, quoted): someone said before
        if token.dep_ in SUBJECTS and token.lower_ in {"he", "she", "they"}:
            return True
        # "Our eldest, Chloe, starts at Oxford": a subject given a name beside it is that person
        named = any(
            c.dep_ == "appos" and (c.ent_type_ == "PERSON" or c.pos_ == "PROPN") for c in token.children
        )
        if token.dep_ in SUBJECTS and (named or token.lower_ in _ELDEST):
            return True
        # "In my novel the hero lives in Venice", "the new guy works at Arup": someone the speaker
        # does not own does the living or the working
        if token.dep_ in {"nsubj", "nsubjpass"} and token.pos_ == "NOUN" and _someone(token):
            return True
        # "Tom's new place", "my brother's new place is in Leeds": the thing is theirs
        if token.dep_ == "poss" and (
            token.ent_type_ == "PERSON"
            or token.lower_ in {"his", "her", "their"}
            or (token.lemma_.casefold() in RELATION_NOUNS and not classifying(token))
        ):
            return True
    return False


#: Children said by their order: "our eldest", "my youngest".
_ELDEST: Final = frozenset(["eldest", "youngest", "oldest", "middle"])
#: Verbs of where one lives or works, whose subject is the one who does.
_LIVING: Final = frozenset(["live", "work", "move", "relocate", "settle", "join"])


def _someone(subject: Any) -> bool:
    """A noun subject that is someone other than the speaker: "the hero", "a friend of mine"; not the
    speaker's own thing ("my flat is in Leeds", "our new place")."""
    if subject.head.lemma_ not in _LIVING or subject.lemma_.casefold() in _JOB:
        return False
    owned = any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in subject.children)
    determined = any(c.dep_ == "det" for c in subject.children)
    return determined and not owned and subject.lemma_.casefold() not in _THINGS


#: Things of the speaker's a sentence may start from: "the flat is in Leith", "the commute is long".
_THINGS: Final = frozenset(
    ["flat", "house", "place", "apartment", "home", "commute", "office", "rent", "move", "room", "new"]
)


def _negated(sentence: Any) -> bool:
    return any(t.dep_ == "neg" or t.lower_ in {"never", "nothing", "no"} for t in sentence)
