"""Pure recall scoring: fusion, smoothing, recency, diversity, BM25 plans, metrics, LLM answer parsing."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest

from agentx_memory.memory.lexical import LexemeStats, bm25_idf, plan_lexical_query, tsquery_any
from agentx_memory.models import TechniqueMetric
from agentx_memory.monitoring import RecallMonitor, percentile
from agentx_memory.retrieval.fusion import (
    FOLDS_TO_ASCII,
    EvidenceSignals,
    _jaccard,
    _near_duplicate,
    asking_discount,
    asks,
    collapse_sources,
    convex_fuse,
    diversify,
    evidence_lift,
    minmax,
    neighbour_smooth,
    overlap_prefixes,
    rank_by_sources,
    recency_score,
    rrf_fuse,
    said_by_named,
    session_lift,
    speaker_boost,
    term_overlap,
    token_set,
)
from agentx_memory.retrieval.llm_query import parse_expansion, parse_self_query

NOW = datetime(2024, 5, 10, 12, 0, tzinfo=UTC)

# ------------------------------------------------------------------------------------------ fusion


def test_folds_to_ascii_is_every_character_whose_case_folding_holds_ascii() -> None:
    derived = sorted(
        char
        for char in map(chr, range(0x80, 0x110000))
        if not 0xD800 <= ord(char) < 0xE000 and any(part.isascii() for part in char.casefold())
    )
    assert list(FOLDS_TO_ASCII) == derived


@pytest.mark.parametrize(
    ("query", "text", "ignore"),
    [
        ("What did Maya paint?", "Maya PAINTED a sunset", frozenset({"maya"})),
        ("Where is the Hauptstrasse?", "lives on the Hauptstraße", frozenset()),
        ("When did she file it?", "the \ufb01le was sent", frozenset()),
        ("Was it 2022?", "in (2022) she moved", frozenset()),
        ("Did Caroline go home?", "Caroline went home", token_set("Caroline")),
    ],
)
def test_lowercased_prefix_filter_is_a_superset_of_term_overlap(
    query: str, text: str, ignore: frozenset[str]
) -> None:
    """What the graph store's expansion keeps (a lowercased text holding an ASCII prefix, or a
    character of FOLDS_TO_ASCII) includes every text term_overlap finds a word of the query in."""
    prefixes = overlap_prefixes(query, ignore)
    kept = any(prefix in text.lower() for prefix in prefixes) or any(c in text for c in FOLDS_TO_ASCII)
    assert term_overlap(query, text, ignore) > 0.0
    assert kept


def test_minmax_rescales_to_unit_interval() -> None:
    assert minmax({"a": 2.0, "b": 4.0, "c": 3.0}) == {"a": 0.0, "b": 1.0, "c": 0.5}


def test_minmax_of_equal_scores_is_all_ones_and_of_nothing_is_empty() -> None:
    assert minmax({"a": 0.3, "b": 0.3}) == {"a": 1.0, "b": 1.0}
    assert minmax({"lone": -7.0}) == {"lone": 1.0}
    assert minmax({}) == {}


def test_convex_fuse_weighs_normalised_signals_and_missing_items_get_zero() -> None:
    signals = {"dense": {"a": 0.9, "b": 0.1}, "lexical": {"b": 5.0, "c": 1.0}}
    fused = convex_fuse(signals, {"dense": 2.0, "lexical": 0.5})
    assert fused == pytest.approx({"a": 2.0, "b": 0.5, "c": 0.0})
    # a signal without a weight counts 1.0
    assert convex_fuse({"x": {"a": 1.0, "b": 0.0}}, {}) == {"a": 1.0, "b": 0.0}
    assert convex_fuse({}, {"dense": 1.0}) == {}


def test_weighted_rrf_follows_the_formula() -> None:
    scores = dict(rrf_fuse([["a", "b", "c"], ["c", "a"]], 60, [1.0, 2.0]))
    assert scores == pytest.approx(
        {"a": 1 / 61 + 2 / 62, "b": 1 / 62, "c": 1 / 63 + 2 / 61},
    )
    assert max(scores, key=lambda key: scores[key]) == "c"
    assert rrf_fuse([["a"]], 1) == [("a", 0.5)]


def test_speaker_boost_multiplies_the_turns_of_a_named_speaker_only() -> None:
    scores = {"said": 0.5, "addressed": 0.6, "unknown": 0.4}
    speakers = {"said": "Melanie", "addressed": "Caroline", "unknown": None}
    assert speaker_boost(scores, speakers, ["melanie"], 1.5) == {
        "said": 0.75,
        "addressed": 0.6,
        "unknown": 0.4,
    }
    assert speaker_boost(scores, speakers, ["Jon"], 1.5) == scores
    assert speaker_boost(scores, speakers, ["Melanie"], 1.0) == scores
    assert speaker_boost(scores, speakers, [], 2.0) == scores


def test_asks_is_a_turn_that_ends_in_a_question() -> None:
    assert asks("Did the plumber ever come back?")
    assert asks("Did you finish the marathon?!  ")
    assert asks('She said "shall we go?"')
    assert asks("Want to see the new bike? \U0001f6b2")
    assert asks("Can you send the photos?)")
    # A question inside a turn that goes on to tell something is not asking.
    assert not asks("Guess what? I finally fixed the bike.")
    assert not asks("The plumber came back on Tuesday.")
    assert not asks("")


def test_asking_discount_lowers_only_the_turns_that_ask() -> None:
    scores = {"asks": 1.0, "tells": 0.9, "untexted": 0.8}
    texts = {"asks": "How was the cabin by the lake?", "tells": "The cabin by the lake was freezing."}
    discounted = asking_discount(scores, texts, 0.8)
    assert discounted == {"asks": pytest.approx(0.8), "tells": 0.9, "untexted": 0.8}
    assert max(discounted, key=discounted.__getitem__) == "tells"  # the answer now leads
    assert asking_discount(scores, texts, 1.0) == scores
    assert asking_discount({}, texts, 0.5) == {}


def test_neighbour_smooth_adds_the_best_share_of_a_neighbour() -> None:
    scores = {"question": 1.0, "other": 0.4}
    # "answer" follows "question" (full share) and precedes "other" (half share)
    neighbours = {"answer": [("question", 0.5), ("other", 0.25)], "other": [("question", 0.1)]}
    smoothed = neighbour_smooth(scores, neighbours)
    assert smoothed == pytest.approx({"question": 1.0, "answer": 0.5, "other": 0.5})


def test_neighbour_smooth_shares_are_asymmetric_and_unscored_start_at_zero() -> None:
    scores = {"match": 0.8}
    smoothed = neighbour_smooth(scores, {"after": [("match", 0.5)], "before": [("match", 0.25)]})
    assert smoothed["after"] == pytest.approx(0.4)
    assert smoothed["before"] == pytest.approx(0.2)
    assert smoothed["match"] == pytest.approx(0.8)
    # a neighbour of an unscored turn inherits nothing
    assert neighbour_smooth({}, {"x": [("nobody", 0.5)]}) == {"x": 0.0}


def test_recency_score_halves_per_half_life() -> None:
    assert recency_score(NOW, NOW, 30) == 1.0
    assert recency_score(NOW - timedelta(days=30), NOW, 30) == pytest.approx(0.5)
    assert recency_score(NOW - timedelta(days=60), NOW, 30) == pytest.approx(0.25)
    assert recency_score(None, NOW, 30) == 0.0
    # a timestamp in the future counts as now, never above 1
    assert recency_score(NOW + timedelta(days=5), NOW, 30) == 1.0


# --------------------------------------------------------------------------------------- diversity


def _group(item: tuple[str, str | None, str]) -> str | None:
    return item[1]


def _text(item: tuple[str, str | None, str]) -> str:
    return item[2]


def test_diversify_defers_items_beyond_the_group_cap_without_dropping_them() -> None:
    ranked = [
        ("a1", "conv-a", "alpha one"),
        ("a2", "conv-a", "alpha two"),
        ("a3", "conv-a", "alpha three"),
        ("b1", "conv-b", "beta one"),
        ("x", None, "ungrouped fact"),
    ]
    out = diversify(ranked, group=_group, text=_text, per_group=2)
    assert [item[0] for item in out] == ["a1", "a2", "b1", "x", "a3"]
    assert [item[0] for item in diversify(ranked, group=_group, text=_text, per_group=None)] == [
        "a1",
        "a2",
        "a3",
        "b1",
        "x",
    ]


def test_diversify_drops_near_duplicates_and_respects_limit() -> None:
    ranked = [
        ("first", None, "I moved to Berlin in May"),
        ("dup", None, "i MOVED to berlin in may!"),
        ("other", None, "The cat is called Tom"),
        ("empty", None, "   "),
        ("third", None, "Coffee at noon"),
    ]
    out = diversify(ranked, group=_group, text=_text, per_group=None)
    assert [item[0] for item in out] == ["first", "other", "empty", "third"]
    limited = diversify(ranked, group=_group, text=_text, per_group=None, limit=2)
    assert [item[0] for item in limited] == ["first", "other"]
    loose = diversify(ranked, group=_group, text=_text, per_group=None, max_overlap=1.01)
    assert len(loose) == 5


def test_diversify_limit_counts_deferred_items_last() -> None:
    ranked = [("a1", "a", "one"), ("a2", "a", "two"), ("b1", "b", "three")]
    out = diversify(ranked, group=_group, text=_text, per_group=1, limit=3)
    assert [item[0] for item in out] == ["a1", "b1", "a2"]


# ------------------------------------------------------------------------------------------- BM25


def test_plan_lexical_query_common_lexemes_score_but_do_not_probe() -> None:
    stats = [
        LexemeStats("melanie", df=80, n=100, avgdl=12.0),
        LexemeStats("paint", df=3, n=100, avgdl=12.0),
        LexemeStats("lake", df=10, n=100, avgdl=12.0),
    ]
    lexemes, idfs, probe = plan_lexical_query(stats, max_df_ratio=0.3)
    assert lexemes == ["melanie", "paint", "lake"]
    assert idfs == pytest.approx([bm25_idf(100, 80), bm25_idf(100, 3), bm25_idf(100, 10)])
    assert probe == ["paint", "lake"]  # rarest first, the common name left out
    assert plan_lexical_query(stats, max_df_ratio=0.3, max_probe=1)[2] == ["paint"]


def test_plan_lexical_query_all_common_falls_back_to_the_rarest_two() -> None:
    stats = [
        LexemeStats("time", df=90, n=100, avgdl=5.0),
        LexemeStats("melanie", df=60, n=100, avgdl=5.0),
        LexemeStats("said", df=70, n=100, avgdl=5.0),
    ]
    assert plan_lexical_query(stats, max_df_ratio=0.3)[2] == ["melanie", "said"]


def test_plan_lexical_query_drops_lexemes_nobody_used() -> None:
    stats = [LexemeStats("zx4471", df=0, n=50, avgdl=5.0), LexemeStats("order", df=2, n=50, avgdl=5.0)]
    assert plan_lexical_query(stats, 0.3) == (["order"], [bm25_idf(50, 2)], ["order"])
    assert plan_lexical_query([LexemeStats("none", df=0, n=5, avgdl=1.0)], 0.3) == ([], [], [])
    assert plan_lexical_query([], 0.3) == ([], [], [])


def test_tsquery_any_quotes_every_lexeme() -> None:
    assert tsquery_any(["paint", "lake"]) == "'paint' | 'lake'"
    assert tsquery_any(["it's"]) == "'it''s'"
    assert tsquery_any(["a\\b"]) == "'a\\\\b'"
    assert tsquery_any(["x' | 'y"]) == "'x'' | ''y'"
    assert tsquery_any([]) == ""


def test_bm25_idf_falls_with_document_frequency_and_is_never_negative() -> None:
    values = [bm25_idf(100, df) for df in (0, 1, 10, 50, 100)]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)
    assert all(value > 0 for value in values)
    assert bm25_idf(100, 1) == pytest.approx(math.log(1 + 99.5 / 1.5))


# ---------------------------------------------------------------------------------------- metrics


def test_recall_monitor_percentiles_means_and_skips() -> None:
    monitor = RecallMonitor()
    for latency in range(1, 12):
        monitor.record(
            {
                "turns.vector": TechniqueMetric(latency_ms=float(latency), results=latency),
                "hyde": TechniqueMetric(skipped="no LLM configured"),
            }
        )
    summary = monitor.summary()
    assert sorted(summary) == ["hyde", "turns.vector"]
    vector = summary["turns.vector"]
    assert (vector["calls"], vector["p50_ms"], vector["p95_ms"], vector["p99_ms"]) == (11.0, 6.0, 11.0, 11.0)
    assert vector["mean_results"] == 6.0
    assert vector["skipped"] == 0.0
    assert summary["hyde"] == {
        "calls": 0.0,
        "p50_ms": 0.0,
        "p95_ms": 0.0,
        "p99_ms": 0.0,
        "mean_results": 0.0,
        "skipped": 11.0,
    }


def test_recall_monitor_keeps_a_rolling_window() -> None:
    monitor = RecallMonitor(window=3)
    for latency in (100.0, 1.0, 2.0, 3.0):
        monitor.record({"facts": TechniqueMetric(latency_ms=latency, results=1)})
    facts = monitor.summary()["facts"]
    assert (facts["calls"], facts["p99_ms"]) == (3.0, 3.0)


def test_percentile_edges() -> None:
    assert percentile([], 50) == 0.0
    assert percentile([7.0], 99) == 7.0
    assert percentile([3.0, 1.0, 2.0], 0) == 1.0
    assert percentile([3.0, 1.0, 2.0], 100) == 3.0


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [(list(range(1, 101)), 95, 95), (list(range(1, 101)), 99, 99), ([1, 2, 3, 4], 75, 3)],
)
def test_percentile_is_nearest_rank(values: list[int], q: float, expected: int) -> None:
    assert percentile([float(value) for value in values], q) == expected


# ------------------------------------------------------------------------------- LLM answer parsing

CHANNELS = ["proj-a", "_global"]


def test_parse_self_query_valid_json() -> None:
    answer = (
        '{"text": "what did I paint", "start": "2024-05-01T00:00:00Z", "end": "2024-05-08T00:00:00Z", '
        '"kinds": ["episodic", "gossip", "goal"], "entities": [" Melanie ", ""], '
        '"channels": ["proj-a", "proj-z"]}'
    )
    filters = parse_self_query(answer, "what did I paint last week?", CHANNELS)
    assert filters is not None
    assert filters.source == "llm"
    assert filters.text == "what did I paint"
    assert filters.time_range is not None
    assert (filters.time_range.start, filters.time_range.end) == (
        datetime(2024, 5, 1, tzinfo=UTC),
        datetime(2024, 5, 8, tzinfo=UTC),
    )
    assert filters.kinds == ["episodic", "goal"]
    assert filters.entities == ["Melanie"]
    assert filters.channels == ["proj-a"]


def test_parse_self_query_fenced_json_and_defaults() -> None:
    answer = '```json\n{"text": "", "start": null, "end": "2024-01-01T00:00:00+00:00"}\n```'
    filters = parse_self_query(answer, "before 2024?", CHANNELS)
    assert filters is not None
    assert filters.text == "before 2024?"  # empty text falls back to the query
    assert filters.time_range is not None
    assert (filters.time_range.start, filters.time_range.end) == (None, datetime(2024, 1, 1, tzinfo=UTC))
    assert (filters.kinds, filters.entities, filters.channels) == ([], [], [])
    bare = parse_self_query('```\n{"text": "x"}\n```', "q", CHANNELS)
    assert bare is not None
    assert (bare.text, bare.time_range) == ("x", None)


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "not json at all",
        'Sure! {"text": "x"}',
        '{"text": "x"',
        "[1, 2]",
        '{"kinds": "episodic"}',
        '{"start": "yesterday"}',
        '{"start": "2024-05-02T00:00:00Z", "end": "2024-05-02T00:00:00Z"}',
        '{"start": "2024-05-03T00:00:00Z", "end": "2024-05-02T00:00:00Z"}',
    ],
)
def test_parse_self_query_unusable_answers_give_none(answer: str) -> None:
    assert parse_self_query(answer, "q", CHANNELS) is None


def test_parse_self_query_takes_naive_times_as_utc() -> None:
    filters = parse_self_query(
        '{"start": "2024-05-01T00:00:00", "end": "2024-05-02T00:00:00Z"}', "q", CHANNELS
    )
    assert filters is not None
    assert filters.time_range is not None
    assert filters.time_range.start == datetime(2024, 5, 1, tzinfo=UTC)


def test_parse_expansion() -> None:
    assert parse_expansion("  Melanie painted a lake.\nSecond line") == "Melanie painted a lake."
    assert parse_expansion("   \n  ") is None
    assert parse_expansion("") is None
    assert parse_expansion("x" * 501) is None
    assert parse_expansion("x" * 20, max_chars=20) == "x" * 20


def test_plan_lexical_query_bounds_the_probe_postings() -> None:
    stats = [
        LexemeStats("zanzibar", 3, 20_000, 9.0),
        LexemeStats("ferry", 1_500, 20_000, 9.0),
        LexemeStats("island", 1_900, 20_000, 9.0),
    ]
    lexemes, _idfs, probe = plan_lexical_query(stats, 0.3, max_postings=2_000)
    # every lexeme scores, but the probe stops before the postings pass the bound
    assert sorted(lexemes) == ["ferry", "island", "zanzibar"]
    assert probe == ["zanzibar", "ferry"]


def test_capped_keeps_the_best_members_and_every_other_item() -> None:
    from agentx_memory.retrieval.fusion import capped

    ranked = ["f1", "t1", "f2", "f3", "t2", "f4"]
    assert capped(ranked, lambda item: item.startswith("f"), 2) == ["f1", "t1", "f2", "t2"]
    assert capped(ranked, lambda item: item.startswith("f"), 0) == ["t1", "t2"]


# -- learned facts stand for their source turns --------------------------------------------------------

_SOURCES = {"f1": ("t3",), "f2": ("t9",), "f3": ("t1", "t2")}


def _sources(item: str) -> tuple[str, ...]:
    return _SOURCES.get(item, ())


def test_a_fact_takes_its_source_turns_place_unless_its_own_score_is_higher() -> None:
    scored = [(0.9, "t1"), (0.8, "f1"), (0.5, "t2"), (0.4, "t3"), (0.35, "f2")]
    ranked = rank_by_sources(scored, _sources, str, own_weight=0.5)
    # f1: own 0.8 × 0.5 = 0.4 ≤ t3's 0.4 → just above t3; f2: no ranked source → its weighted score.
    assert ranked == [(0.9, "t1"), (0.5, "t2"), (0.400001, "f1"), (0.4, "t3"), (0.175, "f2")]
    high = rank_by_sources(scored, _sources, str, own_weight=1.0)
    assert [item for _, item in high][:3] == ["t1", "f1", "t2"]


def test_collapse_keeps_whichever_of_a_fact_and_its_source_turns_ranks_first() -> None:
    assert collapse_sources(["f1", "t3", "t1"], str, _sources) == ["f1", "t1"]  # t3 said by f1
    assert collapse_sources(["t1", "t2", "f3", "t4"], str, _sources) == ["t1", "t2", "t4"]  # adds nothing
    assert collapse_sources(["t1", "f3", "t2"], str, _sources) == ["t1", "f3"]  # f3 stands for t2


def test_session_lift_raises_the_turns_of_the_strongest_session() -> None:
    scores = {"a1": 1.0, "a2": 0.2, "b1": 0.5, "b2": 0.3, "loose": 0.25}
    sessions = {"a1": "A", "a2": "A", "b1": "B", "b2": "B"}
    lifted = session_lift(scores, sessions, 0.5, best_of=2)
    # A's strength 1.2 is the top (relative 1.0), B's 0.8 (relative 2/3); the scale is 0.5 x 1.0
    assert lifted["a2"] == pytest.approx(0.2 + 0.5)
    assert lifted["b2"] == pytest.approx(0.3 + 0.5 * 0.8 / 1.2)
    assert lifted["loose"] == 0.25  # no session: unchanged
    assert lifted["a2"] > lifted["b2"]  # equal-ish weak matches: the one in the stronger session wins
    assert session_lift(scores, sessions, 0.0) == scores
    assert session_lift({}, {}, 0.5) == {}
    assert session_lift({"x": 0.0}, {"x": "A"}, 0.5) == {"x": 0.0}


def test_said_by_named_matches_speakers_case_insensitively() -> None:
    speakers = {"t1": "Priya", "t2": "priya", "t3": "Tomas", "t4": None}
    assert said_by_named(speakers, ["PRIYA"]) == {"t1", "t2"}
    assert said_by_named(speakers, []) == set()


def test_evidence_lift_adds_speaker_reply_and_session_evidence_in_units_of_the_top() -> None:
    # "What did Priya make at the pottery class?" Two equal matches: the one Priya said, whose reply is
    # about pottery too, in a session that holds a close turn, should win over a lone aside.
    scores = {"told": 0.5, "aside": 0.5, "other": 0.4}
    signals = EvidenceSignals(
        similarity={"told": 0.55, "reply": 0.6, "aside": 0.5, "elsewhere": 0.2},
        sessions={"told": "s1", "reply": "s1", "aside": "s2", "elsewhere": "s2", "other": "s3"},
        following={"told": "reply", "aside": "elsewhere"},
        said_by_named={"told"},
    )
    lifted = evidence_lift(scores, signals, top=2.0, named_speaker=0.1, next_turn=0.5, session_best=0.25)
    assert lifted["told"] == pytest.approx(0.5 + 2.0 * (0.1 + 0.5 * 0.6 + 0.25 * 0.6))
    assert lifted["aside"] == pytest.approx(0.5 + 2.0 * (0.5 * 0.2 + 0.25 * 0.5))
    # No known cosine in its session, no known reply, not said by the person named: unchanged.
    assert lifted["other"] == 0.4
    assert lifted["told"] > lifted["aside"]


def test_evidence_lift_counts_unknown_and_negative_cosines_as_zero_and_can_be_switched_off() -> None:
    scores = {"a": 0.3, "b": 0.2}
    signals = EvidenceSignals(
        similarity={"b": -0.4, "c": -0.2},
        sessions={"a": "s", "b": "s", "c": "s"},
        following={"a": "b", "b": "c"},
        said_by_named=set(),
    )
    weights = {"named_speaker": 0.1, "next_turn": 0.5, "session_best": 0.3}
    assert evidence_lift(scores, signals, top=1.0, **weights) == scores
    busy = EvidenceSignals(similarity={"a": 0.9}, sessions={"a": "s"}, following={}, said_by_named={"a"})
    off = evidence_lift(scores, busy, top=1.0, named_speaker=0.0, next_turn=0.0, session_best=0.0)
    assert off == scores
    assert evidence_lift({}, busy, top=1.0, **weights) == {}
    assert evidence_lift(scores, busy, top=0.0, **weights) == scores


def test_the_near_duplicate_check_agrees_with_the_jaccard_index() -> None:
    """Its size bound only skips pairs that could not reach the threshold (exact at the boundary)."""
    draw = random.Random(36)
    for _ in range(5_000):
        a = frozenset(str(word) for word in draw.sample(range(30), draw.randint(0, 25)))
        b = frozenset(str(word) for word in draw.sample(range(30), draw.randint(0, 25)))
        for threshold in (0.0, 0.5, 0.85, 0.9, 1.0):
            assert _near_duplicate(a, b, threshold) == (_jaccard(a, b) >= threshold)
    seventeen = frozenset(str(word) for word in range(17))
    twenty = frozenset(str(word) for word in range(20))  # Jaccard with seventeen: exactly 0.85
    assert _near_duplicate(seventeen, twenty, 0.85)
