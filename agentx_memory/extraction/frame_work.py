"""Work told by what one does for it: "Driving lorries for a living means nine hours in a cab", "since I
started doing air traffic control for a living". Pure functions over a spaCy parse."""

from __future__ import annotations

from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .frame_fits import SUBJECTS, now_said
from .frame_moods import CONDITIONS
from .given_names import known_first_name
from .lexicon import VEHICLE_NOUNS, WISH_HEADS
from .patterns import OCCUPATIONS
from .verbs import gerund

__all__ = ["a_job_named", "employer_named", "for_a_living", "work_done_now", "work_things"]


def for_a_living(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The speaker's work, from a doing said to be "for a living": its words are the job ("Gary earns a
    living driving lorries"), which replaces the job said before."""
    for living in sentence:
        if living.lower_ != "living" or living.dep_ != "pobj" or living.head.lower_ != "for":
            continue
        verb = living.head.head
        while verb.pos_ != "VERB" and verb.head.i != verb.i:  # "do wedding photography for a living"
            verb = verb.head
        if verb.pos_ != "VERB" or (verb.lemma_ in {"work", "do", "earn", "make"} and not _object(verb)):
            continue  # "what do you do for a living?" is read elsewhere (a question), "work for a living"
        if not _the_speakers(verb) or _wished(verb):
            continue
        said = gerund(verb.lemma_.casefold()) if verb.tag_ != "VBG" else verb.lower_
        doing = " ".join(said if t.i == verb.i else t.text for t in _doing(verb))
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        statement = f"{speaker} earns a living {doing}"
        return [build_atom("identity", "works_as", doing, statement, ctx, [], False, "explicit")]
    return []


def _object(verb: Any) -> bool:
    return any(c.dep_ == "dobj" for c in verb.children)


def _doing(verb: Any) -> list[Any]:
    """ "driving lorries", "doing air traffic control": the verb as a gerund and its object."""
    kept = [verb, *(t for c in verb.children if c.dep_ in {"dobj", "prt"} for t in c.subtree)]
    return sorted(kept, key=lambda t: t.i)


def _the_speakers(verb: Any) -> bool:
    """A gerund that is its clause's subject ("Driving lorries for a living means …"), or a doing whose
    subject (or whose head's subject) is the speaker ("I started doing air traffic control …")."""
    if verb.tag_ != "VBG":  # "I do wedding photography for a living now"
        return any(c.dep_ in SUBJECTS and c.lower_ in {"i", "we"} for c in verb.children)
    if verb.dep_ in {"csubj", "csubjpass"}:
        return True
    node = verb
    while node.dep_ in {"xcomp", "pcomp", "conj"} and node.head.i != node.i:
        node = node.head
    subjects = [c for c in node.children if c.dep_ in SUBJECTS]
    return bool(subjects) and subjects[0].lower_ in {"i", "we"}


def _wished(verb: Any) -> bool:
    node = verb
    while node.head.i != node.i:
        # a wish governs its complement ("I'd love to paint for a living"), not its subject ("Driving
        # lorries for a living means …")
        wish = node.head.lemma_ in WISH_HEADS and node.dep_ not in {"csubj", "csubjpass"}
        if wish or any(c.tag_ == "MD" or c.dep_ == "neg" for c in node.head.children):
            return True
        if any(c.dep_ == "mark" and c.lower_ in CONDITIONS for c in node.children):
            return True
        node = node.head
    return any(c.tag_ == "MD" or c.dep_ == "neg" for c in node.children)


#: Getting or starting a job: "got my first developer job", "landed a nursing job", "started a new
#: teaching job", "love my new barista job".
_TAKING_A_JOB: Final = frozenset(["get", "land", "start", "take", "accept", "begin", "love", "have", "score"])
_JOB_NOUNS: Final = frozenset(["job", "role", "position", "gig"])


def a_job_named(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The speaker's work named by the job they got or started ("Got my first developer job after the
    bootcamp" → developer), when the word before "job" is a known occupation; not a job wished for,
    someone else's, or one of a kind that is no occupation ("a part-time job", "a summer job")."""
    for job in sentence:
        verb = job.head
        if job.lemma_.casefold() not in _JOB_NOUNS or job.dep_ != "dobj" or verb.lemma_ not in _TAKING_A_JOB:
            continue
        named = [c for c in job.children if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i == job.i - 1]
        if not named or named[0].lemma_.casefold() not in OCCUPATIONS:
            continue
        if any(c.dep_ == "poss" and c.lower_ not in {"my", "our"} for c in job.children):
            continue  # "got her first developer job"
        subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
        if verb.lemma_ in {"have", "love"} and verb.tag_ == "VBD":
            continue  # "I had a teacher job": one before
        if (subjects and subjects[0].lower_ not in {"i", "we"}) or _wished(verb):
            continue  # "my sister got a developer job", "I'd love a nursing job"
        if not subjects and verb.i != verb.head.i:
            continue  # a dropped subject only opens the sentence ("Got my first developer job …")
        value = named[0].lemma_.casefold()
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        statement = f"{speaker} works as {'an' if value[:1] in 'aeiou' else 'a'} {value}"
        return [build_atom("identity", "works_as", value, statement, ctx, [], False, "explicit")]
    return []


def work_done_now(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The speaker's job told by what they do now, when its doer is an occupation: "I drive trams in
    Kraków now" (a tram driver), "I clean offices these days" (an office cleaner); not a vehicle driven
    ("I drive a Tesla now"), a one-off, a wish, or a doing with no doer's job ("I walk dogs now")."""
    for verb in sentence:
        if verb.pos_ != "VERB" or verb.tag_ not in {"VBP", "VBZ"} or not now_said(verb):
            continue
        if not any(c.dep_ in SUBJECTS and c.lower_ in {"i", "we"} for c in verb.children) or _wished(verb):
            continue
        if verb.lemma_ == "teach" or any(c.dep_ in {"xcomp", "ccomp"} for c in verb.children):
            continue  # "teach" is a frame's own; "we teach kids to swim": whom, not a trade
        doer = _doer(verb.lemma_.casefold())
        things = [c for c in verb.children if c.dep_ == "dobj" and c.pos_ == "NOUN" and not c.ent_type_]
        if doer is None or not things or things[0].lemma_.casefold() in VEHICLE_NOUNS:
            continue
        thing = things[0]
        if any(
            c.dep_ in {"poss", "nummod"} or c.lower_ in {"a", "an", "the", "this", "that"}
            for c in thing.children
        ):
            continue  # "I drive a Tesla now", "I teach my kids": one thing, not a trade
        value = f"{thing.lemma_.casefold()} {doer}"
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        return [
            build_atom(
                "identity",
                "works_as",
                value,
                f"{speaker} works as {'an' if value[:1] in 'aeiou' else 'a'} {value}",
                ctx,
                [],
                False,
                "explicit",
            )
        ]
    return []


def _doer(lemma: str) -> str | None:
    """The occupation named by the one who does ``lemma``: "drive" a driver, "clean" a cleaner."""
    for doer in (f"{lemma}r", f"{lemma}er", f"{lemma}{lemma[-1:]}er"):
        if doer in OCCUPATIONS:
            return doer
    return None


def work_things(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The employer named on the speaker's things of work: "my Canva laptop arrived today", "Picked up my
    Mercado Libre lanyard", "my Flutterwave ID card and staff email have come through"; not a maker's
    or a mail provider's name ("my Dell laptop", "my Gmail"), nor a thing wished for or asked about."""
    if sentence.text.rstrip().endswith("?") or any(
        t.dep_ == "neg" or t.tag_ == "MD" or t.lower_ in {"if", "when", "once"} for t in sentence
    ):
        return []
    words = list(sentence)
    for at, my in enumerate(words):
        if my.lower_ not in {"my", "our"}:
            continue
        name = []
        for word in words[at + 1 : at + 4]:
            if not (word.text[:1].isupper() and word.is_alpha) or word.lower_ in _WORK_THINGS:
                break
            name.append(word)
        rest = words[at + 1 + len(name) :]
        if not name or not rest or rest[0].lower_ not in _WORK_THINGS:
            continue
        said = " ".join(word.text for word in name)
        if said.casefold() in _MAKERS or name[0].lower_ in _MAKERS:
            continue
        if any(word.ent_type_ in {"DATE", "TIME", "EVENT", "NORP"} for word in name):
            continue  # "my Christmas email", "my Spanish badge"
        if rest[0].lower_ in {"email", "login"} and name[0].lower_ in _SERVICES:
            continue  # "my Spotify login": an account, not a job
        ctx = Context(turn=turn, subject=speaker, correction=True, is_speaker=True)
        return [
            build_atom("identity", "works_at", said, f"{speaker} works at {said}", ctx, [], False, "explicit")
        ]
    return []


#: Things an employer gives the people who work there.
_WORK_THINGS: Final = frozenset(
    ["laptop", "badge", "lanyard", "id", "staff", "work", "payslip", "paycheck", "paycheque", "login",
     "onboarding", "induction", "hoodie", "uniform", "swag", "contract", "desk", "email"]
)  # fmt: skip
#: Names on a thing that say who made it or carries its mail, not who employs its owner.
_MAKERS: Final = frozenset(
    ["apple", "dell", "hp", "lenovo", "asus", "acer", "microsoft", "surface", "samsung", "google",
     "chromebook", "macbook", "thinkpad", "razer", "msi", "lg", "toshiba", "huawei", "xiaomi", "gmail",
     "outlook", "hotmail", "yahoo", "proton", "icloud", "aol", "nike", "adidas", "ikea", "amazon", "etsy",
     "ebay", "new", "old", "first", "own", "personal", "home", "school", "uni", "university", "college"]
)  # fmt: skip
#: Services one has an account with: their email or login is no job.
_SERVICES: Final = frozenset(
    ["slack", "zoom", "teams", "linkedin", "facebook", "instagram", "twitter", "netflix", "spotify", "uber",
     "paypal", "steam", "discord", "tiktok", "reddit", "github", "duolingo", "strava", "airbnb", "booking"]
)  # fmt: skip


#: Nouns that name the speaker's employer with its name beside them: "my company, Salesforce, …".
_EMPLOYERS: Final = frozenset(["company", "employer", "firm", "workplace", "agency", "bosses"])


def employer_named(sentence: Any, speaker: str, turn: TurnText) -> list[FactAtom]:
    """The employer named beside "my company" / "my employer" / "the firm I work for": "my company,
    Salesforce, just announced another reorg"; not a company of another kind ("my phone company,
    Vodafone"), someone else's ("my wife's company, Arup"), one wished for or asked about."""
    if sentence.text.rstrip().endswith("?") or any(t.tag_ == "MD" for t in sentence):
        return []
    for noun in sentence:
        if noun.lemma_.casefold() not in _EMPLOYERS or noun.pos_ != "NOUN":
            continue
        owners = [c for c in noun.children if c.dep_ == "poss"]
        if not owners or owners[0].lower_ not in {"my", "our"}:
            continue
        if any(c.dep_ in {"compound", "amod", "nmod"} for c in noun.children):
            continue  # "my phone company", "my old firm", "my own company"
        names = [c for c in noun.children if c.dep_ == "appos" and c.pos_ == "PROPN"]
        # (the small model calls many a brand a person: "Deliveroo"; not a first name)
        if not names or names[0].ent_type_ in {"GPE", "LOC", "DATE"} or known_first_name(names[0].text):
            continue
        said = " ".join(t.text for t in names[0].subtree if t.pos_ == "PROPN" or t.dep_ == "compound")
        ctx = Context(turn=turn, subject=speaker, correction=False, is_speaker=True)
        return [
            build_atom("identity", "works_at", said, f"{speaker} works at {said}", ctx, [], False, "explicit")
        ]
    return []
