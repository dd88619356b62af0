"""Every Redis key agentx-memory writes is built here (and nowhere else).

Layout: ``{prefix}:working:{user_id}:{channel}:{conversation_id}:{part}``. The user id comes right after
the namespace so that forgetting a user is one ``SCAN`` pattern; user ids cannot contain ``:`` or glob
characters (see ``validation``), so one user's pattern never matches another's keys.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "WorkingPart",
    "consolidation_job",
    "consolidation_lock",
    "consolidation_pattern",
    "consolidation_writes",
    "conversation_pattern",
    "key_user",
    "rate_limit",
    "user_namespace_patterns",
    "user_pattern",
    "user_patterns",
    "working_context_item",
    "working_key",
    "working_pattern",
]

#: ``recalled``: ids of memories injected into this conversation by ``get_context`` (recall echo).
WorkingPart = Literal["turns", "context", "thoughts", "goal", "recalled", "summary"]


def working_key(prefix: str, user_id: str, channel: str, conversation_id: str, part: WorkingPart) -> str:
    return f"{prefix}:working:{user_id}:{channel}:{conversation_id}:{part}"


def working_context_item(prefix: str, user_id: str, channel: str, conversation_id: str, name: str) -> str:
    """One context value; its own key so that each value carries its own TTL."""
    return f"{working_key(prefix, user_id, channel, conversation_id, 'context')}:{name}"


def working_pattern(prefix: str, user_id: str, channel: str, conversation_id: str) -> str:
    """Every working-memory key of one conversation (for ``SCAN MATCH``)."""
    return f"{prefix}:working:{user_id}:{channel}:{conversation_id}:*"


def conversation_pattern(prefix: str, user_id: str, conversation_id: str) -> str:
    """Every working-memory key of one conversation, whichever channel's session wrote it."""
    return f"{prefix}:working:{user_id}:*:{conversation_id}:*"


def user_pattern(prefix: str, user_id: str) -> str:
    """Every working-memory key of one user."""
    return f"{prefix}:working:{user_id}:*"


def consolidation_writes(prefix: str, user_id: str) -> str:
    """Held while one consolidation writes the user's facts (conversations learn one at a time)."""
    return f"{prefix}:consolidation:{user_id}:writes"


def consolidation_lock(prefix: str, user_id: str, conversation_id: str) -> str:
    """Held while one conversation is consolidated (seed: ``consolidation:lock:{conversation_id}``);
    the user id sits after the namespace so that forgetting a user finds it."""
    return f"{prefix}:consolidation:{user_id}:lock:{conversation_id}"


def consolidation_job(prefix: str, user_id: str, job_id: str) -> str:
    """A consolidation job's record (``consolidation:job:{job_id}``): status and counts, with a TTL."""
    return f"{prefix}:consolidation:{user_id}:job:{job_id}"


def consolidation_pattern(prefix: str, user_id: str) -> str:
    return f"{prefix}:consolidation:{user_id}:*"


def rate_limit(prefix: str, user_id: str, bucket: str) -> str:
    """A user's token bucket (``bucket``: ``recall``); a hash that expires once it would be full again."""
    return f"{prefix}:ratelimit:{user_id}:{bucket}"


#: The namespaces whose keys carry a user id right after them (what ``forget_user`` deletes).
_USER_NAMESPACES = ("working", "consolidation", "ratelimit")


def user_patterns(prefix: str, user_id: str) -> list[str]:
    """Every key of one user, whatever its namespace (``forget_user``, ``doctor``)."""
    return [f"{prefix}:{namespace}:{user_id}:*" for namespace in _USER_NAMESPACES]


def user_namespace_patterns(prefix: str) -> list[str]:
    """Every key that belongs to some user (for ``SCAN MATCH``; ``doctor`` reads the user ids back
    with :func:`key_user`)."""
    return [f"{prefix}:{namespace}:*" for namespace in _USER_NAMESPACES]


def key_user(prefix: str, key: str) -> str | None:
    """The user a key of :func:`user_namespace_patterns` belongs to (None for any other key)."""
    for namespace in _USER_NAMESPACES:
        head = f"{prefix}:{namespace}:"
        if key.startswith(head):
            user_id, sep, _ = key[len(head) :].partition(":")
            return user_id if sep and user_id else None
    return None


def job_lock(prefix: str, job: str) -> str:
    """Held while a maintenance job runs, so that two runs (two workers, a worker and the CLI) never
    overlap; it expires after ``maintenance.lock_seconds`` if its holder dies."""
    return f"{prefix}:jobs:{job}:lock"


def query_embedding(prefix: str, model_id: str, digest: str) -> str:
    """A cached query embedding: by model and the text's hash, so no user's text is in the key and
    any user asking the same words reuses it (it expires; see ``embedding.query_cache_seconds``)."""
    return f"{prefix}:embcache:{model_id}:{digest}"
