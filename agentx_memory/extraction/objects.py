"""Whether what a statement says something *about* stands on its own: its objects and complements.
:mod:`.standalone` judges a clause's subject; a fact whose subject is fine can still point outside
itself ("Dana is really proud of it", "Dana has known these friends for years"). Pure functions over
the statement as learned (third person), one token at a time.

A pronoun or demonstrative after a statement's first word is read by its construction:

- an object "it" or "them" needs an antecedent earlier in the statement (a noun phrase with a
  determiner: "Dana bought a kayak and loves it"), unless "it" is empty: a fixed expression ("made it
  to the final", "hit it off", "take it easy") or extraposition, where the real object follows ("finds
  it hard to sleep", "loves it when people sing");
- a demonstrative pronoun as object ("loves this", "did that for years") always points outside;
- a demonstrative noun phrase ("these friends", "that moment") points outside unless the statement
  says which one: a relative clause ("that book Dana lent me", "those who came"), a defining
  preposition ("that photo of the harbour", "this book about bees"), a name ("this Ibsen play"); time
  phrases ("this week", "those days", "at that moment") are resolved against the turn's time;
- "that" is also a complementizer ("knows that people care") and a relative pronoun ("a book that
  changed her"), and "this"/"that" an adverb of degree ("not that bad"): those are no demonstratives;
- a pronoun that is the subject of a clause inside the statement ("Dana is sure it will pay off")
  points outside unless a conjunction ties it to the clause before ("…went to a concert and it was
  loud"), a noun phrase before it is its antecedent, or it is the empty "it" :mod:`.standalone` knows.
"""

from __future__ import annotations

import re
from typing import Final

from .patterns import RELATIONS
from .standalone import ASPECTS, THOSE_DEFINERS, TIME_NOUNS, dangling
from .verbs import PAST_FORMS

__all__ = ["dangling_object", "indefinite_phrases"]

_TOKEN: Final = re.compile(r"[A-Za-z0-9][\w'’-]*|[^\w\s]")
_POINTERS: Final = frozenset(["it", "them", "this", "that", "these", "those"])
#: Pronoun + auxiliary as one token: always the subject of a clause.
_CONTRACTED: Final = re.compile(r"^(?:it|this|that|these|those)['’](?:s|ll|d|ve|re)$", re.IGNORECASE)
_PREPOSITIONS: Final = frozenset(
    [
        "about", "above", "across", "after", "against", "along", "among", "around", "as", "at",
        "before", "behind", "below", "beside", "between", "beyond", "by", "despite", "during",
        "for", "from", "in", "inside", "into", "like", "near", "of", "off", "on", "onto", "out", "outside",
        "over", "past", "since", "than", "through", "throughout", "till", "to", "toward", "towards",
        "under", "until", "up", "upon", "via", "with", "within", "without"
    ]
)  # fmt: skip
_CONJUNCTIONS: Final = frozenset(
    [
        "and", "but", "or", "so", "because", "since", "though", "although", "while", "whereas",
        "as", "nor", "yet"
    ]
)  # fmt: skip
_DETERMINERS: Final = frozenset(
    [
        "a", "an", "the", "his", "her", "their", "its", "our", "my", "your", "some", "any", "every",
        "each", "no", "one", "two", "three", "four", "five", "several", "many", "few", "both",
        "all", "another", "other", "such"
    ]
)  # fmt: skip
_PRONOUNS: Final = frozenset(
    [
        "i", "me", "we", "us", "you", "he", "him", "she", "they", "it", "them", "this", "that",
        "these", "those", "who", "what", "which", "there", "here", "someone", "something",
        "everyone", "everything", "anyone", "anything", "nobody", "nothing", "people", "myself",
        "themself", "themselves", "himself", "herself", "itself"
    ]
)  # fmt: skip
_ADVERBS: Final = frozenset(
    [
        "so", "very", "really", "too", "also", "just", "still", "even", "again", "already",
        "always", "never", "often", "sometimes", "now", "then", "there", "here", "together", "more",
        "most", "much", "a", "lot", "well", "yet", "anyway", "anymore", "ever", "once", "twice",
        "lately", "soon", "today", "tonight", "tomorrow", "yesterday", "everyday", "daily",
        "weekly", "back", "away", "home", "up", "down", "out", "off", "over", "around"
    ]
)  # fmt: skip
_AUXILIARIES: Final = frozenset(
    [
        "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "do", "does",
        "did", "can", "could", "will", "would", "shall", "should", "may", "might", "must"
    ]
)  # fmt: skip
#: Words that end like a verb ("-s", "-ed") without being one.
_NOT_VERBS: Final = frozenset(
    [
        "as", "is", "us", "yes", "this", "thus", "plus", "less", "unless", "always", "perhaps",
        "sometimes", "towards", "besides", "afterwards", "news", "others", "series", "species",
        "class", "glass", "dress", "process", "business", "address", "success", "stress", "chess",
        "boss", "red", "bed", "need", "seed", "speed", "hundred", "sacred", "wicked", "naked",
        "kindred"
    ]
)  # fmt: skip
#: Words that open a time phrase's noun phrase: "this past week", "these last few days".
_TIME_MODIFIERS: Final = frozenset(["past", "last", "next", "coming", "few", "of"])
_TIME_LEADS: Final = _TIME_MODIFIERS - {"of"}
_FUNCTION: Final = (
    _PREPOSITIONS
    | _CONJUNCTIONS
    | _DETERMINERS
    | _PRONOUNS
    | _ADVERBS
    | _AUXILIARIES
    | _TIME_MODIFIERS
    | {"not", "to"}
)
#: Heads of time phrases: resolved against the turn's time, they point at nothing. A subject's list
#: (``standalone.TIME_NOUNS``) and, as objects, days, months and longer spans ("all these years").
_TIME_HEADS: Final = TIME_NOUNS | frozenset(
    [
        "times", "day", "days", "decade", "century", "era", "period", "holiday", "holidays", "hour",
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december"
    ]
)  # fmt: skip
#: Heads that are time only after "at", "by", "from", "since", "until", "in": "at that moment".
_TIME_AFTER_PREPOSITION: Final = frozenset(["moment", "point", "stage", "age"])
#: "that much", "not that bad": a degree adverb before an adjective, no demonstrative.
_DEGREE_WORDS: Final = frozenset(
    [
        "much", "many", "far", "long", "bad", "good", "great", "big", "small", "hard", "easy",
        "often", "close", "old", "young", "important", "serious", "simple", "difficult", "fast",
        "early", "late", "well", "little", "sure", "different"
    ]
)  # fmt: skip
#: Prepositions that say which thing a demonstrative noun means ("that photo of the harbour"); the
#: others attach to the verb ("has known these friends for years", "took this photo in Spain").
_DEFINING: Final = frozenset(["of", "about", "from", "by", "near", "called", "named", "titled", "featuring"])
#: Words that open a relative clause after a noun ("that book which", "those kids who").
_RELATIVE: Final = frozenset(["that", "which", "who", "whom", "whose", "where", "when", "he", "she",
                              "they", "we", "you", "i", "someone", "everyone", "people"])  # fmt: skip
#: "those who …", "those in need", "those close to her": "those" defined by what follows it.
_DEFINED_THOSE: Final = THOSE_DEFINERS | {"close", "around"}
#: Modifiers that point back themselves: "that same magic", "this other thing", "that kind of stuff".
_ANAPHORIC: Final = frozenset(["same", "other", "very", "exact", "kind", "sort", "type"])
#: Fixed expressions whose "it" is empty: "made it to the top", "hit it off", "take it easy".
_IDIOM: Final = re.compile(
    r"\b(?:(?:make|makes|made|making)\s+it(?=\s+(?:to|through|home|back|big|past|in\s+time|on\s+time)\b|\s*[.!,;]|$)|"
    r"(?:hit|hits|hitting)\s+it(?=\s+off\b)|(?:take|takes|took|taking)\s+it(?=\s+(?:easy|slow|day\s+by\s+day|"
    r"one\s+day\s+at\s+a\s+time)\b)|(?:call|calls|called|calling)\s+it(?=\s+a\s+(?:day|night)\b)|"
    r"(?:go|goes|went|going)\s+for\s+it|(?:wing|winged|winging)\s+it)\b",
    re.IGNORECASE,
)
#: "… it hard to …", "… it when …", "… it a privilege to …": the real object follows the "it" (a
#: particle is none: "pass it on to others", nor a conjunction: "loves it and that'll keep …").
_EXTRAPOSED_OBJECT: Final = re.compile(
    r"^(?:(?:when|whenever|that|how|if)\b|(?:(?:so|really|very|super|quite|pretty|much|a\s+lot|even)\s+)*"
    r"(?:(?:a|an)\s+)?(?!(?:on|up|out|off|in|back|down|over|away|around|through|along|forward|and|but|or)\b)"
    r"[\w-]+\s+"
    r"(?:(?:to|for)\s+\w+\s+)?(?:to|that|how|when|whenever|if|\w+ing)\b)",
    re.IGNORECASE,
)
_PERSON_NOUNS: Final = frozenset(RELATIONS.split("|")) | frozenset(
    [word + "s" for word in RELATIONS.split("|")] + ["kids", "children", "folks", "people", "guys", "family"]
)


def _verb_like(token: str, plural: bool = False) -> bool:
    """Whether ``token`` can be a finite verb ("is", "helps", "changed", "made"); after a plural
    subject an -s word is a noun ("these friends")."""
    lower = token.casefold()
    if lower in _AUXILIARIES or re.match(r"^\w+['’](?:ll|d|ve|re)$", lower):
        return True
    if lower in _NOT_VERBS or lower in _FUNCTION or not token.islower():
        return False
    ending = r"ed" if plural else r"(?:[^s\W]s|ed)"
    if lower.endswith(("ous", "us", "is", "ss", "ics")):
        return False  # "delicious", "thesis", "class", "politics"
    return bool(re.match(rf"^[a-z]+{ending}$", lower)) or lower in _IRREGULAR_PAST


_IRREGULAR_PAST: Final = PAST_FORMS - _AUXILIARIES


def _content(token: str) -> bool:
    return token[:1].isalpha() and re.sub(r"['’].*$", "", token.casefold()) not in _FUNCTION


def _noun_phrase(tokens: list[str], start: int, names: bool = False) -> int:
    """The end of the run of content words from ``start`` (at most four): a noun and its modifiers,
    after any time modifiers ("this past week", "these last few days"); with ``names``, capitalised
    words too ("the Lean Startup")."""
    end = start
    while end < len(tokens) and tokens[end].casefold() in _TIME_MODIFIERS:
        end += 1
    while (
        end < len(tokens)
        and end - start < 4
        and _content(tokens[end])
        and (tokens[end].islower() or (names and tokens[end] != "I"))
        and not (end > start and _verb_like(tokens[end], plural=True))  # "a friend made it"
    ):
        end += 1
    return end


_NOT_NOUN: Final = ("ed", "ing", "ly")
_GROUPS: Final = frozenset(["people", "children", "family", "team", "group", "class"])


def _plural(word: str) -> bool:
    return word.endswith("s") and not word.endswith(("ss", "us", "is"))


def _antecedent(tokens: list[str], before: int, plural: bool) -> bool:
    """A noun phrase before position ``before`` that an "it" (or a plural "them") can refer to: one
    with a determiner ("a kayak", "Dana's kids", "some young folks") or a bare one of two words or
    more ("made vegan ice cream and shared it"); a lone bare word may be an adjective ("felt free")."""
    for index in range(before):
        word = tokens[index].casefold()
        determined = word in _DETERMINERS - {"no"} or word.endswith(("'s", "’s"))
        bare = index > 0 and not determined and _content(tokens[index]) and tokens[index].islower()
        previous = tokens[index - 1].casefold()
        if bare and not (
            previous in _IRREGULAR_PAST or (previous.endswith("ed") and previous not in _NOT_VERBS)
        ):
            continue  # a bare object only right after a past verb: "made vegan ice cream"
        if not determined and not bare:
            continue
        start = index + 1 if determined else index
        end = _noun_phrase(tokens, start, names=determined)
        head = tokens[end - 1].casefold()
        words = [token.casefold() for token in tokens[start:end]]
        if (
            end == start
            or end > before
            or (bare and (len(words) < 2 or any(w.endswith(_NOT_NOUN) for w in words)))
        ):
            continue
        is_plural = _plural(head) or head in _PERSON_NOUNS
        # Any plural word of the phrase will do for "them": the run may have taken a verb along
        # ("Dana's nephews visit").
        if plural and any(w in _PERSON_NOUNS | _GROUPS or _plural(w) for w in words):
            return True
        if not plural and not is_plural and head not in _PERSON_NOUNS:
            return True
    return False


def _demonstrative_phrase(tokens: list[str], index: int) -> str | None:
    """A demonstrative determiner at ``index`` and its noun: None when the statement says which one."""
    after = index + 1
    if tokens[after][:1].isupper() and tokens[after] != "I":
        return None  # "this Ibsen play": a name says which
    end = _noun_phrase(tokens, after)
    head = tokens[end - 1].casefold()
    before = tokens[index - 1].casefold()
    if head in _TIME_HEADS or (head in _TIME_AFTER_PREPOSITION and before in {"at", "by", "from", "in",
                                                                             "since", "until"}):  # fmt: skip
        return None
    following = re.sub(r"['’].*$", "", tokens[end].casefold()) if end < len(tokens) else ""
    anaphoric = tokens[after].casefold() in _ANAPHORIC
    beyond = tokens[end + 1] if end + 1 < len(tokens) else ""
    place = following == "to" and beyond[:1].isupper()  # "that trip to Oslo", not "wore it to the party"
    if not anaphoric and (
        following in _DEFINING or following in _RELATIVE or following.endswith("ing") or place
    ):
        return None
    if not anaphoric and end < len(tokens) and tokens[end][:1].isupper() and tokens[end] != "I":
        return None  # "that dress Dana wore": a relative clause with a named subject
    return "demonstrative noun phrase"


def _takes_object(tokens: list[str], index: int) -> bool:
    """Whether the word before ``index`` is a preposition or a verb, so that a "that" there is its
    object's determiner ("to that moment", "will never forget that smell", "Dana loves that show");
    after a noun or an adjective a "that" opens a clause ("stories that move her", "glad that it
    worked")."""
    before = tokens[index - 1].casefold()
    if before in _PREPOSITIONS or before in _IRREGULAR_PAST or before in {"do", "does", "did", "done"}:
        return True
    if before.endswith(("ed", "ing")) and before not in _NOT_VERBS and not before.endswith("thing"):
        return True
    back = index - 2
    while back >= 0 and tokens[back].casefold() in _ADVERBS:
        back -= 1  # "will never forget that"
    two_back = tokens[back] if back >= 0 else ""
    if two_back.casefold() in _AUXILIARIES | {"to"}:
        return True  # "to spread that", "does remember that"
    subjects = {"he", "she", "it", "who", "others", "one"} | _ADVERBS
    named = two_back[:1].isupper() and two_back.casefold() not in _FUNCTION
    return before.endswith("s") and (named or tokens[index - 2].casefold() in subjects)


def _clause_follows(tokens: list[str], start: int) -> bool:
    """Whether a clause starts at ``start``: a subject (words of a noun phrase or a pronoun) and then
    a verb ("that patience pays off", "that the river floods", "that it worked")."""
    for token in tokens[start : start + 7]:
        lower = token.casefold()
        if _verb_like(token) or (
            re.sub(r"['’]\w+$", "", lower) in _PRONOUNS and ("'" in lower or "’" in lower)
        ):
            return True  # "that it's important": a pronoun and its verb in one token
        if not (lower in _DETERMINERS | _PRONOUNS or lower == "and" or token[:1].isalnum()) or (
            lower in _PREPOSITIONS | _ADVERBS
        ):
            return False
    return False


def _that(tokens: list[str], index: int) -> str | None:
    """ "that" after a statement's first word: a demonstrative only when it is no complementizer,
    relative pronoun or degree adverb."""
    nxt = tokens[index + 1] if index + 1 < len(tokens) else ""
    lower = nxt.casefold()
    if not _takes_object(tokens, index) or lower in _DEGREE_WORDS or _clause_follows(tokens, index + 1):
        return None
    if (_content(nxt) and nxt.islower()) or lower in _TIME_LEADS:
        return _demonstrative_phrase(tokens, index)
    if nxt[:1].isupper() and nxt != "I":
        return None  # "that Ibsen play": a name says which
    after = tokens[index + 2].casefold() if index + 2 < len(tokens) else ""
    if lower in _DETERMINERS | _PRONOUNS and after not in _TIME_HEADS:
        return None  # "knowing that people like …": no demonstrative goes before a pronoun
    return "demonstrative pronoun"  # "did that every summer", "loves that."


#: "how frustrating it can be when …": the "it" stands for the clause after it.
_EXTRAPOSED_WHEN: Final = re.compile(
    r"^it(?:['’]s|\s+\w+)?\s+(?:be|is|was|gets|got)\s+(?:when|whenever|if|to)\b", re.IGNORECASE
)


def _clause_subject(tokens: list[str], index: int, text: str) -> str | None:
    """A pronoun that opens a clause inside the statement ("sure it will pay off")."""
    word = tokens[index].casefold()
    if word.startswith("that") or word.startswith("them"):
        return None  # a relative or complementizer "that"; "them" is never a subject
    before = tokens[index - 1].casefold()
    if before in _CONJUNCTIONS or before in {",", "-", "–", "—", "--", ";", ".", "!"}:
        return None  # "…went to a concert and it was loud": it is what the clause before said
    if (
        dangling(text) is None
        or _EXTRAPOSED_WHEN.match(text)
        or _antecedent(tokens, index, plural=word.startswith(("these", "those")))
    ):
        return None
    return "pronoun subject of an inner clause"


def _finding(tokens: list[str], index: int, statement: str, at: int) -> str | None:
    rest = statement[at:]
    word = tokens[index].casefold()
    nxt = tokens[index + 1] if index + 1 < len(tokens) else ""
    plural = word in {"these", "those"}
    if _CONTRACTED.match(tokens[index]) or (word != "that" and _verb_like(nxt, plural)):
        return _clause_subject(tokens, index, rest)
    if word == "it":
        idiom = any(match.end() == at + 2 for match in _IDIOM.finditer(statement))
        if idiom or _EXTRAPOSED_OBJECT.match(rest[2:].strip()):
            return None
        return None if _antecedent(tokens, index, plural=False) else "pronoun object"
    if word == "them":
        return None if _antecedent(tokens, index, plural=True) else "pronoun object"
    if word == "that":
        return _that(tokens, index)
    if word == "those" and nxt.casefold() in _DEFINED_THOSE:
        return None
    if word in {"this", "that"} and nxt.casefold() in _DEGREE_WORDS:
        return None
    if _content(nxt) or nxt.casefold() in _TIME_LEADS or (nxt[:1].isupper() and nxt != "I"):
        return _demonstrative_phrase(tokens, index)
    return "demonstrative pronoun"


#: Verbs of liking: what they take as object is what the preference is of.
_LIKING: Final = frozenset(
    ["love", "loves", "loved", "like", "likes", "liked", "enjoy", "enjoys", "enjoyed", "adore", "adores",
     "adored", "appreciate", "appreciates", "appreciated", "admire", "admires", "admired", "prefer",
     "prefers", "preferred", "dig", "digs"]
)  # fmt: skip
#: What may follow such a noun and say of what it is: a defining preposition, a relative clause, a place.
_SAYS_OF_WHAT: Final = _DEFINING | _RELATIVE | frozenset(["in", "on", "at", "for", "to", "with", "behind"])


def _aspect_of_something(tokens: list[str]) -> bool:
    """A liking's object that is a side of something said before: "loves the color and texture",
    "really likes the idea and the acting", "enjoys the atmosphere there"."""
    for index in range(2, len(tokens) - 1):
        if tokens[index].casefold() != "the":
            continue
        back = index - 1
        while back > 0 and tokens[back].casefold() in _ADVERBS:
            back -= 1
        if tokens[back].casefold() not in _LIKING:
            continue
        end = _noun_phrase(tokens, index + 1)
        if end == index + 1 or tokens[end - 1].casefold() not in ASPECTS:
            continue
        following = tokens[end].casefold() if end < len(tokens) else ""
        if following not in _SAYS_OF_WHAT and not (following[:1].isalpha() and tokens[end][:1].isupper()):
            return True
    return False


def _someone_said_before(tokens: list[str]) -> bool:
    """A "him" or an object "her" with no one named before it in the statement but its subject ("learned
    a lot from watching a top player like him"); "met Tom and thanked him" names him."""
    for index in range(2, len(tokens)):
        word = tokens[index].casefold()
        after = tokens[index + 1] if index + 1 < len(tokens) else ""
        if word == "him" or (word == "her" and not (_content(after) and after.islower())):
            named = [t for t in tokens[1:index] if t[:1].isupper() and t.casefold() not in _FUNCTION]
            return not named and not any(t.casefold() in _PERSON_NOUNS for t in tokens[1:index])
    return False


#: "the whole collection", "the entire series": all of something said before.
_ALL_OF: Final = frozenset(["whole", "entire"])


def _all_of_something(tokens: list[str]) -> bool:
    """ "has the whole collection", "watched the entire series" with nothing after that says of what."""
    for index in range(1, len(tokens) - 2):
        if tokens[index].casefold() == "the" and tokens[index + 1].casefold() in _ALL_OF:
            end = _noun_phrase(tokens, index + 2)
            return end > index + 2 and (end == len(tokens) or not tokens[end][:1].isalnum())
    return False


def dangling_object(statement: str) -> str | None:
    """Why an object or inner clause of ``statement`` points outside it, or None when none does.

    The statement's first word is its subject's business (:func:`.standalone.dangling`)."""
    spans = [(match.group(0), match.start()) for match in _TOKEN.finditer(statement)]
    tokens = [token for token, _ in spans]
    if _aspect_of_something(tokens):
        return "a side of something said before"
    if _someone_said_before(tokens):
        return "a person said before"
    if _all_of_something(tokens):
        return "all of something said before"
    for index in range(1, len(tokens)):
        word = re.sub(r"['’].*$", "", tokens[index].casefold())
        if word not in _POINTERS:
            continue
        at = spans[index][1]
        found = _finding(tokens, index, statement, at)
        if found is not None:
            return found
    return None


#: First words that make a noun phrase point back or single one thing out: no indefinite reading.
_SINGLING: Final = _ANAPHORIC | {
    "first",
    "second",
    "third",
    "last",
    "next",
    "only",
    "whole",
    "entire",
    "best",
}


#: Nouns that say nothing of the thing without its referent: "these little guys", "this charity thing".
_VAGUE_HEADS: Final = frozenset(["one", "ones", "guy", "guys", "stuff", "bit", "kind"])
#: Verbs whose object is the thing they bring about, come by or hand on: "made this bowl" is a bowl
#: whichever one was shown, so even a bare noun reads as indefinite after them ("gave Dana this scarf").
_CREATING: Final = frozenset(
    [
        "made", "makes", "painted", "paints", "drew", "draws", "took", "takes", "baked", "bakes", "cooked",
        "cooks", "built", "builds", "wrote", "writes", "knitted", "sewed", "bought", "buys", "found",
        "adopted", "created", "creates", "crafted", "designed", "finished", "planted", "carved", "got",
        "gets", "received", "won", "gave", "gives", "sent", "sends", "brought", "lent", "handed"
    ]
)  # fmt: skip


def _brought_about(tokens: list[str], index: int) -> bool:
    """Whether the demonstrative at ``index`` is the object of a verb of making, getting or giving,
    directly or after the one it was given to ("made this bowl", "gave Dana this scarf")."""
    before = tokens[index - 1]
    if before.casefold() in _CREATING:
        return True
    receiver = (before[:1].isupper() and before != "I") or before.casefold() in {"him", "her", "them"}
    return receiver and index >= 2 and tokens[index - 2].casefold() in _CREATING


def indefinite_phrases(statement: str) -> dict[str, str] | None:
    """The demonstrative noun phrases of ``statement`` read as indefinite ones, when that is all that
    keeps it from standing on its own: "ran into this super nice couple", "made this apple pie" →
    "a super nice couple", "an apple pie". Storytelling English uses "this" for a thing met for the
    first time, and a noun with a modifier says what the thing is, so the fact holds whichever one was
    meant. None when a pointer would remain, or a phrase is a bare noun ("these friends", "that
    moment"), singles one out ("that first film") or follows a quantity ("all these games"). After a
    verb of making or getting a bare noun will do ("took this pic" → "took a pic")."""
    spans = list(_TOKEN.finditer(statement))
    tokens = [match.group(0) for match in spans]
    phrases: dict[str, str] = {}
    for index in range(1, len(tokens)):
        word = tokens[index].casefold()
        found = _finding(tokens, index, statement, spans[index].start()) if word in _POINTERS else None
        if found != "demonstrative noun phrase":
            continue
        end = _noun_phrase(tokens, index + 1)
        words = tokens[index + 1 : end]
        before = tokens[index - 1].casefold()
        if (
            (len(words) < 2 and not _brought_about(tokens, index))
            or words[0].casefold() in _SINGLING
            or words[-1].casefold() in _VAGUE_HEADS
            or before in _DETERMINERS | {"of", "like"}
        ):
            return None
        article = "some" if word in {"these", "those"} else "an" if words[0][0] in "aeiouAEIOU" else "a"
        phrases[" ".join([tokens[index], *words])] = " ".join([article, *words])
    rewritten = statement
    for said, read in phrases.items():
        rewritten = rewritten.replace(said, read)
    return phrases if phrases and dangling_object(rewritten) is None else None
