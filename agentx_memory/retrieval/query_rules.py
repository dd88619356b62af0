"""Offline query understanding by rules: self-query filters, question → statement rewriting, entity queries.

The no-LLM counterpart of self-query and query expansion. Everything here is a pure function of its
arguments (no I/O, no clock, no model), English-only and deliberately conservative: a rule fires only on
clear wording, because a wrong filter hides memories while a missing one merely ranks them lower.
Time phrases are parsed in :mod:`.time_phrases`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Final

from ..kinds import KINDS, MemoryKind
from ..models.retrieval import QueryFilters, TimeRange
from .calendar_spans import next_occurrence
from .decompose import decompose
from .time_phrases import find_time_phrase, names_its_date

__all__ = ["is_entity_query", "parse_filters", "rewrite_as_statement"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _pairs(text: str) -> dict[str, str]:
    return {key: value for key, _, value in (pair.partition(":") for pair in text.split())}


#: Never part of a name, wherever they stand (checked case-insensitively).
_FUNCTION_WORDS: Final = _words(
    "what when where who whom whose why how which whether if did does do is are was were am be been being "
    "has have had can could will would should shall may might must i i'm i've i'd i'll me my mine myself "
    "we us our you your yours he him his she her hers it its they them their this that these those there "
    "here the a an and or but nor so of in on at to for with from by about into onto not no yes please "
    "tell show give list remind find any all some ok okay hi hello hey thanks thank"
)
#: Common words that start sentences: not names when sentence-initial, even though capitalised there.
_STARTERS: Final = _words(
    "also after before then now today tonight yesterday tomorrow recently lately since during describe "
    "explain summarize summarise recall remember let lets just maybe really well actually last next "
    "first every each many much most other another both either neither one search look get check know "
    "name compare count tell say said write find make help give try see go went why where please could "
    "would only even still again earlier later what's everything nothing something anything someone "
    "anyone everyone nobody sure great good nice cool right wait hmm oh so"
)
_MONTH_AND_DAY_NAMES: Final = _words(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday"
)
#: Shouted query-language keywords ("MATCH (n) DETACH DELETE n") are not acronyms.
_QUERY_KEYWORDS: Final = _words(
    "match merge create delete detach remove set return where with unwind call yield optional limit skip "
    "order by asc desc distinct as and or xor not null true false in is on case when then else end load "
    "csv foreach index constraint exists contains starts ends select from insert into update values drop "
    "table alter truncate grant revoke union all join having group like exec execute database schema "
    "or count between"
)
#: Lower-case words allowed inside a name ("Bank of America", "Ludwig van Beethoven").
_CONNECTORS: Final = _words("of the de van von der den la le du da del di dos das")
#: Abbreviated titles whose full stop does not end the name ("Dr. Smith").
_TITLES: Final = _words("mr mrs ms dr st prof mt")
_PRONOUNS: Final = _words(
    "i you he she we they it there someone anyone everyone me him her us them yourself myself this that"
)
_DETERMINERS: Final = _words(
    "the a an my your his her our their its this that these those some any every each no"
)
_PREPOSITIONS: Final = _words(
    "to in on at for with from by about of into onto over under after before during since than like as "
    "around near without"
)
_ADVERBS: Final = _words(
    "ever never really actually already still just also recently once finally usually often always "
    "ago yesterday today tomorrow now then there here last first again together"
)

_TOKEN: Final = re.compile(r"[^\W\d_](?:[\w&-]|['’](?=\w))*")
_POSSESSIVE: Final = re.compile(r"['’]s$", re.IGNORECASE)
_SENTENCE_BREAK: Final = re.compile(r"[.!?:;\"“”()\[\]{}\n]")
_INLINE_SPACE: Final = re.compile(r"[ \t]+")
_SPACE_BEFORE_PUNCT: Final = re.compile(r"\s+([?.!,;:])")
_CHANNEL_LEAD: Final = r"(?<![\w-])(?:(?:in|on|for)\s+(?:the\s+)?|channel\s+|project\s+)"
_CHANNEL_TAIL: Final = r"(?:\s+(?:channel|project))?(?![\w-])"

_KIND_PATTERNS: Final[tuple[tuple[MemoryKind, re.Pattern[str]], ...]] = (
    (
        "episodic",
        re.compile(
            r"\b(?:conversations?|say|said|told|talk(?:ed)?|mentioned|discuss(?:ed)?|chat(?:s|ted)?)\b", re.I
        ),
    ),
    ("fact", re.compile(r"\b(?:facts?|know\s+about)\b", re.I)),
    ("strategy", re.compile(r"\b(?:strateg(?:y|ies)|approach(?:es)?|how\s+(?:did|do)\s+I)\b", re.I)),
    ("goal", re.compile(r"\b(?:goals?|objectives?|plans?)\b", re.I)),
)
_KIND_ORDER: Final[tuple[MemoryKind, ...]] = tuple(spec.name for spec in KINDS)

_POLITE_LEAD: Final = re.compile(r"^(?:(?:please|so|ok(?:ay)?|hey|hi)\b[\s,]*)+", re.I)
_POLITE_TAIL: Final = re.compile(r"(?:[\s,]*\bplease\b)?[\s?.!]*$", re.I)
_EMBEDDING_LEAD: Final = re.compile(
    r"^(?:(?:(?:can|could|would)\s+you\s+(?:please\s+)?)?(?:tell|remind|show)\s+me|do\s+you\s+know"
    r"|i\s+(?:want\s+to\s+know|wonder))\s+(?=(?:what|when|where|who|why|how|which|if|whether)\b)",
    re.I,
)
_EMBEDDED_WH: Final = re.compile(
    r"^(?:how\s+(?:many|much)\s+(?P<obj>[\w'’-]+)|how\s+long|how\s+often|what|when|where|who|whom|why|how"
    r"|which|if|whether)\s+(?P<rest>.+)$",
    re.I,
)
_AUX: Final = (
    r"(?P<aux>(?:did|does|do|is|are|was|were|has|have|had|can|could|will|would|should|shall|may|might|must)"
    r"(?:n['’]t)?|can['’]t|won['’]t)"
)
_QUESTION: Final = re.compile(
    r"^(?:(?P<obj_wh>how\s+many|how\s+much|which|what)\s+(?P<obj>(?:[\w'’-]+\s+){0,4}?))?"
    r"(?:(?:how\s+long|how\s+often|how\s+come|what|when|where|who|whom|whose|why|how|which)\s+)?"
    + _AUX
    + r"\s+(?P<rest>.+)$",
    re.I,
)
_NEGATED: Final = {"can't": "can", "won't": "will"}

_ABOUT: Final = re.compile(
    r"^(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?tell\s+me\s+(?:(?:more|everything|all|something)\s+)?"
    r"about\s+(?P<x>.+)$|^what\s+(?:do|does|did)\s+(?:you|we|i)\s+(?:know|remember)\s+about\s+(?P<y>.+)$",
    re.I,
)
_WHO_WHAT: Final = re.compile(r"^(?:who|what)(?:\s+(?:is|are|was|were)|['’]s)\s+(?P<x>.+)$", re.I)
_POSSESSIVE_PHRASE: Final = re.compile(r"['’]s\s+\w")
_MAX_ENTITY_WORDS: Final = 6
#: Brackets, braces and operators never occur in a name; they do in injected query text.
_NOT_IN_NAMES: Final = re.compile(r"[(){}\[\]<>=;|`$\\]")

_IRREGULAR_PAST: Final = _pairs(
    "go:went have:had make:made buy:bought get:got see:saw take:took give:gave find:found meet:met "
    "do:did come:came run:ran read:read write:wrote tell:told say:said think:thought feel:felt "
    "leave:left lose:lost win:won begin:began bring:brought teach:taught catch:caught build:built "
    "send:sent spend:spent eat:ate drink:drank swim:swam sing:sang be:was become:became break:broke "
    "choose:chose drive:drove fall:fell fly:flew forget:forgot grow:grew hear:heard hold:held "
    "keep:kept know:knew lead:led lend:lent mean:meant pay:paid ride:rode rise:rose sell:sold "
    "shoot:shot sit:sat sleep:slept speak:spoke stand:stood steal:stole understand:understood "
    "wake:woke wear:wore draw:drew feed:fed fight:fought forgive:forgave freeze:froze hide:hid "
    "ring:rang shake:shook throw:threw put:put cut:cut let:let hit:hit set:set quit:quit hurt:hurt "
    "cost:cost shut:shut bet:bet spread:spread split:split upset:upset light:lit sink:sank lay:laid "
    "prefer:preferred refer:referred admit:admitted commit:committed forbid:forbade "
    "submit:submitted occur:occurred regret:regretted"
)
_IRREGULAR_THIRD: Final = {"have": "has", "be": "is", "do": "does", "go": "goes"}
#: Verbs recognised where a subject ends ("Did the intern *finish* …") besides the irregular ones.
_COMMON_VERBS: Final = _words(
    "like love want need work live play paint visit start finish move call ask use try help plan stop "
    "watch join enjoy adopt attend travel study cook bake decide change hate open close learn listen look "
    "talk walk wait happen mention discuss chat fix book order pick return"
)
_PARTICIPLES: Final = _words(
    "been done gone seen taken given written eaten known shown chosen spoken broken driven forgotten hidden"
)
_VERBS: Final = (
    _COMMON_VERBS | _PARTICIPLES | frozenset(_IRREGULAR_PAST) | frozenset(_IRREGULAR_PAST.values())
)
_VERBS_OR_ADVERBS: Final = _VERBS | _ADVERBS
#: Words that cannot be the verb after "did/does/do <subject>" ("like" and "as" can, so not all prepositions).
_NOT_VERBS: Final = _DETERMINERS | _PRONOUNS | _words("to of at in on for with from by into about")
_CVC: Final = re.compile(r"[^aeiou]*[aeiou][^aeiouwxy]")
_SIBILANT_END: Final = re.compile(r"(?:s|sh|ch|x|z|o)$")


# --- entities -------------------------------------------------------------------------------------


def _is_name_word(word: str, sentence_initial: bool) -> bool:
    if not word[0].isupper():
        return False
    lower = word.lower()
    if lower in _FUNCTION_WORDS or lower in _MONTH_AND_DAY_NAMES:
        return False
    if word.isupper() and len(word) > 1 and lower in _QUERY_KEYWORDS:
        return False
    return not (sentence_initial and lower in _STARTERS)


def _continues_run(gap: str, previous: str) -> bool:
    if _INLINE_SPACE.fullmatch(gap):
        return True
    return (
        gap.startswith(".") and previous.lower() in _TITLES and _INLINE_SPACE.fullmatch(gap[1:]) is not None
    )


def _entities(text: str, excluded: Sequence[tuple[int, int]]) -> list[str]:
    names: list[str] = []
    run: list[str] = []
    connectors: list[str] = []
    previous_end, previous_word = 0, ""
    for token in _TOKEN.finditer(text):
        gap = text[previous_end : token.start()]
        sentence_initial = previous_end == 0 or _SENTENCE_BREAK.search(gap) is not None
        if run and not _continues_run(gap, previous_word):
            names.append(" ".join(run))
            run, connectors = [], []
        elif run and gap.startswith("."):
            run[-1] += "."  # A title's full stop ("Dr.") stays part of the name.
        previous_end, previous_word = token.end(), token.group(0)
        inside_time = any(start < token.end() and token.start() < end for start, end in excluded)
        word = _POSSESSIVE.sub("", token.group(0))
        if not inside_time and _is_name_word(word, sentence_initial):
            run.extend(connectors)
            run.append(word)
            connectors = []
            if word != token.group(0):  # A possessive ends the name: "Acme's CEO" is two things.
                names.append(" ".join(run))
                run = []
        elif run and not inside_time and word in _CONNECTORS:
            connectors.append(word)
        elif run:
            names.append(" ".join(run))
            run, connectors = [], []
    if run:
        names.append(" ".join(run))
    return _dedupe(names)


def _dedupe(items: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    unique: list[str] = []
    for item in items:
        if item.casefold() not in seen:
            seen.add(item.casefold())
            unique.append(item)
    return unique


# --- channels, kinds, text ------------------------------------------------------------------------


def _channels(query: str, channels: Sequence[str]) -> tuple[list[str], list[tuple[int, int]]]:
    found: list[tuple[int, str]] = []
    spans: list[tuple[int, int]] = []
    for channel in _dedupe([channel for channel in channels if channel.strip()]):
        # Compiled per call: the allowed names are data, not known when the module loads.
        pattern = re.compile(_CHANNEL_LEAD + re.escape(channel) + _CHANNEL_TAIL, re.IGNORECASE)
        matches = list(pattern.finditer(query))
        if matches:
            found.append((matches[0].start(), channel))
            spans.extend(match.span() for match in matches)
    return [channel for _start, channel in sorted(found)], spans


def _kinds(query: str) -> list[MemoryKind]:
    kinds = {kind for kind, pattern in _KIND_PATTERNS if pattern.search(query)}
    target = _entity_target(query)
    if target is not None and target[0] == "who-what":
        kinds.add("entity")
    return [kind for kind in _KIND_ORDER if kind in kinds]


def _remove_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    if not spans:
        return " ".join(text.split()) or text
    pieces: list[str] = []
    cursor = 0
    for start, end in sorted(spans):
        pieces.append(text[cursor:start] if start > cursor else "")
        cursor = max(cursor, end)
    pieces.append(text[cursor:])
    # Joined with spaces so the words either side of a removed phrase never fuse.
    cleaned = _SPACE_BEFORE_PUNCT.sub(r"\1", " ".join(" ".join(pieces).split())).strip(" ,;:")
    return cleaned if any(char.isalnum() for char in cleaned) else text


#: A question about what lies ahead: "What will I do…", "Any plans for…", "What is happening on…".
_LOOKS_AHEAD: Final = re.compile(
    r"\b(?:will|shall|going to|gonna|plans?|planned|planning|upcoming|coming up|scheduled|due|"
    r"happening|(?:am|are|is) (?:\w+ )?(?:doing|going))\b|['’](?:s|re|m) (?:\w+ )?(?:doing|going)\b|['’]ll\b",
    re.IGNORECASE,
)
_LOOKS_BACK: Final = re.compile(r"\b(?:was|were|did|had|happened|went)\b", re.IGNORECASE)


def _as_asked(time_range: TimeRange, query: str, now: datetime) -> TimeRange:
    """A day or month named without its year is the last one, unless the question looks ahead: "Any
    plans for January 18th?" asked in November means the coming one."""
    start, end = time_range.start, time_range.end
    if start is None or end is None or not names_its_date(time_range.phrase):
        return time_range
    if not _LOOKS_AHEAD.search(query) or _LOOKS_BACK.search(query):
        return time_range
    start, end = next_occurrence(start, end, time_range.phrase, now)
    return time_range.model_copy(update={"start": start, "end": end})


def parse_filters(query: str, now: datetime, *, channels: Sequence[str] = ()) -> QueryFilters:
    """Self-query by rules: the time range, channels, memory kinds and names a query states explicitly.

    ``now`` is the timezone-aware moment relative phrases count from ("yesterday"). Only names listed in
    ``channels`` can be recognised as channels. ``text`` is the query without the time and channel phrases
    (never empty), which is what gets embedded and full-text searched. Raises ``ValueError`` for a naive
    ``now``.
    """
    time_match = find_time_phrase(query, now)
    time_spans = [(time_match.start, time_match.end)] if time_match is not None else []
    # A phrase that names its date ("on January 18th", "in May 2023") stays in the searched text: the
    # turns that tell of that day say it too ("Maya's birthday is on January 18th"), and the range
    # alone, read as the last such day, misses a day ahead. "Yesterday" or "last week" is said by no
    # evidence: those words go.
    unsaid = [span for span in time_spans if not names_its_date(query[span[0] : span[1]])]
    found_channels, channel_spans = _channels(query, channels)
    return QueryFilters(
        text=_remove_spans(query, unsaid + channel_spans),
        time_range=_as_asked(time_match.time_range, query, now) if time_match is not None else None,
        channels=found_channels,
        kinds=_kinds(query),
        entities=_entities(query, time_spans),
        parts=decompose(query),
        source="rules",
    )


# --- question → statement -------------------------------------------------------------------------


def _past(verb: str) -> str:
    lower = verb.lower()
    if lower in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[lower]
    if lower.endswith("e"):
        return lower + "d"
    if len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        return lower[:-1] + "ied"
    if _CVC.fullmatch(lower):  # One short syllable: stop → stopped, plan → planned.
        return lower + lower[-1] + "ed"
    return lower + "ed"


def _third_person(verb: str) -> str:
    lower = verb.lower()
    if lower in _IRREGULAR_THIRD:
        return _IRREGULAR_THIRD[lower]
    if len(lower) > 1 and lower.endswith("y") and lower[-2] not in "aeiou":
        return lower[:-1] + "ies"
    return lower + ("es" if _SIBILANT_END.search(lower) else "s")


def _ends_noun_phrase(word: str) -> bool:
    lower = word.lower()
    if lower in _PREPOSITIONS or lower in _DETERMINERS or lower in _PRONOUNS or lower in _ADVERBS:
        return True
    return lower in _VERBS or (len(lower) >= 4 and lower.endswith(("ing", "ed")))


def _split_subject(words: list[str], verb_follows: bool, wh: bool) -> tuple[list[str], list[str]] | None:
    """Where the subject of an inverted question ends: ``(subject, the words after it)``."""
    if not words:
        return None
    first = words[0].lower()
    if first in _PRONOUNS:
        return words[:1], words[1:]
    size = 1
    if first not in _DETERMINERS:
        if not words[0][0].isupper():
            return None
        while size < len(words) and not _POSSESSIVE.search(words[size - 1]) and words[size][0].isupper():
            size += 1
        if not _POSSESSIVE.search(words[size - 1]):
            shouted_verb = size == len(words) > 1 and words[-1].isupper() and words[-1].lower() in _VERBS
            # "DID MELANIE PAINT": in capitals the name run swallows the verb; give a known one back.
            return (words[:-1], words[-1:]) if verb_follows and shouted_verb else (words[:size], words[size:])
    head = size
    while size < len(words) and size - head < 3:
        lower = words[size].lower()
        # A determiner is always followed by its noun, even one that looks like a participle ("the meeting").
        is_head_noun = size == head and lower not in _FUNCTION_WORDS and lower not in _PRONOUNS
        if not is_head_noun and _ends_noun_phrase(words[size]):
            break
        size += 1
    if size == head:
        return None  # A determiner with no noun after it ("Did the the?").
    swallowed_verb = verb_follows and (
        size == len(words)
        or (_ends_noun_phrase(words[size]) and words[size].lower() not in _VERBS_OR_ADVERBS)
    )
    if size - head >= 2 and (swallowed_verb or (not verb_follows and not wh and size == len(words))):
        size -= 1  # The greedy noun took the verb ("Did the intern finish") or the complement.
    return words[:size], words[size:]


def _statement(aux: str, subject: list[str], after: list[str]) -> list[str] | None:
    lower = aux.lower().replace("’", "'")
    negated = lower.endswith("n't")
    base = _NEGATED.get(lower, lower.removesuffix("n't"))
    if base not in ("did", "does", "do") or negated:
        return [*subject, base, *(["not"] if negated else []), *after]
    index = 0
    while index < len(after) and after[index].lower() in _ADVERBS:
        index += 1  # "Did Caroline ever go" inflects "go", not "ever".
    if index == len(after) or not after[index].isalpha() or after[index].lower() in _NOT_VERBS:
        return None
    verb = after[index]
    inflected = _past(verb) if base == "did" else _third_person(verb) if base == "does" else verb
    return [*subject, *after[:index], inflected, *after[index + 1 :]]


def _from_embedded(clause: str) -> str | None:
    if _QUESTION.match(clause) is not None:
        # Spoken questions keep the inversion ("tell me what is Caroline's job"): rewrite them as questions.
        rewritten = rewrite_as_statement(clause)
        if rewritten is not None:
            return rewritten
    match = _EMBEDDED_WH.match(clause)
    if match is None:
        return None
    words = [*match.group("rest").split(), *([match.group("obj")] if match.group("obj") else [])]
    return " ".join(words) if len(words) >= 2 else None


def rewrite_as_statement(query: str) -> str | None:
    """The declarative sentence that would answer ``query``, so it embeds close to stored statements.

    "When did Caroline go to the LGBTQ support group?" → "Caroline went to the LGBTQ support group";
    "How many kids does Melanie have?" → "Melanie has kids". ``None`` when ``query`` is not a recognisable
    question (a statement already, or beyond these rules).
    """
    text = _POLITE_TAIL.sub("", _POLITE_LEAD.sub("", query.strip())).strip()
    embedded = _EMBEDDING_LEAD.match(text)
    if embedded is not None:
        return _from_embedded(text[embedded.end() :])
    match = _QUESTION.match(text)
    if match is None:
        return None
    wh = match.group("obj_wh") is not None or match.start("aux") > 0
    verb_follows = match.group("aux").lower().startswith(("did", "do"))  # do-support, negated or not
    split = _split_subject(match.group("rest").split(), verb_follows, wh)
    if split is None:
        return None
    words = _statement(match.group("aux"), *split)
    if words is None:
        return None
    obj = (match.group("obj") or "").split()
    return " ".join([*words, *obj])


# --- entity-centric queries -----------------------------------------------------------------------


def _clean_target(raw: str) -> str | None:
    target = raw.strip(" \t\n\"'“”‘’.,!?;:")
    if target.lower().startswith("the "):
        target = target[4:].lstrip()
    words = target.split()
    if not words or len(words) > _MAX_ENTITY_WORDS or _NOT_IN_NAMES.search(target):
        return None
    first = words[0].lower()
    if first in _FUNCTION_WORDS or first in _PRONOUNS or first in ("yourself", "myself"):
        return None
    return target


def _entity_target(query: str) -> tuple[str, str] | None:
    text = _POLITE_LEAD.sub("", query.strip())
    about = _ABOUT.match(text.rstrip(" ?.!"))
    if about is not None:
        target = _clean_target(about.group("x") or about.group("y"))
        return ("about", target) if target is not None else None
    who = _WHO_WHAT.match(text.rstrip(" ?.!"))
    if who is not None:
        target = _clean_target(who.group("x"))
        if target is None or not target[0].isupper() or _POSSESSIVE_PHRASE.search(target):
            return None
        return "who-what", target
    if not text.endswith("?"):
        return None
    target = _clean_target(text)
    if target is None:
        return None
    words = target.split()
    is_name = all(word[0].isupper() or word in _CONNECTORS for word in words) and words[-1][0].isupper()
    if not is_name or words[0].lower() in _STARTERS or words[0].lower() in _MONTH_AND_DAY_NAMES:
        return None
    return "bare", target


def is_entity_query(query: str) -> str | None:
    """The name an entity-centric query is about, or ``None``.

    Recognises "tell me about X", "what do you know about X", "who is X" / "what is X" (X capitalised) and a
    capitalised "X?" on its own; X has at most six words and loses a leading "the" and trailing punctuation.
    """
    target = _entity_target(query)
    return target[1] if target is not None else None
