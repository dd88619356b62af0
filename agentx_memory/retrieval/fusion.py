"""Pure scoring for recall: BM25 statistics, score fusion, neighbour smoothing, boosts and diversity.

No I/O here: the retriever (and entity search) gather candidates from the stores and these functions
decide the order.
Why convex fusion is the default and RRF the alternative: on conversational memory (LoCoMo-format
turns) the min-max normalised weighted sum of BM25 and cosine keeps the *size* of a lexical match —
a rare name matched exactly — which RRF throws away by keeping only ranks; RRF stays available
(``retrieval.fusion = "rrf"``) and the quality benchmark prints both.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, TypeVar

__all__ = [
    "FOLDS_TO_ASCII",
    "EvidenceSignals",
    "asking_discount",
    "asks",
    "capped",
    "collapse_sources",
    "convex_fuse",
    "diversify",
    "evidence_lift",
    "interleave",
    "minmax",
    "neighbour_smooth",
    "overlap_prefixes",
    "rank_by_sources",
    "recency_score",
    "rrf_fuse",
    "said_by_named",
    "session_lift",
    "speaker_boost",
    "term_overlap",
    "token_set",
]

T = TypeVar("T")


def rrf_fuse(
    rankings: Sequence[Sequence[str]], k: int = 60, weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """Reciprocal rank fusion of ranked id lists: ``sum(w / (k + rank))`` (w = 1 unless ``weights``
    gives one per ranking), best first (ties by first seen)."""
    scores: dict[str, float] = {}
    for position, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[position]
        for rank, item_id in enumerate(ranking, start=1):
            scores[item_id] = scores.get(item_id, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: -pair[1])


def minmax(scores: Mapping[str, float]) -> dict[str, float]:
    """Scores rescaled to [0, 1] (all 1.0 when they are equal, so a lone match still counts fully)."""
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    if high - low <= 1e-12:
        return dict.fromkeys(scores, 1.0)
    return {key: (value - low) / (high - low) for key, value in scores.items()}


def convex_fuse(signals: Mapping[str, Mapping[str, float]], weights: Mapping[str, float]) -> dict[str, float]:
    """Weighted sum of min-max-normalised signals; an item a signal did not find gets 0 from it."""
    fused: dict[str, float] = {}
    for name, scores in signals.items():
        weight = weights.get(name, 1.0)
        for key, value in minmax(scores).items():
            fused[key] = fused.get(key, 0.0) + weight * value
    return fused


def neighbour_smooth(
    scores: Mapping[str, float], neighbours: Mapping[str, Sequence[tuple[str, float]]]
) -> dict[str, float]:
    """Each turn's score plus the best ``share × score`` of its adjacent turns ``(id, share)``.

    In a dialogue the answer is often the turn *after* the one that matches the question's words
    ("What did you paint?" → "A lake sunrise"), so the caller gives the following turn a larger
    share than the preceding one; neighbours not scored themselves start from 0.
    """
    smoothed: dict[str, float] = {}
    for key in {*scores, *neighbours}:
        inherited = [share * scores.get(other, 0.0) for other, share in neighbours.get(key, ())]
        smoothed[key] = scores.get(key, 0.0) + (max(inherited) if inherited else 0.0)
    return smoothed


def session_lift(
    scores: Mapping[str, float], sessions: Mapping[str, str], weight: float, best_of: int = 3
) -> dict[str, float]:
    """Each turn's score plus ``weight`` × its session's strength × the best score.

    A session's strength is the sum of its ``best_of`` best turn scores, relative to the strongest
    session: the evidence of a question tends to cluster in one or two sessions (a trip, a week), and a
    turn there that matches the question only weakly is likelier to be part of the answer than an
    equally weak match in a session about something else. Turns without a session keep their score.
    """
    if weight <= 0 or not scores:
        return dict(scores)
    by_session: dict[str, list[float]] = {}
    for key, value in scores.items():
        if key in sessions:
            by_session.setdefault(sessions[key], []).append(value)
    strength = {name: sum(sorted(values, reverse=True)[:best_of]) for name, values in by_session.items()}
    top = max(strength.values(), default=0.0)
    if top <= 0:
        return dict(scores)
    scale = weight * max(scores.values())
    return {
        key: value + scale * strength[sessions[key]] / top if key in sessions else value
        for key, value in scores.items()
    }


def said_by_named(speakers: Mapping[str, str | None], named: Sequence[str]) -> set[str]:
    """The turns spoken by someone the query names (case-insensitively; unknown speakers are not)."""
    wanted = {name.casefold() for name in named}
    return {key for key, speaker in speakers.items() if speaker and speaker.casefold() in wanted}


def speaker_boost(
    scores: Mapping[str, float], speakers: Mapping[str, str | None], named: Sequence[str], factor: float
) -> dict[str, float]:
    """Scores of the turns spoken by someone the query names, times ``factor``.

    "What do Melanie's kids like?" is answered by what Melanie said; the turns where someone else
    addresses her ("Wow, Mel! How did the kids like it?") match her name just as well, and say less.
    Names compare case-insensitively; a turn without a known speaker keeps its score.
    """
    if factor == 1.0:
        return dict(scores)
    chosen = said_by_named(speakers, named)
    return {key: value * factor if key in chosen else value for key, value in scores.items()}


@dataclass(frozen=True, slots=True)
class EvidenceSignals:
    """What recall knows about the turns near the head of its ranking, for :func:`evidence_lift`."""

    #: Cosine with the query of every turn whose cosine is known (vector hits, full-text candidates,
    #: fetched neighbours).
    similarity: Mapping[str, float]
    #: Each turn's conversation (its session).
    sessions: Mapping[str, str]
    #: The turn after each turn, where it is known.
    following: Mapping[str, str]
    #: The turns spoken by someone the query names.
    said_by_named: Collection[str]


def evidence_lift(
    scores: Mapping[str, float],
    signals: EvidenceSignals,
    *,
    top: float,
    named_speaker: float,
    next_turn: float,
    session_best: float,
) -> dict[str, float]:
    """Each turn's score plus ``top`` × (``named_speaker`` if someone the query names said it, plus
    ``next_turn`` × the cosine of the turn after it, plus ``session_best`` × the best cosine in its
    session).

    Three kinds of evidence a turn's own match does not hold: what the person asked about said (a
    small addition where :func:`speaker_boost`'s factor scaled every score); a turn whose reply is
    close to the question is part of an exchange about it ("I tried pottery yesterday!" → "Pottery!
    What did you make?"); and a session that holds a close turn is about the question's subject. A
    linear model of these over the fused score was fitted on LoCoMo dev conversations 0–2 and confirmed
    on 3–4 (README, "Recall quality II"); an unknown cosine counts 0.
    """
    if not scores or top <= 0 or not (named_speaker or next_turn or session_best):
        return dict(scores)
    best: dict[str, float] = {}
    for key, value in signals.similarity.items():
        session = signals.sessions.get(key)
        if session is not None and value > best.get(session, -1.0):
            best[session] = value
    lifted: dict[str, float] = {}
    for key, value in scores.items():
        after = signals.following.get(key)
        lift = named_speaker if key in signals.said_by_named else 0.0
        lift += next_turn * max(0.0, signals.similarity.get(after, 0.0) if after else 0.0)
        lift += session_best * max(0.0, best.get(signals.sessions.get(key, ""), 0.0))
        lifted[key] = value + top * lift
    return lifted


#: What may follow a question mark at the end of a turn: closing quotes and brackets, emphasis, emoji.
_TRAILER = re.compile(r"[\s\"'\u201d\u2019)\]*_~\U0001F300-\U0001FAFF\u2600-\u27BF]+$")


def asks(text: str) -> bool:
    """Whether a turn ends by asking ("Have you been to Lisbon?", "You did?!"), trailing quotes and emoji
    aside."""
    # The last 32 characters hold the end of any turn (the anchored pattern would scan the whole text).
    return _TRAILER.sub("", text[-32:]).rstrip("!").endswith("?")


def asking_discount(scores: Mapping[str, float], texts: Mapping[str, str], factor: float) -> dict[str, float]:
    """Scores of the turns that end in a question, times ``factor``.

    A turn that asks matches a question about its topic as well as the turn that answers it, and
    tells less: "How was the trip to the lake?" shares every word of "How was X's trip?" and holds none
    of the answer. Among the first 30 candidates of LoCoMo dev questions, a turn ending in "?" is gold
    evidence a quarter as often as one that does not (README, "Recall quality II"). Turns without a text
    keep their score.
    """
    if factor == 1.0:
        return dict(scores)
    return {key: value * factor if asks(texts.get(key, "")) else value for key, value in scores.items()}


def recency_score(moment: datetime | None, now: datetime, half_life_days: float) -> float:
    """1.0 for now, 0.5 one half-life ago, towards 0 for old memories (0 when the time is unknown)."""
    if moment is None:
        return 0.0
    age_days = max(0.0, (now - moment).total_seconds() / 86_400)
    return float(0.5 ** (age_days / half_life_days))


_WORD: Final = re.compile(r"\w+")


def token_set(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.casefold()))


#: Words that say nothing about what a question is after.
_QUESTION_WORDS: Final = frozenset(
    _WORD.findall(
        "what when where who whom whose which why how did does do is are was were the a an of to in on at "
        "for with and or about from by has have had be been being it its this that these those there any "
        "some ever would could should will can me my i you your he she they them his her their"
    )
)


def overlap_prefixes(query: str, ignore: frozenset[str] = frozenset()) -> frozenset[str]:
    """The prefixes :func:`term_overlap` looks for: the query's content words (less ``ignore``) cut
    to 4 letters."""
    return frozenset(word[:4] for word in token_set(query) - _QUESTION_WORDS - ignore if len(word) > 2)


#: The non-ASCII characters whose case folding holds an ASCII letter ("ß" folds to "ss", the Kelvin
#: sign to "k"; a unit test derives them from ``str.casefold``). A text holding none of them contains,
#: with its ASCII letters lowercased, every ASCII prefix :func:`term_overlap` can find in it: a store's
#: pre-filter on lowercased text keeps every text that holds one of them as well.
FOLDS_TO_ASCII: Final = tuple(
    "\u00df\u0130\u0149\u017f\u01f0\u1e96\u1e97\u1e98\u1e99\u1e9a\u1e9e\u212a\ufb00\ufb01\ufb02"
    "\ufb03\ufb04\ufb05\ufb06"
)


def term_overlap(query: str, text: str, ignore: frozenset[str] = frozenset()) -> float:
    """The share of the query's content words (less ``ignore``, e.g. the entity it names) that
    ``text`` contains, prefix-matched on 4 letters ("painted" ~ "painting"); 0.0 when none."""
    wanted = overlap_prefixes(query, ignore)
    if not wanted:
        return 0.0
    have = {word[:4] for word in token_set(text)}
    return len(wanted & have) / len(wanted)


def capped(ranked: Sequence[T], member: Callable[[T], bool], allowed: int) -> list[T]:
    """``ranked`` with at most ``allowed`` of the items ``member`` selects (the best ones kept)."""
    kept: list[T] = []
    seen = 0
    for item in ranked:
        if member(item):
            seen += 1
            if seen > allowed:
                continue
        kept.append(item)
    return kept


def rank_by_sources(
    scored: Sequence[tuple[float, T]],
    sources: Callable[[T], Sequence[str]],
    ident: Callable[[T], str],
    own_weight: float,
) -> list[tuple[float, T]]:
    """Learned facts ranked by the evidence they stand for: a fact whose source turn is ranked takes
    its place (just above it, so that :func:`collapse_sources` keeps the fact for the turn), unless its
    own score, counted at ``own_weight``, puts it higher; a fact with no ranked source turn has only
    its weighted own score. Best first."""
    turn_score = {ident(item): score for score, item in scored if not sources(item)}
    ranked: list[tuple[float, T]] = []
    for score, item in scored:
        own = sources(item)
        if own:
            placed = [turn_score[turn] for turn in own if turn in turn_score]
            score = max(own_weight * score, max(placed) + 1e-6 if placed else 0.0)
        ranked.append((round(score, 6), item))
    ranked.sort(key=lambda pair: -pair[0])
    return ranked


def collapse_sources(
    ranked: Sequence[T], ident: Callable[[T], str], sources: Callable[[T], Sequence[str]]
) -> list[T]:
    """A learned fact stands for the turns it was learned from: of a fact and its source turns, the
    one that ranks first keeps its place and the rest are dropped (a turn below its fact says what the
    fact already says; a fact below every one of its source turns adds nothing to them)."""
    placed: set[str] = set()
    kept: list[T] = []
    for item in ranked:
        own = sources(item)
        if own:
            if placed.issuperset(own):
                continue
            placed.update(own)
        elif ident(item) in placed:
            continue
        else:
            placed.add(ident(item))
        kept.append(item)
    return kept


def diversify(
    ranked: Sequence[T],
    *,
    group: Callable[[T], str | None],
    text: Callable[[T], str],
    per_group: int | None,
    max_overlap: float = 0.85,
    limit: int | None = None,
) -> list[T]:
    """Reorder for diversity without dropping anything that is not a near-duplicate.

    Items beyond ``per_group`` from one conversation move behind the others (still in score order);
    an item whose words overlap an earlier kept item's by ``max_overlap`` (Jaccard) or more is
    dropped — it would spend a slot of the answer on something already said. With ``limit`` the scan
    stops once that many items are kept (the pairwise check is quadratic) and at most ``limit`` return.
    """
    kept: list[T] = []
    deferred: list[T] = []
    seen: list[frozenset[str]] = []
    counts: Counter[str] = Counter()
    for item in ranked:
        words = token_set(text(item))
        if words and any(_near_duplicate(words, other, max_overlap) for other in seen):
            continue
        seen.append(words)
        key = group(item)
        if per_group is not None and key is not None and counts[key] >= per_group:
            deferred.append(item)
            continue
        if key is not None:
            counts[key] += 1
        kept.append(item)
        if limit is not None and len(kept) >= limit:
            break
    ranked = kept + deferred
    return ranked if limit is None else ranked[:limit]


def interleave(rankings: Sequence[Sequence[T]], key: Callable[[T], str]) -> list[T]:
    """The rankings merged rank by rank (first of each, then second of each…), each item once.

    For the answers to the parts of a decomposed question: each part's best evidence comes before any
    part's second best, whatever the scores (they come from different queries, so are not comparable).
    """
    merged: list[T] = []
    seen: set[str] = set()
    for rank in range(max((len(ranking) for ranking in rankings), default=0)):
        for ranking in rankings:
            if rank < len(ranking) and (identity := key(ranking[rank])) not in seen:
                seen.add(identity)
                merged.append(ranking[rank])
    return merged


def _near_duplicate(a: frozenset[str], b: frozenset[str], threshold: float) -> bool:
    """Whether ``a`` and ``b`` overlap by ``threshold`` (Jaccard) or more. The size check first: the
    Jaccard index is at most min/max of the sizes, and most pairs of a ranking fail that already (it
    spared ~430 set unions and intersections a ``get_context``)."""
    small, large = sorted((len(a), len(b)))
    return small >= threshold * large - 1e-9 and _jaccard(a, b) >= threshold


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0
