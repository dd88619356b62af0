"""Whether a clause can stand on its own: a fact is recalled weeks later, in another conversation,
where "it", "this pic" or "representing …" point at nothing. Pure functions over the clause as said.

A clause is refused when what it is about lies outside it:

- its subject is a pronoun or a demonstrative with no antecedent in the clause ("It has really helped
  me", "This has been great for me", "Those moments make me thankful", "Their support spoke to me"),
  except the empty "it" of English extraposition, whose real subject follows ("It's important to me
  that people have someone to talk to", "It feels good to use my skills"), the ambient "it" of time
  ("It was a long week for me"), and a predicate that says itself which thing it is by the speaker's
  relation to it ("It's a yoga studio I go to every week");
- a demonstrative noun phrase is kept only when a relative clause in the sentence says which one
  ("This book I read last year reminds me …"): "This necklace is special to me" names nothing;
- its subject is a gerund whose object points outside it ("Playing it helps me", "Seeing this pic
  made me …");
- its verb has no subject and takes the speaker as object ("Reminds me how awesome life is": the
  dropped subject is an "it");
- it is a piece after a comma that only modifies the clause before it: a participle ("…, representing
  my own resilience"), an apposition ("…, a gift from my grandma") or a relative clause ("…, which
  refreshes me").

The clause is read as said (first person), so the speaker's "our" is never taken for a stray "their".
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["ASPECTS", "THOSE_DEFINERS", "TIME_NOUNS", "dangling"]

#: Words that may come before a clause's subject without being it.
_LEAD: Final = (
    r"(?:(?:and|but|so|plus|then|now|really|just|also|still|even|honestly|definitely|sometimes|always|"
    r"though|yet)\s+)*"
)
_DEMONSTRATIVE: Final = r"(?:this|that|these|those)"
#: A subject that refers to something outside the clause: personal and relative pronouns, possessive
#: determiners of someone not named, deictic "here's".
_POINTING: Final = re.compile(
    rf"^{_LEAD}(?:it|it's|its|they|they're|them|their|his|which|who|whose|here's|here\s+(?:is|are))\b",
    re.IGNORECASE,
)
#: Time deixis is resolved against the turn's time ("this week" → a date), so it points at nothing.
TIME_NOUNS: Final = frozenset(
    ["morning", "afternoon", "evening", "night", "week", "weekend", "month", "year", "summer", "spring",
     "autumn", "fall", "winter", "season", "time", "semester", "term", "monday", "tuesday", "wednesday",
     "thursday", "friday", "saturday", "sunday"]
)  # fmt: skip
_TIME_NOUN: Final = "(?:" + "|".join(sorted(TIME_NOUNS)) + ")"  # always followed by \b: order is free
#: Nouns that name a side of some thing, not a thing: "the colors", "the vibe", "the idea and the
#: acting" are of something said before unless the statement says of what ("the smell of rain").
ASPECTS: Final = frozenset(
    ["color", "colors", "colour", "colours", "texture", "textures", "idea", "acting", "vibe", "vibes",
     "design", "details", "detail", "lighting", "look", "looks", "shape", "atmosphere", "style", "taste",
     "flavor", "flavour", "flavors", "flavours", "smell", "scent", "sound", "feel", "pattern", "patterns",
     "layout", "plot", "story", "ending", "writing", "message", "concept", "energy", "decor", "aesthetic",
     "theme", "characters", "dialogue", "lyrics", "melody", "soundtrack", "cinematography", "contrast",
     "composition", "shades", "colouring", "coloring", "vibe", "mood", "way", "part", "pic", "picture",
     "photo", "shot", "view", "artwork", "cover", "title", "name", "result", "results", "outcome"]
)  # fmt: skip
#: "The colors make me feel calm": a side of something said before, as the subject, with nothing after
#: it that says of what ("The colors of the sunset make me calm").
_ASPECT_START: Final = re.compile(
    r"^the\s+(?:[a-z]+\s+)?(?:" + "|".join(sorted(ASPECTS, key=len, reverse=True)) + r")\s+"
    r"(?!of\b|in\b|on\b|at\b|from\b|for\b|to\b|with\b|about\b|that\b|which\b|i\b|you\b|we\b|my\b|(?-i:[A-Z]))",
    re.IGNORECASE,
)
_DEMONSTRATIVE_START: Final = re.compile(
    rf"^{_LEAD}{_DEMONSTRATIVE}(?:'s)?\b(?!\s+{_TIME_NOUN}\b)", re.IGNORECASE
)
#: "those who …", "those in need": a demonstrative its own phrase defines, by the word after it.
THOSE_DEFINERS: Final = frozenset(["who", "whom", "whose", "in", "with", "that", "of"])
_DEFINED_THOSE: Final = rf"those\s+(?:{'|'.join(sorted(THOSE_DEFINERS))})\b"
#: "moments like these", "stuff like this": a noun pointed at, like a demonstrative.
_LIKE_THIS: Final = re.compile(
    rf"^{_LEAD}(?:(?!(?:i|we|you|they|he|she|people|would|do|don't|did|didn't|i'd|we'd|totally|kinda)\b)"
    rf"[a-z']+\s+){{1,2}}like\s+{_DEMONSTRATIVE}\b",
    re.IGNORECASE,
)
#: A verb form after a noun phrase: a finite verb of a relative clause ("the book I read", "the plaque
#: I keep on my desk").
_PAST_OR_PRESENT: Final = (
    r"(?:\w+ed|\w+s|read|made|bought|got|took|saw|found|kept|wrote|drew|built|gave|won|met|had|did|"
    r"keep|have|love|own|use|wear|need|like|want)"
)
#: "This book I read last year …", "these figurines my aunt made": the relative clause says which.
_NOUN_WORDS: Final = r"(?:(?!(?i:is|was|are|were|has|have|had)\b)[\w'-]+\s+){1,3}?"
_ANCHORED: Final = re.compile(
    rf"^(?i:{_LEAD})(?:(?i:{_DEFINED_THOSE})|(?i:{_DEMONSTRATIVE})\s+{_NOUN_WORDS}(?:that\s+|which\s+)?"
    rf"(?:I|we|my\s+\w+|[A-Z][a-z]+)\s+(?:(?:just|recently|finally|once|always|still)\s+)?{_PAST_OR_PRESENT}\b)"
)
#: The empty "it" of extraposition: "it is <adjective> (to/for someone) to …/that …/how …/<-ing> …".
_DEGREE: Final = (
    r"(?:so|really|very|super|quite|just|always|also|still|pretty|absolutely|truly|definitely|such|"
    r"incredibly|especially|extra|less|more|most|too|rather|even|now|kind\s+of|kinda|a\s+bit)"
)
_EXTRAPOSED_IT: Final = re.compile(
    rf"^{_LEAD}it(?:'s|\s+is|\s+was|'s\s+been|\s+has\s+been|\s+had\s+been|\s+will\s+be|\s+feels|\s+felt|"
    rf"\s+seems|\s+seemed)\s+(?:{_DEGREE}\s+)*(?!{_DEGREE}\b|a\b|an\b|the\b|like\b|when\b|where\b|why\b|"
    r"what\b|one\b|part\b|not\b|all\b|been\b|my\b|our\b)[a-z]+\s+"
    r"(?:(?:for|to)\s+(?:me|us|him|her|them|people|others|everyone|someone|anyone|[a-z]+)\s+)?"
    r"(?:to\s+(?!(?:me|us|him|her|them|you|my|our|the|a|an)\b)[a-z]+|that|how|what|[a-z]+ing)\b",
    re.IGNORECASE,
)
#: The ambient "it" of time: "it was a long week for me", "it's been a crazy year".
_AMBIENT_IT: Final = re.compile(
    rf"^{_LEAD}it(?:'s|\s+is|\s+was|'s\s+been|\s+has\s+been)\s+(?:such\s+)?(?:a|an)\s+(?:[a-z'-]+\s+){{0,3}}?"
    rf"(?:day|week|weekend|month|year|morning|evening|night|summer|winter|season|semester)\b",
    re.IGNORECASE,
)
#: A predicate that names its thing by the speaker's relation to it: "it's a studio I go to often".
_PRESENTED: Final = re.compile(
    rf"^(?i:{_LEAD}(?:it's|it\s+is|it\s+was|this\s+is|this\s+was|that's|that\s+is|that\s+was)\s+(?:a|an)\s+)"
    rf"{_NOUN_WORDS}(?:(?i:that|which)\s+)?(?:I|we)(?:'ve|'d|'m|'re)?\s+(?:(?:just|really|always|still)\s+)?\w+"
)
#: A gerund subject whose object points outside the clause: "Playing it helps …".
_GERUND_POINTING: Final = re.compile(
    rf"^{_LEAD}(?!during\b|(?:some|any|every|no)thing\b)[a-z]+ing\s+(?:(?:to|at|with|about|on|in|for|of)\s+)?"
    rf"(?!{_DEFINED_THOSE})(?:it|them|{_DEMONSTRATIVE})\b",
    re.IGNORECASE,
)
#: A verb with no subject: "Reminds me how …", "Really made me think …", "Sounds like …". A present
#: -s form (not "miss") cannot have dropped an "I", and a past one taking "me" cannot either: the
#: dropped subject is an "it" or "that".
_NO_SUBJECT: Final = re.compile(
    r"^(?:(?:really|just|also|totally|definitely|always|still|even|kinda|sure)\s+)*"
    r"(?:\w+[^\Ws]s\s+(?:me|us|my|our)|(?:\w+ed|made|gave|got|kept|took|brought|taught|left|sent|showed)\s+"
    r"(?:me|us)|(?:sounds|looks|seems|feels)\s+(?:like|as\s+if))\b",
    re.IGNORECASE,
)
#: Words ending in -ing that are no participle.
_NOT_PARTICIPLES: Final = frozenset(
    ["during", "something", "anything", "everything", "nothing", "thing", "things", "morning", "evening",
     "king", "ring", "spring", "bring", "sing", "wing", "swing", "string", "sibling", "ceiling", "according"]
)  # fmt: skip
#: A finite verb somewhere in the piece: a gerund or a noun phrase going on with one is a clause.
_FINITE: Final = re.compile(
    r"\b(?:is|are|was|were|am|has|have|had|'s|'re|'m|'ve|can|could|will|would|does|did|helps|helped|makes|"
    r"made|gives|gave|brings|brought|keeps|kept|lets|reminds|reminded|takes|took|means|meant|feels|felt|"
    r"gets|got|becomes|became|changed|fills|filled|warms|motivates|motivated|inspires|inspired|allows|"
    r"allowed|seems|seemed|shows|showed|teaches|taught|pushes|pushed|drives|drove|matters|mattered)\b",
    re.IGNORECASE,
)
#: At the start of a sentence any later -s or -ed word may be the verb ("Painting relaxes me").
_LOOSE_FINITE: Final = re.compile(r"^\S+\s.*\b\w+(?:[^\Ws]s|ed)\b")
_ARTICLE_START: Final = re.compile(r"^(?:a|an|another)\s", re.IGNORECASE)
_RELATIVE_START: Final = re.compile(r"^(?:which|who|whose|whom)\b", re.IGNORECASE)
_PARTICIPLE: Final = re.compile(
    r"^(?:(?:just|also|really|still|kinda|always)\s+)*([a-z]+ing)\b", re.IGNORECASE
)


def _no_verb(text: str, opens_clause: bool) -> bool:
    """No finite verb: after a comma only a known one counts, at a clause's start any -s/-ed word."""
    return not _FINITE.search(text) and not (opens_clause and _LOOSE_FINITE.match(text))


def dangling(piece: str, opens_clause: bool = True) -> str | None:
    """Why ``piece`` (as said, first person) cannot stand on its own, or None when it can.

    ``opens_clause`` is False for a piece that came after a comma of its clause: there a participle
    or an apposition modifies what came before, unless a known finite verb makes it a clause.
    """
    text = piece.strip(" \"'")
    if _EXTRAPOSED_IT.match(text) or _AMBIENT_IT.match(text) or _PRESENTED.match(text):
        return None
    if _POINTING.match(text) or _RELATIVE_START.match(text):
        return "pronoun subject"
    if (_DEMONSTRATIVE_START.match(text) and not _ANCHORED.match(text)) or _LIKE_THIS.match(text):
        return "demonstrative subject"
    if _GERUND_POINTING.match(text):
        return "gerund of a pronoun"
    if _ASPECT_START.match(text):
        return "a side of something said before"
    if _NO_SUBJECT.match(text):
        return "no subject"
    participle = _PARTICIPLE.match(text)
    if participle and participle.group(1).casefold() not in _NOT_PARTICIPLES and _no_verb(text, opens_clause):
        return "participle"
    if _ARTICLE_START.match(text) and _no_verb(text, opens_clause):
        return "apposition"
    return None
