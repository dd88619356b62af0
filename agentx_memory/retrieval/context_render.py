"""Context injection, the pure part: recalled memories → a markdown block that fits a token budget.

``get_context`` gathers the memories and calls :func:`render_context`; the agent prepends the text to
its system prompt. No I/O here. Every memory becomes one line ending in ``[mem:<short id>]``: the tag makes
the line traceable to the stored memory, and it marks the text as recalled, so the extraction step can
drop it (:func:`strip_recalled`, :func:`is_recall_echo`) instead of learning it a second time.

Budget policy (``render_context``). The sections, most important first: facts, goals, turns,
strategies, entities, reflection; within a section, by score. Three greedy passes, each skipping
whatever does not fit in what is left and moving on to smaller items:

1. *one each*: the best memory of every non-empty section, in priority order, so no section that
   could fit a line is left out;
2. *fair share*: each section in priority order adds memories while its own cost (its header
   included) stays within half the budget, so one large section cannot starve the rest;
3. *fill*: everything left, in global score order (section priority breaks ties), until nothing fits.

The main header and a section's header count toward the budget; a section header is emitted only
with at least one of its lines. The passes estimate with per-line counts, which are exact for an additive
counter (the default WordPiece one); for any other the whole final text is then counted and, should
joining have changed the count, the last memory added is dropped until it fits.

Display: the sections in a fixed reading order (facts, past conversation, strategies, goals,
reflection, people and things), turns by time so they read as a conversation, the rest by score.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from ..models import Fact, MemoryItem
from .chatter import is_chatter
from .items import fact_item
from .neutralise import MEMORY_TAG_RE, neutralise
from .tokens import TokenCounter

__all__ = [
    "HEADER",
    "MAX_LINE_CHARS",
    "MIN_BUDGET_TOKENS",
    "RECALL_MARKER_RE",
    "STALE_MARK",
    "ContextSections",
    "RenderedContext",
    "at_present",
    "is_recall_echo",
    "nearby_facts",
    "profile_line",
    "render_context",
    "short_id",
    "strip_recalled",
    "worth_injecting",
]

#: The block's first line (``now`` adds ``; as of <date>`` before the closing parenthesis).
HEADER: Final = "## Memory (agentx-memory; recalled, not said in this conversation)"
_HEADER_PREFIX: Final = HEADER[:-1]
#: What a stale turn's line says after its date, when no current turn could take its place.
STALE_MARK: Final = "(earlier; since changed)"
#: Longest memory text on one line, in characters; longer texts end in "…".
MAX_LINE_CHARS: Final = 300
# The reflection is a summary written to be read whole, so it gets a longer line.
_MAX_REFLECTION_CHARS: Final = 600
_MAX_SPEAKER_CHARS: Final = 40
#: The smallest budget a caller should accept: with the WordPiece counter, the header (with its date),
#: one section header and one maximum-length line of plain English tagged with a UUID cost ~120.
MIN_BUDGET_TOKENS: Final = 128

#: Matches one ``[mem:<id>]`` tag; group 1 is the memory id.
RECALL_MARKER_RE: Final = MEMORY_TAG_RE
_TAG_AND_SPACE_RE: Final = re.compile(r"[ \t]*" + RECALL_MARKER_RE.pattern)
_INJECTED_LINE_RE: Final = re.compile(r"-\s.*" + RECALL_MARKER_RE.pattern)
# An id that a tag could not carry whole (whitespace, brackets) would break traceability.
_TAGGABLE_ID_RE: Final = re.compile(r"[^\[\]\s]+")

# Section field → heading, in display order.
_TITLES: Final[Mapping[str, str]] = {
    "facts": "### Known facts",
    "turns": "### Relevant past conversation",
    "strategies": "### Strategies that worked",
    "goals": "### Active goals",
    "reflection": "### Latest reflection",
    "entities": "### People and things",
    "documents": "### Saved notes",
}
_PRIORITY: Final = ("facts", "goals", "turns", "documents", "strategies", "entities", "reflection")


@dataclass(frozen=True)
class ContextSections:
    """The memories ``get_context`` gathered, by section, each in any order (they are ranked here)."""

    facts: Sequence[MemoryItem]
    turns: Sequence[MemoryItem]
    strategies: Sequence[MemoryItem]
    goals: Sequence[MemoryItem]
    entities: Sequence[MemoryItem] = ()
    reflection: MemoryItem | None = None
    #: What a framework stored as the agent's memory (a LangGraph store's items).
    documents: Sequence[MemoryItem] = ()

    @classmethod
    def of(cls, by_section: Mapping[str, Sequence[MemoryItem]]) -> ContextSections:
        """Sections from items grouped by their kind's section (``kinds.KindSpec.section``)."""
        return cls(
            facts=by_section.get("facts", ()),
            turns=by_section.get("turns", ()),
            strategies=by_section.get("strategies", ()),
            goals=by_section.get("goals", ()),
            entities=by_section.get("entities", ()),
            documents=by_section.get("documents", ()),
        )


@dataclass(frozen=True)
class RenderedContext:
    """The block to inject, its token count by the counter it was rendered with, and what it holds."""

    text: str
    tokens: int
    #: Ids of the memories in ``text``, in the order they appear.
    memory_ids: tuple[str, ...]
    #: Distinct memories given that are not in ``text`` (no room, blank, or an id a tag cannot carry).
    dropped: int


@dataclass(frozen=True)
class _Candidate:
    section: str
    item: MemoryItem
    line: str
    #: Tokens of the line with the newline that precedes it.
    cost: int
    #: Position among all candidates, for stable tie-breaks.
    rank: int


def render_context(
    sections: ContextSections,
    budget_tokens: int,
    counter: TokenCounter,
    *,
    now: datetime | None = None,
    profile: str | None = None,
) -> RenderedContext:
    """Render the memories of ``sections`` as markdown whose ``counter`` count is ≤ ``budget_tokens``.

    Returns an empty text (0 tokens) when there is nothing to render or the budget cannot hold the
    header and one line; the caller decides whether that is an error. ``now``, when given, puts the
    date of the recall in the header so the agent can tell how old the dated memories are.
    """
    candidates, distinct = _candidates(sections, counter)
    empty = RenderedContext(text="", tokens=0, memory_ids=(), dropped=distinct)
    if budget_tokens <= 0 or not candidates:
        return empty
    header = HEADER if now is None else f"{_HEADER_PREFIX}; as of {now.date().isoformat()})"
    if profile:  # the user's profile comes first, before any recalled memory
        header = f"{header}\n{profile}"
    header_cost = counter.count(header)
    section_costs = {name: counter.count("\n" + title) for name, title in _TITLES.items()}
    chosen = _allocate(candidates, budget_tokens, header_cost, section_costs)
    while chosen:
        text, ids = _assemble(header, chosen)
        # The text is the header and the counted pieces joined at newlines, so an additive counter's
        # sum is its count (re-counting a full block cost ~3.5 ms here).
        tokens = _estimate(chosen, header_cost, section_costs) if counter.additive else counter.count(text)
        if tokens <= budget_tokens:
            return RenderedContext(text=text, tokens=tokens, memory_ids=ids, dropped=distinct - len(ids))
        chosen.pop()  # the last one added is the least important
    return empty


def profile_line(preferences: Mapping[str, object], expertise: Sequence[str]) -> str | None:
    """The profile as one line ("About the user: name Dana; lives in Toronto; …"), or None when empty.
    Only scalar values: a nested preference object would not read as a line."""
    parts = [
        f"{neutralise(key.replace('_', ' '))} {neutralise(str(value))}"
        for key, value in preferences.items()
        if isinstance(value, str | int | float) and not isinstance(value, bool) and neutralise(str(value))
    ]
    if expertise:
        parts.append("expertise " + ", ".join(neutralise(area) for area in expertise))
    return f"About the user: {'; '.join(parts)}" if parts else None


def is_recall_echo(text: str) -> bool:
    """Whether ``text`` contains a memory tag, i.e. repeats something that was injected."""
    return RECALL_MARKER_RE.search(text) is not None


def strip_recalled(text: str) -> str:
    """``text`` without what :func:`render_context` injected, for the extraction step.

    Removes whole injected blocks (the memory header, its section headings and its memory lines),
    any other ``- … [mem:<id>]`` line, and the bare tags left elsewhere (a reply that quoted a memory
    keeps its own words). Everything else is returned unchanged, line endings included.
    """
    kept: list[str] = []
    in_block = False
    for line in text.splitlines(keepends=True):
        bare = line.strip()
        if bare.startswith(_HEADER_PREFIX):
            in_block = True
            continue
        if in_block and bare in _TITLES.values():
            continue
        if _INJECTED_LINE_RE.fullmatch(bare):
            continue
        in_block = False
        kept.append(_TAG_AND_SPACE_RE.sub("", line))
    return "".join(kept)


def _estimate(chosen: Sequence[_Candidate], header_cost: int, section_costs: Mapping[str, int]) -> int:
    """Header, the headers of the sections present and every chosen line, as counted one by one."""
    sections = {candidate.section for candidate in chosen}
    return header_cost + sum(section_costs[name] for name in sections) + sum(c.cost for c in chosen)


def _candidates(sections: ContextSections, counter: TokenCounter) -> tuple[list[_Candidate], int]:
    """Renderable memories (first occurrence of each id, by section priority) and the distinct id count."""
    seen: set[str] = set()
    candidates: list[_Candidate] = []
    for name in _PRIORITY:
        for item in _section_items(sections, name):
            if item.id in seen:
                continue
            seen.add(item.id)
            line = _line(name, item)
            if line is None:
                continue
            cost = counter.count("\n" + line)
            candidates.append(_Candidate(name, item, line, cost, len(candidates)))
    return candidates, len(seen)


def _section_items(sections: ContextSections, name: str) -> Sequence[MemoryItem]:
    if name == "reflection":
        return () if sections.reflection is None else (sections.reflection,)
    items: Sequence[MemoryItem] = getattr(sections, name)
    return items


def _line(section: str, item: MemoryItem) -> str | None:
    """The item's one markdown line, or None when it has no text or an id no tag can carry."""
    if not _TAGGABLE_ID_RE.fullmatch(item.id):
        return None
    limit = _MAX_REFLECTION_CHARS if section == "reflection" else MAX_LINE_CHARS
    text = _clean(item.content, limit)
    if not text:
        return None
    if section == "turns":
        text = _turn_prefix(item) + text
    return f"- {text} [mem:{short_id(item.id)}]"


def worth_injecting(items: Sequence[MemoryItem], floor: float, limit: int) -> list[MemoryItem]:
    """The recalled items a context block should spend tokens on, in rank order: at most ``limit``,
    each scoring at least ``floor`` × the best score. A relative floor, because scores are fused and
    their scale moves with the query; a block padded with weak matches dilutes the evidence."""
    best = max((item.score for item in items), default=0.0)
    threshold = floor * best if best > 0 else 0.0
    return [item for item in items if item.score >= threshold][:limit]


def at_present(items: Sequence[MemoryItem]) -> list[MemoryItem]:
    """The recalled items a context block shows the present with: without turns that say nothing
    (:func:`~agentx_memory.retrieval.chatter.is_chatter`: "Noted.", "Will do."), and without stale turns
    (every fact learned from them since superseded) unless no other turn is left, in which case they
    stay, marked "earlier; since changed" by the renderer."""
    kept = [item for item in items if not (item.kind == "episodic" and is_chatter(item.content))]
    if any(item.kind == "episodic" and not item.stale for item in kept):
        kept = [item for item in kept if not (item.kind == "episodic" and item.stale)]
    return kept


def nearby_facts(
    candidates: Sequence[tuple[Fact, float]], known: Collection[str], floor: float, limit: int
) -> list[MemoryItem]:
    """Current facts close to the prompt that are not among the ``known`` ids, as items scored by their
    cosine, best first: at most ``limit``, each at cosine ``floor`` or more. ``candidates``: (fact,
    cosine) as recall saw them (a decomposed query may see a fact twice)."""
    seen = set(known)
    chosen: list[MemoryItem] = []
    for fact, cosine in sorted(candidates, key=lambda pair: (-pair[1], pair[0].id)):
        if len(chosen) >= limit or cosine < floor:
            break
        if fact.id in seen or fact.valid_until is not None:
            continue
        seen.add(fact.id)
        chosen.append(fact_item(fact, cosine, ("vector",)))
    return chosen


def short_id(memory_id: str) -> str:
    """The tag's id: the first 8 characters of a UUID (its first group), else the whole id.

    A full UUID costs ~30 tokens, about half of a typical line; 8 hex characters cost ~5 and are
    unique among one user's memories in practice (``RenderedContext.memory_ids`` keeps the full ids).
    """
    head = memory_id.split("-", 1)[0]
    return head if len(head) >= 8 else memory_id


def _turn_prefix(item: MemoryItem) -> str:
    """``2023-05-08 Caroline: `` — the turn's date and who spoke (display name, else role); a stale
    turn's date reads ``2023-05-08 (earlier; since changed)``."""
    parts: list[str] = []
    if item.timestamp is not None:
        parts.append(item.timestamp.date().isoformat())
    if item.stale:
        parts.append(STALE_MARK)
    speaker = item.metadata.get("speaker")
    name = _clean(speaker, _MAX_SPEAKER_CHARS) if isinstance(speaker, str) else ""
    name = name or (item.role or "")
    if name:
        parts.append(f"{name}:")
    return " ".join(parts) + " " if parts else ""


def _clean(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters, made inert (:func:`neutralise`: tags removed, line
    breaks collapsed, the block's markers escaped), so stored text cannot forge the block's structure."""
    collapsed = neutralise(text)
    if len(collapsed) <= limit:
        return collapsed
    cut = collapsed[: limit - 1]
    space = cut.rfind(" ")
    # End on a word boundary when one is close; a very long word is cut where it stands.
    if space >= limit * 3 // 4:
        cut = cut[:space]
    return cut.rstrip() + "…"


def _score(candidate: _Candidate) -> float:
    score = candidate.item.score
    return -math.inf if math.isnan(score) else score


class _Budget:
    """Running state of one allocation: tokens left, tokens per section, what was taken, in order."""

    def __init__(self, tokens_left: int, section_costs: Mapping[str, int]) -> None:
        self.left = tokens_left
        self.section_costs = section_costs
        self.spent: dict[str, int] = {}
        self.chosen: list[_Candidate] = []
        self.taken: set[int] = set()

    def take(self, candidate: _Candidate, cap: int | None = None) -> None:
        """Take ``candidate`` if it fits what is left (and its section stays within ``cap``)."""
        if candidate.rank in self.taken:
            return
        opening = 0 if candidate.section in self.spent else self.section_costs[candidate.section]
        extra = candidate.cost + opening
        section_total = self.spent.get(candidate.section, 0) + extra
        if extra > self.left or (cap is not None and section_total > cap):
            return
        self.left -= extra
        self.spent[candidate.section] = section_total
        self.chosen.append(candidate)
        self.taken.add(candidate.rank)


def _allocate(
    candidates: Sequence[_Candidate],
    budget_tokens: int,
    header_cost: int,
    section_costs: Mapping[str, int],
) -> list[_Candidate]:
    """The three passes of the module's budget policy; returns the chosen, in the order taken."""
    budget = _Budget(budget_tokens - header_cost, section_costs)
    by_score = sorted(candidates, key=lambda c: (-_score(c), _PRIORITY.index(c.section), c.rank))
    groups = [[c for c in by_score if c.section == name] for name in _PRIORITY]
    for group in groups:
        if group:
            budget.take(group[0])
    share = budget_tokens // 2
    for group in groups:
        for candidate in group:
            budget.take(candidate, cap=share)
    for candidate in by_score:
        budget.take(candidate)
    return budget.chosen


def _assemble(header: str, chosen: Sequence[_Candidate]) -> tuple[str, tuple[str, ...]]:
    """The markdown text in display order (turns by time, the rest by score) and its ids in order."""
    lines = [header]
    ids: list[str] = []
    for name, title in _TITLES.items():
        members = [c for c in chosen if c.section == name]
        if not members:
            continue
        if name == "turns":
            members.sort(key=_chronological)
        else:
            members.sort(key=lambda c: (-_score(c), c.rank))
        lines.append(title)
        lines.extend(c.line for c in members)
        ids.extend(c.item.id for c in members)
    return "\n".join(lines), tuple(ids)


def _chronological(candidate: _Candidate) -> tuple[bool, float, int, int]:
    item = candidate.item
    # POSIX seconds, so naive and aware timestamps sort together instead of raising TypeError.
    moment = item.timestamp.timestamp() if item.timestamp is not None else 0.0
    return (item.timestamp is None, moment, item.turn_index or 0, candidate.rank)
