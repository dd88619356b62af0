"""Whether a turn corrects what the user said before. Pure.

A correction is high-trust: it supersedes the current fact it replaces (reversibly), where an inferred
contradiction is only flagged. So the cues are strict — "actually" alone is not one ("actually, that
film was great"); it must come with a statement that can replace a fact.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Final

from ..retrieval.time_phrases import find_time_phrase

__all__ = ["ENDING", "as_rescheduled", "is_correction"]

#: Cues that on their own mean "what I said before is wrong / no longer true".
_STRONG: Final = re.compile(
    "|".join(
        (
            r"\bno,? I meant\b",
            r"\bI meant to say\b",
            r"\bscratch that\b",
            r"\bcorrection:",
            r"\bto correct (?:myself|that)\b",
            r"\bI misspoke\b",
            r"\bsorry,? I (?:said|meant|wrote)\b",
            r"\bI (?:no longer|don't \w+ anymore|do not \w+ anymore)\b",
            # within one clause: "I don't bike to the office anymore"
            r"\b(?:\w+n't|not|cannot)\s[^.!?,;]{0,40}?\bany ?more\b",
            r"\bnot anymore\b",
            r"\bnot \w+(?: \w+)? any ?more\b",
            r"\bnot \w+(?: \w+)? but\b",
            r"\bI (?:moved|relocated) to\b",
            r"\bI (?:quit|left) (?:my|the|\w+ing)\b",
            r"\bwe broke up\b",
            # Something the speaker had is over: "gave up on Korean", "Marta and I broke up".
            r"\bI (?:gave up|have given up|'ve given up|stopped \w+ing)\b",
            r"\band I (?:broke up|split up|separated|divorced|got divorced)\b",
            r"\bI changed (?:jobs|my)\b",
            r"\bchange of plans?\b",
            r"\bchanged my mind\b",
            r"\b(?:my )?new (?:job|address|number|phone number|email|name|role) is\b",
            r"\bI(?:'m| am) now\b",
            r"\bnow I(?:'m| am)\b",
            r"\bI(?:'ve| have) (?:since|just) (?:moved|switched|changed)\b",
            r"\bI switched to\b",
            r"\bis actually\b",
            # What one finds out undoes what one believed: "turns out I'm not allergic to cats".
            r"\b(?:it )?turns out\b",
            r"(?:^|\bI )(?:just )?dropped out\b",
            # A clause that opens on "no longer": "no longer at Grab, …"
            r"(?:^|[,.!?;]\s+)no longer\b",
            # A state said with "now" after it: "I'm vegetarian now", "I'm head chef now at Osteria Rossa".
            r"\bI(?:'m| am) (?:an? )?\w+(?: \w+)? now\b",
            r"\bactually,? (?:it's|its|it is|I'm|I am|I live|I work|I have|my)\b",
            r"\bnot \w+(?: \w+)?,? (?:it's|I'm)\b",
            # A clause that ends on "now" tells what changed: "Muse is my favourite now", "I like it now".
            r"\bnow\s*(?:[.!,;]|$)",
        )
    ),
    re.IGNORECASE,
)
#: A statement that something stopped: with a correction cue, it ends the fact whose value it names.
ENDING: Final = re.compile(
    # ("stopped by the bakery" and "sold three paintings" end nothing: "stopped" needs a doing, and
    # "sold" and "is over" a name: "sold the Transit", "is over Radiohead".)
    r"\b(?:(?:quit|gave up|given up|stopped \w+ing|broke up|split up|separated|divorced|no longer|any ?more|"
    r"dropped out|left)\b|(?:sold|is over|is off) (?:the |my )?(?-i:[A-Z]))",
    re.IGNORECASE,
)
#: Look-alikes that never correct a fact ("I moved the meeting", "I no longer remember").
_NEAR_MISS: Final = re.compile(
    "|".join(
        (
            r"\bmoved (?:the|my|our|it|that|this)\s+(?:meeting|call|appointment|car|couch|furniture|stuff|"
            r"files?|desk|date|session|deadline)\b",
            r"\bno longer (?:remember|recall|know|sure|care)\b",
            r"\bI(?:'m| am) now (?:going|heading|leaving|off|done|back|home|ready|at|in the)\b",
            r"\bnow I(?:'m| am) (?:going|heading|off|done|hungry|tired|curious|confused)\b",
            r"\bif I\b",
            r"\b(?:right|for|just|until|till|by|up to|from) now\b",
            r"\?\s*$",
            r"\bactually,? (?:it's|its|it is) (?:fine|ok|okay|good|great|not bad|nice|funny)\b",
        )
    ),
    re.IGNORECASE,
)


def is_correction(text: str) -> bool:
    """True when ``text`` says an earlier statement of the user is wrong or no longer holds."""
    return bool(_STRONG.search(text)) and not _NEAR_MISS.search(text)


_RESCHEDULED: Final = re.compile(
    r"^(?:(?P<who>I|we|they)(?:['’]ve| have)?\s+)?(?:just\s+)?"
    r"(?:rescheduled|moved|pushed(?:\s+back)?|postponed|bumped|brought\s+forward)\s+"
    r"(?P<what>(?:my|our|the)\s+[^,.;!?]+?)\s+to\s+(?P<when>[^,.;!?]+)",
    re.IGNORECASE,
)
#: Whose thing "the …" is when its mover reschedules it: "rescheduled the GMAT" is "my GMAT".
_OWNER: Final = {"i": "my ", "we": "our "}


def as_rescheduled(clause: str, now: datetime) -> str:
    """A date moved, said as the thing's new date: "rescheduled the GMAT to November 19" → "my GMAT is on
    November 19", which the event patterns read (the extractor takes the rewrite as a correction).
    Unchanged unless a time phrase follows "to" ("moved my desk to the window" stays)."""
    match = _RESCHEDULED.match(clause)
    if match is None:
        return clause
    when = match.group("when").strip()
    # "to Friday" is read as "on Friday", as it is said after the thing's "is".
    found = find_time_phrase(when, now) or find_time_phrase(f"on {when}", now)
    if found is None or found.start > 0:
        return clause
    on = "" if re.match(r"(?:on|at|in|next|this|tomorrow|tonight)\b", when, re.IGNORECASE) else "on "
    what = match.group("what")
    if (owner := _OWNER.get((match.group("who") or "I").casefold())) is not None:
        what = re.sub(r"^the\s", owner, what)
    # What follows the date is an aside ("…, needed more time"), left out: its past verb would make the
    # plan read as a past.
    return f"{what} is {on}{when}"
