# Generated from agentx_memory/maintenance/rekey_copies_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""``rotate-key`` beyond the ledger: the graph's and Redis' copies of sealed values, re-sealed under the
current key. Generated from ``maintenance/rekey_copies_async.py``: edit that file.

The graph (``stores/sealing.py`` ``GRAPH_SEALED``: a turn's metadata, a tool call's input and output) is
rotated user by user in id pages (``cypher/rekey.cypher``), each page written back only where a node
still holds what was read. Redis working memory is rotated list by list (``…:turns`` of every session),
each list rewritten atomically against concurrent pushes. Both pick up plain copies written before a
key was set, so a rerun after an interruption finishes the job and a rerun after completion does
nothing.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any, Final

from ..crypto import Encryptor, is_envelope, open_text, seal_text
from ..stores import keys
from ..stores.graph import GraphStore
from ..stores.postgres import PostgresStore
from ..stores.redis import RedisStore

__all__ = ["rekey_graph", "rekey_redis"]

#: Per label: the statement pair and the sealed properties it rotates.
_GRAPH: Final = {
    "Turn": ("rekey_graph_turns", "rekey_write_graph_turns", ("metadata",)),
    "ToolInvocation": (
        "rekey_graph_invocations",
        "rekey_write_graph_invocations",
        ("tool_input", "tool_output"),
    ),
}


def rekey_graph(ledger: PostgresStore, graph: GraphStore, encryptor: Encryptor, batch: int) -> dict[str, int]:
    """Nodes re-sealed per label, over every user of the ledger."""
    done = dict.fromkeys(_GRAPH, 0)
    users = [str(row["user_id"]) for row in ledger.fetch_all("rekey_users", {})]
    for user_id in users:
        for label, (read, write, names) in _GRAPH.items():
            after = ""
            while rows := graph.run(
                read, {"user_id": user_id, "after": after, "current": encryptor.prefix, "limit": batch}
            ):
                fresh = [_resealed(encryptor, row, names, user_id) for row in rows]
                written = graph.run(write, {"user_id": user_id, "rows": fresh})
                done[label] += int(written[0]["written"]) if written else 0
                after = str(rows[-1]["id"])
    return done


def _resealed(
    encryptor: Encryptor, row: dict[str, Any], names: tuple[str, ...], user_id: str
) -> dict[str, Any]:
    fresh: dict[str, Any] = {"id": row["id"]}
    for name in names:
        fresh[f"old_{name}"] = row[name]
        fresh[name] = (
            row[name]
            if row[name] is None
            else seal_text(encryptor, open_text(encryptor, row[name], user_id), user_id)
        )
    return fresh


def rekey_redis(redis: RedisStore, encryptor: Encryptor, prefix: str) -> int:
    """Cached turns re-sealed in every session's working memory."""
    done = 0
    for key in redis.scan(f"{prefix}:working:*:turns"):
        user_id = keys.key_user(prefix, key)
        if user_id is not None:
            done += redis.rewrite_items(key, partial(_recached, encryptor, user_id))
    return done


def _recached(encryptor: Encryptor, user_id: str, item: str) -> str | None:
    """A cached turn with its metadata under the current key, or ``None`` when it is already."""
    turn = json.loads(item)
    metadata = turn.get("metadata")
    if isinstance(metadata, str) and metadata.startswith(encryptor.prefix):
        return None
    plain = open_text(encryptor, metadata, user_id) if is_envelope(metadata) else metadata
    turn["metadata"] = seal_text(encryptor, plain, user_id)
    return json.dumps(turn, ensure_ascii=False)
