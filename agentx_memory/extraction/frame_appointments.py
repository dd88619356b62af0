"""Appointments the parse reader finds: "the dentist on Tuesday at 10am", "physio moved to Monday 4pm",
"rescheduled my haircut to the 14th", a verbless note ("Optician appointment on May 9th", "physio appt
monday 12 feb 9am"). One slot per thing, its value the time: a later time supersedes. A day of the month
said alone is dated the way its clause points (:func:`on_coming_day`). Pure helpers of :mod:`.frames`
over spaCy tokens (moved out of :mod:`.frame_changes`, which keeps endings and contacts).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Final

from ..retrieval.time_phrases import find_time_phrase
from .atoms import FactAtom
from .clause_atoms import Context, TurnText, build_atom, nth_day
from .frame_fits import SUBJECTS, is_time
from .lexicon import APPOINTMENTS

__all__ = ["DAY_ALONE", "appointment_atom", "as_appointment", "on_coming_day", "presumed", "thing_key"]

_TIME_PREPS: Final = frozenset(["on", "at", "for", "to", "till", "until"])
_MOVES: Final = frozenset(
    [
        "move",
        "push",
        "reschedule",
        "postpone",
        "shift",
        "bump",
        "bring",
        "change",
        "book",
        "schedule",
        "rebook",
        "delay",
        "put",
        "swap",
        "switch",
        "prepone",  # Indian English: brought forward ("preponed my appointment to Tuesday")
        "advance",
        "defer",
        # moved in other words: "they've shunted it to the 22nd", "slid my physio to Friday"
        "shunt",
        "slide",
        "nudge",
        "shove",
        "rearrange",
        "rejig",
        "reshuffle",
    ]
)
#: Moves said of things as well ("slid the box to the 3rd shelf"): of an appointment only when one is
#: named or pointed at.
_MOVES_OF_THINGS: Final = frozenset(["shunt", "slide", "nudge", "shove"])


def _move_lemma(verb: Any) -> str:
    """The verb's lemma, or the verb of moving it is a form of when the small model's lemma is wrong
    ("rebooked" → "rebooke")."""
    lemma = str(verb.lemma_).casefold()
    if lemma in _MOVES:
        return lemma
    word = str(verb.lower_)
    for suffix in ("d", "ed", "ing", "s"):
        if word.endswith(suffix) and (stem := word[: -len(suffix)]) in _MOVES:
            return stem
    return lemma


def thing_key(thing: Any, loose: bool = False) -> str | None:
    """ "dentist appointment" → "dentist", "Milo's vet appointment" → "vet", "parents evening" →
    None (no appointment word); None for what is no appointment."""
    words = [
        c
        for c in thing.children
        if (c.dep_ in {"compound", "amod"} or (c.dep_ == "poss" and c.lemma_.casefold() in APPOINTMENTS))
        and c.i < thing.i
        # the tagger takes some a noun for an adjective: "Optician appointment"; "moving day" is named
        # for a doing; "my doctor's appointment": the one it is with
        and (
            c.pos_ == "NOUN"
            or (c.pos_ in {"ADJ", "PROPN"} and c.lemma_.casefold() in APPOINTMENTS)
            or (c.dep_ == "amod" and c.tag_ == "VBG")
        )
    ]
    head = thing.lemma_.casefold()
    # "parents evening is on January 16": with ``loose`` any thing said to be on a day is one
    known = head in APPOINTMENTS or any(w.lemma_.casefold() in APPOINTMENTS for w in words)
    # "parents evening", "sports day": a time of day named for what happens then is an occasion
    # ("Moving day": the model's DATE, named for the doing all the same)
    named_time = bool(words) and not any(_timeish(w) and w.tag_ != "VBG" for w in words)
    thing_like = (
        (thing.pos_ == "NOUN" or (thing.pos_ == "PROPN" and thing.text.isupper() and len(thing.text) > 1))
        and thing.ent_type_ != "PERSON"
        and ((head not in _NOT_OCCASIONS and not _timeish(thing)) or named_time)
    )
    if not known and not (loose and thing_like):
        return None
    if head == "appointment" and not words:  # "Eye appointment on the 9th": whatever names it
        words = [
            c
            for c in thing.children
            if c.dep_ in {"compound", "amod"} and c.i < thing.i and c.is_alpha and c.lower_ not in _NOT_NAMING
        ]
    if head == "appointment" and not words:  # "my appointment with the GP"
        words = [g for c in thing.children if c.dep_ == "prep" and c.lower_ == "with" for g in c.children]
    named = [w.lower_ for w in words] + ([] if head == "appointment" else [head])
    owners = [w for w in words if w.dep_ == "poss"]
    if owners and head not in APPOINTMENTS and not _named_otherwise(words, owners):
        # "Dentist's receptionist rang — they've shunted it": one of the dentist's people, so the dentist
        named = [owners[0].lower_]
    return "_".join(named) or None


def _named_otherwise(words: list[Any], owners: list[Any]) -> bool:
    """Whether a word other than the owner's names what the thing is ("the dentist's cleaning day")."""
    return any(w.lemma_.casefold() in APPOINTMENTS for w in words if w not in owners)


#: Words before "appointment" that say which of the speaker's, not what it is for: "my new appointment".
_NOT_NAMING: Final = frozenset(
    ["new", "next", "first", "last", "big", "early", "late", "other", "second", "final", "usual", "old"]
)
_WEEKDAY_OR_MONTH: Final = re.compile(
    r"^(?:mon|tue|wed|thu|fri|sat|sun)\w*day$|^(?:mon|tues?|weds|thu|thur|thurs|fri)\.?$|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$|"
    r"^\d{1,2}(?:st|nd|rd|th)$|^\d{1,2}(?::\d\d)?(?:am|pm)$|^noon$|^midday$|"
    r"^\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?$",  # a date in figures: "14/10", "13.9.2025"
    re.IGNORECASE,
)


#: Words that take an appointment away: what a sentence says of one with them is not that it holds.
_CALLED_OFF: Final = frozenset(["cancel", "scrap", "miss", "skip", "off", "postpone", "move", "reschedule"])


def presumed(sentence: Any) -> list[Any]:
    """The speaker's appointments a question or a request takes for granted, each with its time: "Can I
    eat before my root canal on Friday?", "help me plan the route for my visa interview on 17 February"."""
    if any(t.lemma_.casefold() in _CALLED_OFF or t.dep_ == "neg" for t in sentence):
        return []  # "my dentist appointment on Tuesday got cancelled"
    return [
        token
        for token in sentence
        if token.pos_ == "NOUN"
        and thing_key(token, loose=True) is not None
        and any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in token.children)
        and any(c.dep_ == "prep" and c.lower_ in {"on", "at"} and is_time(c) for c in token.children)
    ]


def _bare_appointment(token: Any) -> bool:
    """ "my appointment", "our booking": the speaker's, not named for what it is."""
    return (
        token.lemma_.casefold() in {"appointment", "booking", "slot", "session"}
        and thing_key(token) is None
        and any(c.dep_ == "poss" and c.lower_ in {"my", "our"} for c in token.children)
    )


def as_appointment(atom: FactAtom, key: str, claim: str) -> FactAtom:
    """An appointment moved without saying which, filed under the one it moved (``key``, its ``claim``):
    "Divya's appointment is on 20th June" → "Divya's root canal is on 20th June"."""
    label = claim.removeprefix(f"{atom.subject}'s ").split(" is ", 1)[0]
    if label == claim or not label:
        label = key.removeprefix("appointment_").replace("_", " ")
    statement = atom.statement.replace(f"{atom.subject}'s appointment is", f"{atom.subject}'s {label} is", 1)
    return atom.model_copy(update={"key": key, "statement": statement})


def _timeish(token: Any) -> bool:
    """A date or a time: what the recogniser says is one, a weekday or month, "the 14th", "3pm", and
    the hour in "at 9"."""
    if token.text in _ALWAYS:
        return False  # "the gym is 24/7 now": open all hours, no day
    hour = token.text.isdigit() and int(token.text) <= 24 and token.head.lower_ == "at"
    return token.ent_type_ in {"DATE", "TIME", "ORDINAL"} or bool(_WEEKDAY_OR_MONTH.match(token.text)) or hour


#: Figures that say "always", not a day.
_ALWAYS: Final = frozenset(["24/7", "24/7/365", "365", "24x7"])


def _when(*holders: Any) -> list[Any]:
    """The time phrases of a predicate and its thing: prepositions with a date or time, bare dates."""
    return [
        c
        for holder in holders
        for c in holder.children
        if (c.dep_ == "prep" and c.lower_ in _TIME_PREPS and any(_timeish(t) for t in c.subtree))
        # "on the second Saturday in March", "is in three weeks": "in" with a date, not a place
        or (c.dep_ == "prep" and c.lower_ == "in" and any(t.ent_type_ == "DATE" for t in c.subtree))
        or (c.dep_ in {"npadvmod", "advmod", "nummod", "appos"} and _timeish(c))
        # "car service is now September 17": a copula's date; "it's 9 May now": the day split off it
        or (c.dep_ == "attr" and holder.lemma_ == "be" and (_timeish(c) or _day_of(c)))
    ]


def _whole_phrase(doc: Any, first: int, last: int, now: datetime) -> str:
    """The text of tokens ``first``…``last``, run on to the end of the time phrase that starts among
    them: in "moved it to Thursday 25 September" the parse hangs the date off the weekday's clause."""
    begin, end = doc[first].idx, doc[last].idx + len(doc[last])
    found = find_time_phrase(doc.text[begin:], now)
    if found is not None and found.start < end - begin < found.end:
        end = begin + found.end
    # … and back to its start: "my driving test is a fortnight today" hangs only "today" on the copula
    for back in range(min(first, _LOOK_BACK), 0, -1):
        start = doc[first - back].idx
        found = find_time_phrase(doc.text[start:end], now)
        if found is not None and found.start == 0 and found.end == end - start:
            return str(doc.text[start:end])
    return str(doc.text[begin:end])


#: How many words before a time's head its phrase may begin ("a fortnight today", "two weeks from today").
_LOOK_BACK: Final = 4


def _day_of(number: Any) -> bool:
    """A day's number the parse set apart from its month: "9" in "it's 9 May now"."""
    after = number.doc[number.i + 1] if number.i + 1 < len(number.doc) else None
    return number.like_num and after is not None and after.dep_ == number.dep_ and _timeish(after)


def _named_date(attr: Any) -> bool:
    """A date said with a weekday's or a month's name ("the last friday of october"), not a bare number
    the model calls a date ("my son is 15", "my budget is 15k")."""
    return attr.ent_type_ == "DATE" and any(_WEEKDAY_OR_MONTH.match(t.text) for t in attr.subtree)


def _all_time(attr: Any, now: datetime) -> bool:
    """A copula's value that is a time and nothing else: "11/22", "a week tomorrow", "a fortnight
    today"; not a number ("my son is 15") nor a thing with a time in it."""
    last = attr.right_edge.i
    while (
        last + 1 < len(attr.doc) and attr.doc[last + 1].head.i == attr.head.i and attr.doc[last + 1].ent_type_
    ):
        last = attr.doc[last + 1].right_edge.i  # "a week | tomorrow": the parse hangs "tomorrow" apart
    words = attr.doc[attr.left_edge.i : last + 1]
    found = find_time_phrase(words.text, now)
    return found is not None and found.start == 0 and found.end >= len(words.text.rstrip(".!? "))


#: Seven digits or more in a row (spaces and dashes between): a phone number, never a day or an hour.
_PHONE_LIKE: Final = re.compile(r"\d(?:[ -]?\d){6,}")
_DATE_AFTER_WEEKDAY: Final = re.compile(
    r"\b((?:mon|tues|wednes|thurs|fri|satur|sun)day),\s+(?=\d{1,2}(?:st|nd|rd|th)?\s+[a-z]|[a-z]+\s+\d)",
    re.IGNORECASE,
)
_HOUR_AFTER_COMMA: Final = re.compile(
    r",\s*(?:at\s+)?(\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d)(?:\s+slot)?\b",
    re.IGNORECASE,
)


def appointment_atom(
    predicate: Any, subject: str, turn: TurnText, speaker: str, last_thing: Any | None, note: bool = False
) -> tuple[FactAtom | None, Any | None]:
    """An appointment and its time ("I have a dentist appointment on Tuesday at 10am", "physio moved to
    Monday 4pm", "it's on the 19th now" after the thing was named), and the thing it is about.
    ``note``: ``predicate`` is a noun read as a note of its own ("my visa interview on 17 February" inside
    a request)."""
    # chat's verbless note: "Optician appointment on May 9th", "Dentist on the 14th at 3pm" (as "is")
    verbless = note or (
        predicate.pos_ in {"NOUN", "PROPN"} and not any(t.pos_ in {"VERB", "AUX"} for t in predicate.sent)
    )
    lemma = "be" if verbless else _move_lemma(predicate)
    # what was moved before who moved it: "the garage pushed the MOT to June 3rd"
    things = [predicate] if verbless else []
    things += [c for c in predicate.children if c.dep_ == "dobj"]
    things += [c for c in predicate.children if c.dep_ in SUBJECTS]
    things += [g for c in predicate.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj"]
    if lemma in _MOVES:  # "move parents evening": the parser takes the occasion for a time of the verb
        things += [c for c in predicate.children if c.dep_ == "npadvmod" and c.pos_ == "NOUN"]
    # A thing one moves, or says is on or at a time, is an occasion whatever its name
    dated = (
        any(c.dep_ == "prep" and c.lower_ in {"on", "at"} and is_time(c) for c in predicate.children)
        or (
            any(c.lower_ == "now" for c in predicate.children)
            and any(c.dep_ == "attr" and _timeish(c) for c in predicate.children)
        )
        # "our team offsite is the last friday of october": a copula's whole date
        or any(_named_date(c) for c in predicate.children if c.dep_ == "attr")  # not "my son is 15"
        # "closing on the house is 11/22", "Graduation is a week tomorrow": the copula's whole value a time
        or any(_all_time(c, turn.timestamp) for c in predicate.children if c.dep_ == "attr")
    )  # "car service is now September 17 instead"; not "the weather is awful today"
    # a thing one cancels or books is an occasion ("my MRI is booked for Wednesday the 22nd")
    loose = note or lemma in {*_MOVES, "cancel", "book"} - _MOVES_OF_THINGS
    loose = loose or (lemma == "be" and dated and not verbless)
    thing = next((t for t in things if thing_key(t, loose) is not None), None)
    subjects = [c for c in predicate.children if c.dep_ in SUBJECTS]
    objects = [c for c in predicate.children if c.dep_ == "dobj"] if lemma in _MOVES else []
    pointed = any(c.lower_ in {"it", "that"} for c in [*subjects, *objects])  # "rebooked it for …"
    # "the dentist rang, they've bumped me to Tuesday the 18th": the speaker moved is their appointment
    pointed = pointed or any(c.lower_ in {"me", "us"} for c in objects)
    # "Had to cancel the optician, rebooked for Friday the 16th": a move with nothing named is of the last
    # (the subject is the speaker's, or none: "…, rebooked for Friday" may have had its "I" put back)
    mine = all(c.lower_ in {"i", "we"} for c in subjects)
    if thing is None and last_thing is not None and (pointed or (lemma in _MOVES and mine)):
        thing = last_thing
    # "they have preponed it to 20th June", "The PSK has preponed my appointment to Tuesday 19th": moved,
    # and which one is not said (nor named before in the turn)
    unnamed = [c for c in objects if c.lower_ in {"it", "me", "us"} or _bare_appointment(c)]
    told_before = thing is not None and thing is last_thing  # "the vet …, so I moved it": that one
    moved = lemma in _MOVES - {"book", "schedule"} and bool(unnamed) and not told_before
    # the one who moved it, unless it is the appointment itself ("physio moved me back a week")
    moved = moved and (thing is None or (thing.dep_ in SUBJECTS and thing_key(thing) is None))
    if moved:
        thing = unnamed[0]
    if thing is None:
        return None, None
    # the moved one's key is "" (filed as ANY_APPOINTMENT): which it is, the writer finds
    key = "" if moved and thing is unnamed[0] else thing_key(thing, loose or thing is last_thing)
    # "brought my driving test forward to October 16": the time may hang on "forward" or "back"
    shifts = [
        c for c in predicate.children if c.dep_ in {"advmod", "prt"} and c.lower_ in {"forward", "back"}
    ]
    same = thing.doc is predicate.doc and thing.sent == predicate.sent
    # a thing named in an earlier sentence ("the vet … so I've swapped it to next Monday") lends no times
    when = _when(predicate, thing, *shifts) if same else _when(predicate, *shifts)
    when = [c for c in when if c.i != thing.i]  # "move parents evening": the occasion is no time of it
    if lemma in _MOVES - {"book", "schedule", "rebook"}:  # "moved my haircut to the 14th": the new time only
        # "moved the meeting this morning": when it was moved, not to when
        # "rescheduled the dentist for the 22nd": "for" a time is the new one too (not "swapped my shift
        # for Tuesday", a trade)
        # ("put me down for March 6th": put down "for" a time is booked for it)
        down = any(c.dep_ == "prt" and c.lower_ == "down" for c in predicate.children)
        to = {"to", "till", "until", "for"} if lemma == "reschedule" or down else {"to", "till", "until"}
        moved_to = [c for c in when if c.lower_ in to]
        # and the hour said after the new day: "moved to Tuesday 19 March at 3pm"
        # (or its day after the hour: "moved to 6am on the 3rd")
        moved_to += [c for c in when if moved_to and c.lower_ in {"at", "on"} and c.i > moved_to[0].i]
        when = moved_to or [
            c for c in when if c.dep_ != "prep" and not any(t.lower_ in _WHEN_DONE for t in c.subtree)
        ]
    if not when or key is None or lemma not in {"be", "have", "get", "book", *_MOVES}:
        return None, thing
    tokens = sorted({t.i for c in when for t in c.subtree})
    times = _whole_phrase(predicate.doc, tokens[0], tokens[-1], turn.timestamp).rstrip(".")
    times = re.sub(r"^(?:to|till|until|for)\s+", "", times)
    if _PHONE_LIKE.search(times):
        return None, thing  # "put my number on for queries: 07700 900123": a number, no time
    # "September 17 instead"; "on Thursday instead of Tuesday": the old time is no time of it now
    times = re.sub(r"\s+(?:instead(?:\s+of\b.*)?|rather than\b.*|not\b.*)$", "", times)
    times = re.sub(r"\s+(?:now|from now on)$", "", times)  # "Thursday 15th 14:30 now"
    # "26 July, 2:30 pm slot", "fri 13/9, 17:30": the hour after a comma is the day's (a statement is cut
    # at its commas, and the hour went with it)
    times = _HOUR_AFTER_COMMA.sub(r" at \1", times)
    times = _DATE_AFTER_WEEKDAY.sub(r"\1 ", times)  # "Monday, 3 February": one day
    if not re.match(
        r"^(?:on|at|in|next|this|last|yesterday|today|tonight|tomorrow|an?|one|two|three)\b", times
    ):  # "a fortnight today", "two weeks from today" need no "on"
        times = f"on {times}"
    capitals = {t.lower_: t.text for t in thing.subtree if t.text.isupper() and len(t.text) > 1}  # "MOT"
    label = " ".join(
        [
            *(capitals.get(word, word) for word in key.split("_") if word),
            *(["appointment"] if thing.lemma_.casefold() == "appointment" or not key else []),
        ]
    )
    statement = f"{subject}'s {label} is {times}"
    ctx = Context(turn=turn, subject=subject, correction=False, is_speaker=subject == speaker)
    if lemma == "have" and any(
        c.dep_ in SUBJECTS and c.lower_ not in {"i", "we"} for c in predicate.children
    ):
        return None, thing  # "Steve just had knee surgery last week": his, not the speaker's
    if lemma in {"be", "have"} and predicate.tag_ == "VBD":
        # "the citizenship ceremony was on 12 June", "I had my surgery on the 4th": an occasion gone by,
        # dated the last 12 June
        said = f"{subject}'s {label} was {times}"
        gone = build_atom("experience", "did", said, said, ctx, [], False, "explicit")
        if gone.event_time is None and (day := DAY_ALONE.search(times)) is not None:
            gone = on_coming_day(gone, int(day.group(1)), turn.timestamp, past=True)
        return gone, thing
    atom = build_atom("event", f"appointment_{key}", times, statement, ctx, [], False, "explicit")
    day = DAY_ALONE.search(times)
    # "Friday the 16th": the day of the month decides, not the coming Friday
    if day is not None and (atom.event_time is None or atom.event_time.day != int(day.group(1))):
        plain = atom.model_copy(update={"event_time": None, "statement": f"{statement}."})
        atom = on_coming_day(plain, int(day.group(1)), turn.timestamp)
    if atom.event_time is not None and atom.event_time.date() < turn.timestamp.date():
        return None, thing  # "had an interview yesterday": what happened, not an appointment to keep
    return atom, thing


#: Nouns said to be "on" a day that are no occasion of their own: "today is on …" says nothing.
_NOT_OCCASIONS: Final = frozenset(
    [
        "it",
        "that",
        "day",
        "time",
        "week",
        "weekend",
        "month",
        "year",
        "today",
        "tomorrow",
        "date",
        "one",
        "thing",
        # a contact detail is no occasion: "my number has changed, it's now 07911 …"
        "number",
        "email",
        "address",
        "mobile",
        "phone",
    ]
)

#: Words of a time that tell when something was done: "moved it this morning", "rebooked it earlier".
_WHEN_DONE: Final = frozenset(["this", "yesterday", "today", "earlier", "ago", "last", "just"])

#: "the 19th": a day of a month not named, the coming one.
DAY_ALONE: Final = re.compile(
    # "the 19th", "Thursday 15th" (the day of the month decides, not the coming Thursday)
    r"\b(?:the|(?:mon|tues|wednes|thurs|fri|satur|sun)day) (\d{1,2})(?:st|nd|rd|th)\b",
    re.IGNORECASE,
)


def on_coming_day(atom: FactAtom, day: int, now: datetime, *, past: bool = False) -> FactAtom:
    """The atom dated to the next ``day`` of a month on or after ``now`` ("it's on the 19th now"); with
    ``past``, the last one on or before it ("I had my surgery on the 4th")."""
    when = nth_day(day, now, past=past)
    if when is None:
        return atom
    statement = atom.statement.rstrip(".") + f" ({when.day} {when:%B %Y})."
    temporal = "past" if past else "future"
    return atom.model_copy(update={"event_time": when, "statement": statement, "temporal": temporal})
