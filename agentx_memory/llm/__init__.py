"""Language models: the :class:`LLM` port, its OpenAI and Anthropic adapters, and the factory.

Retrieval holds the ``LLM | None`` built once by :func:`build_llm`; ``None`` (the default) keeps the
product fully offline. The provider SDKs are optional extras, imported only when an adapter is built,
so importing this package never needs them.
"""

from __future__ import annotations

from agentx_memory.llm.anthropic_provider import AnthropicLLM
from agentx_memory.llm.base import LLM, StructuredAnswer, TokenUsage
from agentx_memory.llm.factory import build_llm
from agentx_memory.llm.openai_provider import OpenAIChatLLM

__all__ = ["LLM", "AnthropicLLM", "OpenAIChatLLM", "StructuredAnswer", "TokenUsage", "build_llm"]
