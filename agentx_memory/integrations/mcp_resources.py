"""What the MCP server offers besides tools: resources (the user's profile, the user's current facts) and
a prompt (the memory block for a prompt), each read for the request's user.

The SDK passes a static resource's reader no request context, and the user of a request is in its
headers (over HTTP; fixed on stdio); so the resources are listed as ordinary resources and read by
:class:`MemoryResourceServer`, which answers their URIs itself with the request's user. The prompt
takes the SDK's context directly. Refusals (:class:`~agentx_memory.errors.AgentMemoryError`) reach the
client as the resource's or prompt's error message.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.server.mcpserver.prompts import Prompt
from mcp.server.mcpserver.resources import FunctionResource
from pydantic.networks import AnyUrl

from ..errors import AgentMemoryError
from ..facade_async import AsyncAgentMemory

__all__ = ["PROMPT_NAME", "RESOURCES", "MemoryResourceServer", "ResourceSpec"]

#: The facade of a request's user, from the request's context (its verified token, or in header mode
#: its headers; None: stdio, in process).
MemoryFor = Callable[["Context[Any, Any] | None"], Awaitable[AsyncAgentMemory]]

#: Facts a resource lists at most (newest first); ``list_facts`` pages through more.
_FACTS = 200
PROMPT_NAME = "memory_block"


async def _profile(memory: AsyncAgentMemory) -> dict[str, Any]:
    profile = await memory.get_profile()
    return profile.model_dump(mode="json", exclude={"user_id"}, exclude_none=True)


async def _facts(memory: AsyncAgentMemory) -> dict[str, Any]:
    facts = await memory.list_facts(limit=_FACTS)
    return {"facts": [f.model_dump(mode="json", exclude={"user_id"}, exclude_none=True) for f in facts]}


@dataclass(frozen=True)
class ResourceSpec:
    uri: str
    name: str
    description: str
    read: Callable[[AsyncAgentMemory], Awaitable[dict[str, Any]]]


RESOURCES: tuple[ResourceSpec, ...] = (
    ResourceSpec(
        "memory://profile",
        "profile",
        "The user's profile: preferences, expertise areas and communication style (JSON).",
        _profile,
    ),
    ResourceSpec(
        "memory://facts",
        "facts",
        f"The user's current facts, newest first (at most {_FACTS}), with confidence and source (JSON).",
        _facts,
    ),
)
_BY_URI = {spec.uri: spec for spec in RESOURCES}


def _unreachable() -> str:  # the listed resource's own reader: MemoryResourceServer answers instead
    raise ResourceError("read through the memory server")


class MemoryResourceServer(MCPServer[Any]):
    """An ``MCPServer`` whose memory resources and prompt are read for the request's user."""

    def __init__(self, name: str, memory_for: MemoryFor, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        self._memory_for = memory_for
        for spec in RESOURCES:
            self.add_resource(
                FunctionResource(
                    uri=spec.uri,
                    name=spec.name,
                    description=spec.description,
                    mime_type="application/json",
                    fn=_unreachable,
                )
            )
        self.add_prompt(
            Prompt.from_function(
                self._memory_block,
                name=PROMPT_NAME,
                title="Memory for this prompt",
                description="What memory knows that is relevant to a prompt, as the markdown block to "
                "read before answering (the get_context tool's block), within a token budget.",
                context_kwarg="ctx",
            )
        )

    async def read_resource(
        self, uri: AnyUrl | str, context: Context[Any, Any] | None = None
    ) -> Iterable[ReadResourceContents] | Any:
        spec = _BY_URI.get(str(uri))
        if spec is None:
            return await super().read_resource(uri, context)
        try:
            memory = await self._memory_for(context)
            data = await spec.read(memory)
        except AgentMemoryError as exc:
            raise ResourceError(str(exc)) from exc
        text = json.dumps(data, ensure_ascii=False)
        return [ReadResourceContents(content=text, mime_type="application/json")]

    async def _memory_block(self, prompt: str, ctx: Context[Any, Any], budget_tokens: int = 1500) -> str:
        """The memory block for ``prompt`` (or a line saying there is none)."""
        memory = await self._memory_for(ctx)
        block = await memory.get_context(prompt, budget_tokens=budget_tokens)
        return block or "Memory holds nothing relevant to this prompt."
