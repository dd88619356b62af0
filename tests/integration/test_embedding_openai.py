"""OpenAIEmbedder through the real openai SDK against a local HTTP stub of ``/v1/embeddings``."""

from __future__ import annotations

import socket
import sys

import numpy as np
import pytest
from pydantic import SecretStr

from agentx_memory.embedding import OpenAIEmbedder, build_embedder
from agentx_memory.errors import (
    ConfigurationError,
    EmbeddingDimensionError,
    StoreError,
    StoreUnavailableError,
)
from agentx_memory.settings import EmbeddingSettings
from tests.embedding_stub import EmbeddingStub, stub_vector

MODEL = "text-embedding-3-small"
DIMS = 16


@pytest.fixture
def stub(embedding_stub: EmbeddingStub) -> EmbeddingStub:
    return embedding_stub


def make_embedder(base_url: str, *, batch_size: int = 8, max_retries: int = 2) -> OpenAIEmbedder:
    return OpenAIEmbedder(
        model=MODEL,
        dimensions=DIMS,
        api_key="sk-test",
        base_url=base_url,
        batch_size=batch_size,
        timeout=5.0,
        max_retries=max_retries,
    )


def expected(text: str) -> list[float]:
    vector = np.asarray(stub_vector(text, DIMS))
    normalised: list[float] = (vector / np.linalg.norm(vector)).tolist()
    return normalised


def test_request_carries_model_inputs_dimensions_and_key(stub: EmbeddingStub) -> None:
    texts = ["alpha", "beta", "gamma"]
    vectors = make_embedder(stub.base_url).embed(texts)

    assert len(stub.requests) == 1
    request = stub.requests[0]
    assert request.path == "/v1/embeddings"
    assert request.authorization == "Bearer sk-test"
    assert request.body["model"] == MODEL
    assert request.body["input"] == texts
    assert request.body["dimensions"] == DIMS
    assert request.body["encoding_format"] == "float"
    for text, vector in zip(texts, vectors, strict=True):
        assert vector == pytest.approx(expected(text), abs=1e-6)


def test_vectors_are_normalised(stub: EmbeddingStub) -> None:
    embedder = make_embedder(stub.base_url)
    vector = embedder.embed_one("hello")
    assert len(vector) == DIMS == embedder.dimensions
    assert float(np.linalg.norm(vector)) == pytest.approx(1.0, abs=1e-6)
    assert embedder.model_id == f"openai:{MODEL}"


def test_batches_split_by_batch_size_and_keep_order(stub: EmbeddingStub) -> None:
    texts = [f"text number {i}" for i in range(7)]
    vectors = make_embedder(stub.base_url, batch_size=3).embed(texts)

    assert [request.body["input"] for request in stub.requests] == [texts[0:3], texts[3:6], texts[6:7]]
    assert [vector for vector in vectors] == [pytest.approx(expected(text), abs=1e-6) for text in texts]


def test_out_of_order_indexes_are_reordered(stub: EmbeddingStub) -> None:
    stub.reverse = True
    texts = ["first", "second", "third", "fourth"]
    vectors = make_embedder(stub.base_url).embed(texts)
    assert [vector for vector in vectors] == [pytest.approx(expected(text), abs=1e-6) for text in texts]


def test_empty_input_sends_nothing(stub: EmbeddingStub) -> None:
    assert make_embedder(stub.base_url).embed([]) == []
    assert stub.requests == []


def test_unauthorised_is_a_configuration_error_naming_the_env_var(stub: EmbeddingStub) -> None:
    stub.status = 401
    with pytest.raises(ConfigurationError, match="AGENTX_EMBEDDING__OPENAI_API_KEY") as caught:
        make_embedder(stub.base_url).embed(["x"])
    assert type(caught.value) is ConfigurationError
    assert len(stub.requests) == 1, "authentication errors must not be retried"


def test_forbidden_is_a_configuration_error(stub: EmbeddingStub) -> None:
    stub.status = 403
    with pytest.raises(ConfigurationError, match="HTTP 403"):
        make_embedder(stub.base_url, max_retries=0).embed(["x"])


def test_server_error_after_retries_is_a_store_error(stub: EmbeddingStub) -> None:
    stub.status = 500
    with pytest.raises(StoreError, match="HTTP 500") as caught:
        make_embedder(stub.base_url, max_retries=2).embed(["x"])
    assert not isinstance(caught.value, StoreUnavailableError)
    assert len(stub.requests) == 3, "one attempt plus the SDK's two retries"


def test_wrong_vector_size_is_a_dimension_error(stub: EmbeddingStub) -> None:
    stub.vector_size = DIMS + 1
    with pytest.raises(EmbeddingDimensionError, match=rf"{DIMS + 1}-dimensional.*{DIMS} dimensions"):
        make_embedder(stub.base_url).embed(["x"])


def test_connection_refused_is_store_unavailable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    # The port is closed again, so nothing listens there.
    with pytest.raises(StoreUnavailableError, match="unreachable"):
        make_embedder(f"http://127.0.0.1:{port}/v1", max_retries=0).embed(["x"])


def test_timeout_is_store_unavailable(stub: EmbeddingStub) -> None:
    stub.delay_s = 1.0
    embedder = OpenAIEmbedder(MODEL, DIMS, "sk-test", stub.base_url, timeout=0.2, max_retries=0)
    with pytest.raises(StoreUnavailableError):
        embedder.embed(["x"])


def test_missing_sdk_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)  # makes `import openai` raise ImportError
    with pytest.raises(ConfigurationError, match=r"pip install 'agentx-memory\[openai\]'"):
        OpenAIEmbedder(MODEL, DIMS, "sk-test")


def test_factory_builds_openai_embedder(stub: EmbeddingStub) -> None:
    settings = EmbeddingSettings(
        provider="openai",
        model=MODEL,
        dimensions=DIMS,
        batch_size=2,
        openai_api_key=SecretStr("sk-test"),
        openai_base_url=stub.base_url,
    )
    embedder = build_embedder(settings)
    assert isinstance(embedder, OpenAIEmbedder)
    embedder.embed(["a", "b", "c"])
    assert [len(request.body["input"]) for request in stub.requests] == [2, 1]


def test_factory_requires_an_api_key() -> None:
    with pytest.raises(ConfigurationError, match="AGENTX_EMBEDDING__OPENAI_API_KEY"):
        build_embedder(EmbeddingSettings(provider="openai", model=MODEL, dimensions=DIMS))


def test_factory_refuses_the_local_model_name_for_openai() -> None:
    settings = EmbeddingSettings(provider="openai", openai_api_key=SecretStr("sk-test"))
    with pytest.raises(ConfigurationError, match="AGENTX_EMBEDDING__MODEL"):
        build_embedder(settings)
