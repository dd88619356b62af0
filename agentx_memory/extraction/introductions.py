"""Names the speaker says: their own ("I'm Nadia", "My name is Sam.", "Nadia here, nurse in Lyon") and a
relation's ("my sister Maya"). Patterns and the words they must not take for names. Pure."""

from __future__ import annotations

import re
from typing import Any, Final

from .atoms import FactAtom
from .clause_atoms import UNKNOWN_SPEAKER, TurnText
from .lexicon import PET_KIND
from .names import discourse_word
from .patterns import RELATIONS
from .places import known_town

__all__ = [
    "APPOSITIVE",
    "NAME_INTRO",
    "NAME_IS_MY",
    "NAME_SAID",
    "NOT_NAMES",
    "NOT_NAME_KEYS",
    "RELATION_NAME",
    "addressed_as",
    "identity_name",
    "introduces",
    "name_given",
    "signed_name",
]

#: "Nadia here, nurse in Lyon" / "I'm Nadia, freelance journalist based in Berlin": a name and what she is.
APPOSITIVE: Final = re.compile(
    r"^(?:(?:hi|hey|hello|ciao|hiya)[,!]?\s+)?(?:I'm|I am|this is|it's)?\s*(?P<name>[A-Z][a-z'-]+)"
    r"(?:\s+here)?[,.]\s+"
    r"(?:(?:a|an|the)\s+)?(?P<rest>(?!my\b|your\b|his\b|her\b|our\b|their\b)"
    r"[a-z][\w' -]+?(?:\s+(?:at|in|from|with|for)\s+[^,.!?]+)?)(?=$|[,.!?])"
)
#: A name signed at the end of a message: "Thanks! — Niamh", "Many thanks,\nHenrik", "Cheers, Bo".
_SIGN_OFF: Final = re.compile(
    r"(?:(?:^|\n)\s*[-—–]+\s*|[.!?]\s*[-—–]+\s*|(?:^|\n|[.!?]\s+)(?:many thanks|thanks|thank you|cheers|best|"
    r"best wishes|regards|kind regards|all the best|warmly|sincerely),?\s*\n\s*)"
    r"(?P<name>[A-Z][a-z'-]+)\s*[.!]?\s*$",
    re.IGNORECASE,
)
#: A name signed after thanks that close a message: "… ? Cheers, Eilidh", "… soppy. thanks a million -
#: Tadhg"; a message that is only "Thanks, Sam" thanks Sam.
_THANKED_SIGN_OFF: Final = re.compile(
    r"(?:[.!?)]\s+|\n\s*)(?:thanks(?: a (?:lot|million|bunch|ton))?|thank you|many thanks|cheers|ta|thx|"
    r"much appreciated|best|regards|love|speak soon|talk soon)[!.]*\s*(?:,|[-—–]+)\s*"
    r"(?P<name>[A-Z][a-z'-]+)\s*[.!]?\s*$",
    re.IGNORECASE,
)
#: A message that opens by saying who writes: "hi it's Ngozi!", "It's Bartek - you helped me …",
#: "hey, this is Imogen here again".
_IT_IS: Final = re.compile(
    r"^\s*(?i:(?:hi|hey|hello|hiya|heya|morning|evening)[,!.]*\s+)?(?i:it's|it is|this is)\s+"
    r"(?P<name>[A-Z][a-z'-]+)(?:\s+(?:here|again))*\s*(?:[!.]+(?:\s|$)|[-—–]+\s|,\s|$)"
)
#: The names of assistants a user thanks: "Thanks, Claude" is no signature.
_ASSISTANTS: Final = frozenset(
    ["Claude", "Chatgpt", "Gpt", "Siri", "Alexa", "Gemini", "Copilot", "Bot", "Assistant"]
)
#: Words before a relation that keep it one ("my best friend", "my little sister").
_CLOSE: Final = r"(?:(?:best|old|little|big|younger|older|new|close|dear|twin|baby) )*"
RELATION_NAME: Final = re.compile(
    # a name, not its possessive: "my daughter Sara's birthday" names Sara
    r"\b(?:[Mm]y|{S}'s) " + _CLOSE + r"(?P<rel>" + RELATIONS + r"),? "
    r"(?P<name>[A-Z][a-z-]+(?:'(?!s\b)[a-z]+)?)\b(?P<rest>.*)$"
)
#: "Maya is my sister", "Henrik is my fiancé": the relation said after the name, read as "my sister is Maya".
NAME_IS_MY: Final = re.compile(
    r"^(?P<name>(?-i:[A-Z][a-zà-ÿ'-]+)) is my (?P<rel>" + _CLOSE + r"(?:" + RELATIONS + r"))\s*[.!]*$",
    re.IGNORECASE,
)
#: A name as written: a capital, then lowercase letters, accented ones too ("Lucía", "Zoë", "Đorđe").
_NAME: Final = r"[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-öø-ÿā-ž'-]+"
NAME_INTRO: Final = re.compile(
    r"^(?:I'm|I am|Im|my name is|my name's|call me|it's|this is|I go by)\s+(?P<name>"
    + _NAME
    + r"(?:\s+"
    + _NAME
    + r")?)\s*$"
)
#: The phrasings that can only introduce a name, so they may open a sentence and end it with a stop ("My
#: name is Sam.", "Call me Sam."); "I'm <Word>." may be an adjective ("I'm Jewish."), so it stays as above.
NAME_SAID: Final = re.compile(
    r"^(?i:my name is|my name's|(?:the )?name's|the name is|call me|I go by|people call me|"
    r"everyone calls me)\s+"
    r"(?P<name>" + _NAME + r"(?:\s+" + _NAME + r")?)"
    # then the end, a comma ("Name's Siobhan, nice to meet you!") or an aside ("My name is Kwame btw",
    # "I go by Jo these days")
    r"(?=[\s.!]*$|,|\s+(?i:btw|by the way|lol|haha|here|again|these days|now|nowadays|for short)\b)"
)
NOT_NAMES: Final = frozenset(
    [
        "Good", "Fine", "Great", "Okay", "Ok", "Sorry", "Here", "Back", "Home", "Done", "Ready", "Sure",
        "Happy", "Sad", "Tired", "Excited", "American", "Canadian", "British", "English", "French",
        "German", "Spanish", "Italian", "Mexican", "Chinese", "Japanese", "Korean", "Indian", "Irish",
        "Scottish", "Australian", "Brazilian", "Russian", "Dutch", "Swedish", "Vegan", "Vegetarian",
        "Just", "Not", "So", "Very", "Still", "Also", "Really", "Currently", "Now", "Here", "There",
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
        # "Call me Tomorrow." is a time, not a name.
        "Today", "Tomorrow", "Tonight", "Later", "Soon", "Anytime", "Asap", "Whenever",
        # "I'm Catholic": a faith, a people or a condition, not a name.
        # ("Christian" is left out: as often a name.)
        "Catholic", "Muslim", "Hindu", "Buddhist", "Sikh", "Mormon", "Protestant", "Orthodox", "Atheist",
        "Agnostic", "Latino", "Latina", "Hispanic", "Asian", "African", "European", "Arab", "Black", "White",
        "Gay", "Straight", "Bi", "Trans", "Queer", "Deaf", "Blind", "Autistic", "Diabetic", "Pregnant",
        "Single", "Married", "Divorced", "Retired", "Sober"
    ]
)  # fmt: skip
NOT_NAME_KEYS: Final = frozenset(name.casefold() for name in NOT_NAMES)


def introduces(name: str, speaker: str, *, surely: bool = False) -> bool:
    """Whether "<Name>, …" / "I'm <Name>" is the speaker introducing themself: never when the speaker
    is known under another name ("Max, my grandson, …" said by Felix). ``surely``: said in a way that
    only names ("named me Anneliese"), so a word like a people's adjective is a name all the same."""
    first = name.split()[0]
    # "-ish" and "-ese" make adjectives of a people ("Jewish", "Polish", "Maltese"), hardly ever names.
    belonging = len(first) > 4 and first.endswith(("ish", "ese")) and not surely
    return (
        first not in NOT_NAMES
        and not discourse_word(first)  # "Ugh, the radiators …", "Oh, …"
        and not belonging
        and (speaker == UNKNOWN_SPEAKER or speaker.split()[0] == first)
    )


def identity_name(turn: TurnText, speaker: str, name: str) -> FactAtom:
    return FactAtom(
        fact_kind="identity",
        subject=name if speaker == UNKNOWN_SPEAKER else speaker,
        statement=f"{speaker} is called {name}."
        if speaker not in {name, UNKNOWN_SPEAKER}
        else f"The user's name is {name}.",
        key="name",
        value=name,
        source_turn_ids=[turn.id],
    )


#: The listener greeting or thanking the user by name at the start of its reply: "Nice to meet you,
#: Tomasz!", "Hi Winnie!", "Thanks, Rosalind.", "No problem, Joaquin.", "Sorry, Marek!".
_ADDRESSED: Final = re.compile(
    r"^(?:(?i:(?:hi|hello|hey|hiya|thanks|thank you|sorry|welcome|nice to meet you|great to meet you|"
    r"lovely to meet you|pleased to meet you|no problem|of course|got it|noted|sure|okay|ok|congrats|"
    r"congratulations|good morning|good evening|ah|oh)(?: there| so much| again)?,?\s+)"
    # any short opening of two words or more said to the user before their name: "Happy to help,
    # Bartholomew!", "Let's do it, Imani —"; not an exclamation at a name ("Wow, Adele!")
    r"|[A-Za-z][\w']*(?:\s+[\w']+){1,4},\s+)"
    r"(?P<name>[A-Z][a-z'-]+)(?:\s+(?P<last>[A-Z][a-z'-]+))?\s*[!,.?—–-]"
)


def addressed_as(reply: str, said: str) -> str | None:
    """The name the listener's ``reply`` greets the user by, when the user's turn before it (``said``)
    gave that name: whatever words the user gave it in ("Tomasz is the name", "I'm called Kirra",
    "it's Marek actually", a bare "Rosalind Okafor"), the reply says it was theirs. Not a name the user
    did not say (the reply may guess wrong: "You're welcome, Mark!")."""
    found = _ADDRESSED.match(reply.strip())
    if found is None:
        return None
    name = found.group("name")
    if not re.search(rf"\b{re.escape(name)}\b", said) or not introduces(name, UNKNOWN_SPEAKER, surely=True):
        return None
    if known_town(name) and not _opens_as_name(said, name):
        return None  # "Great choice, Leeds!" after "I moved to Leeds": the town, not the user
    # "Jo is my sister": a name the user gave as someone else's is no greeting of theirs
    if re.search(rf"\b{re.escape(name)}\s+(?:is|was|'s)\s+(?:my|our)\b", said):
        return None
    # "… a collie puppy, we're calling her Tova!" / "Welcome, Tova!": the reply greets the pet
    named = re.search(rf"\b(?:call(?:ed|ing)? (?:him|her|it|them)|named?)\s+{re.escape(name)}\b", said, re.I)
    animal = any(
        word.rstrip("s") in PET_KIND or word in PET_KIND for word in re.findall(r"[a-z]+", said.casefold())
    )
    return None if named and animal else name


def _opens_as_name(said: str, name: str) -> bool:
    """The user's turn opens with the name, as one does with one's own ("Florence here", "Jordan at
    your service")."""
    return re.match(rf"\W*(?:(?i:hi|hey|hello|it's|this is|i'm)\W+)?{re.escape(name)}\b", said) is not None


def signed_name(turn: TurnText) -> str | None:
    """The name a user of no known name signed their message with ("Thanks! — Niamh", "Cheers, Eilidh")
    or opened it with ("hi it's Ngozi!"), if any."""
    if turn.role != "user" or turn.speaker != UNKNOWN_SPEAKER:
        return None
    signed = _SIGN_OFF.search(turn.text) or _THANKED_SIGN_OFF.search(turn.text) or _IT_IS.match(turn.text)
    name = signed.group("name") if signed else None
    if name is None or name.capitalize() in _ASSISTANTS | _NOT_OPENING_NAMES:
        return None
    return name if name[:1].isupper() and introduces(name, UNKNOWN_SPEAKER) else None


#: What "it's …" opens a message with that is no name: a day, a season, a feast.
_NOT_OPENING_NAMES: Final = frozenset(
    ["January", "February", "March", "July", "September", "October", "November", "December", "Christmas",
     "Easter", "Halloween", "Thanksgiving", "Diwali", "Eid", "Ramadan", "Hanukkah", "Spring", "Summer",
     "Autumn", "Fall", "Winter", "Me", "Him", "Her", "Us", "Them", "That", "This", "Time", "Official"]
)  # fmt: skip


#: What may follow a name that says whose voice it is: "Tomasz speaking", "Bisi on this end again".
_VOICED: Final = (("speaking",), ("on", "this", "end"), ("on", "the", "line"))


def name_given(sentence: Any) -> str | None:
    """The speaker's name said in the ways that only name the one speaking (spaCy parse): "my parents
    named me Niamh", "I was named Bartholomew after my grandad", "let me introduce myself: Rohan Mehta,
    …", "Tomasz speaking", "Bisi on this end again", "sign it from me — Keziah Adeyemi", "signed off as
    Lorcan Byrne, that's me"."""
    opening: list[Any] = []  # the words up to the first stop or dash: "Tomasz speaking — I'm back with …"
    for t in sentence:
        if t.is_punct and any(not (w.is_punct or w.pos_ == "INTJ") for w in opening):
            break
        opening.append(t)
    tokens = [t for t in opening if not t.is_punct and t.pos_ != "INTJ"]
    for token in sentence:
        lemma = token.lemma_.casefold()
        named_me = lemma == "name" and any(
            (c.dep_ == "dobj" and c.lower_ == "me") or (c.dep_ == "nsubjpass" and c.lower_ == "i")
            for c in token.children
        )
        introduced = lemma == "introduce" and any(c.lower_ == "myself" for c in token.children)
        signed = token.lower_ == "me" and token.head.lower_ == "from" and token.i + 1 < len(token.doc)
        if named_me or introduced or signed:
            return _name_after(token)
        if token.lower_ == "as" and any(t.lower_ == "me" and t.head.lemma_ == "be" for t in sentence):
            return _name_after(token)  # "signed off as Lorcan Byrne, that's me"
    if tokens and tokens[0].text[:1].isupper() and tokens[0].pos_ in {"PROPN", "NOUN"}:
        run = [t for t in tokens if t.text[:1].isupper() and t.ent_type_ != "GPE"]
        rest = tuple(t.lower_ for t in tokens[len(run) :] if t.lower_ not in {"again", "now"})
        if rest in _VOICED:
            return " ".join(t.text for t in run)
    return None


def _name_after(token: Any) -> str | None:
    """The capitalised name that comes next in the sentence ("… myself properly — Anneliese, nurse")."""
    after = [t for t in token.doc[token.i + 1 : token.sent.end] if not t.is_punct]
    names: list[Any] = []
    for word in after:
        named = word.pos_ == "PROPN" or (word.text[:1].isupper() and word.pos_ in {"NOUN", "ADJ"})
        # the small model calls many a name a nationality or a company ("Anneliese", "Lorcan"): only a
        # place or a date is surely no name here
        if named and word.ent_type_ not in {"GPE", "DATE"} and word.text not in NOT_NAMES:
            names.append(word)
        elif names or (len(after) and word.i - token.i > 4):
            break
    return " ".join(t.text for t in names[:2]) or None
