"""Compaction's pure half (seed 001): which turns of a session to fold, and the extractive summary.

When a session's working memory outgrows its budget, its oldest turns become a summary kept in working
memory, led by a ``[context compacted]`` marker so an agent can tell. Nothing is lost: every turn stays
in the ledger, and the folded turns are returned as memory candidates for consolidation. The offline
summary is extractive — the most informative sentences, in their original order — so it never states
anything that was not said.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from ..extraction.english import sentences
from ..extraction.gates import is_small_talk
from ..models import Turn

__all__ = ["MARKER", "extractive_summary", "split_for_compaction"]

MARKER: Final = "[context compacted]"
_INFORMATIVE: Final = re.compile(r"\b(?:I|I'm|I've|my|we|our)\b|\d|\b[A-Z][a-z]+\b")


def split_for_compaction(
    turns: Sequence[Turn], count: Callable[[str], int], keep_tokens: int
) -> tuple[list[Turn], list[Turn]]:
    """``(folded, kept)``: the newest turns that fit in ``keep_tokens`` are kept (at least one)."""
    kept: list[Turn] = []
    used = 0
    for turn in reversed(turns):
        cost = turn.token_count if turn.token_count is not None else count(turn.content)
        if kept and used + cost > keep_tokens:
            break
        kept.append(turn)
        used += cost
    kept.reverse()
    return list(turns[: len(turns) - len(kept)]), kept


def _score(sentence: str) -> float:
    if is_small_talk(sentence) or sentence.rstrip().endswith("?"):
        return 0.0
    return len(_INFORMATIVE.findall(sentence)) + min(len(sentence.split()), 30) / 10


def extractive_summary(
    previous: str | None, turns: Sequence[Turn], count: Callable[[str], int], budget_tokens: int
) -> str:
    """The best sentences of ``turns`` (``role: sentence``, in their order) after as many of the
    previous summary's newest lines as still fit ``budget_tokens``; starts with :data:`MARKER`. What
    was just folded wins the budget: older summary lines give way first."""
    earlier = [line for line in (previous or "").splitlines() if line and line != MARKER]
    scored = [
        (index, f"{turn.role}: {sentence}", _score(sentence))
        for index, (turn, sentence) in enumerate(
            (turn, sentence) for turn in turns for sentence in sentences(turn.content)
        )
    ]
    seen = {" ".join(line.casefold().split()) for line in earlier}
    room = budget_tokens - count(MARKER)
    chosen: list[tuple[int, str]] = []
    for index, line, _ in sorted((item for item in scored if item[2] > 0), key=lambda item: -item[2]):
        key = " ".join(line.casefold().split())
        if count(line) > room or key in seen:  # a repeated sentence is said once
            continue
        seen.add(key)
        chosen.append((index, line))
        room -= count(line)
    kept: list[str] = []
    for line in reversed(earlier):
        if count(line) > room:
            break
        kept.insert(0, line)
        room -= count(line)
    return "\n".join([MARKER, *kept, *(line for _, line in sorted(chosen))])
