"""Embeddings from the OpenAI API (or any server that speaks its ``/v1/embeddings`` protocol).

The ``openai`` SDK is an optional extra, imported only when this embedder is built. Every SDK error
is translated to the library's exceptions in :func:`_translate`, the one place that knows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import numpy as np

from agentx_memory.embedding.base import check_dimensions, ensure_text, ensure_text_batch, l2_normalise
from agentx_memory.errors import (
    AgentMemoryError,
    ConfigurationError,
    StoreError,
    StoreUnavailableError,
)
from agentx_memory.redact import redact_text, redact_url

if TYPE_CHECKING:
    import openai

__all__ = ["DEFAULT_BASE_URL", "OpenAIEmbedder"]

#: Passed explicitly so the SDK never falls back to ``OPENAI_BASE_URL`` from the environment:
#: configuration comes from our settings only.
DEFAULT_BASE_URL: Final = "https://api.openai.com/v1"
#: The API refuses more inputs than this in one request.
MAX_BATCH_SIZE: Final = 2048
_API_KEY_ENV: Final = "AGENTX_EMBEDDING__OPENAI_API_KEY"


class OpenAIEmbedder:
    """Vectors from ``POST {base_url}/embeddings``, requested ``batch_size`` texts at a time.

    Constructing builds the HTTP client but sends nothing. ``max_retries`` is the SDK's own retry
    budget for connection errors, 408/409/429 and 5xx (exponential back-off, ``Retry-After`` honoured);
    it is kept small so a failing provider surfaces quickly instead of stalling a turn.
    """

    def __init__(
        self,
        model: str,
        dimensions: int,
        api_key: str,
        base_url: str | None = None,
        batch_size: int = 64,
        timeout: float = 30.0,
        max_retries: int = 2,
    ) -> None:
        if not api_key:
            raise ConfigurationError(f"the OpenAI embedder needs an API key; set {_API_KEY_ENV}")
        if not 1 <= batch_size <= MAX_BATCH_SIZE:
            raise ConfigurationError(f"embedding batch_size must be 1..{MAX_BATCH_SIZE}, got {batch_size}")
        if dimensions < 1:
            raise ConfigurationError(f"embedding dimensions must be positive, got {dimensions}")
        try:
            import openai
        except ImportError as exc:
            raise ConfigurationError(
                "the OpenAI embedder needs the openai package: pip install 'agentx-memory[openai]'"
            ) from exc
        self._model = model
        self._dimensions = dimensions
        self._batch_size = batch_size
        self._base_url = base_url or DEFAULT_BASE_URL
        self._client: openai.OpenAI = openai.OpenAI(
            api_key=api_key, base_url=self._base_url, timeout=timeout, max_retries=max_retries
        )

    @property
    def model_id(self) -> str:
        return f"openai:{self._model}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        batch = ensure_text_batch(texts)
        if not batch:
            return []
        rows: list[list[float]] = []
        for start in range(0, len(batch), self._batch_size):
            rows.extend(self._request(batch[start : start + self._batch_size]))
        vectors: list[list[float]] = l2_normalise(np.asarray(rows, dtype=np.float32)).tolist()
        return vectors

    def embed_one(self, text: str) -> list[float]:
        return self.embed([ensure_text(text)])[0]

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()

    def _request(self, chunk: list[str]) -> list[list[float]]:
        """One API call; the vectors come back in ``chunk`` order whatever order the server used."""
        import openai

        try:
            response = self._client.embeddings.create(
                model=self._model,
                input=chunk,
                dimensions=self._dimensions,
                # JSON floats, not the SDK's default base64: every compatible server supports them.
                encoding_format="float",
            )
        except openai.OpenAIError as exc:
            raise _translate(exc, self._model, self._base_url) from exc
        items = sorted(response.data, key=lambda item: item.index)
        if [item.index for item in items] != list(range(len(chunk))):
            raise StoreError(
                f"embedding service at {self._base_url} returned indexes "
                f"{[item.index for item in response.data]} for {len(chunk)} inputs"
            )
        vectors = [item.embedding for item in items]
        check_dimensions(
            vectors, self._dimensions, f"embedding model {self._model!r} at {redact_url(self._base_url)}"
        )
        return vectors


def _translate(exc: openai.OpenAIError, model: str, base_url: str) -> AgentMemoryError:
    """Map an SDK error to ours: bad credentials are configuration, unreachable is unavailable."""
    import openai

    where = f"embedding service at {redact_url(base_url)} (model {model!r})"
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return ConfigurationError(
            f"{where} rejected the API key (HTTP {exc.status_code}); check {_API_KEY_ENV}"
        )
    if isinstance(exc, openai.APIConnectionError):  # APITimeoutError is a subclass
        return StoreUnavailableError(f"{where} is unreachable: {redact_text(str(exc))}")
    if isinstance(exc, openai.APIStatusError):
        return StoreError(f"{where} failed with HTTP {exc.status_code}: {exc.message}")
    return StoreError(f"{where} failed: {redact_text(str(exc))}")
