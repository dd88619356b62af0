"""Save-time dedup and conflict decisions over fact atoms. Pure.

Each new atom is compared with the batch it came in (exact duplicates merge first) and then with the
stored current facts the caller found for it (vector ≥ the embedder's ``duplicate`` cosine, MiniLM's
0.8, and token Jaccard ≥ 0.75, or the same subject, key and value). The decision is one of ADD (new),
UPDATE (the same fact again: keep one, add the provenance, count the mention), NOOP (already known
from this very turn), SUPERSEDE (the user corrected it) or CONFLICT (an inferred contradiction: both
kept, flagged for review).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from collections.abc import Set as AbstractSet
from datetime import datetime, timedelta
from typing import Final

from ..embedding.calibration import DEFAULT_MODEL_ID, Calibration, load_profile
from ..retrieval.time_phrases import find_time_phrase
from .atoms import SINGLE_VALUED_KEYS, FactAtom
from .corrections import ENDING
from .lexicon import ANY_APPOINTMENT, PARTNER_NOUNS, REGIMES
from .stored import (
    TOKEN,
    Action,
    Decision,
    StoredFact,
    fact_signature,
    in_slots,
    jaccard,
    stem,
    value_tokens,
)

__all__ = [
    "Decision",
    "StoredFact",
    "decide",
    "dedup_batch",
    "distinctive",
    "ends_the_new",
    "fact_signature",
    "jaccard",
    "single_valued",
    "slot_keys",
    "value_tokens",
]

JACCARD_MIN: Final = 0.75
#: Two statements of one slot further apart than this are ordered by time; closer ones (one turn, one
#: sitting) are a contradiction only a correction cue, or review, can settle.
SAME_SITTING: Final = timedelta(hours=1)


def dedup_batch(atoms: Sequence[FactAtom]) -> list[FactAtom]:
    """Exact duplicates within one batch merged into the first, with every source turn kept."""
    merged: dict[tuple[str, str, str, bool], FactAtom] = {}
    for atom in atoms:
        signature = fact_signature(atom)
        first = merged.get(signature)
        if first is None:
            merged[signature] = atom
            continue
        turns = list(dict.fromkeys([*first.source_turn_ids, *atom.source_turn_ids]))
        merged[signature] = first.model_copy(
            update={"source_turn_ids": turns, "correction": first.correction or atom.correction}
        )
    return list(merged.values())


#: Keys that are one slot with opposite polarity: "likes jazz" and "dislikes jazz" contradict.
_OPPOSITES: Final = {"likes": "dislikes", "dislikes": "likes", "can": "cannot", "cannot": "can"}


def slot_keys(key: str) -> list[str]:
    """The stored keys a new fact under ``key`` is compared with."""
    if key.startswith(ANY_APPOINTMENT):
        return [f"{ANY_APPOINTMENT}*"]  # every appointment: one moved without saying which is any of them
    if key in PARTNER_NOUNS:
        return sorted(PARTNER_NOUNS)
    return [key, _OPPOSITES[key]] if key in _OPPOSITES else [key]


def _polarity(key: str, negated: bool) -> tuple[str, bool]:
    # "cannot" facts are stored negated already ("Lena cannot drive"): they are "can", negated
    if key == "cannot":
        return "can", True
    return ("likes", not negated) if key == "dislikes" else (key, negated)


def _same_subject(atom: FactAtom, stored: StoredFact) -> bool:
    return stored.subject is not None and stored.subject.casefold() == atom.subject.casefold()


def _same_slot(atom: FactAtom, stored: StoredFact) -> bool:
    if not _same_subject(atom, stored) or stored.key is None:
        return False
    if atom.fact_kind == "relationship" and stored.fact_kind == "relationship":
        if atom.key in PARTNER_NOUNS and stored.key in PARTNER_NOUNS:
            return True  # one partner at a time: "my girlfriend Priya" after "my partner is Tom"
        # One person is one relationship, whatever it was called ("wife", "partner", "married to").
        return value_tokens(atom.value) == value_tokens(stored.value or "")
    if _one_appointment(atom.key.casefold(), stored.key.casefold()):
        return True
    return _polarity(stored.key.casefold(), False)[0] == _polarity(atom.key.casefold(), False)[0]


def _one_appointment(new: str, old: str) -> bool:
    """ "the surgery got brought forward" after "my knee surgery is on the 20th": an appointment named by
    its head alone is the one named in full (and the other way round)."""
    if not (new.startswith("appointment_") and old.startswith("appointment_")) or new == old:
        return False
    short, full = sorted((new.removeprefix("appointment_"), old.removeprefix("appointment_")), key=len)
    return full.endswith(f"_{short}")


_DISTINCTIVE: Final = re.compile(r"(?<!^)(?<![.!?] )\b(?:[A-Z][\w'-]+|\d+\w*)")


def distinctive(statement: str, subject: str) -> frozenset[str]:
    """Names and numbers a statement mentions besides its subject: what tells two trips apart."""
    return frozenset(
        word.casefold().removesuffix("'s")
        for word in _DISTINCTIVE.findall(statement)
        if word.casefold() != subject.casefold()
    ) - {subject.casefold()}


# The cosines (the embedder's calibration, ``Calibration``): ``same_kind`` — same subject and kind,
# naming the same names: the same fact in other words; ``same_key`` — under the same key ("wants_to"),
# this close is enough; ``statement`` — a free statement and a typed fact about the same subject, on the
# same topic; ``named_statement`` — … when both name the typed fact's value (a tool, a place, a person);
# ``duplicate`` — with token Jaccard ≥ JACCARD_MIN, a near-identical statement.
#: Keys that name no slot, only the kind of sentence: every experience is "did", every statement "said",
#: every plan "plans". Sharing one says nothing about being the same fact, so the kind's bar applies,
#: and a statement restates such a fact only that close: "Tim had a nice chat with a Harry Potter fan
#: in California" (a statement) had been merged into "Tim has been discussing collaborations for a
#: Harry Potter fan project" (an experience) at 0.71, on the topic words they share.
_GENERIC_KEYS: Final = frozenset(["did", "said", "plans"])

#: Words too common to make two statements about the same thing.
_COMMON: Final = frozenset(
    TOKEN.findall(
        "went go goe got get make made take took have has had love like said say doe did just much thing "
        "time day week good great nice really feel felt want need know think way lot also now these those "
        "there here home work"
    )
)


def _shares_topic(left: str, right: str, subject: str) -> bool:
    """At least half of the shorter statement's topic words (less the subject and common words) are
    in the other, and at least one."""
    ignore = _COMMON | value_tokens(subject)
    a, b = value_tokens(left) - ignore, value_tokens(right) - ignore
    shared = a & b
    return bool(shared) and len(shared) / max(1, min(len(a), len(b))) >= 0.5


_NAME_OR_NUMBER: Final = re.compile(r"\b(?:[A-Z][\w'-]+|\d+\w*)")


def _names_value(atom: FactAtom, stored: StoredFact) -> bool:
    """The typed one of the two has a value that is a name, and the other's statement names it."""
    typed_value = stored.value if atom.fact_kind == "statement" else atom.value
    other = atom.statement if atom.fact_kind == "statement" else stored.claim
    # The value stands alone ("Rhino"), so its first word counts as a name too.
    # The subject's own possessive ("John's job") names no one else: it made "John lost John's job"
    # the same fact as "John is enjoying John's new job".
    names = {_bare(word) for word in _NAME_OR_NUMBER.findall(typed_value or "")} - {_bare(atom.subject)}
    return bool(names) and names <= {_bare(word) for word in re.findall(r"[\w'-]+", other)}


def _bare(word: str) -> str:
    return word.casefold().removesuffix("'s")


def _nested(left: frozenset[str], right: frozenset[str]) -> bool:
    """Both name something and one's names include the other's (a date added, a name repeated)."""
    return bool(left and right) and (left <= right or right <= left)


def _undated(statement: str, at: datetime | None) -> str:
    """The statement without its date (the phrase and the date resolved after it): two days are not a
    shared topic."""
    text = re.sub(r"\s*\([^)]*\d{4}\)", "", statement)
    found = find_time_phrase(text, at) if at is not None else None
    return text if found is None else text[: found.start] + text[found.end :]


#: What a correction says it replaces: "… instead of Montreal", "… rather than penicillin".
_INSTEAD_OF: Final = re.compile(r"\b(?:instead of|rather than)\s+(?P<y>[\w'’-]+)", re.IGNORECASE)
#: The words of an ending that name no doing of their own.
_ENDING_WORDS: Final = frozenset(
    value_tokens("quit gave give up given stopped stop no longer any more anymore not does don't do doesn't")
)


def _ends_the_doing(ending: str, value: str, subject: str) -> bool:
    """An ending that names the stored doing by its verb and says nothing the doing does not: "Dana quit
    smoking" ends "smokes about ten a day", "Dana no longer takes sugar" ends "takes Dana's coffee with
    sugar"; "Dana gave up on sugar" does not end "likes sugar in tea" (its verb is not named)."""
    doing = value.split()
    named = value_tokens(ending) - _ENDING_WORDS - value_tokens(subject) - _COMMON
    return bool(doing and named) and stem(doing[0].casefold()) in named and named <= value_tokens(value)


def _ends_what_it_names(ending: str, claim: str, subject: str) -> bool:
    """An ending that names the stored fact by its names, and names nothing else: "Chloe quit Starbucks"
    ends "Chloe works at Starbucks on weekends", "Liam sold the Transit" ends "Liam drives a Ford
    Transit", "Raj is no longer at Grab" ends "Raj is a data analyst at Grab" (the claim, not the value:
    the occupation is the value). "Dana quit that bakery's loyalty program" names no one, so it ends
    nothing this way."""
    named = {_bare(word) for word in _NAME_OR_NUMBER.findall(ending)} - {_bare(subject)}
    return bool(named) and named <= {_bare(word) for word in _NAME_OR_NUMBER.findall(claim)}


def _same_day_event(atom: FactAtom, stored: StoredFact, cosine: float) -> bool:
    """Two events of one subject on the same day, this close, are one event said two ways ("Ingrid's
    wedding is on August 23" and "Ingrid and Henrik get married August 23"): their keys may differ, and
    the names one adds ("Henrik") are not another event's. A day, not a week or a month: two things in
    one month are often two."""
    return (
        atom.fact_kind == "event"
        and stored.fact_kind == "event"
        and _same_subject(atom, stored)
        and atom.event_time is not None
        and stored.event_time is not None
        and atom.event_time == stored.event_time
        and stored.similarity >= cosine
        and _dated_to_a_day(atom.statement, atom.event_time)
        and _dated_to_a_day(stored.claim, atom.event_time)
    )


def _dated_to_a_day(statement: str, at: datetime) -> bool:
    """The statement's time phrase spans one day ("August 23"), not a week or a weekend ("next week",
    whose date the statement gives as its first day)."""
    found = find_time_phrase(statement, at)
    if found is None or found.time_range.start is None or found.time_range.end is None:
        return False
    return found.time_range.end - found.time_range.start <= timedelta(days=1)


def _occurrence(statement: str, event_time: datetime | None) -> tuple[datetime, datetime] | None:
    """The span a dated statement is about: from its event time, as long as its time phrase ("last week
    (week of 26 June 2023)" is a week from the 26th, "yesterday (5 July 2023)" a day)."""
    found = find_time_phrase(statement, event_time) if event_time is not None else None
    if event_time is None or found is None:
        return None
    start, end = found.time_range.start, found.time_range.end
    if start is None or end is None:
        return None
    return event_time, event_time + (end - start)


def _apart(ours: tuple[datetime, datetime] | None, stored: StoredFact) -> bool:
    """Both are dated (``ours`` is the new atom's :func:`_occurrence`) and their dates do not meet: a trip
    to the park yesterday (27 August) is not the museum trip of yesterday (5 July), however alike the
    sentences. A plan for "this month" and the thing done on a day of that month may be one."""
    theirs = _occurrence(stored.claim, stored.event_time)
    return ours is not None and theirs is not None and (ours[1] <= theirs[0] or theirs[1] <= ours[0])


#: Slots whose facts all end together when one is named ("quit the barista job" ends the employer too).
_ENDS_TOGETHER: Final = frozenset(["works_at", "works_as"])


#: A run of capitalised words, small joining words inside it: "World of Warcraft", "Game of Thrones".
_TITLE_RUN: Final = re.compile(r"[A-Z][\w'-]*(?:\s+(?:of|the|[A-Z][\w'-]*))*\s+[A-Z][\w'-]*")
#: An initialism as chat writes one: two to five letters, a capital after the first ("WoW", "GoT", "FFXIV").
_INITIALISM: Final = re.compile(r"^[A-Za-z][A-Za-z]*[A-Z][A-Za-z]*$")


def _initials(claim: str) -> frozenset[str]:
    """The initials of each title in ``claim``, with and without its small words: "World of Warcraft" →
    "wow" and "ww"."""
    found: set[str] = set()
    for run in _TITLE_RUN.findall(claim):
        words = run.split()
        found.add("".join(w[0] for w in words).casefold())
        found.add("".join(w[0] for w in words if w[:1].isupper()).casefold())
    return frozenset(found)


def _named_in(words: AbstractSet[str], said: Sequence[str], claim: str) -> bool:
    """An ending's words (stemmed ``words``, as written ``said``) name the claim: a word of it, or the
    initials of one of its titles ("done with WoW" ends "plays a lot of World of Warcraft")."""
    if words & value_tokens(claim):
        return True
    shortened = {w.casefold() for w in said if 2 <= len(w) <= 5 and _INITIALISM.match(w)}
    return bool(shortened & _initials(claim))


def _ended(atom: FactAtom, candidates: Sequence[StoredFact], said_at: datetime | None) -> list[StoredFact]:
    """The stored facts an ending ends: in the slots it names, those that name its words (or all of
    them when it names no word, or the slots end together); without slots, the subject's facts that
    name its words. Never a fact said after the ending, nor one its own turn told: "My diet's pescatarian
    now — I added fish back in" ends the diet before, not the one it gives."""
    words = {stem(word.casefold()) for word in atom.ends_words if len(word) > 2}
    mine = [
        stored
        for stored in candidates
        if _same_subject(atom, stored)
        and stored.key not in {None, "name", "ended"}
        and not (said_at and stored.stated_at and stored.stated_at > said_at)
        and not set(stored.source_turn_ids) & set(atom.source_turn_ids)
    ]
    if not atom.ends:
        return [stored for stored in mine if _named_in(words, atom.ends_words, stored.claim)]
    slotted = [stored for stored in mine if in_slots(stored.key, atom.ends)]
    named = [stored for stored in slotted if _named_in(words, atom.ends_words, stored.claim)]
    return slotted if not words or set(atom.ends) <= _ENDS_TOGETHER else named


def ends_the_new(atom: FactAtom, decision: Decision, replaced: Collection[str]) -> bool:
    """Whether ``decision`` would have an ending that names nothing ("we broke up", "sold it") end a value
    that was itself learned, in the same chunk, in place of an older one: the ending is of the older."""
    if not (atom.ends or atom.key == "ended") or atom.ends_words or decision.action != "supersede":
        return False
    return decision.target is not None and decision.target.id in replaced


def _ended_later(
    atom: FactAtom, candidates: Sequence[StoredFact], said_at: datetime | None
) -> StoredFact | None:
    """A stored ending said after the atom that ends what the atom says ("I work at Oracle" learned
    after "I quit my job"): the atom is history at once, in whatever order they were learned."""
    if said_at is None or atom.key == "ended":
        return None
    said = value_tokens(atom.statement)
    for stored in candidates:
        # an ending, or a new favourite told against an old one ("favourite": its category not yet known)
        if (
            stored.key not in {"ended", "favourite"}
            or stored.stated_at is None
            or stored.stated_at <= said_at
        ):
            continue
        if not _same_subject(atom, stored):
            continue
        words = {stem(word.casefold()) for word in stored.ends_words if len(word) > 2}
        if in_slots(atom.key, stored.ends) and (
            not words or words & said or set(stored.ends) <= _ENDS_TOGETHER
        ):
            return stored
        if not stored.ends and (words & said or _named_in(frozenset(), stored.ends_words, atom.statement)):
            return stored
    return None


def _older(atom: FactAtom, stored: StoredFact) -> bool:
    """A greater age for the same person is time passing ("I turned 33"), not a contradiction."""
    if atom.key != "age" or not (atom.value or "").isdigit() or not (stored.value or "").isdigit():
        return False
    return 0 < int(atom.value or 0) - int(stored.value or 0) <= 10


def single_valued(key: str) -> bool:
    """Whether a subject has one current value under ``key`` (a home, an employer, a favourite film,
    a partner, whatever they were called)."""
    return key in SINGLE_VALUED_KEYS or key.startswith(("favourite_", "appointment_")) or key in PARTNER_NOUNS


def _lone_favourite(atom: FactAtom, candidates: Sequence[StoredFact]) -> StoredFact | None:
    """ "My favourite's Camden Hells now" after "my favourite beer is Guinness": a favourite said without
    its kind is the speaker's one favourite of a kind, when they have exactly one (with two, which one
    it replaces is not said, and both stay)."""
    if atom.key != "favourite" or atom.negated:
        return None
    kinds = [s for s in candidates if (s.key or "").startswith("favourite_") and _same_subject(atom, s)]
    return kinds[0] if len(kinds) == 1 else None


def _lone_appointment(
    atom: FactAtom, candidates: Sequence[StoredFact], said_at: datetime | None
) -> StoredFact | None:
    """ "They've preponed it to 20th June": an appointment moved without saying which is the speaker's one
    appointment still to come when it was said; with two, which one moved is not said, and both stay.
    Learned the other way round, the one appointment is the one the stored move was of."""
    if not atom.key.startswith(ANY_APPOINTMENT):
        return None
    if atom.key != ANY_APPOINTMENT:
        mine = [s for s in candidates if (s.key or "").startswith(ANY_APPOINTMENT) and _same_subject(atom, s)]
        moves = [s for s in mine if s.key == ANY_APPOINTMENT]
        return moves[0] if len(moves) == 1 and len(mine) == 1 else None
    coming = [
        stored
        for stored in candidates
        if (stored.key or "").startswith(ANY_APPOINTMENT)
        and _same_subject(atom, stored)
        and (said_at is None or stored.event_time is None or stored.event_time >= said_at - timedelta(days=1))
    ]
    return coming[0] if len(coming) == 1 else None


def _exclusive(atom: FactAtom, stored: StoredFact) -> bool:
    """Whether the two values of a single-valued key exclude each other: any two homes do; of diets
    only two regimes ("vegan" ends "vegetarian"; "gluten-free" or "lactose intolerant" ends neither)."""
    if atom.key != "diet":
        return True
    return atom.value.casefold() in REGIMES and (stored.value or "").casefold() in REGIMES


def _by_time(said_at: datetime | None, stored: StoredFact) -> Action | None:
    """Time decides between two values of one slot: the later statement is current ("supersede"), an
    earlier one is history ("past": stored already superseded); None when time cannot order them."""
    if said_at is None or stored.stated_at is None:
        return None
    if said_at - stored.stated_at > SAME_SITTING:
        return "supersede"
    if stored.stated_at - said_at > SAME_SITTING:
        return "past"
    return None


def decide(
    atom: FactAtom,
    candidates: Sequence[StoredFact],
    said_at: datetime | None = None,
    calibration: Calibration | None = None,
) -> Decision:
    """What to do with ``atom`` given the stored current facts found near it (best first); ``said_at``
    is when the atom was said (its source turn's time), which orders two values of one slot;
    ``calibration``: the cosines of the embedder that measured the candidates' ``similarity`` (the
    default model's when not given)."""
    cal = calibration or load_profile(DEFAULT_MODEL_ID)
    if atom.replaces is not None:
        for stored in candidates:
            if stored.id == atom.replaces:
                return Decision("supersede", stored, "said in its place")
    if (later := _ended_later(atom, candidates, said_at)) is not None:
        return Decision("past", later, "ended after it was said")
    if atom.ends or atom.ends_words:
        finished = _ended(atom, candidates, said_at)
        if finished:
            return Decision("supersede", finished[0], "ends the stored fact", tuple(finished[1:]))
    new_value = value_tokens(atom.value)
    compatible: set[str] = set()  # another value of the slot that holds beside this one
    lone = _lone_favourite(atom, candidates) or _lone_appointment(atom, candidates, said_at)
    for stored in candidates:
        if (
            (_same_slot(atom, stored) or stored is lone)
            and stored.value is not None
            and stored.key is not None
        ):
            same_value = value_tokens(stored.value) == new_value
            same_polarity = _polarity(stored.key, stored.negated)[1] == _polarity(atom.key, atom.negated)[1]
            if same_value and same_polarity:
                if set(atom.source_turn_ids) <= set(stored.source_turn_ids):
                    return Decision("noop", stored, "already known from this turn")
                renamed = atom.key != stored.key and single_valued(atom.key)
                if renamed and _by_time(said_at, stored) == "supersede":
                    # "he's my husband now" after "Henrik is my fiancé": the same person, a new relation
                    return Decision("supersede", stored, f"now {atom.key}")
                return Decision("update", stored, "same subject, key and value")
            timed = _by_time(said_at, stored)
            if same_value:
                action: Action = timed or ("supersede" if atom.correction else "conflict")
                return Decision(action, stored, "negates the stored fact")
            if atom.negated:
                continue  # "I'm not vegan" says nothing against "vegetarian"
            if (single_valued(atom.key) or stored is lone) and _exclusive(atom, stored):
                if timed is not None:
                    return Decision(
                        timed,
                        stored,
                        f"a {'later' if timed == 'supersede' else 'earlier'} value of {atom.key}",
                    )
                action = "supersede" if atom.correction or _older(atom, stored) else "conflict"
                return Decision(action, stored, f"a new value of {atom.key}")
            if single_valued(atom.key):  # "lactose intolerant" beside "dairy-free": both hold, both kept
                compatible.add(stored.id)
    candidates = [stored for stored in candidates if stored.id not in compatible]
    if atom.correction and ENDING.search(atom.statement):
        said = value_tokens(atom.statement)
        for stored in candidates:
            # A typed fact whose value the ending names: "Dana gave up on Korean" ends "learning Korean".
            ended = value_tokens(stored.value or "")
            if (
                stored.key is not None
                and _same_subject(atom, stored)
                and ended
                and (
                    ended <= said
                    or _ends_the_doing(atom.value or atom.statement, stored.value or "", atom.subject)
                    or _ends_what_it_names(atom.statement, stored.claim, atom.subject)
                )
            ):
                return Decision("supersede", stored, "ends the stored fact")
    if atom.correction and (replaced := _INSTEAD_OF.search(atom.statement)) is not None:
        first = stem(replaced.group("y").split()[0].casefold())
        for stored in candidates:
            # "Chloe is applying to Brussels instead of Montreal" ends "wants to do a master's in Montreal".
            if (
                stored.key is not None
                and _same_subject(atom, stored)
                and first in value_tokens(stored.value or "")
            ):
                return Decision("supersede", stored, "names what it replaces")
    ours = _occurrence(atom.statement, atom.event_time)  # once: every candidate is compared with it
    if atom.correction and atom.fact_kind == "event":
        for stored in candidates:
            # "Raj's GMAT is on November 19", said as a correction, moves "Raj's GMAT is on November 5".
            if (
                stored.fact_kind == "event"
                and _same_subject(atom, stored)
                and _apart(ours, stored)
                and _shares_topic(
                    _undated(atom.statement, atom.event_time),
                    _undated(stored.claim, stored.event_time),
                    atom.subject,
                )
            ):
                return Decision("supersede", stored, "moved to another date")
    names = distinctive(atom.statement, atom.subject)
    for stored in candidates:
        if _apart(ours, stored):
            continue
        same_kind = _same_subject(atom, stored) and stored.fact_kind == atom.fact_kind
        same_key = same_kind and stored.key == atom.key and atom.key not in _GENERIC_KEYS
        if (
            same_kind
            and stored.similarity >= (cal.same_key if same_key else cal.same_kind)
            and _nested(names, distinctive(stored.claim, atom.subject))
            # Under a generic key, one shared name ("LGBTQ") is no sign of one fact: a counseling
            # workshop and a support group both name it. The topic must be shared too.
            and (same_key or _shares_topic(atom.statement, stored.claim, atom.subject))
        ) or _same_day_event(atom, stored, cal.same_key):
            if set(atom.source_turn_ids) <= set(stored.source_turn_ids):
                return Decision("noop", stored, "already known from this turn")
            return Decision("update", stored, "the same names, said another way")
        if (
            # A statement restating a typed fact adds its provenance; two statements stay two. A typed
            # fact is not folded into a statement: it is what the profile reads ("Melanie loves camping
            # trips" had become a source of "Melanie had a quiet weekend after camping").
            atom.fact_kind == "statement"
            and stored.fact_kind not in {"statement", None}
            and _same_subject(atom, stored)
            and (
                # an experience ("did") is one event: a statement on its topic may tell another
                stored.similarity >= (cal.same_kind if stored.key in _GENERIC_KEYS else cal.statement)
                # or both name the typed fact's value ("Rhino is Ingrid's main modelling tool" and
                # "Ingrid is good with Rhino"), closer than unrelated statements about the subject
                or (
                    stored.key not in _GENERIC_KEYS  # an experience's value is a clause, not a name
                    and stored.similarity >= cal.named_statement
                    and _names_value(atom, stored)
                )
            )
            and _shares_topic(atom.statement, stored.claim, atom.subject)
        ):
            if set(atom.source_turn_ids) <= set(stored.source_turn_ids):
                return Decision("noop", stored, "already known from this turn")
            return Decision("update", stored, "a statement of a fact already known")
        if stored.similarity >= cal.duplicate and jaccard(atom.statement, stored.claim) >= JACCARD_MIN:
            if set(atom.source_turn_ids) <= set(stored.source_turn_ids):
                return Decision("noop", stored, "already known from this turn")
            return Decision("update", stored, "near-identical statement")
    return Decision("add")
