"""Thin adapters of the facade for agent frameworks, each behind an optional extra.

- :mod:`.tools`: the memory tools as Anthropic / OpenAI function-calling schemas and a dispatcher
  (no extra needed);
- :mod:`.mcp`: an MCP server over stdio or streamable HTTP (``pip install 'agentx-memory[mcp]'``,
  ``agentx-memory mcp``);
- :mod:`.langgraph_store`: a LangGraph ``BaseStore`` (``pip install 'agentx-memory[langgraph]'``);
- :mod:`.openai_agents`: an OpenAI Agents SDK ``Session`` (``pip install 'agentx-memory[openai-agents]'``).

Nothing here is imported by ``import agentx_memory``; a module whose extra is missing raises
:class:`MissingExtraError` naming the extra to install.
"""

from __future__ import annotations

from ..errors import ConfigurationError

__all__ = ["MissingExtraError"]


class MissingExtraError(ConfigurationError):
    """An integration's optional dependency is not installed; the message names the extra."""

    def __init__(self, extra: str, module: str) -> None:
        super().__init__(
            f"{module} needs the optional dependency group {extra!r}: from the project's clone, "
            f"pip install '.[{extra}]' (or a built wheel: pip install 'dist/<wheel>.whl[{extra}]'); the "
            "package is not on PyPI"
        )
        self.extra = extra
