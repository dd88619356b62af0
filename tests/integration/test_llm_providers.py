"""OpenAIChatLLM and AnthropicLLM through the real SDKs against a local HTTP stub of both APIs.

The behaviour every adapter owes the :class:`LLM` port is one suite parametrised over both providers;
only the request shapes, which differ by design, have provider-specific tests.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest
from pydantic import SecretStr

from agentx_memory import llm
from agentx_memory.errors import ConfigurationError, InvalidInputError, LLMError
from agentx_memory.llm import LLM, AnthropicLLM, OpenAIChatLLM, build_llm
from agentx_memory.settings import LLMSettings, Settings
from tests.llm_cases import ANTHROPIC, KEY, OPENAI, Provider, closed_port_url
from tests.llm_stub import BrokenBody, LLMStub

# `stub` and `provider` (both providers in turn) are fixtures of tests/conftest.py.


# ---------------------------------------------------------------- the port's contract, both providers


def test_answer_is_the_reply_without_surrounding_whitespace(stub: LLMStub, provider: Provider) -> None:
    stub.script("  a trip to Lisbon in May \n")
    model = provider.make(provider.url(stub))
    assert model.complete("when is the trip?") == "a trip to Lisbon in May"
    assert model.model_id == f"{provider.name}:{provider.model}"
    assert isinstance(model, LLM)
    assert [request.path for request in stub.requests] == [provider.path]


@pytest.mark.parametrize("status", [500, 429])
def test_transient_error_is_retried_then_answered(stub: LLMStub, provider: Provider, status: int) -> None:
    stub.fail(status)
    assert provider.make(provider.url(stub), max_retries=1).complete("hello") == "echo: hello"
    assert len(stub.requests) == 2


def test_error_after_retries_is_an_llm_error_naming_provider_and_model(
    stub: LLMStub, provider: Provider
) -> None:
    stub.fail(500, times=2)
    with pytest.raises(LLMError, match=rf"{provider.label} model '{provider.model}'.*HTTP 500") as caught:
        provider.make(provider.url(stub), max_retries=1).complete("hello")
    assert isinstance(caught.value.__cause__, provider.sdk_error)
    assert len(stub.requests) == 2, "one attempt plus one retry"


@pytest.mark.parametrize("status", [401, 403])
def test_rejected_key_is_an_llm_error_naming_the_setting(
    stub: LLMStub, provider: Provider, status: int
) -> None:
    stub.fail(status)
    with pytest.raises(LLMError, match=rf"HTTP {status}.*AGENTX_LLM__API_KEY"):
        provider.make(provider.url(stub), max_retries=1).complete("hello")
    assert len(stub.requests) == 1, "credential errors are not retried"


@pytest.mark.parametrize("reply", ["", " \n\t"])
def test_empty_answer_is_an_llm_error(stub: LLMStub, provider: Provider, reply: str) -> None:
    stub.script(reply)
    with pytest.raises(LLMError, match="empty answer"):
        provider.make(provider.url(stub)).complete("hello")


@pytest.mark.parametrize("kind", ["json", "shape"])
def test_malformed_body_is_an_llm_error(stub: LLMStub, provider: Provider, kind: BrokenBody) -> None:
    stub.break_body(kind)
    with pytest.raises(LLMError, match=provider.label):
        provider.make(provider.url(stub), max_retries=1).complete("hello")
    assert len(stub.requests) == 1, "a 200 with a bad body is not retried"


def test_connection_refused_is_an_llm_error(provider: Provider) -> None:
    url = closed_port_url() + ("/v1" if provider.name == "openai" else "")
    with pytest.raises(LLMError, match="unreachable"):
        provider.make(url).complete("hello")


def test_timeout_is_an_llm_error(stub: LLMStub, provider: Provider) -> None:
    stub.delay_s = 1.0
    with pytest.raises(LLMError, match=r"did not answer within 0\.2 s"):
        provider.make(provider.url(stub), timeout_s=0.2).complete("hello")


def test_invalid_request_is_refused_before_sending(stub: LLMStub, provider: Provider) -> None:
    model = provider.make(provider.url(stub))
    with pytest.raises(InvalidInputError, match="non-empty"):
        model.complete("  ")
    with pytest.raises(InvalidInputError, match="max_tokens"):
        model.complete("hello", max_tokens=0)
    assert stub.requests == []


def test_missing_key_is_a_configuration_error(provider: Provider) -> None:
    with pytest.raises(ConfigurationError, match="AGENTX_LLM__API_KEY"):
        provider.make("http://127.0.0.1:9", key="")


def test_missing_sdk_is_a_configuration_error(provider: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, provider.name, None)  # makes the import raise ImportError
    with pytest.raises(ConfigurationError, match=rf"pip install 'agentx-memory\[{provider.name}\]'"):
        provider.make("http://127.0.0.1:9")


# ---------------------------------------------------------------- request shapes


def test_openai_request_carries_system_message_and_sampling(stub: LLMStub) -> None:
    answer = OPENAI.make(stub.openai_url).complete(
        "expand: trip", system="You rewrite queries.", max_tokens=64, temperature=0.3
    )

    assert answer == "echo: expand: trip"
    (request,) = stub.requests
    assert request.authorization == f"Bearer {KEY}"
    assert request.body["model"] == OPENAI.model
    assert request.body["messages"] == [
        {"role": "system", "content": "You rewrite queries."},
        {"role": "user", "content": "expand: trip"},
    ]
    assert request.body["max_tokens"] == 64
    assert request.body["temperature"] == 0.3


def test_openai_request_without_system_has_only_the_user_message(stub: LLMStub) -> None:
    OPENAI.make(stub.openai_url).complete("hello")
    body = stub.requests[0].body
    assert body["messages"] == [{"role": "user", "content": "hello"}]
    assert (body["max_tokens"], body["temperature"]) == (256, 0.0)


def test_anthropic_request_puts_system_in_its_field(stub: LLMStub) -> None:
    answer = ANTHROPIC.make(stub.anthropic_url).complete(
        "expand: trip", system="You rewrite queries.", max_tokens=64, temperature=0.3
    )

    assert answer == "echo: expand: trip"
    (request,) = stub.requests
    # SDK 2.x sends the key as a bearer token, older ones as x-api-key; either reaches the API.
    assert KEY in (request.api_key, (request.authorization or "").removeprefix("Bearer "))
    assert request.anthropic_version is not None
    assert request.body["model"] == ANTHROPIC.model
    assert request.body["system"] == "You rewrite queries."
    assert request.body["messages"] == [{"role": "user", "content": "expand: trip"}]
    assert request.body["max_tokens"] == 64
    assert request.body["temperature"] == 0.3


def test_anthropic_request_without_system_has_no_system_field(stub: LLMStub) -> None:
    ANTHROPIC.make(stub.anthropic_url).complete("hello")
    body = stub.requests[0].body
    assert "system" not in body
    assert (body["max_tokens"], body["temperature"]) == (256, 0.0)


def test_anthropic_text_blocks_are_joined_and_other_blocks_skipped(stub: LLMStub) -> None:
    thinking: dict[str, Any] = {"type": "thinking", "thinking": "the user wants dates", "signature": "sig"}
    stub.anthropic_blocks = [thinking]
    stub.script(["The trip is ", "on May 3rd."])
    assert ANTHROPIC.make(stub.anthropic_url).complete("when?") == "The trip is on May 3rd."


def test_anthropic_thinking_without_text_is_an_empty_answer(stub: LLMStub) -> None:
    stub.anthropic_blocks = [{"type": "thinking", "thinking": "hmm", "signature": "sig"}]
    stub.script("")
    with pytest.raises(LLMError, match=r"empty answer.*end_turn"):
        ANTHROPIC.make(stub.anthropic_url).complete("when?")


# ---------------------------------------------------------------- factory and settings


def test_factory_returns_none_when_no_provider_is_configured() -> None:
    assert build_llm(LLMSettings()) is None
    assert build_llm(LLMSettings(provider="none", api_key=SecretStr(KEY))) is None


@pytest.mark.parametrize(
    ("name", "adapter", "default_model"),
    [("openai", OpenAIChatLLM, "gpt-4o-mini"), ("anthropic", AnthropicLLM, "claude-haiku-4-5")],
)
def test_factory_builds_the_provider_with_its_default_model(
    name: str, adapter: type[LLM], default_model: str
) -> None:
    built = build_llm(LLMSettings.model_validate({"provider": name, "api_key": KEY}))
    assert isinstance(built, adapter)
    assert built.model_id == f"{name}:{default_model}"
    named = build_llm(LLMSettings.model_validate({"provider": name, "api_key": KEY, "model": "m-1"}))
    assert named is not None
    assert named.model_id == f"{name}:m-1"


def test_factory_passes_url_key_and_retries(stub: LLMStub, provider: Provider) -> None:
    settings = LLMSettings.model_validate(
        {"provider": provider.name, "api_key": KEY, "base_url": provider.url(stub), "max_retries": 1}
    )
    built = build_llm(settings)
    assert built is not None
    stub.fail(503)
    assert built.complete("hello") == "echo: hello"
    assert len(stub.requests) == 2
    assert KEY in (stub.requests[0].authorization or stub.requests[0].api_key or "")


@pytest.mark.parametrize("key", [None, ""])
def test_factory_requires_an_api_key(provider: Provider, key: str | None) -> None:
    settings = LLMSettings.model_validate({"provider": provider.name, "api_key": key})
    with pytest.raises(ConfigurationError, match="AGENTX_LLM__API_KEY"):
        build_llm(settings)


def test_settings_read_the_llm_group_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTX_LLM__PROVIDER", "anthropic")
    monkeypatch.setenv("AGENTX_LLM__API_KEY", KEY)
    monkeypatch.setenv("AGENTX_LLM__TIMEOUT_S", "3.5")
    settings = Settings().llm
    assert (settings.provider, settings.model, settings.timeout_s, settings.max_retries) == (
        "anthropic",
        None,
        3.5,
        2,
    )
    assert settings.api_key is not None
    assert settings.api_key.get_secret_value() == KEY


def test_public_surface() -> None:
    assert llm.__all__ == [
        "LLM",
        "AnthropicLLM",
        "OpenAIChatLLM",
        "StructuredAnswer",
        "TokenUsage",
        "build_llm",
    ]
    for name in llm.__all__:
        assert getattr(llm, name) is not None


def test_package_imports_and_builds_nothing_without_the_sdks() -> None:
    code = textwrap.dedent(
        """
        import sys
        sys.modules["openai"] = None
        sys.modules["anthropic"] = None
        from agentx_memory.llm import build_llm
        from agentx_memory.settings import LLMSettings
        assert build_llm(LLMSettings()) is None
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
