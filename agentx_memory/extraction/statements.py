"""Untyped statements: what a speaker says of themself that no pattern types, kept when it reads as a
substantial declarative clause out of context. Pure functions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from .atoms import FactAtom
from .clause_atoms import UNKNOWN_SPEAKER, Context, TurnText, build_atom, trim
from .english import third_person
from .lexicon import RELATION_NOUNS
from .standalone import dangling
from .verbs import past_form

__all__ = ["ADDRESSEE", "OWN_THING", "embedded_statement", "statement"]

_MIN_STATEMENT_WORDS: Final = 5
_WORD: Final = re.compile(r"[a-z0-9']+")
ADDRESSEE: Final = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)
#: Not worth keeping as a free statement: negations (only typed patterns may negate a fact), pronouns
#: with nothing to resolve them, obligations of the moment and mental states.
_VAGUE: Final = re.compile(
    r"\b(?:not|never|no longer|he|she|they|him|her|his|has to|have to|(?:has|have) got to|gotta|"
    r"needs to|must|should|knows|thinks|guesses|feels like|means|wonders|supposes|hopes so|maybe|"
    # "is sure …" is a belief of the moment, and often cut from what it was sure of ("is sure with
    # Gina's hard work and effort", the rest after a comma)
    r"(?:is|am|are|was) (?:so |pretty |really |quite )?(?:sure|certain|convinced))\b",
    re.IGNORECASE,
)
#: A contraction's negation in the statement's own clause, before the first clause that joins it ("Writing
#: isn't always easy"; not "got stuck on a plot twist and couldn't find a way out", whose first clause
#: holds).
_NEGATED_HEAD: Final = re.compile(
    r"^(?:(?!\b(?:and|but|which|who|that|so|because|since|when|while)\b)[^,;])*?\w+n['’]t\b", re.IGNORECASE
)
#: The verbs a statement may go on with by name; any other word must be a past by its form
#: (:func:`.verbs.past_form`: "held my dad's 70th on 24 May", "threw a party").
_NAMED_VERB: Final = re.compile(
    r"is|are|was|were|has|have|had|\w+s|\w+ed|went|got|made|took|saw|met|did|found|gave|felt|kept|"
    r"began|ran|won|lost|bought|built|wrote|read|left|spent|thought|knew|came",
    re.IGNORECASE,
)
#: A statement clause goes on with a verb (the subject is already consumed).
_STATEMENT_VERB: Final = re.compile(
    # "and others", or one of the speaker's with them ("John and John's wife were road tripping …"; a
    # named person with them is the dated event's reader's: "Dana and Theo are seeing Muse on the 22nd")
    r"^(?:and (?:others|[A-Z][\w-]*'s [a-z-]+)\s+)?"
    r"(?:(?:really|also|just|still|actually|recently|finally|now|currently|always|never|"
    r"usually|often|even)\s+)*(?P<verb>\w+)\b",
    re.IGNORECASE,
)


def _a_verb(found: re.Match[str] | None) -> bool:
    if found is None:
        return False
    verb = found["verb"]
    return bool(_NAMED_VERB.fullmatch(verb)) or past_form(verb.casefold())


def statement(canonical: str, ctx: Context, persons: Sequence[str]) -> FactAtom | None:
    """What the speaker says of themself that no pattern reads ("Melanie is swamped with the kids and
    work"): kept as an implied experience when it is a substantial declarative clause, so the memory
    holds the statement in a form that reads out of context. Clauses about the listener are not."""
    rest = canonical[len(ctx.subject) :].strip()
    words = _WORD.findall(rest.casefold())
    if (
        not canonical.startswith(ctx.subject + " ")
        or REACTION.search(canonical)
        or len(words) < _MIN_STATEMENT_WORDS
        or ADDRESSEE.search(rest)
        or _VAGUE.search(rest)
        or _NEGATED_HEAD.search(rest)
        or not _a_verb(_STATEMENT_VERB.match(rest))
        or re.match(rf"^is {re.escape(ctx.subject)}\b", rest, re.IGNORECASE)
    ):
        return None
    return build_atom("statement", "said", trim(rest), canonical, ctx, persons, False, "implied")


_EMBEDDED_FIRST_PERSON: Final = re.compile(r"\b(?:I|I'm|I've|[Mm]y|me|myself|[Oo]ur)\b")
_MIN_EMBEDDED_WORDS: Final = 6
#: "Yoga helps me unwind", "Dancing keeps me sane": a named doing or thing that does something for the
#: speaker, a lasting fact in four words; a pronoun there ("It helps me") points outside the sentence.
_DOES_FOR_ME: Final = re.compile(
    r"^(?!(?:it|this|that|these|those|they|he|she|you|which|what|everything|nothing|something|all|both)\b)"
    r"[A-Za-z][a-z-]+(?: [a-z-]+)? (?:really |always |just |also |still )?"
    r"(?:helps|makes|keeps|lets|gets) me\b"
)
_MIN_DOES_FOR_ME_WORDS: Final = 4
#: "My kids …", "our garden …": the speaker's own thing as the subject, unless it names a slot the
#: typed patterns own (a statement of it would restate the typed fact another phrasing gives). The
#: goal slot has every noun the goal pattern reads: "my aim was to show warmth" is the aim of some
#: piece of work named elsewhere, and the pattern reads "my aim is to …".
OWN_THING: Final = re.compile(
    r"^(?:my|our)\s+(?!(?:\w+\s+)?(?:goal|goals|dream|dreams|plan|plans|aim|aims|ambition|ambitions|hope|"
    r"hopes|resolution|intention|specialty|speciality|skill|skills|job|name|allergy|diet|favou?rite)\b)",
    re.IGNORECASE,
)
#: "Let me know", "thanks for believing in me": said to the listener, not about the speaker.
_IMPERATIVE: Final = re.compile(
    r"^(?:let|thanks|thank|please|tell|check|look|see|here's|here is|wish|congrats|congratulations|hope|"
    r"(?:so\s+)?(?:glad|happy|good|great|nice)\s+to\s+(?:hear|know|see))\b",
    re.IGNORECASE,
)


def embedded_statement(clause: str, turn: TurnText, speaker: str, correction: bool) -> FactAtom | None:
    """A clause about the speaker that does not start with them ("Painting is a fun way for me to
    express my feelings"), rewritten in the third person; the same gates as free statements."""
    if speaker == UNKNOWN_SPEAKER or not _EMBEDDED_FIRST_PERSON.search(clause) or _IMPERATIVE.match(clause):
        return None
    # The piece that is about the speaker, not the greeting or aside around it. It is judged as said:
    # whether it stands alone (a piece after a comma may only modify the one before it).
    parts = re.split(r"([,;!?]|\.\s+|\s+-\s+)", clause)
    pieces = [(part.strip(" ,.!;:"), index == 0 or parts[index - 1].strip() in "!?.") for index, part in
              enumerate(parts) if index % 2 == 0]  # fmt: skip
    about = ((said, opens, third_person(said, speaker)) for said, opens in pieces)
    said, opens, canonical = next(
        (found for found in about if re.search(rf"\b{re.escape(speaker)}\b", found[2])), ("", True, "")
    )
    if dangling(said, opens) is not None or _IMPERATIVE.match(said):
        return None
    words = _WORD.findall(canonical.casefold())
    # "My dad retired last month", "My grandma passed away": one of the speaker's people did something
    # (with no pronoun of what was said before: "my ex watched it nonstop")
    done_by_theirs = bool(_THEIRS_DID.match(said)) and not _POINTED.search(said)
    shortest = _MIN_DOES_FOR_ME_WORDS if _DOES_FOR_ME.match(said) or done_by_theirs else _MIN_EMBEDDED_WORDS
    if len(words) < shortest or ADDRESSEE.search(canonical) or _VAGUE.search(canonical):
        return None
    if _NEGATED_HEAD.search(canonical):
        return None
    if any(pattern.search(canonical) for pattern in (_ONLY_JUDGED, _IT_FEELS, _POINTING, REACTION)):
        return None  # "Seeing my kids' smiles was so awesome": a feeling of the moment, no fact
    # "My brother has just moved to Dubai": the brother's news, not the speaker's (their profile must not
    # take it); the statement is filed under "<speaker>'s brother"
    subject = speaker
    if (theirs := _THEIRS.match(canonical[len(speaker) :] if canonical.startswith(speaker) else "")) and (
        {theirs.group("who").casefold(), theirs.group("who").casefold().removesuffix("s")} & RELATION_NOUNS
    ):
        rest = canonical[len(speaker) + theirs.end() :]
        # not when a name follows ("my roommate Léa is …": Léa's, read as hers elsewhere) or the rest
        # names the speaker ("my mother is ashamed of me": about the speaker too)
        if not re.match(r"\s+[A-Z]", rest) and not re.search(rf"\b{re.escape(speaker)}\b", rest):
            subject = f"{speaker}'s {theirs.group('who')}"
    ctx = Context(turn=turn, subject=subject, correction=correction, is_speaker=subject == speaker)
    atom = build_atom("statement", "said", trim(canonical), canonical, ctx, [speaker], False, "implied")
    if not re.search(rf"\b{re.escape(speaker)}\b", atom.statement):
        return None  # "Writing is hard but moments like these make me …": cut to the part not about them
    return atom


#: One of the speaker's people and a verb in the past: "My dad retired last month".
_POINTED: Final = re.compile(r"\b(?:it|them|this|that|these|those)\b", re.IGNORECASE)
_PEOPLE: Final = "|".join(sorted(RELATION_NOUNS, key=len, reverse=True))
_DONE: Final = r"(?:\w+ed|got|went|had|left|won|lost|broke|began|made|took|came|fell|gave|passed|moved)"
_THEIRS_DID: Final = re.compile(
    rf"^(?:my|our)\s+(?:(?:little|big|older|younger|eldest|youngest|twin|best)\s+)?(?:{_PEOPLE})\s+"
    rf"(?:just\s+|finally\s+|recently\s+)?{_DONE}\b",
    re.IGNORECASE,
)
#: The possessed person a statement opens with: "'s brother", "'s little sister", "'s best mate".
_THEIRS: Final = re.compile(
    r"^'s (?:(?:new|old|little|big|older|younger|best|eldest|youngest|oldest|baby|twin)\s+)?"
    r"(?P<who>[a-z][\w-]*)\b"
)


#: A clause whose whole predicate is a judgement: "… is beyond words", "… was so awesome", "… makes
#: sense". What it judges may be worth keeping when said plainly; the judgement alone is not.
_ONLY_JUDGED: Final = re.compile(
    r"\b(?:is|was|are|were)\s+(?:so\s+|really\s+|just\s+|truly\s+|pretty\s+|such\s+)?(?:amazing|awesome|great|"
    r"beyond words|the best|incredible|wonderful|priceless|unbelievable|indescribable|fantastic|"
    r"so freeing|freeing|cool|special|fun|magical)[.!]*$|\bmakes (?:total |so much )?sense[.!]*$",
    re.IGNORECASE,
)
#: "Nate is really stoked to see all his hard work paying off": a reaction of the moment, no lasting fact.
REACTION: Final = re.compile(
    r"\b(?:is|am|are|was|were)\s+(?:\w+\s+)?(?:stoked|thrilled|excited|glad|happy|pumped|psyched|delighted|"
    r"relieved)\s+to\s+(?:see|hear|know|find|learn)\b",
    re.IGNORECASE,
)
#: "It is a story Joanna has had for ages": what "it" is was said before; read alone, it is no one's.
_POINTING: Final = re.compile(r"^(?:it|this|that)\s+(?:is|was|'s)\b", re.IGNORECASE)
#: "It feels good to use my skills …", "It's so rewarding to …": the speaker's feeling about a doing.
_IT_FEELS: Final = re.compile(
    r"^it\s+(?:feels|felt|is|was|'s)\s+(?:so\s+|really\s+|just\s+)?(?:good|great|nice|amazing|awesome|"
    r"rewarding|satisfying|fulfilling)\b",
    re.IGNORECASE,
)
