"""The offline extractor, the embedded default: deterministic, no key, no network. Pure functions.

A turn is split into sentences and clauses; questions, hypotheticals and hedged statements are refused
(a wrong memory is worse than a missing one); each remaining clause is rewritten as a third-person
statement about its subject — the speaker, or another person it names ("my friend Leo loves jazz" is
about Leo) — and read by the patterns of :mod:`.patterns`. Relative dates are resolved against the
turn's time (:mod:`.clause_atoms` builds the atoms); what no pattern types may still be kept as an
untyped statement (:mod:`.statements`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Final

from .atoms import ExtractedEntity, ExtractedRelationship, Extraction, FactAtom
from .chat_spelling import normalise_first_person
from .clause_atoms import (
    MIN_EXPERIENCE_WORDS,
    UNKNOWN_SPEAKER,
    Context,
    TurnText,
    build_atom,
    dated_event,
    trim,
    without_dates,
)
from .clauses import as_clause
from .corrections import ENDING, as_rescheduled, is_correction
from .dropped_subject import with_subjects_restored, with_surface_subject
from .english import sentences, subordinate_last, third_person, uncleft
from .enrich import enrichment_entities
from .frame_followups import number_asked, slot_asked
from .frame_merge import merged, without_what_ended
from .frames import Reading, filed_under, read_parsed
from .gates import GateVerdict, gate_turn, is_small_talk
from .introductions import (
    APPOSITIVE,
    NAME_INTRO,
    NAME_IS_MY,
    NAME_SAID,
    NOT_NAME_KEYS,
    NOT_NAMES,
    addressed_as,
    identity_name,
    introduces,
    signed_name,
)
from .lexicon import JUDGING
from .names import NameRecognizer, doc_names, name_entities
from .objects import dangling_object, indefinite_phrases
from .patterns import LIFE_EVENT_ALONE, OCCUPATIONS, compiled, experience
from .places import capitalise_towns
from .rule_state import RuleState, relation_clause
from .statements import ADDRESSEE, OWN_THING, embedded_statement, statement
from .stored import fact_signature
from .substance import adjectives_joined, unworthy
from .verbs import conjugate

__all__ = ["UNKNOWN_SPEAKER", "TurnText", "extract_turns", "parsed_texts"]


#: A standing request is a preference: "please always get me a window seat" is "I always want a window seat"
#: and "never book me on red-eye flights" is a dislike (a request for this once, "get me a coffee", is not).
_STANDING_REQUEST: Final = re.compile(
    r"^(?:please\s+)?(?:always|from now on,?)\s+(?:get|book|give|reserve|order|find|bring)\s+me\s+(?=\w)",
    re.IGNORECASE,
)
_STANDING_REFUSAL: Final = re.compile(
    r"^(?:please\s+)?(?:never|don't|do not)\s+(?:book|get|give|put|schedule|seat|order|reserve)\s+me\s+"
    r"(?:on\s+|in\s+|into\s+|at\s+|with\s+)?(?!wrong\b)(?=\w)",
    re.IGNORECASE,
)
#: "I'd much rather stay in small inns" is a preference ("I'd rather not say" is none).
_RATHER: Final = re.compile(
    r"^I(?:'d|’d| would)\s+(?:much\s+|far\s+)?rather\s+(?!not\b)(?=\w)", re.IGNORECASE
)
_FIRST_PERSON: Final = re.compile(r"^(?:\W*)(?:I|I'm|I've|I'd|I'll|Im|my|My|we|We|we're|our|Our)\b")
#: Someone of the speaker's named after what they are: "our eldest, Ilyas, turns 9", "my manager Deepak
#: does ultramarathons": the clause is the name's, not the speaker's.
_OWNED_NAMED: Final = re.compile(
    r"^(?:my|our|My|Our) (?:(?:best|eldest|youngest|oldest|little|big|older|younger|new|dear|other|"
    r"next-door|old)\s+)?(?P<noun>[a-z][a-z-]+),? (?-i:(?P<name>[A-Z][a-zà-ÿ][a-zà-ÿ'-]*))(?=,|\s+[a-z])"
)
#: Words before a name that make it no one of the speaker's ("my new Honda", "my trip to Paris").
_NOT_OWNED_NOUNS: Final = frozenset(
    ["new", "old", "trip", "holiday", "flight", "move", "visit", "time", "year", "first", "last", "favourite",
     "fave", "car", "bike", "van", "job", "team", "company", "flat", "house", "home", "degree", "course"]
)  # fmt: skip
_PRONOUN_START: Final = re.compile(r"^(?:he|she|they)\b(?:'s)?", re.IGNORECASE)
_CAPITALISED: Final = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\b")
#: Capitalised words that start sentences without naming anyone.
_NOT_SUBJECTS: Final = frozenset(
    [
        "The", "This", "That", "These", "Those", "It", "Its", "There", "Here", "What", "When", "Where",
        "Why", "Who", "How", "Which", "My", "Our", "Your", "His", "Her", "Their", "We", "They", "He",
        "She", "You", "A", "An", "And", "But", "So", "If", "Then", "Also", "Just", "Maybe", "Today",
        "Tomorrow", "Yesterday", "Everyone", "Someone", "Nobody", "Everything", "Nothing", "Something",
        "Python", "Java", "Google", "Apple", "Life", "Work", "Dinner", "Lunch"
    ]
)  # fmt: skip
_NAMED_SUBJECT: Final = re.compile(
    r"^(?-i:(?P<name>[A-Z][a-zà-ÿ][a-zà-ÿ-]*))(?:'s\s|\s+(?:is|has|was|turns|got|will)\b)"
)
_AND_VERB: Final = re.compile(
    r"\s+and\s+(?=(?:wants|loves|likes|works|lives|is|has|plays|speaks|enjoys|hates|teaches|runs|studies|turns|"
    r"goes|knows|needs|hopes|plans)\b)"
)


_LEADING: Final = re.compile(
    r"^(?:(?:hi|hey|hello|oh|well|so|ok|okay|yeah|yes|yep|no(?! longer)|nope|um|uh|btw|by the way|also|"
    r"and|but|actually|anyway|anyways|honestly|lol|haha|fun fact|guess what|just so you know|fyi|correction|"
    r"scratch that|sorry|wait|ah|oh well|plus|omg|wow|ugh|nah|sure|right|true|hm+|hmm+|oh yeah|"
    r"to be honest|tbh|quick update|update|news|(?:it )?turns out|forgive me|my bad|my mistake|oops|whoops|"
    r"now(?=,?\s+(?:I|my|we|our)\b)|(?:for|as for) me(?=,?\s+I\b)|personally|"
    r"(?:that's|that is|this is) (?:why|how)(?=\s+I\b))\b[\s,!:.;-]*)+",
    re.IGNORECASE,
)
_QUESTION_START: Final = re.compile(
    r"^(?:what|where|when|why|who|whom|whose|which|how|do|does|did|is|are|am|was|were|can|could|will|"
    r"would|should|shall|may|might|have|has|had|any|anyone|isn't|aren't|don't|doesn't|didn't)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL: Final = re.compile(
    r"\b(?:if|imagine|imagining|suppose|supposing|assuming|pretend|what if|in case|wonder|wondering|"
    r"maybe|perhaps|might|possibly|probably|someday|some day|one day|not sure|unsure|thinking about|"
    r"considering|would be|could be|wish|hypothetically|let's say|in theory|kidding|joking|jk|"
    r"should i|whether|would have|'d have|in another life)\b",
    re.IGNORECASE,
)
#: Doubt that holds for its own clause only: "We closed on our house on the 18th and I still have no idea
#: how property taxes work" (the house is bought whatever the taxes are)
_UNSURE: Final = re.compile(
    r"\b(?:wonder|wondering|not sure|unsure|i guess|idk|dunno|no idea)\b", re.IGNORECASE
)
#: Clause boundaries: a comma or conjunction before the speaker, a semicolon, a dash. Chat often
#: leaves a dash unspaced before the next clause ("my family- they …", "so tired-- long week"); a
#: hyphen inside a word ("well-known") has no space after it, and an unspaced en dash is a range.
#: A guess or an offer after a comma, to the listener: ", maybe you would like that", ", if you want".
_TRAILING_GUESS: Final = re.compile(
    r",\s*(?:maybe|perhaps|if|hopefully|probably)\b(?=[^,]*\b(?:you|your)\b)[^.!?]*(?=[.!?]*$)", re.IGNORECASE
)
_CLAUSE_SPLIT: Final = re.compile(
    r"(?:[,;]\s*(?:and|but|plus|also|so|though|although|while|whereas)?|(?<!^I)\s+(?:and|but|plus|though|although|"
    r"while|whereas))\s+(?=(?:I|I'm|I've|I'd|my|My)\b)|;\s+|\s+[-–]{1,2}\s+|\s*—\s*|(?<=[^\W\d])-{1,2}\s+"
    # "I've gone camping but never tried climbing": the negated half is its own (subjectless) clause
    r"|,?\s+but\s+(?=never\b|not\b|haven't\b|hadn't\b|didn't\b)"
    # A colon before the speaker's own clause: "Yes, an important one: I'm allergic to peanuts".
    r"|:\s+(?=(?:I|I'm|I've|I'd|my|My)\b)"
)
#: "Tom and I went hiking" is said of both: read as "I and Tom …", one clause whose subject is the speaker
#: with Tom (the split at "and I" had dropped Tom: "Dana went hiking").
_WITH_ME: Final = re.compile(r"^((?-i:[A-Z][\w'-]+)|(?i:my) [a-z]+(?: [a-z]+)?) and I\b(?!')")


def _me_first(said: re.Match[str]) -> str:
    """ "My wife and I were …" as "I and my wife were …" ("my" no longer opens the sentence)."""
    others = said[1]
    return f"I and {'my' + others[2:] if others.startswith('My ') else others}"


def _clauses(sentence: str) -> list[str]:
    return [part.strip(" ,") for part in _CLAUSE_SPLIT.split(sentence) if part and part.strip(" ,")]


#: "Let's meet on Friday", "let us not forget": a proposal to the listener, not a fact or a plan.
_PROPOSAL: Final = re.compile(r"^(?:let['’]?s|let\s+us)\b", re.IGNORECASE)
#: A proposal later in a clause ends what it says: "Got a kayak, let's paddle on Sunday".
_PROPOSAL_INSIDE: Final = re.compile(
    r"(?:[,;:]\s*|\s+(?:so|and|then|now)\s+)(?:let['’]s|let\s+us)\b.*$", re.IGNORECASE
)


def _refused_sentence(sentence: str) -> bool:
    body = subordinate_last(_LEADING.sub("", sentence).strip())
    return (
        not body
        or sentence.rstrip().endswith("?")
        or bool(_PROPOSAL.match(body))
        or bool(_QUESTION_START.match(body))
        or bool(_HYPOTHETICAL.search(body))
        or is_small_talk(body)
    )


_NEGATION: Final = re.compile(
    r"^(?P<S>.+?) (?:(?P<be>is not|is no longer|isn't)|(?P<do>does not|no longer|doesn't)) (?P<rest>.+?)"
    r"(?:,? any ?more| now)?$",
    re.IGNORECASE,
)


def _negated_fact(canonical: str, ctx: Context, persons: Sequence[str]) -> FactAtom | None:
    """ "Dana is not vegetarian anymore" / "Dana does not play tennis anymore": the negation of the fact
    the positive clause states, so a correction can supersede it (only for corrections)."""
    match = _NEGATION.match(canonical)
    if not ctx.correction or match is None or match.group("S") != ctx.subject:
        return None
    rest = match.group("rest")
    if match.group("be"):
        positive = f"{ctx.subject} is {rest}"
    elif match.group("do").casefold() == "no longer":  # "no longer takes": the verb agrees already
        positive = f"{ctx.subject} {rest}"
    else:
        verb, _, tail = rest.partition(" ")
        positive = f"{ctx.subject} {conjugate(verb)} {tail}".strip()
    atom = _read_clause(positive, ctx, persons)
    if atom is not None and atom.fact_kind == "experience":
        return None
    if atom is None:
        # Too short to be a statement on its own ("Dana takes sugar"), but as a correction it ends the
        # fact it names ("Dana takes Dana's coffee with sugar"): dedup decides whether one is stored.
        doing = trim(positive[len(ctx.subject) :].strip())
        atom = build_atom("statement", "said", doing, positive, ctx, persons, True, "explicit")
    return atom.model_copy(update={"negated": True, "statement": canonical.rstrip(".") + "."})


_MOVED: Final = re.compile(r"\b(?:moved|relocated)\b")
#: What one moves to as a home: a name ("Lisbon", "Atlanta") or a noun phrase ("the countryside",
#: "a small town"), not a bare lowercase word.
#: "a" before a name is a shop or a brand, not a home ("moved to a Superdrug in Salford").
_PLACE: Final = re.compile(
    # not a day or a month ("moved to Thursday at 4": the appointment, not a home)
    r"^(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|(?:January|February|March|April|May|June|July|August|"
    r"September|October|November|December)\b|(?:the|my|our)\s+\d)"
    r"(?:[A-Z]|(?:the|my|our|their|his|her)\s|an?\s(?![A-Z]))"
)


def _read_clause(canonical: str, ctx: Context, persons: Sequence[str]) -> FactAtom | None:
    """The fact the canonical clause states, if a pattern (or the experience fallback) reads one."""
    subject = ctx.subject
    if (negated := _negated_fact(canonical, ctx, persons)) is not None:
        return negated
    for pattern, regex in compiled(subject):
        match = regex.match(canonical)
        if match is None:
            continue
        groups = match.groupdict()
        value = without_dates(trim(groups.get("v") or ""), ctx.turn.timestamp)
        if not value or value.casefold() in {"it", "that", "this", "them", "there", "one", "so"}:
            return None
        if ADDRESSEE.search(value):  # "loves how you tell your stories": about the listener
            return None
        if pattern.key == "works_as" and not pattern.any_post and not _is_occupation(value):
            continue
        if pattern.key == "lives_in" and _MOVED.search(canonical) and not _PLACE.match(value):
            continue  # "moved to bass", "moved to nights": a voice, a shift, a role, not a home
        key = pattern.key.format(
            rel=(groups.get("rel") or "").casefold(),
            cat=(groups.get("cat") or "").casefold().replace(" ", "_"),
            what=(groups.get("what") or "").casefold().replace(" ", "_"),
        )
        return build_atom(
            pattern.kind, key, value, canonical, ctx, persons, pattern.negated, pattern.certainty
        )
    # Only the speaker's own experiences: hearsay about others is too often partial ("passed away").
    if not (subject == ctx.turn.speaker or ctx.is_speaker):
        return None
    match = experience(subject).match(canonical)
    if match is not None:
        value = trim(match.group("verb") + match.group("v"))
        if len(value.split()) >= MIN_EXPERIENCE_WORDS or LIFE_EVENT_ALONE.fullmatch(value):
            return build_atom("experience", "did", value, canonical, ctx, persons, False, "implied")
    return statement(canonical, ctx, persons) or _ending(canonical, ctx, persons)


def _ending(canonical: str, ctx: Context, persons: Sequence[str]) -> FactAtom | None:
    """A correction that ends something, too short to stand alone ("Chloe quit Starbucks", "Liam sold
    the Transit"): dedup decides what it ends, by the names or the doing it names."""
    if not ctx.correction or not ENDING.search(canonical) or not canonical.startswith(ctx.subject + " "):
        return None
    doing = trim(canonical[len(ctx.subject) :].strip())
    return build_atom("statement", "said", doing, canonical, ctx, persons, False, "explicit")


def _is_occupation(value: str) -> bool:
    words = value.casefold().replace("-", " ").split()
    placed = len(words) > 1 and words[-1] in {"resident", "local", "native"}  # "a Rotterdam resident"
    judged = bool(set(words[:-1]) & JUDGING)  # "a useless teacher", "a natural teacher": no job said
    return (
        bool(words)
        and words[0] != "not"  # "I'm a nurse now, not a barista anymore": the job it is not
        and not placed
        and not judged
        and (words[-1] in OCCUPATIONS or words[-1].rstrip("s") in OCCUPATIONS)
    )


def _subject_clause(clause: str, state: RuleState, speaker: str) -> tuple[str, str] | None:
    """``(subject, canonical clause)`` for a clause about the speaker or a named person, else None."""
    if match := _PRONOUN_START.match(clause):
        if state.last_person is None or match.group(0).casefold().startswith("they"):
            return None
        clause = state.last_person + clause[match.end() :]
    if (named := _NAMED_SUBJECT.match(clause)) and named.group("name") not in _NOT_SUBJECTS | NOT_NAMES:
        name = named.group("name")
        state.persons.setdefault(name.casefold(), name)
        clause = re.sub(rf"^{re.escape(name)}'s (?=got\b)", f"{name} has ", clause)
        # "Niamh's swimming", "Niamh's 10 now": "'s" before a doing or a number is "is".
        return name, re.sub(rf"^{re.escape(name)}'s (?=\w+ing\b|\d{{1,3}}\b)", f"{name} is ", clause)
    first = _CAPITALISED.match(clause)
    if first:
        words = first.group(0).split()
        for size in (2, 1):
            name = " ".join(words[:size]).casefold()
            if len(words) >= size and name in state.persons:
                return state.persons[name], clause
    owned = _OWNED_NAMED.match(clause)
    if owned and owned["name"] not in _NOT_SUBJECTS | NOT_NAMES and owned["noun"] not in _NOT_OWNED_NOUNS:
        name = owned["name"]  # "our eldest, Ilyas, … is obsessed with dinosaurs": Ilyas is
        state.persons.setdefault(name.casefold(), name)
        return name, name + re.sub(r"^,", "", clause[owned.end("name") :])  # the comma after the name only
    if _FIRST_PERSON.match(clause):
        return speaker, third_person(clause, speaker)
    return None


def _extract_turn(
    turn: TurnText, state: RuleState, known: Collection[str], parsed: object = None
) -> Extraction:
    """What the rules (and, given the turn's ``parsed`` text, the parse reader) learn from one turn."""
    facts: list[FactAtom] = []
    entities: list[ExtractedEntity] = list(enrichment_entities(turn.text, turn.id))
    relationships: list[ExtractedRelationship] = []
    correction = is_correction(turn.text)
    reading = Reading()
    reader_speaker = state.speaker_name or turn.speaker
    if parsed is not None:
        reading = read_parsed(
            parsed,
            turn,
            reader_speaker,
            correction,
            state.contact_pending,
            state.appointment_pending,
            state.slot_asked if turn.role == "user" else None,
        )
        # The listener's question opens a slot for the speaker's next turn to answer alone
        state.slot_asked = slot_asked(turn.text, state.untold) if turn.role == "assistant" else None
        if turn.role == "assistant" and number_asked(turn.text):
            state.contact_pending = True  # "What's your new number?": the next turn may give it alone
        if turn.role == "user":  # the assistant's "what is it?" between keeps the question open
            state.contact_pending = reading.contact_pending and not any(
                a.key == "phone" for a in reading.atoms
            )
            state.appointment_pending = reading.appointment_pending
            state.untold = reading.untold
        if reading.speaker_name is not None and turn.speaker == UNKNOWN_SPEAKER:
            state.speaker_name = reading.speaker_name
        for name in reading.people:
            state.persons.setdefault(name.casefold(), name)
    if state.speaker_name is None and (signed := signed_name(turn)) is not None:
        state.speaker_name = signed  # "… Thanks! — Niamh": the user signed the message
        facts.append(identity_name(turn, UNKNOWN_SPEAKER, signed))
    for said in sentences(turn.text):
        # "I made a cake the other day, maybe you'd like that": the guess is the aside's, not the cake's
        sentence = _TRAILING_GUESS.sub("", said) or said
        if _refused_sentence(sentence):
            continue
        appositive = APPOSITIVE.match(sentence)
        if appositive and introduces(appositive.group("name"), turn.speaker):
            name = appositive.group("name")
            if name != turn.speaker:
                facts.append(identity_name(turn, state.speaker_name or turn.speaker, name))
            if turn.speaker == UNKNOWN_SPEAKER:
                state.speaker_name = name
            sentence = f"I'm a {appositive.group('rest')}{sentence[appositive.end() :]}"
        body = subordinate_last(uncleft(_LEADING.sub("", sentence).strip()))
        for raw in _clauses(_WITH_ME.sub(_me_first, body)):
            clause = adjectives_joined(_PROPOSAL_INSIDE.sub("", _LEADING.sub("", raw)).strip())
            if not clause or _PROPOSAL.match(clause) or _UNSURE.search(clause):
                continue
            speaker = state.speaker_name or turn.speaker
            clause = _STANDING_REQUEST.sub("I always want ", clause)
            clause = _STANDING_REFUSAL.sub("I dislike ", clause)
            clause = _RATHER.sub("I prefer to ", clause)
            # A date moved is a correction of the date said before, whatever else the turn says.
            moved = as_rescheduled(clause, turn.timestamp)
            corrects = correction or moved != clause
            clause = NAME_IS_MY.sub(lambda said: f"my {said['rel']} is {said['name']}", moved)
            clause = with_surface_subject(clause)
            intro = NAME_INTRO.match(clause) or NAME_SAID.match(clause)
            if intro and introduces(intro.group("name"), turn.speaker):
                name = intro.group("name")
                if name != turn.speaker:
                    facts.append(identity_name(turn, speaker, name))
                if turn.speaker == UNKNOWN_SPEAKER:
                    state.speaker_name = name
                continue
            about = relation_clause(clause, turn, speaker, state, facts, entities, relationships)
            if about is None:
                continue
            found = _subject_clause(about, state, speaker)
            if found is None:
                if (embedded := embedded_statement(about, turn, speaker, corrects)) is not None:
                    facts.append(embedded)
                continue
            subject, whole = found[0], found[1].strip(" ,.!;:")
            ctx = Context(turn=turn, subject=subject, correction=corrects, is_speaker=subject == speaker)
            parts = _AND_VERB.split(whole)
            # "My son is 12 and plays football": the verbs after "and" are the son's, not the speaker's
            owned = re.match(
                rf"^{re.escape(subject)}'s(?: [\w-]+){{1,3}}?(?= (?:is|are|was|were|has|had)\b)", whole
            )
            doer = owned[0] if owned else subject
            read = 0
            for index, part in enumerate(parts):
                canonical = part if index == 0 else f"{doer} {part}"
                persons = [*state.persons.values(), speaker]
                atom = _read_clause(canonical, ctx, persons) or dated_event(canonical, ctx, persons)
                if atom is not None:
                    facts.append(atom)
                    read += 1
            # Nothing read, yet the clause is about the speaker: "Pottery is a huge part of my life"
            # ("Pottery" is no person) or "My kids are so excited about summer break" (a possessive
            # subject; not one that names a typed slot, "my goal is…", read by the patterns or not
            # at all): what it says of them, as a free statement.
            if (
                not read
                and (subject != speaker or OWN_THING.match(about))
                and (embedded := embedded_statement(about, turn, speaker, corrects)) is not None
            ):
                facts.append(embedded)
    if (state.speaker_name or turn.speaker) != reader_speaker:  # "I'm Nadia, freelance journalist …"
        reading = filed_under(reading, reader_speaker, state.speaker_name or turn.speaker)
    # The parse reader's facts are whole clauses by construction; the rules' are checked to be.
    ruled = [
        standing
        for fact in merged(reading, facts, parsed, state.speaker_name or turn.speaker)
        if (standing := _standing(fact)) is not None
    ]
    # One atom a fact: the parse's and the rules' reading of "my husband Arjun" are one relationship.
    facts = list({fact_signature(fact): fact for fact in reversed([*reading.atoms, *ruled])}.values())[::-1]
    facts = without_what_ended(facts)
    for name in known:
        if re.search(rf"\b{re.escape(name)}\b", turn.text, re.IGNORECASE):
            entities.append(ExtractedEntity(name=name, type="other", source_turn_ids=[turn.id]))
    return Extraction(facts=facts, entities=entities, relationships=relationships)


def _standing(fact: FactAtom) -> FactAtom | None:
    """``fact`` if its objects stand on their own, or read with indefinite articles where that is
    enough ("made this apple pie" → "made an apple pie"); None when an object points outside it
    ("Dana is proud of it"): such a fact is no memory (see :mod:`.objects`), nor is one that is no
    clause (:mod:`.clauses`) or one said to the listener ("you", read weeks later, is no one)."""
    clause = as_clause(fact.statement, fact.subject)
    if clause is None or unworthy(clause, fact.subject) is not None:
        return None
    if ADDRESSEE.search(fact.statement):  # "Maria did not get back to you sooner": to the listener
        return None
    fact = fact if clause == fact.statement else fact.model_copy(update={"statement": clause})
    if dangling_object(fact.statement) is None:
        return fact
    phrases = indefinite_phrases(fact.statement)
    if phrases is None:
        return None
    statement, value = fact.statement, fact.value
    for said, read in phrases.items():
        statement, value = statement.replace(said, read), value.replace(said, read)
    return fact.model_copy(update={"statement": statement, "value": value})


def parsed_texts(turns: Sequence[TurnText], echoed: Collection[str] = ()) -> list[str]:
    """The texts :func:`extract_turns` has the recognizer parse for ``turns``: those it reads, as it
    reads them (so that a caller can parse them ahead, one at a time: ``names.ParsedAhead``)."""
    return [as_written(turn.text) for turn in turns if _reads(turn, gate_turn(turn.role, turn.text, echoed))]


def as_written(text: str) -> str:
    """Chat's spelling as written English: "im" is "I'm", a town typed in lowercase is capitalised."""
    return capitalise_towns(normalise_first_person(text))


def _reads(turn: TurnText, verdict: GateVerdict) -> bool:
    # an assistant's words are not facts about the user
    return not verdict.refuse and (turn.role in {"user"} or turn.speaker != UNKNOWN_SPEAKER)


def extract_turns(
    turns: Sequence[TurnText],
    known: Collection[str] = (),
    echoed: Collection[str] = (),
    recognizer: NameRecognizer | None = None,
    *,
    parse: bool = True,
) -> Extraction:
    """Everything the rules learn from ``turns`` (one chunk, in order). ``known`` names of the user's
    entities are recognised in the text; ``echoed`` are normalised texts the memory itself injected;
    ``recognizer`` (spaCy, when installed) adds the names no pattern introduced, as entities, and with
    ``parse`` its parse feeds the parse reader (:mod:`.frames`), whose typed facts take precedence."""
    state = RuleState()
    result = Extraction()
    read: list[TurnText] = []
    # An assistant's turn with no speaker of its own is not read for facts, but its question opens a
    # slot for the user's next turn to answer ("What should I call you?" … "oh, Marguerite is fine").
    asked: dict[str, str] = {}
    greeted: dict[str, str] = {}
    question: str | None = None
    before: TurnText | None = None
    for turn in turns:
        verdict = gate_turn(turn.role, turn.text, echoed)
        said = before.text if before is not None and before.role == "user" else None
        if turn.role == "assistant" and said and (name := addressed_as(turn.text, said)) and before:
            greeted[before.id] = name  # "Tomasz is the name …" / "Nice to meet you, Tomasz!"
        before = turn
        if verdict.flag:
            result.flagged[turn.id] = verdict.flag
        if verdict.refuse:
            result.refused[turn.id] = verdict.refuse
        if _reads(turn, verdict):
            read.append(turn)
            if question is not None and turn.role == "user":
                asked[turn.id] = question
            question = None
        elif turn.role == "assistant" and not verdict.refuse:
            question = turn.text
    read = [
        TurnText(turn.id, turn.role, as_written(turn.text), turn.timestamp, turn.speaker) for turn in read
    ]
    # One batch through the model (it is faster per text in a batch than one text at a time).
    parsed = recognizer.parse([turn.text for turn in read]) if recognizer is not None and read else []
    if parsed and parse and recognizer is not None:
        read, parsed = with_subjects_restored(read, parsed, recognizer.parse)
    for position, turn in enumerate(read):
        if turn.id in asked:
            state.slot_asked = slot_asked(asked[turn.id], state.untold)
        extraction = _extract_turn(turn, state, known, parsed[position] if parsed and parse else None)
        if turn.speaker == UNKNOWN_SPEAKER and (name := greeted.get(turn.id)) and state.speaker_name != name:
            state.speaker_name = name  # the reply greeted the user by the name they gave
            extraction = extraction.merge(Extraction(facts=[identity_name(turn, UNKNOWN_SPEAKER, name)]))
        if parsed:
            speaker = state.speaker_name or turn.speaker
            found = doc_names(parsed[position])
            more = name_entities(turn.id, found, extraction.entities, speaker, NOT_NAME_KEYS)
            extraction = extraction.model_copy(update={"entities": [*extraction.entities, *more]})
        result = result.merge(extraction)
    return result
