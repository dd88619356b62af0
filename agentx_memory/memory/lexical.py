"""BM25 over the ledger's full-text index: the pure half (query planning, quoting, IDF).

The statement is ``lexical_search_turns`` in ``stores/sql/recall.sql``, which episodic memory runs; it
chooses its probe in SQL as :func:`plan_lexical_query` does here (the reference, held equal to it by
``tests/integration/test_lexical_stats.py``), so the statistics and the search are one round trip.
The term statistics are exact and read, not counted: the ledger's write triggers keep each user's
document frequencies and length totals per channel (``migrations/003_lexical_stats.sql``). Scoring is
Okapi BM25 with the Lucene IDF below, a turn's term frequency being the lexeme's count in it
(recovered in SQL by inverting ``ts_rank``, see ``lexical_search_turns``) and its length the number of
distinct lexemes; a test checks the scores against ``rank-bm25`` on the same lexemes
(``tests/integration/test_lexical_stats.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["MAX_POSTINGS", "MAX_PROBE", "LexemeStats", "bm25_idf", "plan_lexical_query", "tsquery_any"]

#: Probe lexemes at most, and their postings at most (see :func:`plan_lexical_query`).
MAX_PROBE = 12
MAX_POSTINGS = 2000


@dataclass(frozen=True)
class LexemeStats:
    """One query lexeme and the statistics BM25 needs about the user's turns in the channels read.

    ``df`` of the ``n`` turns contain the lexeme; ``avgdl`` is their mean length in distinct lexemes.
    """

    lexeme: str
    df: float
    n: float
    avgdl: float


def bm25_idf(n: float, df: float) -> float:
    """BM25's (Lucene-style, never negative) inverse document frequency."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def plan_lexical_query(
    stats: Sequence[LexemeStats],
    max_df_ratio: float,
    max_probe: int = MAX_PROBE,
    max_postings: int = MAX_POSTINGS,
) -> tuple[list[str], list[float], list[str]]:
    """The lexemes to score with their IDFs, and the selective ones that pick candidate turns.

    A lexeme found in more than ``max_df_ratio`` of the turns (a speaker's own name, "time") still
    adds to the score of a candidate, but does not make one: probing with it would turn the candidate
    set into the whole history. Probe lexemes are taken rarest first until their postings reach
    ``max_postings``; the document frequencies are exact, so that bounds the candidate turns, and the
    work, at any history size (a turn that holds none of the rarer words scores low anyway). When every
    lexeme is common, the rarest two probe anyway.
    """
    present = [s for s in stats if s.df > 0]
    if not present:
        return [], [], []
    lexemes = [s.lexeme for s in present]
    idfs = [bm25_idf(s.n, s.df) for s in present]
    probe: list[str] = []
    postings = 0.0
    for s in sorted(present, key=lambda s: s.df):
        if s.df > max_df_ratio * s.n or len(probe) >= max_probe:
            break
        if probe and postings + s.df > max_postings:
            break
        probe.append(s.lexeme)
        postings += s.df
    if not probe:
        probe = [s.lexeme for s in sorted(present, key=lambda s: s.df)[:2]]
    return lexemes, idfs, probe


def tsquery_any(lexemes: Iterable[str]) -> str:
    """A ``tsquery`` literal matching any of ``lexemes``, each quoted so it is taken as-is."""
    quoted = ["'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'" for lexeme in lexemes]
    return " | ".join(quoted)
