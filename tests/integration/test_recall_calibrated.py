"""Recall scores an embedder's cosines in the reference model's units (its profile's ``query_scale``):
e5's bunched cosines are carried down to MiniLM's scale, MiniLM's own are untouched."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from agentx_memory import AgentMemory, Settings
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder, build_embedder
from agentx_memory.embedding.base import embed_queries
from agentx_memory.embedding.calibration import load_profile
from agentx_memory.models import MemoryBundle
from agentx_memory.settings import EmbeddingSettings
from tests.conftest import cleanup, isolated_settings

TURNS = [
    "The weather in Porto was rainy all week",
    "I need to renew my passport before the summer",
    "My sister recommended a new sci-fi novel",
    "I adore hiking in the Alps with my dog every summer",
]
QUESTION = "Where does she like to go hiking?"


@pytest.fixture(scope="module")
def e5() -> Embedder:
    return build_embedder(EmbeddingSettings(model="multilingual-e5-small", local_threads=1))


@pytest.fixture
def e5_settings(endpoints: ResolvedEndpoints, data_dir: Path) -> Iterator[Settings]:
    # Recency off: the top turn's score is then its kind's weight × the anchor (the best cosine) alone.
    chosen = isolated_settings(endpoints, data_dir, retrieval={"recency_weight": 0.0})
    try:
        yield chosen
    finally:
        cleanup(chosen, endpoints)


def top_turns(settings: Settings, embedder: Embedder, calibrated: bool) -> MemoryBundle:
    chosen = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"calibrated_scores": calibrated})}
    )
    with AgentMemory("alice", settings=chosen, embedder=embedder) as memory:
        return memory.remember(QUESTION, top_k=3, include_semantic=False, include_procedural=False)


def test_e5_scores_are_carried_to_minilms_scale(e5_settings: Settings, e5: Embedder) -> None:
    with AgentMemory("alice", settings=e5_settings, embedder=e5) as memory:
        cid = memory.new_conversation()
        hiking = [memory.store_turn(cid, "user", text) for text in TURNS][-1]
    raw, calibrated = top_turns(e5_settings, e5, False), top_turns(e5_settings, e5, True)
    assert raw.items[0].id == calibrated.items[0].id == hiking.id
    # The anchor is the hiking turn's cosine: raw, e5 puts it high; carried, where MiniLM would.
    cosine = float(np.asarray(embed_queries(e5, [QUESTION]))[0] @ np.asarray(e5.embed([TURNS[-1]]))[0])
    carried = load_profile(e5.model_id).to_reference(cosine)
    assert cosine > 0.8
    assert carried < cosine - 0.2
    assert calibrated.items[0].score / raw.items[0].score == pytest.approx(carried / cosine, rel=1e-3)


def test_minilms_scores_are_its_cosines(e5_settings: Settings, embedder: Embedder) -> None:
    with AgentMemory("alice", settings=e5_settings, embedder=embedder) as memory:
        cid = memory.new_conversation()
        for text in TURNS:
            memory.store_turn(cid, "user", text)
    raw, calibrated = top_turns(e5_settings, embedder, False), top_turns(e5_settings, embedder, True)
    assert [(item.id, item.score) for item in calibrated.items] == [
        (item.id, item.score) for item in raw.items
    ]
