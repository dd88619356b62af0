"""Whether a learned statement says anything worth recalling weeks later. Pure functions over the
statement as learned (third person, its subject first).

:mod:`.standalone` and :mod:`.objects` refuse a statement that points outside itself; this module
refuses one that is complete but says nothing lasting:

- a plan of the moment: what the speaker is about to do as they leave the chat ("Dana is off to
  grab some groceries", "Dana is about to head out", "Dana is going to take a nap now"). A plan with
  a horizon is a fact ("Dana is off to Spain next month", "Dana is about to start a new job");
- a vague predicate: nothing in it but the subject, light verbs and words that name no thing ("Dana
  has had a lot of things going on", "Dana is up for the challenge"); "Dana is up for a promotion"
  names one;
- no subject of its own: a statement that opens on "Now" or "Then" tells what happens at this
  point of the story ("Now the real work begins for Dana"), unless its subject follows ("Now Dana
  has a bike");
- a clause cut mid-noun-phrase: it ends on an article, a conjunction or an article and an adjective
  with no noun ("Dana and others can build a strong."): a comma between two adjectives was taken for
  a clause boundary. A final preposition is English ("something to be proud of") and is kept;
- a passing mood: a feeling and nothing it is about ("Dana is feeling hopeful and optimistic",
  "Dana has been doing great lately", "Dana is a mix of excited and nervous"). True on the day and
  stale by the next conversation; the turn keeps it for recall. A feeling about something is kept
  ("Dana is excited to start a new job", "Dana is grateful for Dana's friends");
- a word that stands for a noun said before it, with none in the statement: the pro-form "one" after
  a verb, a determiner or an adjective ("Dana has been one for years", "Dana wants a bigger one"),
  where no noun phrase before it can be what it stands for ("Dana lost Dana's job and wants a new
  one" is kept); and "other" before a noun that names no thing ("some other stuff", "other things"):
  other than what was said before, so nothing is named. "other" with a real noun ("met other
  parents"), at the end of a list ("clay, glaze and other stuff") and "one of", "no one", "one day"
  are kept.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["adjectives_joined", "cut_off", "unworthy"]

_WORD: Final = re.compile(r"[A-Za-z0-9][\w'-]*")

#: "off to" + a bare verb is leaving now; these nouns after it are a destination with a horizon.
_STUDY_OR_SERVICE: Final = frozenset(["college", "university", "uni", "school", "camp", "war", "sea"])
#: Verbs of leaving, what one is "about to" do as a conversation ends.
_LEAVING: Final = (
    r"(?:go|head|leave|hop|jump|grab|run|pop|hit|turn\s+in|crash|log\s+off|sign\s+off|get\s+going|"
    r"step\s+out|take\s+a\s+(?:nap|shower|bath|break))"
)
#: A time phrase that gives a plan a horizon beyond the next hours.
_HORIZON: Final = re.compile(
    r"\b(?:next|week|weeks|weekend|month|months|year|years|summer|winter|spring|autumn|fall|semester|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|monday|"
    r"tuesday|wednesday|thursday|friday|saturday|sunday|\d{4})\b",
    re.IGNORECASE,
)
_OFF_TO: Final = re.compile(
    r"^\S.*?\b(?:is|are)\s+(?:(?:just|now|all)\s+)*off\s+to\s+"
    r"(?!(?:the|a|an|his|her|their|its|some)\b)(?P<next>[a-z]+)\b"
)
_ABOUT_TO_LEAVE: Final = re.compile(
    rf"^\S.*?\b(?:is|are)\s+(?:(?:just|now)\s+)*(?:about\s+to\s+{_LEAVING}|heading\s+(?:out|off|home|to\s+bed))\b"
)
#: "… now", "… in a bit": a plan for the next minutes, at the statement's end.
_RIGHT_NOW: Final = re.compile(
    rf"\b(?:is|are)\s+(?:(?:just|now)\s+)*going\s+to\s+(?:go|{_LEAVING})\b.*\b(?:(?:right\s+)?now|in\s+a\s+(?:bit|minute|sec|second|"
    r"few\s+minutes)|shortly)[.!]?$",
    re.IGNORECASE,
)

#: Words that name no thing: function words, light verbs, and nouns of "stuff" ("a lot going on in
#: Dana's life").
_EMPTY: Final = frozenset(
    [
        "a", "an", "the", "of", "to", "for", "in", "on", "at", "with", "from", "up", "out", "about", "by",
        "into", "over", "through", "as", "and", "or", "but", "so", "that", "which", "very", "really",
        "just", "also", "still", "even", "now", "then", "lately", "recently", "quite", "pretty", "such",
        "much", "many", "more", "most", "lot", "lots", "bit", "kind", "sort", "some", "any", "all", "every",
        "each", "no", "other", "others", "is", "are", "was", "were", "be", "been", "being", "am", "has",
        "have", "had", "having", "do", "does", "did", "done", "get", "gets", "got", "gotten", "go", "goes",
        "going", "went", "gone", "happen", "happens", "happened", "happening", "come", "comes", "came",
        "coming", "thing", "things", "stuff", "something", "anything", "everything", "nothing", "life",
        "challenge",
        "ready", "way", "ways"
    ]
)  # fmt: skip

#: Determiners that need a noun after them; "her" is also an object and is left out.
_NEED_NOUN: Final = frozenset(
    ["a", "an", "the", "their", "our", "its", "my", "your", "every", "each", "very", "such", "and", "or",
     "but", "because", "nor"]
)  # fmt: skip
#: What opens a noun phrase an adjective cannot end: "the" can ("hoping for the best", "helps the
#: elderly"), and so can "a" before "little" or "bit" (an adverb: "rested a little").
_ARTICLES: Final = frozenset(["a", "an", "their", "our", "its", "my", "your", "every"])
_DEGREE: Final = frozenset(["very", "really", "so", "truly", "most", "more", "quite", "pretty", "super"])
#: Adjectives that do not double as nouns, met at the end of a cut noun phrase.
_ADJECTIVES: Final = frozenset(
    [
        "strong", "new", "big", "small", "good", "great", "huge", "whole", "real", "true",
        "perfect", "beautiful", "wonderful", "amazing", "lovely", "supportive", "long", "short", "old",
        "young", "nice", "bright", "close", "deep", "special", "happy", "safe", "warm",
        "positive", "lasting", "loving", "caring", "healthy", "fresh", "proper", "solid", "tight", "stable",
        "welcoming", "inclusive", "peaceful", "fantastic", "incredible", "awesome", "strange", "hard",
        "easy", "full", "wide", "open", "quiet", "busy"
    ]
)  # fmt: skip
#: Words in -ful, -ous, -ive that are nouns.
_NOUN_ENDINGS: Final = frozenset(
    [
        "handful", "mouthful", "spoonful", "cupful", "armful", "bucketful", "relative", "detective",
        "executive", "representative", "native", "alternative", "objective", "initiative", "motive",
        "incentive", "perspective", "narrative", "sedative", "olive", "archive", "hive", "five", "drive",
        "dive", "captive"
    ]
)  # fmt: skip


def _adjective(word: str) -> bool:
    return word in _ADJECTIVES or (word.endswith(("ful", "ous", "ive")) and word not in _NOUN_ENDINGS)


def cut_off(text: str) -> bool:
    """Whether ``text`` ends mid-noun-phrase: on a determiner or conjunction, or an article (and
    degree words) with an adjective and no noun ("can build a strong", "a really lovely")."""
    words = [word.casefold() for word in _WORD.findall(text)]
    return bool(words) and (words[-1] in _NEED_NOUN or _open_adjective(words))


def _open_adjective(words: list[str]) -> bool:
    """The words end on an article (and degree words) with adjectives and no noun: "a strong"."""
    if not words or not _adjective(words[-1]):
        return False
    # Back over the adjectives and degree words of the phrase to what opened it.
    before = [word for word in words[:-1] if word not in _DEGREE]
    while before and _adjective(before[-1]):
        before.pop()
    return bool(before) and before[-1] in _ARTICLES


def adjectives_joined(clause: str) -> str:
    """``clause`` without the commas between two adjectives ("a strong, lasting bond" → "a strong
    lasting bond"): later steps end a clause at its first comma, which would cut the noun phrase."""
    pieces = clause.split(",")
    joined = pieces[0]
    for piece in pieces[1:]:
        open_adjective = _open_adjective([word.casefold() for word in _WORD.findall(joined)])
        joined += piece if open_adjective and re.match(r"\s+[a-z]", piece) else "," + piece
    return joined


def _plan_of_the_moment(statement: str) -> bool:
    if (off := _OFF_TO.match(statement)) is not None:
        after = statement[off.end() :]
        return off.group("next") not in _STUDY_OR_SERVICE and not _HORIZON.search(after)
    return bool(_ABOUT_TO_LEAVE.match(statement) or _RIGHT_NOW.search(statement))


def _vague(statement: str, subject: str) -> bool:
    """Nothing but the subject and words that name no thing."""
    names = {part.casefold() for part in subject.split()}
    words = [word.casefold().removesuffix("'s") for word in _WORD.findall(statement)]
    return all(word in _EMPTY or word in names for word in words)


#: What may follow the pro-form "one" (no noun, so it stands for one said before): a conjunction, a
#: preposition other than "of", a time adverb.
_AFTER_PRO_FORM: Final = frozenset(
    ["and", "but", "or", "so", "because", "cause", "cuz", "since", "as", "when", "while", "too", "now",
     "again", "already", "yet", "for", "in", "at", "on", "with", "from", "after", "before", "until",
     "today", "yesterday", "tonight", "recently", "lately", "anymore", "either", "myself", "though"]
)  # fmt: skip
#: What may come before the pro-form "one": a determiner or a verb that takes a noun phrase.
_BEFORE_PRO_FORM: Final = frozenset(
    ["a", "an", "the", "another", "each", "which", "this", "that", "been", "be", "is", "was", "are",
     "were", "am", "has", "have", "had", "got", "get", "gets", "getting", "bought", "buy", "buys", "want",
     "wants", "wanted", "need", "needs", "needed", "found", "find", "finds", "made", "make", "makes",
     "owns", "own", "owned", "adopted", "borrowed", "picked", "chose", "ordered"]
)  # fmt: skip
#: Words that open a noun phrase the pro-form may stand for ("Dana's job … a new one").
_NOUN_PHRASE_OPENERS: Final = frozenset(
    ["a", "an", "the", "their", "our", "its", "my", "his", "her", "some", "two", "three", "four", "five",
     "several", "many", "few", "both"]
)  # fmt: skip
#: Describing words between a determiner and the pro-form "one" ("a bigger one", "the old one").
_PLAIN_ADJECTIVES: Final = frozenset(
    ["new", "old", "big", "small", "little", "good", "bad", "nice", "real", "different", "same", "cheap",
     "fancy", "cute", "red", "blue", "green", "black", "white", "used", "extra", "right", "wrong"]
)  # fmt: skip
#: "the only one", "the first one" is a person ("the only one who sang"), not a noun said before.
_SINGLING_OUT: Final = frozenset(["only", "first", "last", "next", "right"])
#: Nouns that name no thing: "other" before them is other than something said before.
_NO_THING: Final = frozenset(["stuff", "thing", "things", "one", "ones", "bits", "kinds", "sorts"])


def _describing(word: str) -> bool:
    return (
        word in _PLAIN_ADJECTIVES | _DEGREE
        or _adjective(word)
        or (word.endswith(("er", "est")) and word != "number")
    )


def _stands_for_nothing(words: list[str]) -> bool:
    """A pro-form "one" or an "other" + a noun of no thing, with nothing in the statement it is about."""
    for index, word in enumerate(words[1:], start=1):
        before, after = words[index - 1], words[index + 1] if index + 1 < len(words) else ""
        if word in {"one", "ones"} and (after == "" or after in _AFTER_PRO_FORM):
            # Back over describing words to the determiner or verb: "a bigger one", "been one".
            back = index - 1
            while back > 1 and words[back] not in _BEFORE_PRO_FORM and _describing(words[back]):
                back -= 1
            determined = words[back] in _BEFORE_PRO_FORM and before not in _SINGLING_OUT
            earlier = any(opener in _NOUN_PHRASE_OPENERS or opener.endswith("'s") for opener in words[1:back])
            if determined and not earlier:
                return True
        # "is planning a few", "made a couple": a count of things said before, with no noun
        counted = (word in {"few", "couple"} and before == "a") or word == "several"
        if (
            counted
            and (after == "" or after in _AFTER_PRO_FORM)
            and not any(
                opener in _NOUN_PHRASE_OPENERS or opener.endswith("'s") for opener in words[1 : index - 1]
            )
        ):
            return True
        if word == "other" and after in _NO_THING and before not in {"and", "or", "among", "each"}:
            return words[index + 2 : index + 3] != ["than"]
    return False


#: How a mood is said: the verbs before it.
_MOOD_VERBS: Final = frozenset(
    ["is", "was", "are", "were", "am", "has", "have", "had", "been", "feeling", "feels", "felt", "doing",
     "having", "getting", "got", "seems", "seemed"]
)  # fmt: skip
#: Feelings, and the words of a mood that name nothing else ("a bit", "lately", "than ever").
_MOOD: Final = frozenset(
    ["happy", "sad", "excited", "nervous", "scared", "thankful", "grateful", "hopeful", "optimistic",
     "proud", "stoked", "pumped", "relieved", "stressed", "tired", "exhausted", "motivated", "inspired",
     "supported", "confident", "anxious", "worried", "overwhelmed", "down", "low", "great", "good", "fine",
     "well", "ok", "okay", "awesome", "amazing", "blessed", "lucky", "content", "calm", "relaxed", "glad",
     "thrilled", "upset", "frustrated", "bored", "lonely", "emotional", "tough", "rough", "hard", "times",
     "emotions", "rollercoaster", "confidence", "energized", "energised", "drained", "better", "worse"]
)  # fmt: skip
_MOOD_FILLER: Final = frozenset(
    ["and", "or", "but", "a", "bit", "little", "kinda", "kind", "sort", "of", "mix", "some", "out", "on",
     "lately", "recently", "today", "now", "right", "than", "ever", "these", "days", "at", "the", "moment",
     "totally", "also", "still", "just", "all", "such", "feeling", "feelings"]
) | _DEGREE  # fmt: skip


def _passing_mood(statement: str, subject: str) -> bool:
    """The subject, a verb of being or feeling, and feelings only: nothing the mood is about."""
    if not statement.startswith(subject + " "):
        return False
    words = [word.casefold() for word in _WORD.findall(statement[len(subject) :])]
    verbs = 0
    while verbs < len(words) and (words[verbs] in _MOOD_VERBS or words[verbs] in _DEGREE):
        verbs += 1
    rest = words[verbs:]
    return (
        verbs > 0
        and any(word in _MOOD for word in rest)
        and all(word in _MOOD or word in _MOOD_FILLER for word in rest)
    )


#: What one says back to news, about the other's news: "is sorry to hear about Max", "is so glad to
#: hear that", "is happy for Maria".
_SYMPATHY: Final = re.compile(
    r"^\s+(?:is|was|am)\s+(?:\w+\s+)?(?:sorry|glad|happy|sad|thrilled|pleased|relieved)\s+"
    r"(?:to\s+(?:hear|see|know|read)\b|for\s+(?!(?:the|a|an|my|his|her|their)\b))",
    re.IGNORECASE,
)


#: A rallying cry of "we" (the speaker and others): "we can make a difference for our veterans", "we need
#: folks in the community", "we're really making progress towards a positive impact".
_RALLYING: Final = re.compile(
    r"^\s+and others\s+(?:(?:can|could|will|should|must|need to|have to)\s+(?:all\s+|really\s+)?make\s+a\s+"
    r"(?:real\s+|big\s+|positive\s+|huge\s+)?(?:difference|impact)|need\s+(?:more\s+)?(?:folks|people|everyone)\b|"
    r"are\s+(?:\w+\s+)?making\s+(?:\w+\s+)?progress\b)",
    re.IGNORECASE,
)
#: A feeling about what one learns, told as the world's: "It's so rewarding to know John is making a
#: difference".
_FEELING_TO_KNOW: Final = re.compile(
    r"^It(?:'s|\s+is|\s+was)\s+(?:so\s+|really\s+|such\s+a\s+|very\s+)?\w+\s+to\s+(?:know|see|hear|think)\b",
    re.IGNORECASE,
)


#: Set phrases of how one is getting on, which say nothing of what: "hoping for the best", "keeping
#: Dana's fingers crossed", "going with the flow", "taking it one day at a time", "hanging in there".
_SET_PHRASE: Final = re.compile(
    r"\b(?:hop(?:e|es|ed|ing) for the best|"
    r"(?:keep(?:s|ing)?|kept|ha(?:s|ve)|got) (?:[\w']+ )?fingers crossed|"
    r"(?:go(?:es|ing)?|went) with the flow|tak(?:e|es|ing) (?:it|things) day by day|"
    r"tak(?:e|es|ing) (?:it|things) one day at a time|hang(?:s|ing)? in there|living the dream|"
    r"keep(?:s|ing)? (?:[\w']+ )?chin up|keep(?:s|ing)? on keeping on|mak(?:e|es|ing) the best of it|"
    r"(?:do|does|doing|did) (?:[\w']+ )?(?:part|bit)|"
    # and of how one feels or how it went: "Gina is over the moon", "has had its ups and downs", "is
    # livin' Jon's dreams", "stepping into the unknown"
    r"over the moon|on cloud nine|(?:its |their )?ups and downs|stepp?(?:ing|s)? into the unknown|"
    r"liv(?:e|es|ing|in'?) (?:[\w']+ )?dreams?)\b",
    re.IGNORECASE,
)


#: Words of a set phrase's "for now": "these days", "at the moment", "ha".
_FOR_NOW: Final = frozenset(
    ["these", "days", "today", "tonight", "nowadays", "moment", "right", "again", "too", "ha", "haha", "lol"]
)


def _set_phrase_only(statement: str, subject: str) -> bool:
    """A set phrase and nothing besides it but the subject and words that name no thing ("Dana is
    hoping for the best"); "… for the best with the surgery on Friday" says what of."""
    if _SET_PHRASE.search(statement) is None:
        return False
    names = {part.casefold() for part in subject.split()}
    # every set phrase out ("stepping into the unknown and hoping for the best"): what is left
    rest = [word.casefold().removesuffix("'s") for word in _WORD.findall(_SET_PHRASE.sub(" ", statement))]
    return all(word in _EMPTY or word in _FOR_NOW or word in names for word in rest)


def unworthy(statement: str, subject: str) -> str | None:
    """Why ``statement`` (third person) is no memory worth keeping, or None when it is one."""
    text = statement.strip().rstrip(".!")
    if _set_phrase_only(text, subject):
        return "a set phrase"
    if _plan_of_the_moment(text):
        return "plan of the moment"
    if re.match(rf"^(?:Now|Then)\b(?!,?\s+{re.escape(subject)}\b)", text):
        return "no subject"
    if _vague(text, subject):
        return "vague"
    if cut_off(text):
        return "cut off"
    if _passing_mood(text, subject):
        return "a passing mood"
    if _SYMPATHY.match(text[len(subject) :] if text.startswith(subject) else text):
        return "a pleasantry"
    if _stands_for_nothing([word.casefold() for word in _WORD.findall(text)]):
        return "stands for nothing"
    if _RALLYING.match(text[len(subject) :] if text.startswith(subject) else text):
        return "a rallying cry"
    if _FEELING_TO_KNOW.match(text):
        return "a feeling of the moment"
    return None
