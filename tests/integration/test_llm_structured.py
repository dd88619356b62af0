"""``complete_structured`` through the real SDKs against the local stub of both APIs.

The contract (a JSON object, its token usage, :class:`LLMError` for anything unusable, requests refused
before any network call) is parametrised over both providers; how each provider is asked for a
structured answer (forced tool use, ``response_format: json_schema``) has provider-specific tests.
"""

from __future__ import annotations

import json
from typing import Any, Final

import pytest

from agentx_memory.errors import InvalidInputError, LLMError
from agentx_memory.llm import LLM, StructuredAnswer, TokenUsage
from tests.llm_cases import ANTHROPIC, OPENAI, Provider
from tests.llm_stub import LLMStub

# `stub` and `provider` (both providers in turn) are fixtures of tests/conftest.py.

NAME: Final = "record_extraction"
SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "entities": {
            "type": "array",
            "items": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        }
    },
    "required": ["entities"],
}
ANSWER: Final[dict[str, Any]] = {"entities": [{"name": "Dana"}, {"name": "Lisbon"}]}


def ask(model: LLM, prompt: str = "extract: Dana flies to Lisbon", **options: Any) -> StructuredAnswer:
    return model.complete_structured(prompt, schema=SCHEMA, name=NAME, **options)


# ---------------------------------------------------------------- the port's contract, both providers


def test_answer_is_the_json_object_with_its_usage(stub: LLMStub, provider: Provider) -> None:
    stub.script(ANSWER)
    model = provider.make(provider.url(stub))

    answer = ask(model)

    assert answer.data == ANSWER
    # The stub counts 7 input tokens and one output token per word of the JSON text.
    assert answer.usage == TokenUsage(input_tokens=7, output_tokens=len(json.dumps(ANSWER).split()))
    assert answer.model_id == model.model_id == f"{provider.name}:{provider.model}"
    assert [request.path for request in stub.requests] == [provider.path]


def test_transient_error_is_retried_then_answered(stub: LLMStub, provider: Provider) -> None:
    stub.fail(429)
    stub.script(ANSWER)
    assert ask(provider.make(provider.url(stub), max_retries=1)).data == ANSWER
    assert len(stub.requests) == 2


def test_http_error_is_translated_as_for_complete(stub: LLMStub, provider: Provider) -> None:
    stub.fail(500)
    with pytest.raises(LLMError, match=rf"{provider.label} model '{provider.model}'.*HTTP 500") as caught:
        ask(provider.make(provider.url(stub)))
    assert isinstance(caught.value.__cause__, provider.sdk_error)


def test_rejected_key_names_the_setting(stub: LLMStub, provider: Provider) -> None:
    stub.fail(401)
    with pytest.raises(LLMError, match=r"HTTP 401.*AGENTX_LLM__API_KEY"):
        ask(provider.make(provider.url(stub), max_retries=1))
    assert len(stub.requests) == 1, "credential errors are not retried"


def test_body_that_is_not_json_is_an_llm_error(stub: LLMStub, provider: Provider) -> None:
    stub.break_body("json")
    with pytest.raises(LLMError, match=rf"{provider.label}.*unusable response"):
        ask(provider.make(provider.url(stub)))


def test_timeout_is_an_llm_error(stub: LLMStub, provider: Provider) -> None:
    stub.delay_s = 1.0
    with pytest.raises(LLMError, match=r"did not answer within 0\.2 s"):
        ask(provider.make(provider.url(stub), timeout_s=0.2))


@pytest.mark.parametrize(
    ("prompt", "name", "schema", "max_tokens", "message"),
    [
        (" ", NAME, SCHEMA, 2048, "non-empty"),
        ("extract", NAME, SCHEMA, 0, "max_tokens"),
        ("extract", "", SCHEMA, 2048, "needs a name"),
        ("extract", NAME, {"type": "array", "items": {"type": "string"}}, 2048, "type: object"),
        ("extract", NAME, {"properties": {}}, 2048, "type: object"),
    ],
    ids=["empty-prompt", "no-tokens", "empty-name", "array-schema", "untyped-schema"],
)
def test_invalid_request_is_refused_before_sending(
    stub: LLMStub,
    provider: Provider,
    prompt: str,
    name: str,
    schema: dict[str, Any],
    max_tokens: int,
    message: str,
) -> None:
    model = provider.make(provider.url(stub))
    with pytest.raises(InvalidInputError, match=message):
        model.complete_structured(prompt, schema=schema, name=name, max_tokens=max_tokens)
    assert stub.requests == []


# ---------------------------------------------------------------- Anthropic: forced tool use


def test_anthropic_request_forces_the_tool_and_puts_system_in_its_field(stub: LLMStub) -> None:
    stub.script(ANSWER)
    ask(ANTHROPIC.make(stub.anthropic_url), system="You extract entities.", temperature=0.2)

    (request,) = stub.requests
    body = request.body
    tool = {"name": NAME, "description": "Record the structured answer.", "input_schema": SCHEMA}
    assert body["tools"] == [tool]
    assert body["tool_choice"] == {"type": "tool", "name": NAME}
    assert body["system"] == "You extract entities."
    assert body["messages"] == [{"role": "user", "content": "extract: Dana flies to Lisbon"}]
    assert (body["max_tokens"], body["temperature"]) == (2048, 0.2)
    assert "response_format" not in body


def test_anthropic_request_without_system_has_no_system_field(stub: LLMStub) -> None:
    stub.script(ANSWER)
    ask(ANTHROPIC.make(stub.anthropic_url))
    body = stub.requests[0].body
    assert "system" not in body
    assert (body["max_tokens"], body["temperature"]) == (2048, 0.0)


def test_anthropic_text_instead_of_the_tool_call_is_an_llm_error(stub: LLMStub) -> None:
    stub.script("Dana and Lisbon.")
    with pytest.raises(
        LLMError, match=rf"Anthropic model 'claude-test'.*did not return the {NAME} tool call.*'end_turn'"
    ):
        ask(ANTHROPIC.make(stub.anthropic_url))


def test_anthropic_reads_the_tool_call_of_its_name_only(stub: LLMStub) -> None:
    # Thinking and a call of another tool come first: both are skipped.
    stub.anthropic_blocks = [
        {"type": "thinking", "thinking": "two entities", "signature": "sig"},
        {"type": "tool_use", "id": "toolu_other", "name": "other", "input": {"x": 1}},
    ]
    stub.script(ANSWER, "")
    model = ANTHROPIC.make(stub.anthropic_url)
    assert ask(model).data == ANSWER
    with pytest.raises(LLMError, match=f"did not return the {NAME} tool call"):
        ask(model)


# ---------------------------------------------------------------- OpenAI: response_format json_schema


def test_openai_request_asks_for_the_json_schema_with_a_system_message(stub: LLMStub) -> None:
    stub.script(ANSWER)
    ask(OPENAI.make(stub.openai_url), system="You extract entities.", max_tokens=512)

    (request,) = stub.requests
    body = request.body
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": NAME, "schema": SCHEMA, "strict": False},
    }
    assert body["messages"] == [
        {"role": "system", "content": "You extract entities."},
        {"role": "user", "content": "extract: Dana flies to Lisbon"},
    ]
    assert (body["max_tokens"], body["temperature"]) == (512, 0.0)
    assert "tools" not in body


def test_openai_request_without_system_has_only_the_user_message(stub: LLMStub) -> None:
    stub.script(ANSWER)
    ask(OPENAI.make(stub.openai_url))
    assert stub.requests[0].body["messages"] == [{"role": "user", "content": "extract: Dana flies to Lisbon"}]


@pytest.mark.parametrize(
    "content",
    ['{"entities": [', '[{"name": "Dana"}]', '"Dana"', "Dana and Lisbon."],
    ids=["truncated", "array", "string", "prose"],
)
def test_openai_answer_that_is_not_a_json_object_is_malformed(stub: LLMStub, content: str) -> None:
    stub.script(content)
    with pytest.raises(LLMError, match=r"OpenAI model 'gpt-test'.*malformed JSON"):
        ask(OPENAI.make(stub.openai_url))
    assert len(stub.requests) == 1, "a malformed answer is the caller's to retry"


def test_openai_empty_answer_is_an_llm_error(stub: LLMStub) -> None:
    stub.script("")
    with pytest.raises(LLMError, match="empty answer"):
        ask(OPENAI.make(stub.openai_url))
