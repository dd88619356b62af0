"""The parse reader's changes and things: endings, contacts, and "my <thing> is <value>".

- An **ending** ("I quit my job", "sold the BMW", "Mia and I broke up", "I gave up chess") ends what it
  names: the slots its object stands for (a job is an employer and an occupation, a car a vehicle, a
  partner a partner) or the stored facts whose words it names (the choir, chess). Dedup decides which
  stored facts end (:func:`agentx_memory.extraction.dedup.decide`).
- A **contact** (a phone number, an email) is found by its form (the parse cannot read digits), in a
  sentence that says it is the speaker's.
- Appointments are :mod:`.frame_appointments`'.
- **"My car is a Clio"**, **"my girlfriend now is Elena"**, **"Kiln is my new favourite restaurant"**.

Pure helpers of :mod:`.frames` over spaCy tokens.
"""

from __future__ import annotations

import re
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom
from .english import third_person
from .frame_fits import SUBJECTS, is_time
from .frame_values import set_off
from .lexicon import (
    ENDING_VERBS,
    FIELDS,
    PARTNER_NOUNS,
    SLOT_OF_THING,
    VEHICLE_NOUNS,
)
from .parse_paths import a_name, said_with_me, whose

__all__ = ["PHONE", "contact_atoms", "ending_atom", "my_card", "relation_atom", "wedded"]

PHONE: Final = re.compile(r"(?<![\w@])\+?\(?\d[\d ().-]{6,}\d(?![\w@])")
_EMAIL: Final = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_CONTACT_CUES: Final = frozenset(
    ["number", "phone", "mobile", "cell", "landline", "text", "call", "reach", "whatsapp", "digits",
     "mob", "tel"]  # a signature's "Mob: 07700 900789"
)  # fmt: skip
#: The speaker's own signature or card, whose number is theirs: "an email signature for me: Hayley
#: Brooks, Physiotherapist, 0433 987 210", "format this for my business card".
_MY_CARD: Final = re.compile(
    r"\b(?:my\s+(?:(?!credit|debit|bank|gift|loyalty|library|id|sim|travel|rail|oyster)\w+\s+){0,2}"
    r"(?:signature|card)|(?:signature|card)\s+for\s+me)\b"
    # "My line is 0803 …", "I have taken a Jio connection: 70221 88431"
    r"|\bmy\s+(?:\w+\s+)?line\b|\bconnection\s*[:—–-]"
    # "Can you put 07700 900872 down as my number on everything?"
    r"|\bas\s+my\s+(?:new\s+)?(?:number|mobile|phone|email|e-mail)\b",
    re.IGNORECASE,
)
#: "I'm now on 0412 777 888", "get me on +44 …": the speaker reached on a number.
_ON_NUMBER: Final = re.compile(
    r"\b(?:I'?m|I am|me|us)\s+(?:now\s+|still\s+|only\s+)?on\s+[+(\d]", re.IGNORECASE
)


def _ctx(turn: TurnText, subject: str, speaker: str) -> Context:
    return Context(turn=turn, subject=subject, correction=True, is_speaker=subject == speaker)


#: What one clause of an ending says besides its ending: another clause, an aside.
_ASIDE: Final = frozenset(["advcl", "conj", "cc", "punct", "parataxis", "ccomp", "dep", "npadvmod", "advmod"])
#: Words too common to tell which stored fact an ending names ("left my keys at home").
_GENERIC: Final = frozenset(
    ["home", "house", "place", "thing", "stuff", "time", "way", "office", "day", "bit"]
)
#: Endings whose object must name something ("sold the BMW", "left Oracle"), not any thing.
_NAMING_ENDINGS: Final = frozenset(["leave", "sell", "ditch", "cancel", "scrap"])
_OVER: Final = frozenset(["done", "over", "through", "finished"])
#: Verbs that end a job when said of oneself without an object ("I retired", "I got fired").
_PARTICLES: Final = frozenset(["down", "up", "off", "out", "in", "away"])
_JOB_ENDS: Final = frozenset(["retire", "lay", "fire", "sack"])
#: An ending verb with a particle that makes it another verb.
_OTHER_VERBS: Final = frozenset(
    [("end", "up"), ("stop", "by"), ("give", "in"), ("leave", "for"), ("drop", "by")]
)


_DASHES: Final = frozenset(["-", "–", "—"])


def _said(predicate: Any) -> str:
    """The ending as said, from its auxiliaries on, without its subject, the clauses and asides around
    it: "quit the choir", "are done"."""
    asides = [
        c
        for c in predicate.subtree
        # a time stays ("quit last week"); a clause is an aside whatever times it holds ("… and I'm
        # joining Lidl next month")
        if c.dep_ in _ASIDE
        and not (is_time(c) and c.dep_ in {"npadvmod", "advmod"})
        and c.i != predicate.i
        and not _particle(c, predicate)
        and not _inner_hyphen(c)
    ]
    asides += [c for c in predicate.subtree if c.dep_ == "appos" or set_off(c.head, c)]
    asides += [c for c in predicate.children if c.dep_ in SUBJECTS]
    dropped = {t.i for c in asides if c.i != predicate.i for t in c.subtree}
    first = min([predicate.i, *(c.i for c in predicate.children if c.dep_ in {"aux", "auxpass"})])
    words = [
        t
        for t in predicate.subtree
        if t.i >= first
        and t.i not in dropped
        and not (t.is_punct and not _inner_hyphen(t))  # a hyphen inside a word stays ("full-time")
    ]
    # "flogged the Mini on Autotrader - car-free and loving it": what follows a lone dash is an aside
    # the parse may have hung inside the clause
    # (a spaced dash: "full-time" is one word)
    dash = next(
        (
            t.i
            for t in predicate.subtree
            if t.i > predicate.i and t.text in _DASHES and (t.whitespace_ or t.doc[t.i - 1].whitespace_)
        ),
        None,
    )
    words = [t for t in words if dash is None or t.i < dash]
    while words and words[-1].pos_ == "ADP" and words[-1].i != predicate.i + 1:
        words.pop()  # a preposition whose object the aside took ("… on")
    head = predicate.head
    if predicate.dep_ == "xcomp" and head.i < predicate.i and words and words[0].tag_ == "TO":
        # "I had to quit the choir": the verb the "to" hangs on is said too ("had to quit", not "to quit")
        words = [*(c for c in head.children if c.dep_ in {"aux", "neg"} and c.i < head.i), head, *words]
    return "".join(t.text_with_ws for t in words).strip()


def _inner_hyphen(token: Any) -> bool:
    """The hyphen of "full-time": no space on either side."""
    return bool(token.text == "-" and not token.whitespace_ and not token.doc[token.i - 1].whitespace_)


def _particle(token: Any, predicate: Any) -> bool:
    """A particle the small model parsed as an adverb of the verb: the "down" of "stepped down"."""
    return token.dep_ == "advmod" and token.head.i == predicate.i and token.lower_ in _PARTICLES


def _model_number(token: Any) -> bool:
    """A model's number or code: "207", "MT-03"; not a year or a count said as a number alone."""
    if not any(ch.isdigit() for ch in token.text) or token.ent_type_ in {"DATE", "TIME", "MONEY", "QUANTITY"}:
        return False
    named = token.head.pos_ == "PROPN" or any(c.lower_ == "the" for c in token.children)
    return token.ent_type_ != "CARDINAL" or named  # "the 207"; not "sold 3 of them"


def _got_over(predicate: Any) -> list[Any]:
    """What the speaker is over: "I'm so over crossfit"; not "over the moon", "over 50" or a time."""
    if predicate.lemma_ != "be" or not any(
        c.dep_ in SUBJECTS and c.lower_ in {"i", "we"} for c in predicate.children
    ):
        return []
    return [
        g
        for c in predicate.children
        if c.dep_ == "prep" and c.lower_ == "over"
        for g in c.children
        if g.dep_ == "pobj" and g.pos_ in {"NOUN", "PROPN"} and not g.ent_type_ and g.lower_ not in _NOT_OVER
    ]


#: What one is "over" that is no thing left behind: "over the moon", "over there".
_NOT_OVER: Final = frozenset(["moon", "there", "here", "top", "place", "weekend", "summer", "holidays"])


def _ended_words(thing: Any, lemma: str) -> list[str]:
    """The words of the ended thing that name a stored fact: its names, and (except after "leave",
    "sell" and the like, where only a name or "the <thing>" will do) its nouns."""
    # "sold the Jazz", "cancelled my choir membership" (a membership of one's own names what it was);
    # not "left my keys at home"
    determiners = {"the", "my", "our"} if lemma == "cancel" else {"the"}
    named = lemma not in _NAMING_ENDINGS or any(c.lower_ in determiners for c in thing.children)
    # a doing's nouns name it: "stopped going to choir", "gave up playing the guitar"
    named = named or thing.tag_ == "VBG"
    # the thing's own words, up to a comma after it ("my choir membership, the new director …")
    stop = next((t.i for t in thing.subtree if t.i > thing.i and t.text in {",", ";", "—", "-"}), None)
    return [
        t.text if t.pos_ == "PROPN" else t.lemma_.casefold()
        for t in thing.subtree
        # a model's number names it too: "scrapped the 207"
        if (stop is None or t.i < stop)
        and t.ent_type_ not in {"DATE", "TIME"}
        and (
            t.pos_ == "PROPN"
            or (named and t.pos_ == "NOUN")
            or t.tag_ == "VBG"
            or _model_number(t)
            # "stopped going to choir": the parse takes "to choir" for a verb of the doing
            or (thing.tag_ == "VBG" and t.tag_ == "VB" and t.dep_ == "xcomp" and t.head.i == thing.i)
        )
        and t.lemma_.casefold() not in SLOT_OF_THING
        and t.lemma_.casefold() not in _GENERIC
    ]


def ending_atom(predicate: Any, subject: str, turn: TurnText, speaker: str) -> FactAtom | None:
    """ "I quit my job", "we sold the Jazz", "I gave up chess", "Mia and I broke up", "Ben and I are
    done": a statement that ends what it names, with the slots and words it ends; None when the
    predicate ends nothing."""
    lemma = predicate.lemma_.casefold()
    # the small model parses some particles as adverbs ("stepped down as chair")
    particles = {c.lower_ for c in predicate.children if c.dep_ in {"prt", "prep"} or _particle(c, predicate)}
    partners = said_with_me(predicate)
    # "Ben and I are done", "we're over"; not "my kids and I finished a painting"
    copula = any(c.dep_ in {"aux", "auxpass"} and c.lemma_ == "be" for c in predicate.children)
    over = predicate.lower_ in _OVER and bool(partners) and copula
    finished_with = [
        g for c in predicate.children if c.lower_ == "with" for g in c.children if g.dep_ == "pobj"
    ]  # "I'm done with CrossFit", "I'm through with dating apps"
    got_over = _got_over(predicate)  # "I'm so over crossfit"
    if (predicate.lower_ in _OVER and copula and finished_with and not partners) or got_over:
        finished_with = finished_with or got_over
        words = _ended_words(finished_with[0], "quit")
        said = _said(predicate)
        atom = build_atom(
            "statement",
            "ended",
            said,
            third_person(f"I{said}" if said.startswith("'") else f"I {said}", subject),
            _ctx(turn, subject, speaker),
            [],
            False,
            "explicit",
        )
        return atom.model_copy(update={"ends_words": words, "temporal": "past"}) if words else None
    redundant = lemma == "make" and any(c.lower_ == "redundant" for c in predicate.children)
    # "handed in my notice at Aldi", "I've put my notice in", "gave notice": the job ends
    redundant = redundant or (
        lemma in {"hand", "give", "put", "serve", "submit", "turn", "tender", "send", "email"}
        and any(
            c.dep_ == "dobj" and c.lemma_ in {"notice", "resignation"} and whose(c) in {"", "my"}
            for c in predicate.children
        )
        # "notice on the flat"; not "… on Monday", a day
        and not any(
            c.dep_ == "prep"
            and c.lower_ == "on"
            and not any(g.ent_type_ in {"DATE", "TIME"} for g in c.children)
            for c in predicate.children
        )
    )
    # "I changed my mind on offal": what was said of it holds no more
    mind = lemma == "change" and any(c.dep_ == "dobj" and c.lower_ == "mind" for c in predicate.children)
    if not (over or redundant or mind) and (
        lemma not in ENDING_VERBS or not ENDING_VERBS[lemma] <= particles
    ):
        return None
    if (lemma, *particles) in _OTHER_VERBS or any((lemma, p) in _OTHER_VERBS for p in particles):
        return None  # "ended up laughing", "stopped by the bakery": another verb
    objects = [c for c in predicate.children if c.dep_ in {"dobj", "xcomp", "pcomp"} and not mind]
    objects += [
        g
        for c in predicate.children
        if mind and c.dep_ == "prep" and c.lower_ in {"on", "about"}
        for g in c.children
        if g.dep_ == "pobj"
    ]
    objects += [  # the particle parsed as a preposition: "packed in the five-a-side"
        g
        for c in predicate.children
        if c.dep_ == "prep" and c.lower_ in ENDING_VERBS.get(lemma, frozenset())
        for g in c.children
        if g.dep_ == "pobj"
    ]
    objects += [
        g
        for c in predicate.children
        # "resigned as treasurer", "stepped down as chair": the role given up
        if c.dep_ == "prep"
        and (c.lower_ in {"with", "from", "of", "as"} or (lemma == "give" and c.lower_ == "on"))
        for g in c.children
        if g.dep_ in {"pobj", "pcomp"}
    ]
    objects += [  # "dropped out of the choir": the particle's own "of"
        g
        for c in predicate.children
        if (c.dep_ in {"prep", "prt"} or _particle(c, predicate))
        and c.lower_ in ENDING_VERBS.get(lemma, frozenset())
        for of in c.children
        if of.dep_ == "prep" and of.lower_ in {"of", "from"}
        for g in of.children
        if g.dep_ == "pobj"
    ]
    if lemma == "walk" and not any(
        g.pos_ == "PROPN" or g.lemma_.casefold() in SLOT_OF_THING.keys() | FIELDS for g in objects
    ):
        return None  # "walked away from accountancy", "… from Deloitte"; not "from the table"
    # what a comma sets apart is another thought: "stepped down as treasurer, too much politics"
    commas = [c.i for c in predicate.children if c.text == "," and c.i > predicate.i]
    objects = [g for g in objects if not any(predicate.i < k < g.left_edge.i for k in commas)]
    if redundant or (lemma in _JOB_ENDS and not any(c.dep_ == "dobj" for c in predicate.children)):
        # "I retired", "I got laid off from Meta", "made redundant": the job ends
        keys = ["works_at", "works_as"]
        # "laid off from Meta"; "put in my resignation at Tesco" (the place on the notice)
        notices = [
            c for c in predicate.children if c.dep_ == "dobj" and c.lemma_ in {"notice", "resignation"}
        ]
        words = [
            g.text
            for holder in (predicate, *notices)
            for c in holder.children
            if c.lower_ in {"from", "at"}
            for g in c.children
            if g.pos_ == "PROPN"
        ]
    elif (
        over or lemma in {"split", "break", "divorce", "separate", "part"} or (lemma == "end" and not objects)
    ):
        keys = sorted(PARTNER_NOUNS)
        words = [t.text for t in [*objects, *partners] if t.pos_ == "PROPN"]
    elif not objects:
        return None
    else:
        head = objects[0].lemma_.casefold()
        keys = ["drives"] if head in VEHICLE_NOUNS else list(SLOT_OF_THING.get(head, ()))
        words = _ended_words(objects[0], lemma)
        if not keys and not words:
            return None
    said = _said(predicate)
    if predicate.is_sent_start and predicate.pos_ == "VERB":
        said = said[:1].lower() + said[1:]  # "Sold the BMW" opened the sentence: "Rami sold the BMW"
    others = [t.text for t in partners if t.pos_ == "PROPN"]
    # Dated as said by the subject alone ("The user broke up in March" looks back), then said with the
    # others it was said with.
    ctx = _ctx(turn, subject, speaker)
    spoken = f"I{said}" if said.startswith("'") else f"I {said}"  # "'m retired": "I'm retired"
    atom = build_atom(
        "statement", "ended", said, third_person(spoken, subject), ctx, others, False, "explicit"
    )
    plural = {"is": "are", "was": "were", "has": "have"}
    head, _, rest = atom.statement.removeprefix(f"{subject} ").partition(" ")
    together = f"{subject} and {' and '.join(others)} {plural.get(head, head)} {rest}"
    update = {"ends": keys, "ends_words": words, "temporal": "past"}
    return atom.model_copy(update={**update, "statement": together if others else atom.statement})


def contact_atoms(
    sentence: Any, subject: str, turn: TurnText, speaker: str, asked: bool = False
) -> list[FactAtom]:
    """The speaker's phone number or email said in the sentence ("New number: 07700 900456", "reach
    me at jo@x.io", "switched to mark@icloud.com"); none when it is someone else's ("my mum's number").
    ``asked``: the speaker's turn before spoke of their number without giving it ("New SIM, so my
    number's different"), so a number said alone now is it."""
    text = sentence.text
    # "my mum's number" is hers; "everyone's addresses" (the speaker's among them) are not someone else's
    mine = {"my", "our", "everyone", "everybody", "mine"}  # "mine's stefan@…" (parsed a possessive)
    carded = _MY_CARD.search(text) is not None  # the speaker's own card or line, in this sentence
    questioned = text.rstrip().endswith("?") and not carded  # "… as my number?" gives it
    # a line of the card or signature the turn spoke of, said after it: "Can you update my email
    # signature? Jo Bloggs, Product Lead, 0433 987 210" (verbless; not "Order 12345678 shipped")
    lined = _MY_CARD.search(sentence.doc.text) is not None and not any(
        t.pos_ in {"VERB", "AUX"} for t in sentence
    )
    if any(t.dep_ == "poss" and t.lower_ not in mine for t in sentence) or questioned:
        return []
    if any(_for_someone_else(t) for t in sentence):
        return []  # "The number for the plumber is …", "the email of the landlord": theirs
    words = {t.lemma_.casefold() for t in sentence}
    # "07700 900314", "it's 07700 …", "07398 221904, the old one's gone" (the number said first)
    opening = next((t for t in sentence if not t.is_punct), None)
    alone = asked and (
        len([t for t in sentence if t.is_alpha]) <= 2 or (opening is not None and opening.like_num)
    )
    # "0433 872 146 now pls", "07398 221904, the 456781 one's gone": a number said first as the one now
    alone = alone or (opening is not None and opening.like_num and _NOW_THIS_ONE.search(text) is not None)
    atoms = []
    for key, pattern, cue in (
        ("email", _EMAIL, True),
        (
            "phone",
            PHONE,
            bool(words & _CONTACT_CUES) or alone or _ON_NUMBER.search(text) is not None or carded or lined,
        ),
    ):
        # not one said to be gone: "the 98450 12345 number will be disconnected, … a Jio connection: 70221 …"
        match = next((m for m in pattern.finditer(text) if not _GONE_NUMBER.match(text, m.end())), None)
        if match is None or not cue or (key == "phone" and sum(ch.isdigit() for ch in match.group()) < 7):
            continue
        value = re.sub(r"[()]", "", match.group()).strip(" .,")  # "(415) 555-0110": no parentheses
        label = "email address" if key == "email" else "phone number"
        statement = f"{subject}'s {label} is {value}"
        ctx = Context(turn=turn, subject=subject, correction=False, is_speaker=subject == speaker)
        atoms.append(build_atom("identity", key, value, statement, ctx, [], False, "explicit"))
    return atoms


#: Words after a number that say it is the old one: "… number will be disconnected", "… is gone".
_GONE_NUMBER: Final = re.compile(
    r"\s*(?:number\s+)?(?:will\s+be\s+|is\s+(?:now\s+)?|has\s+been\s+|['’]s\s+)?"
    r"(?:disconnected|gone|dead|no\s+more|cancelled|discontinued|switched\s+off)\b",
    re.IGNORECASE,
)
#: Words after a number said first that make it the speaker's number now.
_NOW_THIS_ONE: Final = re.compile(
    r"\bnow\b|\bone(?:['’]s| is| has)\s+(?:gone|dead|no more|history|cancelled|disconnected)\b", re.IGNORECASE
)


def my_card(sentence: Any) -> bool:
    """The sentence gives the speaker's own signature or card (a request for one may give it)."""
    return _MY_CARD.search(sentence.text) is not None and not any(
        t.dep_ == "poss" and t.lower_ not in {"my", "our"} for t in sentence
    )


def _for_someone_else(token: Any) -> bool:
    """A number or an address said to be someone else's by "for"/"of" ("the number for the plumber")."""
    if token.lemma_.casefold() not in {"number", "email", "address", "mobile", "phone", "contact"}:
        return False
    owners = [g for c in token.children if c.dep_ == "prep" and c.lower_ in {"for", "of"} for g in c.children]
    return any(g.lower_ not in {"me", "us"} for g in owners)


def relation_atom(speaker: str, relation: str, name: str, turn: TurnText) -> FactAtom:
    """ "Arjun is the speaker's husband", however the sentence put it."""
    ctx = Context(turn=turn, subject=speaker, correction=False, is_speaker=True)
    statement = f"{speaker}'s {relation} is {name}"
    return build_atom("relationship", relation, name, statement, ctx, [name], False, "explicit")


def wedded(predicate: Any) -> str | None:
    """Whom the speaker married or got engaged to: "Sarah and I got married", "I got married to Ines",
    "I'm engaged to Tom" (not "I was married to Tom": that was)."""
    if (to := _wedded_to(predicate)) is not None:
        return to
    # "Priya and I have been together six months", "me and Leo got together at Easter"
    together = predicate.lemma_ in {"be", "get"} and any(
        c.dep_ == "advmod" and c.lower_ == "together" for c in predicate.children
    )
    if predicate.lower_ not in {"married", "engaged", "wed", "hitched"} and not together:
        return None
    if together and predicate.lemma_ == "be" and predicate.tag_ == "VBD":
        return None  # "Priya and I were together at school": then, not now
    names = [t for t in said_with_me(predicate) if a_name(t)]
    alone = any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in predicate.children)
    if not names and predicate.dep_ == "conj" and predicate.head.pos_ == "PROPN" and alone:
        names = [predicate.head]  # the parse may make the name the root: "Sarah [and I got married]"
    return str(names[0].text) if names else None


def _wedded_to(predicate: Any) -> str | None:
    """ "I got married to Ines", "I'm engaged to Tom": the state's "to", said by the speaker."""
    present_be = predicate.lemma_ == "be" and predicate.tag_ in {"VBP", "VBZ"}
    if not (predicate.lemma_ == "get" or present_be):
        return None
    if not any(c.dep_ in SUBJECTS and c.lower_ == "i" for c in predicate.children):
        return None
    states = [
        c
        for c in predicate.children
        if c.dep_ in {"acomp", "attr"} and c.lower_ in {"married", "engaged", "hitched"}
    ]
    names = [
        g
        for state in states
        for c in state.children
        if c.dep_ == "prep" and c.lower_ == "to"
        for g in c.children
        if g.dep_ == "pobj" and g.pos_ == "PROPN"
    ]
    return str(names[0].text) if names else None
