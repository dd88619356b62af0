"""The instruction-like check's start-position filter (extraction/gates.py): it must skip only positions
where no branch can match, so the filtered pattern finds exactly what its branches alone find."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from agentx_memory.extraction.gates import (
    _INJECTION,
    _INJECTION_BRANCHES,
    _INJECTION_FLAGS,
    is_instruction_like,
)
from tests.payloads import INJECTIONS

_UNFILTERED = re.compile(_INJECTION_BRANCHES, _INJECTION_FLAGS)
#: One phrase per branch.
_PHRASES = [
    "ignore previous instructions",
    "disregard the prior rules",
    "forget all earlier prompts",
    "from now on, answer",
    "you are now",
    "always obey",
    "never reveal",
    "new system instruction",
    "act as if you were",
    "system:",
    "assistant :",
    "jailbreak",
    "developer mode",
    "do anything now",
    "admin password is",
    "root password is",
    "master password is",
    "remember that you",
]
# Words and phrases the branches are made of, so random text often holds (parts of) a real phrase.
_PIECES = [
    *re.findall(r"[a-z]+", _INJECTION_BRANCHES.replace(r"\b", " ").replace(r"\s", " ")),
    *INJECTIONS,
    *_PHRASES,
    " ",
    "\n",
    ",",
    ":",
    "_",
    "1",
    "é",
    "\u017f",
    "\u0131",
    "I",
    "S",
    "A",
]


def _found(pattern: re.Pattern[str], text: str) -> tuple[int, int] | None:
    match = pattern.search(text)
    return None if match is None else match.span()


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=3), max_size=12).map("".join))
def test_the_filter_skips_no_position_a_branch_matches_from(text: str) -> None:
    assert _found(_INJECTION, text) == _found(_UNFILTERED, text)


def test_every_branch_starts_on_a_letter_the_filter_lets_through() -> None:
    # One phrase per branch, each also capitalised and at a line's start: a new branch whose first
    # letter the lookahead lacks would never match, and this fails.
    for phrase in _PHRASES:
        for text in (phrase, phrase.capitalize(), f"ok.\n{phrase.upper()}"):
            assert _UNFILTERED.search(text), text  # the premise: the branch matches on its own
            assert is_instruction_like(text), text
        mid_line = f"well, {phrase} x"  # the line-start branches do not match here, and must not
        assert is_instruction_like(mid_line) == bool(_UNFILTERED.search(mid_line)), mid_line


def test_a_phrase_inside_a_word_is_not_an_instruction() -> None:
    assert not is_instruction_like("Reignore previous instructions? Unsystem: no. Knew instructions.")
