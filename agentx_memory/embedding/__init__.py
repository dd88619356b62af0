"""Text embedders: the :class:`Embedder` port, its local and OpenAI adapters, and the factory.

Everything that needs vectors holds an :class:`Embedder` built once by :func:`build_embedder` from
the settings; no other module knows which provider is behind it.
"""

from __future__ import annotations

from agentx_memory.embedding.base import Embedder, QueryEmbedder, check_dimensions
from agentx_memory.embedding.e5 import LocalE5Embedder
from agentx_memory.embedding.factory import build_embedder
from agentx_memory.embedding.local import LocalOnnxEmbedder
from agentx_memory.embedding.openai_provider import OpenAIEmbedder

__all__ = [
    "Embedder",
    "LocalE5Embedder",
    "LocalOnnxEmbedder",
    "OpenAIEmbedder",
    "QueryEmbedder",
    "build_embedder",
    "check_dimensions",
]
