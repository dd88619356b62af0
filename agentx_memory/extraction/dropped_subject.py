"""The "I" that chat leaves out, put back before a turn is read.

Chat drops the subject of a first-person sentence that opens with its verb: "Qualified as a solicitor
last week", "Handed in my notice", "Flying out to Lagos tomorrow", "Ditched the Prius for an e-bike".
The small English model parses many of these wrongly (a sentence-initial "Qualified" is tagged an
adjective, "Got" a base form), so the frames never see a clause with a subject. Rather than teach every
reader about the missing subject, the sentence gets its subject back ("I qualified …", "I'm flying …")
and the turn is parsed again: one rule for every verb, including verbs no frame was written for.

Left alone: imperatives and requests (a base-form verb: "Check out my new ride", "Tell me about …"),
sentences that have a subject, and openers that are no verb of the speaker's ("Excited for Friday!" is a
mood, read by its own reader; "Based on that …").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from .clause_atoms import TurnText
from .clauses import gerund_subject
from .lexicon import DIETS, ENDING_VERBS, FRAMES
from .parse_paths import others_doing

__all__ = ["repair_gerunds", "restore_dropped_subjects", "with_subjects_restored", "with_surface_subject"]

_SUBJECTS: Final = frozenset(["nsubj", "nsubjpass", "csubj", "csubjpass", "expl"])
#: Words a sentence may open with before its verb ("Finally qualified …", "Just got back from …").
_BEFORE_VERB: Final = frozenset(["ADV", "INTJ", "CCONJ", "PUNCT", "SPACE", "PART"])
#: Irregular pasts the tagger takes for base forms or nouns at the start of a sentence.
_PASTS: Final = frozenset(
    ["got", "went", "took", "left", "sold", "bought", "quit", "moved", "found", "made", "became", "began",
     "gave", "split", "broke", "lost", "met", "started", "joined", "landed", "switched", "swapped",
     "traded", "picked", "finished", "booked", "packed", "dropped", "ditched", "signed", "adopted"]
)  # fmt: skip
#: Participles that open a statement of state, not of an act: "Married to Tom", "Based in Leeds",
#: "Engaged!", "Retired since May" read "I'm married …", not "I married …".
_STATES: Final = frozenset(
    ["based", "married", "engaged", "retired", "divorced", "separated", "widowed", "located", "stationed",
     "employed", "unemployed", "settled", "registered", "enrolled"]
)  # fmt: skip
#: Openers that look like a verb and are not the speaker's act ("Based on what you said", "Given that").
_NOT_ACTS: Final = frozenset(
    ["given", "based", "compared", "considering", "regarding", "speaking", "talking"]
)
#: Verbs whose dropped subject is usually "it" or "that": "Sounds great", "Seemed fine", "Went well",
#: "Worked like a charm", "Took ages", "Made me laugh".
_IT_VERBS: Final = frozenset(
    ["seem", "sound", "look", "appear", "happen", "mean", "cost", "work", "help", "turn", "sound", "end",
     "last", "depend", "matter", "count", "suck", "rock", "rule", "hurt", "smell", "taste", "feel"]
)  # fmt: skip
#: What "it took": "Took ages", "Took some trial and error", "Took a while".
_WHAT_IT_TOOK: Final = frozenset(
    ["age", "ages", "while", "forever", "time", "effort", "trial", "patience", "hour", "day", "week", "month",
     "year", "minute", "work", "doing", "lot", "bit", "courage", "guts", "practice", "attempt", "try"]
)  # fmt: skip
#: Where an opening "-ing" or "-ed" word modifies or is a noun: "Driving test booked", "Fried eggs".
_NOUN_WORDS: Final = frozenset(["amod", "compound", "nmod", "nsubj", "nsubjpass", "dobj", "pobj", "poss"])
#: Nouns that an "-ing" word before them makes a compound of: "driving test", "swimming lessons".
_ING_COMPOUNDS: Final = frozenset(
    ["test", "lesson", "class", "course", "session", "licence", "license", "exam", "shoe", "pool", "club",
     "group", "ticket", "list", "trip", "holiday", "appointment", "practice", "competition", "gear", "kit",
     "instructor", "teacher", "coach", "partner", "buddy", "habit", "schedule", "plan", "bag", "boot"]
)  # fmt: skip
#: Feelings an opening participle tells, left to the mood reader as said: "Excited for Friday!".
_MOODS: Final = frozenset(
    ["excited", "tired", "stressed", "worried", "scared", "bored", "exhausted", "thrilled", "gutted",
     "chuffed", "delighted", "relieved", "pleased", "amazed", "shocked", "surprised", "annoyed", "confused",
     "overwhelmed", "stuck", "obsessed", "hooked", "blessed", "stoked", "pumped", "psyched", "devastated",
     "disappointed", "frustrated", "interested", "impressed", "inspired", "motivated", "buzzed", "knackered"]
)  # fmt: skip
#: "now a data analyst", "officially a homeowner": what the speaker is, said without "I'm".
_NOW_A: Final = re.compile(r"^(?:now|currently|officially|finally)\s+(?:a|an)\s+\w", re.IGNORECASE)
_NOW_A_AFTER: Final = re.compile(
    r"[,;]\s+(?:so\s+)?((?:now|officially|finally)\s+(?:a|an)\s+\w|(?:(?:now|officially|finally|fully|"
    r"completely|properly)\s+)*(?:" + "|".join(sorted(map(re.escape, DIETS), key=len, reverse=True)) + r")"
    r"\s+(?:now|again|these\s+days)\b)",
    re.IGNORECASE,
)  # "…, so fully vegan now", "…, veggie again"
_HOW_IT_WENT: Final = frozenset(["well", "badly", "great", "fine", "ok", "okay", "smoothly", "wrong", "off"])


def with_subjects_restored(
    turns: Sequence[TurnText], parsed: Sequence[Any], parse: Callable[[Sequence[str]], list[Any]]
) -> tuple[list[TurnText], list[Any]]:
    """The turns whose sentences dropped their "I" with it put back and parsed again (in one batch of
    ``parse``); the others as they were."""
    turns, parsed = list(turns), list(parsed)
    for doc in parsed:
        repair_gerunds(doc)
    restored = {
        i: text for i, doc in enumerate(parsed) if (text := restore_dropped_subjects(doc)) is not None
    }
    if not restored:
        return turns, parsed
    for (i, text), doc in zip(restored.items(), parse(list(restored.values())), strict=True):
        turn = turns[i]
        turns[i] = TurnText(turn.id, turn.role, text, turn.timestamp, turn.speaker)
        parsed[i] = repair_gerunds(doc)
    return turns, parsed


def restore_dropped_subjects(doc: Any) -> str | None:
    """The text of ``doc`` with "I" (or "I'm") before each sentence that opens with the speaker's verb
    and has no subject, or None when no sentence needs one."""
    inserts: list[tuple[int, str]] = []
    for sentence in doc.sents:
        if _NOW_A.match(sentence.text):  # "now a data analyst btw": the parser finds no verb to restore
            inserts.append((doc[sentence.start].idx, "I'm"))
            continue
        opener, at = _opening_verb(sentence), -1
        if opener is not None:
            before = doc[sentence.start : opener.i]
            # "Just got back from …": "I just got back"; "Wow, loved it": "Wow, I loved it"
            at = sentence.start if all(t.pos_ == "ADV" for t in before) else opener.i
            inserts.append((doc[at].idx, _pronoun(opener)))
        inserts += [(doc[i].idx, "I") for i in _spliced(sentence, at >= 0) if i != at]
        # "Passed my bar exam, officially a solicitor now": what the speaker is, after the comma
        inserts += [(sentence.start_char + m.start(1), "I'm") for m in _NOW_A_AFTER.finditer(sentence.text)]
    if not inserts:
        return None
    text: str = doc.text
    for offset, pronoun in reversed(inserts):
        word = text[offset:]
        # "Qualified" → "I qualified": a capital that only began the sentence goes with it
        if word[:1].isupper() and not word[1:2].isupper() and not word.startswith("I "):
            word = word[:1].lower() + word[1:]
        text = f"{text[:offset]}{pronoun} {word}"
    return text


def _spliced(sentence: Any, opened: bool) -> list[int]:
    """Where a past verb opens a clause after a comma with its subject left out, in a sentence whose
    clause before it is the speaker's (``opened``: its "I" is being put back) or has no verb: "I'm
    car-free now, sold the Golf in May", "Big week, broke up with Tom", "Moved to Leeds in May, got a job
    at Arup". Not a participle on a noun ("my flat, painted blue"), nor a clause that has its subject,
    nor a thing's doing ("…, went well"), nor one after a verb whose subject is not known ("Been fully
    vegan since March, cut out dairy too": read as it is)."""
    places: list[int] = []
    for comma in (t for t in sentence if t.text == ","):
        words = [t for t in sentence.doc[comma.i + 1 : sentence.end] if t.pos_ not in _BEFORE_VERB]
        verb = words[0] if words else None
        if verb is None or verb.tag_ != "VBD" or verb.dep_ in {"acl", "amod", "relcl"}:
            continue
        if verb.lemma_.casefold() not in _VERBS - {"be", "do"}:
            continue  # a verb of a change the readers know ("sold", "got", "moved"); not "…, was afk"
        # the parse may make the clause before the comma the verb's subject ("Moved to Leeds in May, got
        # a job at Arup"): a past verb is no subject
        if any(_a_subject(c) for c in verb.children) or verb.lower_ in _MOODS:
            continue
        if verb.lemma_.casefold() in _IT_VERBS or _tells_how_it_went(verb):
            continue
        before = sentence.doc[sentence.start : comma.i]
        told = [t for t in before if _a_subject(t)]
        verbless = not any(t.pos_ in {"VERB", "AUX"} for t in before)
        # "Moved to Leeds in May, got …": the parse made the first clause the verb's subject
        first = next((t for t in before if t.pos_ not in _BEFORE_VERB), None)
        misparsed = first is not None and first.tag_ in {"VBD", "VBN"} and first.dep_ in _SUBJECTS
        if (told or opened or verbless or misparsed) and all(t.lower_ in {"i", "we"} for t in told):
            places.append(comma.i + 1)
    return places


def _a_subject(token: Any) -> bool:
    return token.dep_ in _SUBJECTS and token.tag_ not in {"VBD", "VBN"}


def _opening_verb(sentence: Any) -> Any | None:
    """The sentence's first word when it is a verb of the speaker's with no subject anywhere."""
    opener = next((t for t in sentence if t.pos_ not in _BEFORE_VERB), None)
    # "Packed in the five-a-side, my ankles can't take it": a later clause's subject is not the opener's
    if opener is None or any(child.dep_ in _SUBJECTS for child in opener.children):
        return None
    if opener.dep_ in {"aux", "auxpass"} and any(c.dep_ in _SUBJECTS for c in opener.head.children):
        return None  # "did I overpay?": the auxiliary opens a question whose subject is there
    if opener.i + 1 >= sentence.end and opener.lower_ not in _STATES:
        return None
    if opener.lemma_ == "be" and _names_a_thing(opener):
        return None  # "Been ages since we talked", "Been quite a ride": it has, not the speaker
    # "Swapped Denver for Phoenix": a past the tagger took for a name before one, still the speaker's act
    # or before a doing ("Swapped surfing for mountain biking": "surfing", to the tagger a noun)
    after = opener.nbor() if opener.i + 1 < sentence.end else None
    named_past = (
        opener.lower_ in _PASTS
        and after is not None
        and (after.pos_ == "PROPN" or (after.pos_ == "NOUN" and after.lower_.endswith("ing")))
    )
    if opener.dep_ in _NOUN_WORDS and not named_past:
        return None  # "Driving test booked for the 9th": a noun's modifier, no verb
    clause = opener.head if opener.dep_ in {"aux", "auxpass"} else opener  # "Being surrounded by …"
    if opener.dep_ in {"csubj", "csubjpass"} or clause.dep_ in {"csubj", "csubjpass"}:
        return None  # "Having a good team is so important": the "-ing" clause is the subject
    later = clause.head
    if (
        clause.dep_ == "advcl"
        and later.i > clause.i
        and later.lemma_ == "be"
        and later.tag_ in {"VBD", "VBZ", "VBP"}
        and not any(c.dep_ in _SUBJECTS for c in later.children)
    ):
        return None  # "Being out in nature, away from the noise … was great": what the later verb lacks
    if (
        clause.dep_ == "advcl"
        and clause.tag_ == "VBG"
        and later.i > clause.i
        and later.tag_ == "VBD"
        and any(c.dep_ in _SUBJECTS for c in later.children)
    ):
        return None  # "Seeing the smiles on their faces, we knew …": of the later clause's time, past
    lower = opener.lower_
    if lower in _MOODS or opener.lemma_.casefold() in _IT_VERBS or _tells_how_it_went(opener):
        return None
    if (opener.lemma_ == "take" or lower in {"took", "takes"}) and any(
        c.dep_ == "dobj" and c.lemma_.casefold() in _WHAT_IT_TOOK for c in opener.children
    ):  # "Took some trial and error", "Took ages": it did
        return None
    if lower in _NOT_ACTS and opener.i + 1 < sentence.end and opener.nbor().lower_ in {"on", "that", "to"}:
        return None  # "Based on that, …", "Given that …", "Compared to last year …"
    if opener.tag_ == "VBG":
        if others_doing(clause):
            return None  # "Taking in kids in need - you're so kind": the listener's doing
        if _finite_after(opener, sentence) or _a_moment_recalled(opener, sentence):
            return None  # "Plus, playing with my teammates … is awesome": the parse missed the subject
        nxt = opener.nbor() if opener.i + 1 < sentence.end else None
        if nxt is not None and nxt.lemma_.casefold() in _ING_COMPOUNDS:
            return None  # "Driving test booked for the 9th": a noun, whatever the parser says
        return opener  # "Flying out to Lagos tomorrow", "Running my own business now, best move ever"
    if opener.tag_ in {"VBD", "VBN"} or lower in _PASTS:
        return opener
    # The tagger's sentence-initial past taken for an adjective ("Qualified as a solicitor"), when it is
    # a verb the readers know: "Relieved it's over" is a mood, not an act. It may hang off a later
    # verbless clause ("Qualified as a radiographer in January, first week on the scanners done").
    if (
        opener.tag_ == "JJ"
        and opener.dep_ in {"ROOT", "advcl"}
        and lower.endswith("ed")
        and known_base(lower) is not None
    ):
        return opener
    return None


def _finite_after(opener: Any, sentence: Any) -> bool:
    """Whether a finite verb follows the opening "-ing" word before the first comma: the "-ing" phrase
    is then that verb's subject ("Playing with my teammates and having the fans cheer is awesome"),
    whatever the parse made of it; "Signing the mortgage papers on Friday" has none."""
    for token in opener.doc[opener.i + 1 : sentence.end]:
        if token.text in {",", ";", ":", "-", "–", "—"}:
            return False
        if token.tag_ in {"VBZ", "VBP", "VBD", "MD"}:
            return True
    return False


#: Verbs of taking a moment in: "Just seeing the sun dip below the horizon … it was amazing".
_TAKING_IN: Final = frozenset(["see", "watch", "hear", "listen", "feel", "be", "look", "sit", "lie", "stand"])


def _a_moment_recalled(opener: Any, sentence: Any) -> bool:
    """ "Just seeing the sun dip below the horizon, all the colors - it was amazing", "Being out in
    nature, it was great": the "-ing" phrase is what "it" then judges, not what the speaker is doing."""
    judged = any(
        t.lower_ in {"it", "that", "this"} and t.dep_ == "nsubj" and t.head.lemma_ == "be"
        for t in opener.doc[opener.i + 1 : sentence.end]
    )
    # "Way to go! Making videos and connecting with people - that's awesome! You'll do great!": the
    # listener's doing, judged, when the turn speaks to the listener
    to_listener = any(t.lower_ in {"you", "your", "you'll", "you're"} for t in opener.doc)
    taking_in = known_base(opener.lower_) in _TAKING_IN or opener.lemma_ in _TAKING_IN
    return judged and (taking_in or to_listener)


def _tells_how_it_went(opener: Any) -> bool:
    """ "Went (really) well", "Made me cry", "Took us ages": the dropped subject is a thing."""
    after = (
        t for t in opener.doc[opener.i + 1 : opener.sent.end] if t.pos_ != "ADV" or t.lower_ in _HOW_IT_WENT
    )
    nxt = next(after, None)
    return nxt is not None and (nxt.lower_ in _HOW_IT_WENT or nxt.lower_ in {"me", "us"})


def repair_gerunds(doc: Any) -> Any:
    """``doc`` with the "-ing" words (and the "-ed" pasts said with "I") of verbs the readers know that the
    tagger took for adjectives put back as verbs: "I'm freelancing as a copywriter" (a "freelancing"
    adjective heads no frame), "I just qualified as a paramedic"."""
    for token in doc:
        if token.pos_ == "ADJ" and token.lower_.endswith("ed") and _a_past_of_mine(token):
            # "I just qualified as a paramedic": a past the tagger took for an adjective, with its subject
            token.pos_, token.tag_, token.lemma_ = "VERB", "VBD", known_base(token.lower_)
            continue
        if token.pos_ != "ADJ" or not token.lower_.endswith("ing") or token.dep_ not in {"ROOT", "acomp"}:
            continue
        base = known_base(token.lower_)
        if base is not None and any(c.dep_ == "prep" for c in token.children):
            token.pos_, token.tag_, token.lemma_ = "VERB", "VBG", base
    return doc


def _a_past_of_mine(token: Any) -> bool:
    """ "I just qualified as …": an "-ed" root with the speaker's subject, no copula ("I'm settled in
    Leeds" is a state) and a preposition, of a verb the readers know."""
    children = list(token.children)
    return (
        token.dep_ == "ROOT"
        and known_base(token.lower_) is not None
        and any(c.dep_ in _SUBJECTS and c.lower_ in {"i", "we"} for c in children)
        and not any(c.dep_ in {"aux", "auxpass"} for c in children)
        and any(c.dep_ == "prep" for c in children)
    )


def _names_a_thing(opener: Any) -> bool:
    """ "Been ages", "Been quite a ride", "Been a while": what follows "been" is a stretch of time or a
    thing, so the dropped subject is "it"."""
    after = next((t for t in opener.doc[opener.i + 1 : opener.sent.end] if t.pos_ != "ADV"), None)
    return after is not None and (
        after.pos_ in {"DET", "NOUN", "NUM", "PRON"} or after.lower_ in {"quite", "such"}
    )


def known_base(word: str) -> str | None:
    """The verb a frame or an ending reads that ``word`` is the "-ed" or "-ing" form of ("qualified":
    qualify, "relocated": relocate, "freelancing": freelance, "dropped": drop), or None."""
    suffix = "ed" if word.endswith("ed") else "ing" if word.endswith("ing") else ""
    if not suffix:
        return None
    stem = word[: -len(suffix)]
    guesses = (stem, f"{stem}e", f"{stem[:-1]}y" if stem.endswith("i") else stem, stem[:-1])
    return next((base for base in guesses if base in _VERBS), None)


_VERBS: Final = frozenset({frame.lemma for frame in FRAMES} | set(ENDING_VERBS))


def _pronoun(opener: Any) -> str:
    lower = opener.lower_
    if lower == "been":  # "Always been interested in …": "I've always been"
        return "I've"
    if opener.tag_ == "VBG" or lower in _STATES:
        return "I'm"
    return "I"


#: A clause that starts with its verb ("grew up in Beirut", "been coding for years") is the speaker's.
_SURFACE_OPENERS: Final = (
    (re.compile(r"^(?:born|raised)\b", re.IGNORECASE), "I was "),
    (
        re.compile(
            r"^(?:(?:just|also|recently|finally)\s+)?(?:grew up|moved|started|finished|went|visited|spent|"
            r"got|quit|retired|graduated|lost|took|bought|tried|joined|adopted|signed up|won|booked|"
            r"attended|hosted|launched|opened|volunteered|applied|passed|celebrated|ran|dropped out|sold|"
            r"left)\b",
            re.IGNORECASE,
        ),
        "I ",
    ),
    (
        re.compile(
            # "From Leeds originally" (a name follows: "From a distance, I mean" is no origin)
            r"^(?:(?:originally )?from(?= (?-i:[A-Z]))|based in|currently|working|living|retired|allergic|"
            r"trying|planning|hoping|learning|saving|no longer (?:at|with|in|on|part of))\b",
            re.IGNORECASE,
        ),
        "I'm ",
    ),
    (re.compile(r"^(?:just\s+)?been\s+\w+ing\b", re.IGNORECASE), "I've "),
    # Chat drops the "I'm" of a plan: "Gonna continue my studies" is the speaker's.
    (re.compile(r"^(?:gonna|going to)\s+(?!be\b)\w", re.IGNORECASE), "I'm "),
    (re.compile(r"^(?:wanna|want to)\s+\w", re.IGNORECASE), "I "),
)


#: "Took ages", "Took some trial and error": what it took, not what the speaker took.
_IT_TOOK: Final = re.compile(
    r"^took\s+(?:(?:some|a|a\s+lot\s+of|lots\s+of|a\s+bit\s+of|so\s+much|forever|many|a\s+few)\s+)?"
    r"(?:" + "|".join(sorted(_WHAT_IT_TOOK, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)


def with_surface_subject(clause: str) -> str:
    """``clause`` with the subject its opening words say was dropped ("Moved to Leeds" → "I moved to
    Leeds", "Trying to stay positive" → "I'm trying …"), for the rules that read text without a parse;
    an "-ing" phrase that is the clause's subject keeps its words ("Learning Spanish is hard")."""
    if gerund_subject(clause) or _IT_TOOK.match(clause):
        return clause
    for pattern, prefix in _SURFACE_OPENERS:
        if pattern.match(clause):
            # The verb or adverb kept the capital of the sentence it opened ("Just got …").
            return prefix + clause[:1].lower() + clause[1:]
    return clause
