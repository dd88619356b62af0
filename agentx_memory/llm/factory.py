"""Builds the configured LLM: the only place that looks at ``settings.provider``."""

from __future__ import annotations

from agentx_memory.errors import ConfigurationError
from agentx_memory.llm import anthropic_provider, openai_provider
from agentx_memory.llm.anthropic_provider import AnthropicLLM
from agentx_memory.llm.base import API_KEY_ENV, LLM
from agentx_memory.llm.openai_provider import OpenAIChatLLM
from agentx_memory.settings import LLMSettings

__all__ = ["build_llm"]


def build_llm(settings: LLMSettings) -> LLM | None:
    """The LLM ``settings`` describe, or ``None`` for provider ``none`` (the offline default).

    Raises :class:`ConfigurationError` for a provider without an API key or SDK. Nothing is contacted
    here: the client sends nothing until the first ``complete``.
    """
    if settings.provider == "none":
        return None
    api_key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
    if not api_key:
        raise ConfigurationError(
            f"AGENTX_LLM__PROVIDER={settings.provider} needs an API key: set {API_KEY_ENV}"
        )
    if settings.provider == "openai":
        return OpenAIChatLLM(
            model=settings.model or openai_provider.DEFAULT_MODEL,
            api_key=api_key,
            base_url=settings.base_url,
            timeout_s=settings.timeout_s,
            max_retries=settings.max_retries,
        )
    return AnthropicLLM(
        model=settings.model or anthropic_provider.DEFAULT_MODEL,
        api_key=api_key,
        base_url=settings.base_url,
        timeout_s=settings.timeout_s,
        max_retries=settings.max_retries,
    )
