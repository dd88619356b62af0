"""Completions from the OpenAI API (or any server that speaks its ``/v1/chat/completions`` protocol).

The ``openai`` SDK is an optional extra, imported only when this adapter is built. Structured answers
come from ``response_format: json_schema``. Every SDK error is translated to :class:`LLMError` in
``OpenAIChatLLM._create``, the one place that knows them and the one both kinds of call go through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from agentx_memory.errors import ConfigurationError, LLMError
from agentx_memory.llm.base import (
    API_KEY_ENV,
    StructuredAnswer,
    TokenUsage,
    check_request,
    check_schema,
    json_object,
    record_usage,
    require_answer,
    status_failure,
)
from agentx_memory.redact import redact_text, redact_url

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletion, ChatCompletionMessageParam

__all__ = ["DEFAULT_BASE_URL", "DEFAULT_MODEL", "OpenAIChatLLM"]

#: Passed explicitly so the SDK never falls back to ``OPENAI_BASE_URL`` from the environment:
#: configuration comes from our settings only.
DEFAULT_BASE_URL: Final = "https://api.openai.com/v1"
DEFAULT_MODEL: Final = "gpt-4o-mini"


class OpenAIChatLLM:
    """One chat completion per :meth:`complete`: an optional system message, then the prompt.

    Constructing builds the HTTP client but sends nothing. ``max_retries`` is the SDK's own budget for
    connection errors, 408/409/429 and 5xx (exponential back-off from 0.5 s, ``Retry-After``
    honoured); keep it small so a failing provider costs a query little before retrieval falls back.
    """

    def __init__(
        self,
        model: str,
        api_key: str,
        base_url: str | None = None,
        timeout_s: float = 20.0,
        max_retries: int = 2,
    ) -> None:
        if not api_key:
            raise ConfigurationError(f"the OpenAI LLM needs an API key; set {API_KEY_ENV}")
        try:
            import openai
        except ImportError as exc:
            raise ConfigurationError(
                "the OpenAI LLM needs the openai package: pip install 'agentx-memory[openai]'"
            ) from exc
        self._model = model
        self._timeout_s = timeout_s
        base_url = base_url or DEFAULT_BASE_URL
        self._where = f"OpenAI model {model!r} at {redact_url(base_url)}"
        self._client: openai.OpenAI = openai.OpenAI(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=max_retries
        )

    @property
    def model_id(self) -> str:
        return f"openai:{self._model}"

    def complete(
        self, prompt: str, *, system: str | None = None, max_tokens: int = 256, temperature: float = 0.0
    ) -> str:
        check_request(prompt, max_tokens)
        response = self._create(prompt, system, max_tokens=max_tokens, temperature=temperature)
        text, stop_reason = _answer(response)
        return require_answer(text, self._where, stop_reason)

    def complete_structured(
        self,
        prompt: str,
        *,
        schema: dict[str, Any],
        name: str,
        system: str | None = None,
        max_tokens: int = 2048,
        temperature: float = 0.0,
    ) -> StructuredAnswer:
        check_request(prompt, max_tokens)
        check_schema(name, schema)
        response = self._create(
            prompt,
            system,
            max_tokens=max_tokens,
            temperature=temperature,
            # strict=False: strict mode refuses optional fields and defaults, which the schemas use.
            response_format={
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": False},
            },
        )
        text, stop_reason = _answer(response)
        data = json_object(require_answer(text, self._where, stop_reason), self._where)
        return StructuredAnswer(data=data, usage=_usage(response), model_id=self.model_id)

    def _create(self, prompt: str, system: str | None, **options: Any) -> ChatCompletion:
        """One Chat Completions call; every SDK error becomes :class:`LLMError` here."""
        import openai

        messages: list[ChatCompletionMessageParam] = []
        if system:
            messages.append({"role": "system", "content": system})
        messages.append({"role": "user", "content": prompt})
        try:
            # `max_tokens`, not its successor `max_completion_tokens`: every compatible server and every
            # SDK since our floor (1.40) accept it; only reasoning models refuse it, and they refuse
            # temperature 0 as well.
            response: ChatCompletion = self._client.chat.completions.create(
                model=self._model, messages=messages, **options
            )
        except openai.APIStatusError as exc:
            raise status_failure(self._where, exc.status_code, exc.message) from exc
        except openai.APITimeoutError as exc:
            raise LLMError(f"{self._where} did not answer within {self._timeout_s} s") from exc
        except openai.APIConnectionError as exc:
            raise LLMError(f"{self._where} is unreachable: {redact_text(str(exc))}") from exc
        except (openai.OpenAIError, ValueError) as exc:
            # ValueError: the SDK lets a body that is not JSON through as json.JSONDecodeError.
            raise LLMError(f"{self._where} sent an unusable response: {redact_text(str(exc))}") from exc
        record_usage(_usage(response))
        return response

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()


def _usage(response: ChatCompletion) -> TokenUsage:
    usage = getattr(response, "usage", None)
    return TokenUsage(
        input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
    )


def _answer(response: ChatCompletion) -> tuple[str, object]:
    """The first choice's text and why it stopped.

    Read defensively: the SDK does not validate responses, so a compatible server that leaves a field
    out yields a model without that attribute rather than an error.
    """
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list) or not choices:
        return "", "no choices"
    message = getattr(choices[0], "message", None)
    content = getattr(message, "content", None)
    refusal = getattr(message, "refusal", None)
    if not content and refusal:
        return "", f"refusal: {refusal}"
    return (content if isinstance(content, str) else ""), getattr(choices[0], "finish_reason", None)
