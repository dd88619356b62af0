"""The two LLM providers as test cases: how to build each adapter against the stub of tests/llm_stub.py.

Shared by the provider suites (plain text and structured output); the ``provider`` fixture that
parametrises a test over both lives in tests/conftest.py next to the ``stub`` fixture.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from typing import Final

import anthropic
import openai

from agentx_memory.llm import LLM, AnthropicLLM, OpenAIChatLLM
from tests.llm_stub import ANTHROPIC_PATH, OPENAI_PATH, LLMStub

__all__ = ["ANTHROPIC", "KEY", "OPENAI", "PROVIDERS", "Provider", "closed_port_url"]

KEY: Final = "sk-test"


@dataclass(frozen=True)
class Provider:
    """One provider: its adapter, the stub route it calls and the SDK error it translates."""

    name: str
    #: How the adapter names the provider in its error messages.
    label: str
    model: str
    path: str
    sdk_error: type[Exception]

    def url(self, stub: LLMStub) -> str:
        return stub.openai_url if self.name == "openai" else stub.anthropic_url

    def make(self, base_url: str, *, max_retries: int = 0, timeout_s: float = 5.0, key: str = KEY) -> LLM:
        adapter = OpenAIChatLLM if self.name == "openai" else AnthropicLLM
        return adapter(self.model, key, base_url, timeout_s=timeout_s, max_retries=max_retries)


OPENAI: Final = Provider("openai", "OpenAI", "gpt-test", OPENAI_PATH, openai.APIStatusError)
ANTHROPIC: Final = Provider("anthropic", "Anthropic", "claude-test", ANTHROPIC_PATH, anthropic.APIStatusError)
PROVIDERS: Final = (OPENAI, ANTHROPIC)


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    # The port is closed again, so nothing listens there.
    return f"http://127.0.0.1:{port}"
