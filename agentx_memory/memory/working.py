# Generated from agentx_memory/memory/working_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Working memory: the short-lived state of one conversation session, in Redis.

Generated from ``memory/working_async.py``: edit that file. Keys come from ``stores/keys.py``; every key has a
TTL (``working.ttl_seconds``) and lists are trimmed to ``working.max_turns`` / ``max_thoughts``."""

from __future__ import annotations

import json
from typing import Any

from .._compat.sync import HomeLoop, homed
from ..crypto import Encryptor
from ..errors import InvalidInputError
from ..models import Scope, Turn
from ..settings import WorkingMemorySettings
from ..stores import keys
from ..stores.ports import WorkingStore
from ..stores.sealing import turn_from_cache, turn_to_cache
from ..validation import validate_working_key, working_json

__all__ = ["WorkingMemory"]

#: Injected memory ids kept per conversation (the newest ones).
_RECALLED_CAP = 500


@homed
class WorkingMemory:
    """Recent turns, scratch context, thoughts and the active goal of one conversation.

    Given a ``home`` (``AgentMemory.working`` gives its own), its public coroutines run on that
    loop, where the Redis connections live, whatever loop awaits them.
    """

    def __init__(
        self,
        store: WorkingStore,
        scope: Scope,
        conversation_id: str,
        settings: WorkingMemorySettings,
        key_prefix: str,
        encryptor: Encryptor | None = None,
        *,
        home: HomeLoop | None = None,
    ) -> None:
        self.home = home
        self._store = store
        self._encryptor = encryptor  # seals the cached turns' metadata as the ledger seals its own
        self._settings = settings
        self.scope = scope
        self.conversation_id = conversation_id
        self._prefix = key_prefix

    def _item(self, name: object) -> str:
        """The key of the context value ``name`` (checked: names are part of Redis keys)."""
        return keys.working_context_item(
            self._prefix,
            self.scope.user_id,
            self.scope.channel,
            self.conversation_id,
            validate_working_key(name),
        )

    def _key(self, part: keys.WorkingPart) -> str:
        return keys.working_key(
            self._prefix, self.scope.user_id, self.scope.channel, self.conversation_id, part
        )

    def _ttl(self, ttl_s: int | None) -> int:
        if ttl_s is None:
            return self._settings.ttl_seconds
        if not isinstance(ttl_s, int) or isinstance(ttl_s, bool) or ttl_s < 1:
            raise InvalidInputError(f"ttl must be a positive number of seconds, not {ttl_s!r}")
        return ttl_s

    def add_turn(self, turn: Turn) -> None:
        self.add_turns([turn])

    def add_turns(self, turns: list[Turn]) -> None:
        if turns:
            values = [turn_to_cache(turn, self._encryptor) for turn in turns]
            self._store.push_capped(
                self._key("turns"), values, self._settings.max_turns, self._settings.ttl_seconds
            )

    def get_recent_turns(self, n: int = 10) -> list[Turn]:
        """The last ``n`` turns of this session, oldest first."""
        if n < 1:
            return []
        raw = self._store.tail(self._key("turns"), n)
        return [turn_from_cache(item, self._encryptor) for item in raw]

    def all_turns(self) -> list[Turn]:
        """Every turn this session holds (up to ``working.max_turns``), oldest first."""
        return self.get_recent_turns(self._settings.max_turns)

    def drop_turn(self, turn_id: str) -> bool:
        """Remove one turn (forgotten) from this session; ``False`` if the session does not hold it.
        Rewrites the list: a turn pushed by another writer meanwhile could be lost from this cache,
        never from the ledger."""
        turns = self.all_turns()
        kept = [turn for turn in turns if turn.id != turn_id]
        if len(kept) == len(turns):
            return False
        self._store.delete(self._key("turns"))
        self.add_turns(kept)
        return True

    def summary(self) -> str | None:
        """The summary of the turns compaction folded (``compact``), or None."""
        return self._store.get_value(self._key("summary"))

    def fold_oldest(self, count: int, summary: str) -> None:
        """Replace this session's ``count`` oldest turns by ``summary`` (compaction), in one atomic step
        that keeps any turn stored meanwhile."""
        self._store.fold_head(
            self._key("turns"), count, self._key("summary"), summary, self._settings.ttl_seconds
        )

    def set(self, name: str, value: Any, ttl_s: int | None = None) -> None:
        """Store a JSON value under ``name`` for ``ttl_s`` seconds (default ``working.ttl_seconds``)."""
        item = self._item(name)
        self._store.set_value(item, working_json(value), self._ttl(ttl_s), index_key=self._key("context"))

    def get(self, name: str, default: Any = None) -> Any:
        item = self._item(name)
        raw = self._store.get_value(item)
        return default if raw is None else json.loads(raw)

    def delete(self, name: str) -> bool:
        item = self._item(name)
        return self._store.delete(item, index_key=self._key("context")) > 0

    def get_context(self) -> dict[str, Any]:
        """Every live context value of this session, by name."""
        index = self._key("context")
        values = self._store.indexed_values(index)
        return {key.removeprefix(index + ":"): json.loads(raw) for key, raw in values.items()}

    def set_active_goal(self, goal: str | dict[str, Any]) -> None:
        self._store.set_value(self._key("goal"), working_json(goal), self._settings.ttl_seconds)

    def get_active_goal(self) -> str | dict[str, Any] | None:
        raw = self._store.get_value(self._key("goal"))
        if raw is None:
            return None
        goal: str | dict[str, Any] = json.loads(raw)
        return goal

    def push_thought(self, thought: str) -> None:
        if not isinstance(thought, str) or not thought.strip():
            raise InvalidInputError("a thought must be a non-empty string")
        self._store.push_capped(
            self._key("thoughts"), [thought], self._settings.max_thoughts, self._settings.ttl_seconds
        )

    def get_thoughts(self, limit: int | None = None) -> list[str]:
        if limit is not None and limit < 1:
            return []
        return self._store.tail(self._key("thoughts"), limit or self._settings.max_thoughts)

    def clear_session(self) -> int:
        """Delete every key of this session; returns how many keys went."""
        pattern = keys.working_pattern(
            self._prefix, self.scope.user_id, self.scope.channel, self.conversation_id
        )
        return self._store.delete_matching(pattern)

    def mark_recalled(self, memory_ids: list[str]) -> None:
        """Remember which memories were injected into this conversation's prompt (recall echo):
        extraction must not learn them again from the agent's own turns."""
        if memory_ids:
            self._store.push_capped(
                self._key("recalled"), memory_ids, _RECALLED_CAP, self._settings.ttl_seconds
            )

    def recalled_ids(self) -> frozenset[str]:
        """Ids of the memories injected into this conversation while its session lives."""
        return frozenset(self._store.tail(self._key("recalled"), _RECALLED_CAP))
