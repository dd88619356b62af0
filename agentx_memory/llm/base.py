"""The LLM port: what every language-model adapter promises, and the pure helpers they share.

Retrieval uses an LLM only to improve a query (HyDE, query expansion, self-query), never to answer
one, and consolidation uses its structured answers to learn facts; every caller must cope with ``None``
(no LLM configured) and with :class:`LLMError`: both mean "use the rule-based path" (or "try this
chunk again later"). Adapters are synchronous for the same reason as embedders: the call is a
blocking HTTP request, and the async code runs it in a worker thread.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final, Protocol, runtime_checkable

from agentx_memory.errors import InvalidInputError, LLMError

__all__ = [
    "API_KEY_ENV",
    "LLM",
    "StructuredAnswer",
    "TokenMeter",
    "TokenUsage",
    "check_request",
    "check_schema",
    "json_object",
    "metered",
    "record_usage",
    "require_answer",
    "status_failure",
]


@dataclass(frozen=True)
class TokenUsage:
    """Tokens one call cost, as the provider counted them (0 when it did not say)."""

    input_tokens: int
    output_tokens: int


@dataclass
class TokenMeter:
    """Tokens spent by every LLM call made in one context (a maintenance job's run), whatever the
    caller: the adapters record each call here, so a job needs no bookkeeping of its own."""

    input_tokens: int = 0
    output_tokens: int = 0


_METER: ContextVar[TokenMeter | None] = ContextVar("agentx_llm_meter", default=None)


@contextmanager
def metered() -> Iterator[TokenMeter]:
    """Count the tokens of the LLM calls made inside (including tasks and ``asyncio.to_thread`` work
    started inside, which copy the context)."""
    meter = TokenMeter()
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)


def record_usage(usage: TokenUsage) -> None:
    """Add one call's tokens to the current meter, if any (adapters call this for every answer)."""
    meter = _METER.get()
    if meter is not None:
        meter.input_tokens += usage.input_tokens
        meter.output_tokens += usage.output_tokens


@dataclass(frozen=True)
class StructuredAnswer:
    """A structured call's JSON object (not yet validated against a model), its cost and its model."""

    data: dict[str, Any]
    usage: TokenUsage
    model_id: str


#: The one setting that holds the key, whatever the provider; named in every credential message.
API_KEY_ENV: Final = "AGENTX_LLM__API_KEY"


@runtime_checkable
class LLM(Protocol):
    """A language model that answers a prompt with text, or with a JSON object shaped by a schema."""

    @property
    def model_id(self) -> str:
        """``provider:model``, e.g. ``openai:gpt-4o-mini``; for logs and audit records."""
        ...

    def complete(
        self, prompt: str, *, system: str | None = None, max_tokens: int = 256, temperature: float = 0.0
    ) -> str:
        """The model's answer to ``prompt`` (one user turn), stripped of surrounding whitespace.

        ``system`` goes where the provider expects instructions (a system message or field).
        Thread-safe. Never returns an empty string: an empty answer, like every provider failure
        (after the SDK's own retries), raises :class:`~agentx_memory.errors.LLMError`.
        """
        ...

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
        """One call whose answer is a JSON object shaped by ``schema`` (a JSON Schema of an object):
        forced tool use on Anthropic, ``response_format: json_schema`` on OpenAI.

        Raises :class:`~agentx_memory.errors.LLMError` when the provider fails or the answer is not
        a JSON object; the caller validates ``data`` (pydantic) and decides whether to retry.
        """
        ...


def check_schema(name: str, schema: dict[str, Any]) -> None:
    """Refuse a structured request no provider could serve: both name the answer (a tool, a response
    format) and both want an object at the top of its schema."""
    if not name or not name.replace("_", "").isalnum():
        raise InvalidInputError(f"a structured answer needs a name of letters, digits and _, not {name!r}")
    if schema.get("type") != "object":
        raise InvalidInputError("a structured answer's schema must describe an object (type: object)")


def json_object(text: str, where: str) -> dict[str, Any]:
    """``text`` parsed as a JSON object, or :class:`LLMError` (malformed JSON, or not an object)."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise LLMError(f"{where} returned malformed JSON: {exc}") from exc
    if not isinstance(data, dict):
        # One wording for both failures: to the caller either is an answer it cannot use.
        raise LLMError(f"{where} returned malformed JSON: {type(data).__name__} instead of an object")
    return data


def check_request(prompt: str, max_tokens: int) -> None:
    """Refuse a request no provider could serve, before spending a network round trip on it."""
    if not isinstance(prompt, str) or not prompt.strip():
        raise InvalidInputError("an LLM prompt must be a non-empty str")
    if max_tokens < 1:
        raise InvalidInputError(f"max_tokens must be at least 1, got {max_tokens}")


def require_answer(text: str, where: str, stop_reason: object) -> str:
    """``text`` stripped, or :class:`LLMError` if nothing is left.

    ``stop_reason`` is quoted in the message because it usually explains the silence (a refusal, a
    ``max_tokens`` cut-off before any text, a tool call).
    """
    answer = text.strip()
    if not answer:
        raise LLMError(f"{where} returned an empty answer (stop reason: {stop_reason!r})")
    return answer


def status_failure(where: str, status: int, detail: str) -> LLMError:
    """The error for an HTTP error status; credential failures name the setting to fix."""
    if status in (401, 403):
        return LLMError(f"{where} rejected the API key (HTTP {status}); check {API_KEY_ENV}")
    return LLMError(f"{where} failed with HTTP {status}: {detail}")
