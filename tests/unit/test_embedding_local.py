"""LocalOnnxEmbedder: the bundled all-MiniLM-L6-v2, run for real (no mocks), plus the pure helpers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import agentx_memory.embedding as embedding
from agentx_memory.embedding import Embedder, LocalOnnxEmbedder, build_embedder, check_dimensions
from agentx_memory.errors import ConfigurationError, EmbeddingDimensionError, InvalidInputError
from agentx_memory.settings import EmbeddingSettings

HIKING = "I love hiking in the mountains"
CLIMBING = "Climbing peaks is my favorite hobby"
STOCKS = "The stock market fell today"


@pytest.fixture(scope="module")
def embedder() -> LocalOnnxEmbedder:
    model = LocalOnnxEmbedder(threads=1)
    model.warm_up()
    return model


def cosine(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b))


def test_public_api_is_exactly_all() -> None:
    assert sorted(embedding.__all__) == [
        "Embedder",
        "LocalE5Embedder",
        "LocalOnnxEmbedder",
        "OpenAIEmbedder",
        "QueryEmbedder",
        "build_embedder",
        "check_dimensions",
    ]


def test_satisfies_the_embedder_protocol(embedder: LocalOnnxEmbedder) -> None:
    port: Embedder = embedder
    assert isinstance(port, Embedder)
    assert port.model_id == "all-MiniLM-L6-v2-int8-onnx"
    assert port.dimensions == 384


def test_vectors_have_384_unit_length_components(embedder: LocalOnnxEmbedder) -> None:
    vector = embedder.embed_one(HIKING)
    assert len(vector) == 384
    assert all(isinstance(component, float) for component in vector)
    assert float(np.linalg.norm(vector)) == pytest.approx(1.0, abs=1e-5)


def test_deterministic_across_calls_and_instances(embedder: LocalOnnxEmbedder) -> None:
    first = embedder.embed_one(HIKING)
    assert embedder.embed_one(HIKING) == first
    assert LocalOnnxEmbedder(threads=1).embed_one(HIKING) == first


def test_matches_sentence_transformers_reference(embedder: LocalOnnxEmbedder) -> None:
    # Values from sentence-transformers' all-MiniLM-L6-v2 (fp32, torch); the int8 model stays close.
    hiking, climbing, stocks = embedder.embed([HIKING, CLIMBING, STOCKS])
    assert hiking[:5] == pytest.approx([-0.04914, -0.02689, 0.06052, 0.08846, 0.04943], abs=0.01)
    assert cosine(hiking, climbing) == pytest.approx(0.6181, abs=0.02)
    assert cosine(hiking, stocks) == pytest.approx(-0.0638, abs=0.02)


def test_paraphrases_are_closer_than_unrelated_sentences(embedder: LocalOnnxEmbedder) -> None:
    hiking, climbing, stocks = embedder.embed([HIKING, CLIMBING, STOCKS])
    assert cosine(hiking, climbing) > cosine(hiking, stocks) + 0.3
    assert cosine(hiking, climbing) > cosine(climbing, stocks) + 0.3


def test_uncased_and_accent_insensitive(embedder: LocalOnnxEmbedder) -> None:
    assert embedder.embed_one("CAFÉ au Lait") == pytest.approx(embedder.embed_one("cafe au lait"), abs=1e-6)


def test_batch_equals_single_and_keeps_order(embedder: LocalOnnxEmbedder) -> None:
    texts = [
        "word " * 180,
        "hi",
        HIKING,
        "",
        "A medium sized sentence about databases, graphs and vectors in memory systems.",
        "ok",
        "long " * 60 + "tail",
    ]
    batch = embedder.embed(texts)
    assert len(batch) == len(texts)
    for text, vector in zip(texts, batch, strict=True):
        assert vector == pytest.approx(embedder.embed_one(text), abs=1e-5)


def test_large_batch_spanning_several_runs_keeps_order(embedder: LocalOnnxEmbedder) -> None:
    # More texts than one onnxruntime run takes, with lengths interleaved so sorting reorders them.
    texts = [("memory " * (i % 7 * 9)) + f"item {i}" for i in range(80)]
    batch = embedder.embed(texts)
    for index in (0, 1, 6, 13, 40, 79):
        assert batch[index] == pytest.approx(embedder.embed_one(texts[index]), abs=1e-5)


def test_empty_batch_returns_empty_list(embedder: LocalOnnxEmbedder) -> None:
    assert embedder.embed([]) == []


def test_very_long_text_is_truncated_to_256_tokens(embedder: LocalOnnxEmbedder) -> None:
    long_vector = embedder.embed_one("word " * 10_000)
    assert len(long_vector) == 384
    assert float(np.linalg.norm(long_vector)) == pytest.approx(1.0, abs=1e-5)
    # [CLS] + 254 x "word" + [SEP] is exactly the 256 tokens left after truncation.
    assert long_vector == pytest.approx(embedder.embed_one("word " * 254), abs=1e-5)
    assert long_vector != pytest.approx(embedder.embed_one("word " * 200), abs=1e-5)


def test_a_bare_string_is_refused_by_embed(embedder: LocalOnnxEmbedder) -> None:
    with pytest.raises(InvalidInputError, match="embed_one"):
        embedder.embed("not a list")


def test_concurrent_calls_agree(embedder: LocalOnnxEmbedder) -> None:
    texts = [HIKING, CLIMBING, STOCKS] * 4
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(embedder.embed_one, texts))
    expected = embedder.embed(texts)
    for got, want in zip(results, expected, strict=True):
        assert got == pytest.approx(want, abs=1e-5)


def test_check_dimensions_names_expected_and_actual_sizes() -> None:
    check_dimensions([[0.0] * 4, [1.0] * 4], 4, "model m")
    check_dimensions([], 4, "model m")
    with pytest.raises(EmbeddingDimensionError, match=r"model m returned a 3-dimensional .* 4 dimensions"):
        check_dimensions([[0.0] * 4, [0.0] * 3], 4, "model m")


def test_factory_builds_local_embedder_by_default() -> None:
    built = build_embedder(EmbeddingSettings(local_threads=2))
    assert isinstance(built, LocalOnnxEmbedder)
    assert built.dimensions == 384


def test_factory_refuses_other_dimensions_for_local_model() -> None:
    with pytest.raises(ConfigurationError, match="384"):
        build_embedder(EmbeddingSettings(provider="local", dimensions=512))


def test_factory_refuses_other_models_for_local_provider() -> None:
    with pytest.raises(ConfigurationError, match="all-MiniLM-L6-v2"):
        build_embedder(EmbeddingSettings(provider="local", model="text-embedding-3-small"))
