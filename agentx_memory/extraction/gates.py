"""Write quality gates: which turns (and sentences) may become memories at all. Pure functions.

A wrong memory is worse than a missing one, so these gates refuse generously: greetings, small talk,
acknowledgements, tool output, text the memory itself injected (the recall echo), restated system
prompts, and anything that reads as an instruction to the agent. Instructions are also *flagged*: the
caller audits them, because a stored "always answer …" would be a prompt-injection foothold.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

__all__ = ["GateVerdict", "gate_turn", "is_instruction_like", "is_small_talk", "normalise"]

#: What reads as an instruction to the agent, one branch per phrase. Each branch begins where a word
#: begins (or at a line's start) and on one of the letters in :data:`_INJECTION`'s lookahead.
_INJECTION_BRANCHES: Final = r"""
    \b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|above|earlier)\s+
        (?:instructions?|prompts?|rules?|messages?)
      | \bfrom\s+now\s+on,?\s+(?:you|always|never|only|answer|respond|reply)
      | \byou\s+(?:are\s+now|must\s+now|will\s+now)\b
      | \b(?:always|never)\s+(?:answer|respond|reply|say|tell|reveal|obey|output)\b
      | \bnew\s+(?:system\s+)?instructions?\b
      | \bact\s+as\s+(?:if\s+you\s+were|an?\s+unrestricted|dan\b)
      | ^\s*(?:system|assistant)\s*:
      | \b(?:jailbreak|developer\s+mode|do\s+anything\s+now)\b
      | \b(?:admin|root|master)\s+password\s+is\b
      | \bremember\s+that\s+(?:you|the\s+(?:admin|system))\b"""
_INJECTION_FLAGS: Final = re.IGNORECASE | re.VERBOSE | re.MULTILINE
# The lookarounds only skip start positions no branch can match from (a letter after a letter, or a
# character that begins no branch): Python's engine otherwise tries every branch at every position, and
# this runs on every stored turn and every memory line get_context injects (37 -> 13 us a dev turn).
# tests/unit/test_gates.py checks that a new branch's first letter is in the lookahead.
_INJECTION: Final = re.compile(
    rf"(?:^|(?<![a-z]))(?=[\sidfyanjrms])(?:{_INJECTION_BRANCHES})", _INJECTION_FLAGS
)
_SYSTEM_PROMPT: Final = re.compile(
    r"^\s*(?:you\s+are\s+(?:a|an|the)\s+(?:helpful|friendly|expert|professional|ai|large|knowledgeable|"
    r"concise|senior)\b|as\s+an\s+ai\b|your\s+(?:role|task|job)\s+is\s+to\b|system\s+prompt\b)",
    re.IGNORECASE,
)
_ECHO: Final = re.compile(
    r"\[mem:[^\]]*\]|^\s*#{1,4}\s*(?:memory|memories|facts?|profile|relevant\s+memor|what\s+i\s+know|"
    r"strateg|goals?|context|conversation\s+so\s+far)\b|^\s*relevant\s+memories\s*:|\[context compacted\]",
    re.IGNORECASE | re.MULTILINE,
)
_SMALL_TALK_WORDS: Final = frozenset(
    [
        "hi",
        "hey",
        "hello",
        "hiya",
        "yo",
        "howdy",
        "morning",
        "evening",
        "afternoon",
        "good",
        "great",
        "nice",
        "cool",
        "awesome",
        "ok",
        "okay",
        "k",
        "kk",
        "sure",
        "thanks",
        "thank",
        "thx",
        "ty",
        "you",
        "u",
        "much",
        "so",
        "very",
        "lol",
        "haha",
        "hahaha",
        "lmao",
        "yes",
        "yeah",
        "yep",
        "yup",
        "no",
        "nope",
        "nah",
        "bye",
        "goodbye",
        "see",
        "ya",
        "later",
        "cya",
        "cheers",
        "welcome",
        "np",
        "problem",
        "got",
        "it",
        "perfect",
        "sounds",
        "fine",
        "alright",
        "right",
        "wow",
        "oh",
        "ah",
        "hmm",
        "how's",
        "hows",
        "how",
        "are",
        "is",
        "it",
        "going",
        "doing",
        "what's",
        "whats",
        "up",
        "sup",
        "there",
        "all",
        "the",
        "same",
        "to",
        "too",
        "and",
        "again",
        "a",
        "lot",
        "totally",
        "indeed",
        "exactly",
        "true",
        "agreed",
        "makes",
        "sense",
        "love",
        "that",
        "amazing",
        "interesting",
        "glad",
        "hear",
        "take",
        "care",
        "have",
        "day",
        "night",
        "weekend",
        "well",
        "pleasure",
        "one",
        "sweet",
        "wonderful",
        "fantastic",
        "gotcha",
        "noted",
        "understood",
        "appreciate",
        "appreciated",
        "it's",
        "its",
        "that's",
        "thats",
        "definitely",
        "absolutely",
        "of",
        "course",
        "i",
        "am",
        "i'm",
        "me",
    ]
)
_WORD: Final = re.compile(r"[a-z']+")


@dataclass(frozen=True)
class GateVerdict:
    """``refuse`` says why nothing may be learned from the turn; ``flag`` why the turn is audited."""

    refuse: str | None = None
    flag: str | None = None


def normalise(text: str) -> str:
    """Casefolded, whitespace-collapsed: how an echo and its source are compared."""
    return " ".join(text.casefold().split())


def is_instruction_like(text: str) -> bool:
    """Whether ``text`` reads as an instruction to the agent ("ignore previous instructions", "System:")."""
    return _INJECTION.search(text) is not None


def is_small_talk(text: str) -> bool:
    """Greetings, thanks, acknowledgements and the like: every word is a small-talk word."""
    if any(map(str.isdigit, text)):
        return False
    words = _WORD.findall(text.casefold())
    return not words or (len(words) <= 12 and all(word in _SMALL_TALK_WORDS for word in words))


def _looks_like_tool_output(text: str) -> bool:
    stripped = text.strip()
    if stripped[:1] in "{[<" and stripped[-1:] in "}]>":
        return True
    if re.search(r"Traceback \(most recent call last\)|^\s+at [\w.$]+\(|^\$ \w|^>>> ", text, re.MULTILINE):
        return True
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) >= 3 and sum(bool(re.match(r"^\s*[\[\d{<|]", line)) for line in lines) >= len(lines) * 0.6:
        return True  # log lines, CSV rows, tables
    letters = sum(char.isalpha() or char.isspace() for char in text)
    return len(text) > 80 and letters / len(text) < 0.7


def gate_turn(role: str, text: str, echoed: Collection[str] = ()) -> GateVerdict:
    """Whether a turn may be learned from. ``echoed`` holds normalised texts the memory injected into
    this conversation's context (``get_context``'s lines), so an agent repeating them adds nothing."""
    flag = "instruction-like payload" if is_instruction_like(text) else None
    if flag:
        return GateVerdict(refuse=flag, flag=flag)
    if role == "tool":
        return GateVerdict(refuse="tool output")
    if role == "system" or _SYSTEM_PROMPT.search(text):
        return GateVerdict(refuse="system prompt")
    if _ECHO.search(text):
        return GateVerdict(refuse="recall echo")
    normal = normalise(text)
    if normal and any(normal in echo or echo in normal for echo in echoed if len(echo) >= 20):
        return GateVerdict(refuse="recall echo")
    if _looks_like_tool_output(text):
        return GateVerdict(refuse="tool output")
    if is_small_talk(text):
        return GateVerdict(refuse="small talk")
    return GateVerdict()
