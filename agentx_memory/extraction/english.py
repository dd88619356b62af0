"""The bits of English grammar the offline extractor needs. Pure functions, no model, no I/O.

Sentences are split, first-person clauses are rewritten in the third person ("I love jazz" → "Dana
loves jazz", "my sister" → "Dana's sister"), and relative dates are resolved against the turn's time
with the same grammar self-query uses for questions (:mod:`agentx_memory.retrieval.time_phrases`), so a
question's "last May" and an event's "last May" land on the same days.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Final

from ..retrieval.time_phrases import find_time_phrase
from .verbs import conjugate

__all__ = [
    "absolute_date",
    "resolve_dates",
    "sentences",
    "subordinate_last",
    "third_person",
    "with_date",
]

#: A sentence ends at a stop before a capital, at a line break, and at an emoji before a capital: chat
#: puts an emoji where a stop would be ("Inspiring 💪 I emailed some wholesalers…").
_SENTENCE_END: Final = re.compile(
    # Chat starts sentences in lower case too ("torn calf. maybe next year"); "p.m." and the other
    # abbreviations are joined again below.
    r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Za-z0-9])|\n+|(?<=[.!?])(?=[A-Z][a-z])"
    r"|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF])\ufe0f?\s+(?=[A-Z])"
)
_ABBREVIATION: Final = re.compile(
    r"\b(?:mr|mrs|ms|dr|st|vs|etc|e\.g|i\.e|approx|a\.m|p\.m|no|nos|ft|mt|jr|sr|inc|ltd|co|cf)\.$",
    re.IGNORECASE,
)

#: Words that sit between "I" and its verb without being the verb.
ADVERBS: Final = frozenset(
    [
        "only",
        "really",
        "also",
        "just",
        "usually",
        "always",
        "never",
        # "I no longer take sugar": "no" is no verb ("noes"); the two words are one adverb.
        "no longer",
        "still",
        "actually",
        "totally",
        "absolutely",
        "definitely",
        "mostly",
        "often",
        "sometimes",
        "rarely",
        "recently",
        "finally",
        "currently",
        "honestly",
        "truly",
        "kinda",
        "kind",
        "sort",
        "of",
        "even",
        "already",
        "probably",
        "literally",
        "seriously",
        "basically",
        "generally",
        "normally",
        "mainly",
        "particularly",
        "especially",
        "genuinely",
        # Adverbs of time and degree that are not in -ly.
        "now",
        "then",
        "once",
        "first",
        "later",
        "soon",
        "almost",
        "ever",
        "too",
        "either",
        "rather",
        "somehow",
    ]
)
_CONTRACTIONS: Final = (
    (re.compile(r"\bI'm\b|\bI am\b|\bIm\b(?=\s+[a-z])", re.IGNORECASE), "{S} is"),
    (
        re.compile(
            r"\bI've\b|\bI have\b(?=\s+(?:been|had|got|gotten|done|made|never|always|just|already|"
            r"lived|worked|seen|started|finished|learned|learnt|visited|tried|known|played|taken|"
            r"ran|run|read|written|built|become|moved|met|loved|wanted|studied|completed))",
            re.IGNORECASE,
        ),
        "{S} has",
    ),
    (re.compile(r"\bI'd\b", re.IGNORECASE), "{S} would"),
    (re.compile(r"\bI'll\b", re.IGNORECASE), "{S} will"),
    (re.compile(r"\bI (?:don't|dont|do not)\b", re.IGNORECASE), "{S} does not"),
    (re.compile(r"\bI (?:didn't|didnt|did not)\b", re.IGNORECASE), "{S} did not"),
    (re.compile(r"\bI (?:can't|cant|cannot|can not)\b", re.IGNORECASE), "{S} cannot"),
    (re.compile(r"\bI (?:haven't|havent|have not)\b", re.IGNORECASE), "{S} has not"),
    (re.compile(r"\bI (?:won't|wont|will not)\b", re.IGNORECASE), "{S} will not"),
    (re.compile(r"\bI (?:wasn't|wasnt|was not)\b", re.IGNORECASE), "{S} was not"),
)
#: Verbs that end in -ly; any other word in -ly after "I" is an adverb ("I typically hold…").
_LY_VERBS: Final = "apply|reply|supply|rely|fly|ally|tally|bully|multiply|comply|imply|rally"
#: An adverb between "I" and its verb, as said ("I Just got…" at a line's start is still "just").
_ADVERB: Final = r"(?i:" + "|".join(sorted(ADVERBS)) + rf"|(?!(?:{_LY_VERBS})\b)[a-z]{{2,}}ly)"
# The verb with its contraction: "don" alone became "dons" in "I really don't" ("dons't").
#: (a hyphenated verb is one word: "I color-code" → "color-codes")
_I_VERB: Final = re.compile(rf"\bI\s+((?:{_ADVERB}\s+)*)([A-Za-z]+(?:-[a-z]+)*(?:['’][a-z]+)?)(?![\w'’-])")


#: A verb coordinated with the speaker's: "I'm allergic to peanuts and carry an EpiPen". A word between
#: "and" and a determiner is taken for a verb ("peanuts and tree nuts" has none), but for "a lot"-like
#: measures ("rock and roll a lot").
_AND_VERB: Final = re.compile(
    rf"(\band\s+(?:{_ADVERB}\s+)*)([a-z]+)(?=\s+(?:an?|the|my|your|his|her|their|our|some|this|that|these|"
    r"those)\s)(?!\s+a\s+(?:lot|bit|little|while|ton)\b)"
)
#: Words "and" may stand before a determiner with that are no verb.
_NO_VERB: Final = frozenset(
    ["then", "now", "also", "still", "just", "not", "all", "both", "with", "for", "in", "on"]
)


_MODAL_BEFORE: Final = re.compile(r"\b(?:can|could|will|would|should|might|must|may|shall|'ll|'d)\b")
_TO: Final = re.compile(r"\bto\s+(\S+)")
_NOT_INFINITIVE: Final = frozenset(
    ["a", "an", "the", "my", "your", "his", "her", "their", "our", "this", "that", "{S}"]
)


def _coordinated(match: re.Match[str], text: str) -> str:
    """The verb after "and" agreeing with the speaker, when the speaker is its subject: not after a modal
    ("I can swim and ride a bike") or an infinitive ("I want to get fit and run a marathon"); "to" before
    a determiner, a plural or a name is no infinitive ("allergic to peanuts and carry an EpiPen"). A
    singular noun after "to" is taken for a verb, and the verb after "and" is then left as it was said."""
    word = match.group(2)
    before = text[: match.start()]
    after_to = [found.group(1) for found in _TO.finditer(before)]
    infinitive = bool(after_to) and not (
        after_to[-1].casefold() in _NOT_INFINITIVE
        or after_to[-1].endswith("s")
        or after_to[-1][:1].isupper()  # a name: "moved to Lisbon and love the city"
    )
    if word in _NO_VERB or word in ADVERBS or infinitive or _MODAL_BEFORE.search(before):
        return match.group(0)
    return match.group(1) + conjugate(word)


def sentences(text: str) -> list[str]:
    """``text`` split into sentences (and lines), trimmed, empty pieces dropped."""
    pieces: list[str] = []
    for piece in _SENTENCE_END.split(text):
        piece = piece.strip()
        if not piece:
            continue
        if pieces and _ABBREVIATION.search(pieces[-1]):
            pieces[-1] = f"{pieces[-1]} {piece}"
        else:
            pieces.append(piece)
    return pieces


#: Verbs in -ee: their past is the only -eed word that is a past ("agreed"); any other -eed word is
#: a present ("need", "feed", "succeed", "proceed").
#: An emphatic reflexive after an object or "I" ("made it myself", "I myself think"): dropped, it adds
#: nothing; "by myself" is "alone".
_EMPHATIC: Final = (
    (re.compile(r"\bby (?:myself|ourselves)\b", re.IGNORECASE), "alone"),
    # "time to myself" is time alone; "to Dana" would read as a gift.
    (
        re.compile(
            r"\b(time|moment|moments|minute|minutes|hour|hours|day|days|evening|evenings|night|nights|"
            r"space|while|weekend) to (?:myself|ourselves)\b",
            re.IGNORECASE,
        ),
        r"\1 alone",
    ),
    (re.compile(r"\b(I|we) (?:myself|ourselves)\b,?", re.IGNORECASE), r"\1"),
    (
        re.compile(
            r"\b((?:it|them|this|that|all|everything)|(?:the|a|an|my|our|this|that|these|those)\s+"
            r"(?:[\w-]+\s+)?(?!(?:of|for|to|with|about|in|on|at|from|after|than|like|be|and|or)\s)[\w-]+)"
            r"\s+(?:myself|ourselves)\b",
            re.IGNORECASE,
        ),
        r"\1",
    ),
)


#: The speaker's own words that bind a reflexive later in the clause.
_ANTECEDENT: Final = re.compile(r"\b(?:I|me|my|My|I'm|I've|I'd|I'll)\b")
#: "myself" standing in a list or a comparison for "me" ("Mel and myself", "people like myself").
_FOR_ME: Final = re.compile(
    r"\b(?:and|or|nor|like|than|as|but|except|including|besides)\s+myself\b", re.IGNORECASE
)


def _reflexives(text: str) -> str:
    """Emphatic reflexives dropped; a true reflexive, bound by the speaker in its clause, is
    "themself"; any other "myself" stays for :func:`third_person` to rewrite as the speaker's name.

    The speaker's gender is not known, so "herself"/"himself" could be wrong. The name cannot stand
    for a reflexive: English reads a name in the clause of the same person's name as someone else
    ("Dana taught Dana to knit" is two Danas), which is why a reflexive exists. Singular "themself"
    is bound by its clause and, unlike "themselves", cannot mean a group. Where "myself" only stands
    for "me" ("Mel and myself"), it has no antecedent and "themself" would point at no one: the name.
    """
    for pattern, replacement in _EMPHATIC:
        text = pattern.sub(replacement, text)
    antecedent = _ANTECEDENT.search(text)
    if antecedent is None:
        return text
    head, tail = text[: antecedent.end()], text[antecedent.end() :]
    kept = {match.end() for match in _FOR_ME.finditer(tail)}
    return head + re.sub(
        r"\bmyself\b", lambda found: found.group(0) if found.end() in kept else "themself", tail
    )


def third_person(clause: str, subject: str) -> str:
    """``clause`` with the speaker's first-person words replaced by ``subject`` (and agreeing verbs).

    Only the speaker's own pronouns change; "we" becomes "<subject> and others" so a shared activity
    keeps the speaker in it.
    """
    # "Dev and I did" → "Dana and Dev did": the speaker first, so the clause starts with its subject.
    text = re.sub(r"^(?-i:([A-Z][\w'-]+)) and I\b", r"{S} and \1", clause)
    text = re.sub(r"\bI wanna\b", "I want to", text)
    # Chat drops the auxiliary: "I gotta go" is "I have got to go", "I been busy" "I've been busy".
    text = re.sub(r"\bI gotta\b", "I have got to", text)
    text = re.sub(r"\bI been\b", "I've been", text)
    text = _reflexives(text)
    text = re.sub(r"\bI(?:'m| am)? gonna\b", "I'm going to", text)
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)

    def verb(match: re.Match[str]) -> str:
        # An adverb there is never a name: a capital on it is the line's ("I Just got" → "just got").
        adverbs, word = match.group(1).lower(), match.group(2)
        return f"{{S}} {adverbs}{conjugate(word)}"

    text = _I_VERB.sub(verb, text)
    if text.startswith("{S} ") and not text.startswith("{S} and "):
        text = _AND_VERB.sub(lambda match: _coordinated(match, text), text)
    # A pronoun inside a hyphenated word is part of a name, not the speaker ("me-time", "I-95").
    text = re.sub(r"(?<![\w-])I(?![\w-])", "{S}", text)
    text = re.sub(r"(?<![\w-])my(?![\w-])", "{S}'s", text, flags=re.IGNORECASE)
    text = re.sub(r"(?<![\w-])mine(?![\w-])", "{S}'s", text, flags=re.IGNORECASE)
    text = re.sub(r"(?<![\w-])myself(?![\w-])", "{S}", text, flags=re.IGNORECASE)
    text = re.sub(r"(?<![\w-])ourselves(?![\w-])", "themselves", text, flags=re.IGNORECASE)
    text = re.sub(r"(?<![\w-])me(?![\w-])", "{S}", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwe're\b|\bwe are\b", "{S} and others are", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwe've\b", "{S} and others have", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwe'll\b", "{S} and others will", text, flags=re.IGNORECASE)
    text = re.sub(r"\bwe'd\b", "{S} and others would", text, flags=re.IGNORECASE)
    text = re.sub(r"(?<![\w-])we(?![\w-])", "{S} and others", text, flags=re.IGNORECASE)
    text = re.sub(r"(?<![\w-])our(?![\w-])", "their", text, flags=re.IGNORECASE)
    # "us" is the speaker and others, as "we" is: "them" would point at nothing ("visited them").
    text = re.sub(r"\b(?:both|all) of us\b|(?<![\w-])us(?![\w-])", "{S} and others", text)
    if not subject.startswith("The "):
        return text.replace("{S}", subject)
    # "The user" is a common noun: its capital only opens the statement ("handed in the user's notice").
    text = text.replace("{S}", "t" + subject[1:])
    return subject + text[len(subject) :] if text.startswith("t" + subject[1:]) else text


def absolute_date(start: datetime, end: datetime) -> str:
    """A phrase naming the range ``[start, end)`` absolutely: "on 13 May 2024", "in May 2024" …"""
    days = (end - start) / timedelta(days=1)
    if days <= 1.01:
        return f"on {start.day} {start:%B %Y}"
    if days <= 2.01 and start.weekday() == 5:
        return f"on the weekend of {start.day} {start:%B %Y}"
    if days <= 7.01:
        return f"in the week of {start.day} {start:%B %Y}"
    if days <= 31.01 and start.day == 1:
        return f"in {start:%B %Y}"
    if days <= 366.01 and start.month == 1 and start.day == 1:
        return f"in {start.year}"
    return f"between {start.day} {start:%B %Y} and {end.day} {end:%B %Y}"


def resolve_dates(text: str, now: datetime) -> tuple[str, datetime | None, datetime | None]:
    """``text`` with the absolute date of its first time phrase after it when the phrase is relative,
    and that phrase's range (``None, None`` when there is none): "yesterday" said on 14 May 2024 →
    "yesterday (13 May 2024)"; "in 2021" stays as it is."""
    found = find_time_phrase(text, now)
    if found is None:
        return text, None, None
    span = found.time_range
    if span.start is None or span.end is None or not found.relative:
        # An absolute phrase ("in 2021", "on 3 June 2021") already says its date: "in 2021 (2021)".
        return text, span.start, span.end
    # The phrase stays as said and the absolute date follows it: "yesterday (13 May 2024)".
    return with_date(text, found.end, span.start, span.end), span.start, span.end


def with_date(text: str, at: int, start: datetime, end: datetime) -> str:
    """``text`` with the absolute date of ``[start, end)`` in parentheses after position ``at``: "last
    week (week of 6 May 2024)", since a week given by its first day alone reads as that day."""
    phrase = re.sub(r"^(?:on|in) (?:the )?", "", absolute_date(start, end))
    return f"{text[:at]} ({phrase}){text[at:]}"


#: What may follow "it's" without being the thing a cleft singles out ("It's a shame I missed it",
#: "It's so good I went", "It's been ages since I…"): an evaluation or a time, not a focus.
_NOT_FOCUS: Final = frozenset(
    [
        "a", "an", "so", "too", "such", "good", "great", "nice", "funny", "weird", "strange", "sad", "bad",
        "true", "no", "not", "about", "been", "time", "lucky", "likely", "possible", "amazing", "crazy",
        "wild", "cool", "awesome", "fine", "ok", "okay", "important", "hard", "easy", "fun", "sweet", "cute",
        "clear", "obvious", "just", "only", "really", "all", "what", "how", "why", "when", "where"
    ]
)  # fmt: skip
_PREPOSITIONS: Final = frozenset(
    [
        "to", "of", "about", "for", "with", "on", "at", "in", "from", "by", "into", "after", "like"
    ]
)  # fmt: skip
_CLEFT: Final = re.compile(
    r"^(?:it(?:'s|’s| is| was))\s+(?P<x>[\w'’-]+(?:\s+[\w'’-]+){0,2}?)\s+(?:that\s+|who\s+)?I\s+"
    r"(?P<v>[^,.;!?]+?)(?:,?\s+not\s+(?P<y>[^,.;!?]+))?(?=[,.;!?]|$)",
    re.IGNORECASE,
)


#: "It's my birthday on the 3rd of October", "it's our anniversary next Friday": the occasion and its day.
_DATE_CLEFT: Final = re.compile(
    r"^it(?:'s|’s| is| will be|'ll be)\s+(?P<thing>(?:my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+"
    r"(?=(?:on\s+)?(?:the\s+\d|\d|(?:this|next|coming)\s+(?:week|weekend|month)|(?:this\s+|next\s+|coming\s+)?"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d))",
    re.IGNORECASE,
)


def uncleft(sentence: str) -> str:
    """An it-cleft said plainly: "it's chemistry I teach" → "I teach chemistry", and "it's amoxicillin I
    react to, not penicillin" → "I react to amoxicillin instead of penicillin", the contrast kept in the
    clause (a comma would end it). Evaluations ("it's a shame I missed it") are no clefts."""
    if (dated := _DATE_CLEFT.match(sentence)) is not None:  # "it's my birthday on the 3rd": my birthday is
        return f"{dated['thing']} is {sentence[dated.end() :]}"
    match = _CLEFT.match(sentence)
    if match is None or match.group("x").split()[0].casefold() in _NOT_FOCUS:
        return sentence
    contrast = f" instead of {match.group('y').strip()}" if match.group("y") else ""
    verb, _, rest = match.group("v").strip().partition(" ")
    # The focus is the object: after a final preposition ("react to"), else right after the verb ("met
    # Tom at the fair").
    if not rest or rest.split()[-1].casefold() in _PREPOSITIONS:
        said = f"I {match.group('v').strip()} {match.group('x')}"
    else:
        said = f"I {verb} {match.group('x')} {rest}"
    return f"{said}{contrast}{sentence[match.end() :]}"


#: "When I was younger, we had money problems": the time clause first, then the speaker's own.
_SUBORDINATE_FIRST: Final = re.compile(
    r"^(?P<when>(?:back )?when|as a kid|as a child|growing up|since|after|before)\b(?P<time>[^,]{0,60}),\s+"
    r"(?P<main>(?:I|I'm|I've|I'd|we|we've|we're|my|our)\b.*?)(?P<end>[.!]*)$",
    re.IGNORECASE,
)


def _main_first(found: re.Match[str]) -> str:
    """ "we had money problems when I was younger": the clause the speaker says, with its time after."""
    main = found["main"]
    return f"{main[:1].upper()}{main[1:]} {found['when'].casefold()}{found['time']}{found['end']}"


def subordinate_last(sentence: str) -> str:
    """ "When I was younger, we had money problems" → "We had money problems when I was younger": the
    speaker's own clause first, so it reads as a statement (and not as a question opened by "When")."""
    return _SUBORDINATE_FIRST.sub(_main_first, sentence)
