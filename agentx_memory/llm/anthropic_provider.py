"""Completions from the Anthropic Messages API (``POST /v1/messages``).

The ``anthropic`` SDK is an optional extra, imported only when this adapter is built. Structured answers
come from forced tool use. Every SDK error is translated to :class:`LLMError` in ``AnthropicLLM._create``,
the one place that knows them and the one both kinds of call go through.
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
    record_usage,
    require_answer,
    status_failure,
)
from agentx_memory.redact import redact_text, redact_url

if TYPE_CHECKING:
    import anthropic
    from anthropic.types import Message
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

__all__ = ["DEFAULT_BASE_URL", "DEFAULT_MODEL", "AnthropicLLM"]

#: Passed explicitly so the SDK never falls back to ``ANTHROPIC_BASE_URL`` (or a profile's URL):
#: configuration comes from our settings only. The SDK appends ``/v1/messages`` itself.
DEFAULT_BASE_URL: Final = "https://api.anthropic.com"
DEFAULT_MODEL: Final = "claude-haiku-4-5"


class AnthropicLLM:
    """One message per :meth:`complete`: ``system`` in the request's ``system`` field, the prompt as the
    single user turn, and the answer's text blocks joined.

    Constructing builds the HTTP client but sends nothing. ``max_retries`` is the SDK's own budget for
    connection errors, 408/409/429 and 5xx including 529 "overloaded" (exponential back-off from
    0.5 s, ``Retry-After`` honoured); keep it small so a failing provider costs a query little.
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
            raise ConfigurationError(f"the Anthropic LLM needs an API key; set {API_KEY_ENV}")
        try:
            import anthropic
        except ImportError as exc:
            raise ConfigurationError(
                "the Anthropic LLM needs the anthropic package: pip install 'agentx-memory[anthropic]'"
            ) from exc
        self._model = model
        self._timeout_s = timeout_s
        base_url = base_url or DEFAULT_BASE_URL
        self._where = f"Anthropic model {model!r} at {redact_url(base_url)}"
        # An explicit api_key also stops the SDK from reading ANTHROPIC_API_KEY or on-disk profiles.
        self._client: anthropic.Anthropic = anthropic.Anthropic(
            api_key=api_key, base_url=base_url, timeout=timeout_s, max_retries=max_retries
        )

    @property
    def model_id(self) -> str:
        return f"anthropic:{self._model}"

    def complete(
        self, prompt: str, *, system: str | None = None, max_tokens: int = 256, temperature: float = 0.0
    ) -> str:
        check_request(prompt, max_tokens)
        message = self._create(prompt, system, max_tokens, temperature)
        return require_answer(_text(message), self._where, getattr(message, "stop_reason", None))

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
        # Forced tool use is the Messages API's structured output: the answer is the tool call's input.
        message = self._create(
            prompt,
            system,
            max_tokens,
            temperature,
            tools=[{"name": name, "description": "Record the structured answer.", "input_schema": schema}],
            tool_choice={"type": "tool", "name": name},
        )
        data = next(
            (
                block.input
                for block in getattr(message, "content", None) or []
                if getattr(block, "type", None) == "tool_use" and getattr(block, "name", None) == name
            ),
            None,
        )
        if not isinstance(data, dict):
            stop = getattr(message, "stop_reason", None)
            raise LLMError(f"{self._where} did not return the {name} tool call (stop reason: {stop!r})")
        return StructuredAnswer(data=data, usage=_usage(message), model_id=self.model_id)

    def _create(
        self, prompt: str, system: str | None, max_tokens: int, temperature: float, **options: Any
    ) -> Message:
        """One Messages API call; every SDK error becomes :class:`LLMError` here."""
        import anthropic

        params: MessageCreateParamsNonStreaming = {
            "model": self._model,
            "max_tokens": max_tokens,
            "messages": [{"role": "user", "content": prompt}],
        }
        if system:
            params["system"] = system
        try:
            # SDK 1.0 dropped `temperature` from the signature but the API still takes it (models newer
            # than Opus 4.6 reject non-default values); `extra_body` is the SDK's documented route and
            # works on every version from our floor (0.40).
            message: Message = self._client.messages.create(
                **params, **options, extra_body={"temperature": temperature}
            )
        except anthropic.APIStatusError as exc:
            raise status_failure(self._where, exc.status_code, exc.message) from exc
        except anthropic.APITimeoutError as exc:
            raise LLMError(f"{self._where} did not answer within {self._timeout_s} s") from exc
        except anthropic.APIConnectionError as exc:
            raise LLMError(f"{self._where} is unreachable: {redact_text(str(exc))}") from exc
        except (anthropic.AnthropicError, ValueError) as exc:
            # ValueError: the SDK lets a body that is not JSON through as json.JSONDecodeError.
            raise LLMError(f"{self._where} sent an unusable response: {redact_text(str(exc))}") from exc
        record_usage(_usage(message))
        return message

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()


def _usage(message: Message) -> TokenUsage:
    usage = getattr(message, "usage", None)
    return TokenUsage(
        input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
        output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
    )


def _text(message: Message) -> str:
    """The answer's text blocks, joined as they come (they are consecutive pieces of one text).

    Other blocks (thinking, tool use) are skipped. Read defensively: the SDK does not validate
    responses, so a compatible server that leaves a field out yields a model without that attribute.
    """
    blocks = getattr(message, "content", None)
    if not isinstance(blocks, list):
        return ""
    return "".join(
        block.text
        for block in blocks
        if getattr(block, "type", None) == "text" and isinstance(getattr(block, "text", None), str)
    )
