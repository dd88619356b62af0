"""Forgetting: hard deletion that reaches the ledger, the graph and Redis. Async source of ``forgetting.py``.

Order matters: the ledger first (the source of truth; once its rows are gone reconcile can never bring
the data back), then the graph, then Redis. Every step is idempotent, so a failed call can be retried.
The ledger and graph steps hold the user exclusively (``user_lock``): a consolidation running in another
process writes what it learned under the shared lock and first checks its turns are still there, so it
cannot write back a forgotten conversation.
"""

from __future__ import annotations

from typing import Any

from ..models import Scope
from ..stores import keys
from ..stores.graph_async import AsyncGraphStore
from ..stores.ports_async import AsyncLedger, AsyncWorkingStore

__all__ = ["AsyncForgetting"]


class AsyncForgetting:
    def __init__(
        self, ledger: AsyncLedger, graph: AsyncGraphStore, redis: AsyncWorkingStore, key_prefix: str
    ) -> None:
        self._ledger = ledger
        self._graph = graph
        self._redis = redis
        self._prefix = key_prefix

    async def forget_conversation(self, scope: Scope, conversation_id: str) -> dict[str, int]:
        """Delete one conversation of this user everywhere; returns what was removed per store."""
        key = {"conversation_id": conversation_id, "user_id": scope.user_id}
        async with self._ledger.user_lock(scope.user_id, shared=False):
            rows = await self._ledger.fetch_one("forget_conversation_rows", key) or {}
            graph = await self._graph.run("forget_conversation_graph", key)
        pattern = keys.conversation_pattern(self._prefix, scope.user_id, conversation_id)
        removed_keys = await self._redis.delete_matching(pattern)
        report = {name: int(value) for name, value in rows.items()}
        report["graph_turns"] = int(graph[0]["turns"]) if graph else 0
        report["graph_tool_invocations"] = int(graph[0]["invocations"]) if graph else 0
        report["redis_keys"] = removed_keys
        return report

    async def forget_turn(self, scope: Scope, turn_id: str) -> dict[str, Any] | None:
        """Delete one turn of this user from the ledger and the graph; ``None`` if it is not this
        user's. The report carries the turn's ``conversation_id`` and ``channel`` (for its working
        memory, which the caller holds the settings of)."""
        key = {"turn_id": turn_id, "user_id": scope.user_id}
        async with self._ledger.user_lock(scope.user_id, shared=False):
            row = await self._ledger.fetch_one("forget_turn_rows", key)
            if row is None:
                return None
            graph = await self._graph.run("forget_turn_graph", key)
        return {**row, "turns": 1, "graph_turns": int(graph[0]["turns"]) if graph else 0}

    async def forget_fact(self, scope: Scope, fact_id: str) -> dict[str, int] | None:
        """Delete a fact with its corrections and promoted copies; ``None`` if it is not this user's.

        Facts live in the graph; the ledger holds their timeline and audit rows. The versions are read
        first, the ledger rows go (timeline deleted, audit redacted), then the nodes: a retry after a
        failure finds the same versions again and every step is idempotent.
        """
        key = {"fact_id": fact_id, "user_id": scope.user_id}
        found = await self._graph.run("fact_versions", key)
        if not found:
            return None
        ids = [str(value) for value in found[0]["ids"]]
        rows = await self._ledger.fetch_one(
            "forget_memory_rows", {"user_id": scope.user_id, "memory_ids": ids}
        )
        deleted = await self._graph.run("forget_facts_graph", {"fact_ids": ids, "user_id": scope.user_id})
        report = {name: int(value) for name, value in (rows or {}).items()}
        report["graph_facts"] = int(deleted[0]["deleted"]) if deleted else 0
        return report

    async def forget_user(self, scope: Scope) -> dict[str, int]:
        """Delete everything of this user in every channel; returns what was removed per store."""
        key = {"user_id": scope.user_id}
        async with self._ledger.user_lock(scope.user_id, shared=False):
            rows = await self._ledger.fetch_one("forget_user_rows", key) or {}
            graph = await self._graph.run("delete_user_graph", key)
        removed_keys = 0
        for pattern in keys.user_patterns(self._prefix, scope.user_id):
            removed_keys += await self._redis.delete_matching(pattern)
        report = {name: int(value) for name, value in rows.items()}
        report["graph_nodes"] = int(graph[0]["deleted"]) if graph else 0
        report["redis_keys"] = removed_keys
        return report

    async def remaining(self, scope: Scope) -> dict[str, int]:
        """What is left of this user in each store (the tests of ``forget_user`` and ``doctor`` use it)."""
        rows = await self._ledger.fetch_one("count_user_rows", {"user_id": scope.user_id}) or {}
        counts = {name: int(value) for name, value in rows.items()}
        graph = await self._graph.run("count_user_nodes", {"user_id": scope.user_id})
        counts["graph_nodes"] = sum(int(row["count"]) for row in graph)
        counts["redis_keys"] = 0
        for pattern in keys.user_patterns(self._prefix, scope.user_id):
            counts["redis_keys"] += len([key async for key in self._redis.scan(pattern)])
        return counts
