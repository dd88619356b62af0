"""The one exception hierarchy of agentx-memory.

Every error the library raises on purpose is an :class:`AgentMemoryError`. Store adapters translate
driver errors into these in one place each (``raise … from exc``), so callers never need to import a
database driver to handle a failure.
"""

from __future__ import annotations

__all__ = [
    "AgentMemoryError",
    "ClosedError",
    "ConfigurationError",
    "ConflictError",
    "DecryptionError",
    "EmbeddingDimensionError",
    "EncryptionKeyError",
    "GraphSyncError",
    "InvalidInputError",
    "LLMError",
    "NotFoundError",
    "RateLimitedError",
    "SchemaVersionError",
    "StoreError",
    "StoreUnavailableError",
]


class AgentMemoryError(Exception):
    """Root of every error agentx-memory raises."""


class ClosedError(AgentMemoryError, RuntimeError):
    """The memory or session was closed: before this call, or while it was running. (A
    ``RuntimeError`` too, as the Agents SDK's sessions raise once closed.)"""


class InvalidInputError(AgentMemoryError, ValueError):
    """The caller passed something we refuse to store or query; nothing was changed."""


class NotFoundError(AgentMemoryError, LookupError):
    """The id does not exist for this user (another user's ids are indistinguishable from missing)."""


class ConflictError(AgentMemoryError):
    """The write contradicts what is already stored (e.g. a different turn at the same index)."""


class ConfigurationError(AgentMemoryError):
    """Settings are inconsistent with each other or with the data already stored."""


class EmbeddingDimensionError(ConfigurationError):
    """The embedder's dimension differs from the one locked in the database."""


class SchemaVersionError(ConfigurationError):
    """The database schema is not at the version this code needs (``agentx-memory migrate``)."""


class EncryptionKeyError(ConfigurationError):
    """A stored value is encrypted with a key that is not configured (or no key is configured); the
    message names the settings to set (``security.encryption_key``, ``security.old_encryption_keys``)."""


class StoreError(AgentMemoryError):
    """A store failed while executing a request."""


class StoreUnavailableError(StoreError):
    """A store could not be reached; the message says which one and how to start it."""


class DecryptionError(StoreError):
    """An encrypted value failed authentication under its (configured) key: it was altered, or copied
    into another user's row (values are bound to their user)."""


class GraphSyncError(StoreError):
    """The turn is durable in the Postgres ledger but the graph write failed.

    The turn is marked unsynced in the ledger and will be replayed by the reconcile job; ``turn``
    carries what was stored so the caller can continue.
    """

    def __init__(self, message: str, turn: object) -> None:
        super().__init__(message)
        self.turn = turn


class RateLimitedError(AgentMemoryError):
    """The user made more recall calls than ``limits.recall_per_minute`` allows; nothing was read.

    ``retry_after`` is how long, in seconds, until the user's next recall call will be admitted (the
    message says it too, for callers that only show the text, such as an MCP client).
    """

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LLMError(AgentMemoryError):
    """The configured LLM provider failed or answered something unusable (retrieval falls back to rules)."""
