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

__all__ = ["MARKER", "extractive_summary", "fit_summary", "split_for_compaction"]

MARKER: Final = "[context compacted]"
#: First-person words, numbers (each once, "10:40" too) and capitalised words (names, places, dates).
_INFORMATIVE: Final = re.compile(r"\b(?:I|I'm|I've|my|we|our)\b|\d+(?:[:.,/]\d+)*|\b[A-Z][a-z]+\b")
_ROLE_PREFIX: Final = re.compile(r"^(?:user|assistant|system|tool): ")
#: The least score of a line an earlier summary kept.
_KEPT_FLOOR: Final = 0.1


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


def _said(line: str) -> str:
    """A summary line without its ``role: `` prefix (an LLM's lines may have none)."""
    return _ROLE_PREFIX.sub("", line, count=1)


def _key(line: str) -> str:
    return " ".join(_said(line).casefold().split())


def _pick(
    candidates: Sequence[int],
    lines: Sequence[str],
    scores: Sequence[float],
    cost: Callable[[str], int],
    room: int,
) -> list[int]:
    """The best of ``candidates`` (ties: the earlier one) that fit ``room`` tokens, greedily."""
    chosen: list[int] = []
    for index in sorted(candidates, key=lambda i: (-scores[i], i)):
        if scores[index] > 0 and cost(lines[index]) <= room:
            chosen.append(index)
            room -= cost(lines[index])
    return chosen


def extractive_summary(
    previous: str | None, turns: Sequence[Turn], count: Callable[[str], int], budget_tokens: int
) -> str:
    """The previous summary's lines and ``turns``'s sentences (as ``role: sentence``) that fit
    ``budget_tokens``, in their order, after :data:`MARKER`.

    A repeated compaction builds on the last one without freezing on it: the best of what was just
    folded gets half the budget (at least its best sentence), the best of the earlier summary the
    rest, and what is left of the room goes to the next best new sentences. A sentence said again is
    kept once, where it was first said."""
    earlier = [line for line in (previous or "").splitlines() if line.strip() and line != MARKER]
    fresh = [f"{turn.role}: {sentence}" for turn in turns for sentence in sentences(turn.content)]
    lines: list[str] = []
    seen: set[str] = set()
    old = 0  # lines[:old] come from the earlier summary
    for position, line in enumerate([*earlier, *fresh]):
        if _key(line) not in seen:
            seen.add(_key(line))
            lines.append(line)
            old += position < len(earlier)
    # An earlier line was chosen once (perhaps by an LLM, in words the heuristic scores low): never 0.
    scores = [max(_score(_said(line)), _KEPT_FLOOR if i < old else 0.0) for i, line in enumerate(lines)]
    costs = {line: count(line) for line in lines}
    room = budget_tokens - count(MARKER)
    share = room // 2 if old else room
    best = max(range(old, len(lines)), key=lambda i: (scores[i], -i), default=None)
    if best is not None and scores[best] > 0 and share < costs[lines[best]] <= room:
        share = costs[lines[best]]  # the best new sentence always gets in when it fits at all
    new = _pick(range(old, len(lines)), lines, scores, costs.__getitem__, share)
    room -= sum(costs[lines[i]] for i in new)
    kept = _pick(range(old), lines, scores, costs.__getitem__, room)
    room -= sum(costs[lines[i]] for i in kept)
    rest = [i for i in range(old, len(lines)) if i not in new]
    more = _pick(rest, lines, scores, costs.__getitem__, room)
    return "\n".join([MARKER, *(lines[index] for index in sorted([*kept, *new, *more]))])


def fit_summary(text: str, count: Callable[[str], int], budget_tokens: int) -> str:
    """An LLM's summary led by :data:`MARKER`, trimmed extractively (its best sentences, in order) when
    it came back longer than ``budget_tokens``: a model's own token count is not ours."""
    summary = "\n".join([MARKER, *(line.strip() for line in text.strip().splitlines() if line.strip())])
    if count(summary) <= budget_tokens:
        return summary
    said = [sentence for line in summary.splitlines()[1:] for sentence in sentences(line)]
    return extractive_summary("\n".join(said), [], count, budget_tokens)
