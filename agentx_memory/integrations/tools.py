"""The MCP server's memory tools for a plain SDK loop: Anthropic and OpenAI function-calling schemas and
a dispatcher, so an agent can use memory without MCP.

    import anthropic
    from agentx_memory import AgentMemory
    from agentx_memory.integrations.tools import anthropic_tools, dispatch

    with AgentMemory("alice") as memory:
        reply = client.messages.create(..., tools=anthropic_tools())
        for block in reply.content:
            if block.type == "tool_use":
                result = dispatch(memory, block.name, block.input)   # JSON-ready dict

The tools are those of :data:`~agentx_memory.integrations.specs.TOOLS`, the list the MCP server is
built from. The user is the memory's: no argument can name another. ``dispatch`` raises
:class:`~agentx_memory.errors.AgentMemoryError` (bad arguments: ``InvalidInputError``) with a message
to hand back to the model as an error result (:func:`error_result` builds one).
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import AgentMemoryError, RateLimitedError
from .specs import TOOLS, ToolSpec

if TYPE_CHECKING:
    from ..facade import AgentMemory
    from ..facade_async import AsyncAgentMemory
    from .handlers import ConsolidationJobs
    from .handlers_async import AsyncConsolidationJobs

__all__ = [
    "TOOLS",
    "ToolSpec",
    "adispatch",
    "anthropic_tools",
    "dispatch",
    "error_result",
    "openai_tools",
    "tool_names",
]

# One job registry per memory object, so consolidation_status finds what consolidate_conversation
# started through the same memory; it goes with the memory.
_JOBS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def tool_names() -> list[str]:
    """The tools' names, in their listed order."""
    return [spec.name for spec in TOOLS]


def anthropic_tools() -> list[dict[str, Any]]:
    """The tools as Anthropic Messages API tool definitions (``name``, ``description``, ``input_schema``)."""
    return [
        {"name": spec.name, "description": spec.description, "input_schema": spec.input_schema()}
        for spec in TOOLS
    ]


def openai_tools() -> list[dict[str, Any]]:
    """The tools as OpenAI function-calling tools (``{"type": "function", "function": {…}}``), for Chat
    Completions; the Responses API takes the inner object's keys beside ``"type": "function"``."""
    return [
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": spec.input_schema(),
            },
        }
        for spec in TOOLS
    ]


def dispatch(memory: AgentMemory, name: str, arguments: Mapping[str, Any] | str | None) -> dict[str, Any]:
    """Run tool ``name`` with ``arguments`` (a dict, or the JSON string OpenAI sends) for the memory's
    user; returns a JSON-ready dict. ``consolidate_conversation`` answers at once with a job id and
    runs on a background thread."""
    from .handlers import ConsolidationJobs, run_tool

    jobs: ConsolidationJobs = _JOBS.setdefault(memory, ConsolidationJobs())
    return run_tool(memory, name, _arguments(name, arguments), jobs)


async def adispatch(
    memory: AsyncAgentMemory, name: str, arguments: Mapping[str, Any] | str | None
) -> dict[str, Any]:
    """:func:`dispatch` for ``AsyncAgentMemory`` (consolidation runs as a task on the running loop)."""
    from .handlers_async import AsyncConsolidationJobs, run_tool

    jobs: AsyncConsolidationJobs = _JOBS.setdefault(memory, AsyncConsolidationJobs())
    return await run_tool(memory, name, _arguments(name, arguments), jobs)


def error_result(exc: AgentMemoryError) -> dict[str, Any]:
    """What to send back to the model for a refused call: the error's message, never a traceback (and,
    over the recall rate limit, ``retry_after`` in seconds for a loop that waits by itself)."""
    if isinstance(exc, RateLimitedError):
        return {"error": str(exc), "retry_after": exc.retry_after}
    return {"error": str(exc)}


def _arguments(name: str, arguments: Mapping[str, Any] | str | None) -> Mapping[str, Any] | None:
    if not isinstance(arguments, str):
        return arguments
    from ..errors import InvalidInputError

    try:
        parsed = json.loads(arguments) if arguments.strip() else {}
    except ValueError as exc:
        raise InvalidInputError(f"arguments of {name} are not valid JSON: {exc}") from None
    if not isinstance(parsed, dict):
        raise InvalidInputError(f"arguments of {name} must be a JSON object")
    return parsed
