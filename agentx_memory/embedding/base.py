"""The embedding port: what every embedder promises, and the pure helpers they share.

Embedders are synchronous on purpose: the local model is CPU-bound and the OpenAI one is a blocking
HTTP call, so the async facade runs them in a worker thread instead of pretending they are async.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from typing import ClassVar, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from agentx_memory.errors import ConfigurationError, EmbeddingDimensionError, InvalidInputError

__all__ = [
    "Embedder",
    "InProcessEmbedder",
    "QueryEmbedder",
    "check_dimensions",
    "embed_queries",
    "ensure_text",
    "ensure_text_batch",
    "l2_normalise",
    "text_digest",
    "vector_from_text",
    "vector_to_text",
]

# Below this norm a vector carries no direction; dividing by it would only amplify noise.
_MIN_NORM = 1e-12


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors, so a dot product is their cosine similarity."""

    @property
    def model_id(self) -> str:
        """Identifies the vector space; vectors with different ids must never be compared."""
        ...

    @property
    def dimensions(self) -> int:
        """Length of every vector this embedder returns."""
        ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in input order; an empty input gives ``[]``.

        Thread-safe. Raises :class:`~agentx_memory.errors.AgentMemoryError` subclasses only.
        """
        ...

    def embed_one(self, text: str) -> list[float]:
        """The vector of a single text; same result as ``embed([text])[0]``."""
        ...


@runtime_checkable
class QueryEmbedder(Protocol):
    """An embedder trained with a question side (e5's ``query: `` against ``passage: ``).

    Optional: an :class:`Embedder` without it embeds questions as it embeds stored text, so an
    embedder written before this protocol keeps working unchanged.
    """

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per question, comparable with :meth:`Embedder.embed`'s vectors."""
        ...


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Vectors of questions: the embedder's question side when it has one, else its one side."""
    if isinstance(embedder, QueryEmbedder):
        return embedder.embed_queries(texts)
    return embedder.embed(texts)


def check_dimensions(vectors: Sequence[Sequence[float]], expected: int, source: str) -> None:
    """Raise :class:`EmbeddingDimensionError` unless every vector has ``expected`` components.

    ``source`` names where the vectors came from (a model or a service) so the message says which
    side is misconfigured.
    """
    for position, vector in enumerate(vectors):
        if len(vector) != expected:
            raise EmbeddingDimensionError(
                f"{source} returned a {len(vector)}-dimensional vector (at position {position}) but "
                f"{expected} dimensions were expected; set AGENTX_EMBEDDING__DIMENSIONS to match the "
                "model, or use a model that produces the configured size"
            )


def l2_normalise(matrix: NDArray[np.float32]) -> NDArray[np.float32]:
    """Scale each row to unit length; all-zero rows stay zero rather than becoming NaN."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    normalised: NDArray[np.float32] = (matrix / np.maximum(norms, _MIN_NORM)).astype(np.float32, copy=False)
    return normalised


def ensure_text(text: str) -> str:
    """Return ``text``, or raise :class:`InvalidInputError` if it is not a ``str``."""
    if not isinstance(text, str):
        raise InvalidInputError(f"expected a str to embed, got {type(text).__name__}")
    return text


def ensure_text_batch(texts: Sequence[str]) -> list[str]:
    """The texts as a list, refusing a bare ``str`` (it would embed one vector per character)."""
    if isinstance(texts, str):
        raise InvalidInputError("embed() takes a sequence of texts; use embed_one() for a single text")
    return [ensure_text(text) for text in texts]


def text_digest(text: str) -> str:
    """A stable key for a text (SHA-256, hex): cache keys never carry the text itself."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def vector_to_text(vector: Sequence[float]) -> str:
    """A vector as base64 of its float32 bytes (1.5 KB for 384 dimensions, exact for float32)."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def vector_from_text(encoded: str) -> list[float]:
    return [float(value) for value in np.frombuffer(base64.b64decode(encoded), dtype="<f4")]


class InProcessEmbedder:
    """What the embedders run in this process share: a thread count checked when made, and the model's
    identity (``model``, ``size``: the lock's model id and the vectors' dimensions)."""

    model: ClassVar[str]
    size: ClassVar[int]

    def __init__(self, threads: int = 1) -> None:
        if threads < 0:
            raise ConfigurationError(f"local embedding threads must be >= 0, got {threads}")
        self._threads = threads

    @property
    def model_id(self) -> str:
        return self.model

    @property
    def dimensions(self) -> int:
        return self.size
