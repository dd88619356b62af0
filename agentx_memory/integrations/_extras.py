"""The error an integration raises when its framework (an optional extra) is not installed."""

from __future__ import annotations

from ..errors import ConfigurationError

__all__ = ["MissingExtraError"]


class MissingExtraError(ConfigurationError, ImportError):
    """An integration's optional dependency is not installed; the message names the extra."""

    def __init__(self, extra: str, module: str) -> None:
        super().__init__(
            f"{module} needs the optional dependency group {extra!r}: pip install 'agentx-memory[{extra}]'"
        )
        self.extra = extra
