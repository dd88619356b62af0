"""The world a fuzz module runs in: one facade for ``alice``, a second user ``bob`` seeded with known
data, and ways to measure both on the real stores.

``snapshot`` counts everything a call could touch (rows per table of the test's Postgres schema, nodes
and edges by label and type in its graph, Redis keys under its prefix): a refused call must leave it
equal. ``bob_state`` is bob's data itself (every row with his ``user_id``, his nodes and their edges,
his Redis keys and values): no call of alice's may change it, and ``BOB_MARKER`` (in every text bob
stored) must never appear in what alice gets back.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import psycopg
import redis
from falkordb import FalkorDB
from psycopg import sql

from agentx_memory import AgentMemory, Settings
from agentx_memory.embedded import ResolvedEndpoints

__all__ = ["BOB_MARKER", "Ids", "World", "seed"]

#: In every text bob stores, so that any leak of his data into alice's results shows.
BOB_MARKER = "zqxbobsecret"


@dataclass
class Ids:
    """The ids of one user's seeded memories (a fuzzer draws from them)."""

    conversations: list[str] = field(default_factory=list)
    turns: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    goals: list[str] = field(default_factory=list)
    strategies: list[str] = field(default_factory=list)

    def all(self) -> list[str]:
        return [
            *self.conversations,
            *self.turns,
            *self.facts,
            *self.entities,
            *self.goals,
            *self.strategies,
        ]


def seed(memory: AgentMemory, marker: str) -> Ids:
    """One of everything: a conversation with turns, facts, entities and a relation, goals, a
    strategy (published and proposed), a tool invocation, a document, a profile, working memory."""
    ids = Ids()
    cid = memory.new_conversation(title=f"{marker} chat", metadata={"tag": marker})
    ids.conversations.append(cid)
    for index, (role, text) in enumerate(
        [("user", f"I use Helix {marker}"), ("assistant", f"Noted {marker}"), ("user", f"Rust too {marker}")]
    ):
        ids.turns.append(memory.store_turn(cid, role, text, metadata={"n": index, "m": marker}).id)
    fact = memory.learn_fact(f"The user edits with Helix {marker}", confidence=0.9, source="user_stated")
    other = memory.learn_fact(f"The user likes Rust {marker}", confidence=0.7, source="inferred")
    ids.facts += [fact.id, other.id]
    helix = memory.upsert_entity(f"Helix {marker}", "tool", aliases=[f"hx{marker}"], description=marker)
    rust = memory.upsert_entity(f"Rust {marker}", "concept")
    ids.entities += [helix.id, rust.id]
    memory.create_relationship(helix.id, rust.id, "RELATED_TO", {"why": marker})
    parent = memory.add_goal(f"Ship {marker}", priority=3)
    child = memory.add_goal(f"Write tests {marker}", parent_id=parent.id)
    ids.goals += [parent.id, child.id]
    published = memory.learn_strategy(f"Bisect {marker}", f"a bug {marker}", ["git", "pytest"], cid, True)
    proposed = memory.propose_strategy(f"Profile {marker}", f"slow {marker}", ["py-spy"])
    ids.strategies += [published.id, proposed.id]
    memory.record_invocation(cid, 0, "git", {"arg": marker}, {"out": marker}, True, 12.5)
    memory.put_document("fuzz", ["ns", marker], "doc", {"v": marker}, index_texts={"v": f"text {marker}"})
    memory.update_profile({"editor": marker}, [f"rust {marker}"], f"terse {marker}")
    working = memory.working(cid)
    working.set("note", {"m": marker})
    working.push_thought(f"thinking {marker}")
    return ids


@dataclass
class World:
    """Alice's facade, bob's seeded ids, alice's own ids, and direct connections to the stores."""

    memory: AgentMemory
    settings: Settings
    endpoints: ResolvedEndpoints
    alice: Ids
    bob: Ids
    #: alice's export, and bob's export made to look like alice's (his ids, no marker)
    alice_dump: list[dict[str, Any]] = field(default_factory=list)
    bob_dump: list[dict[str, Any]] = field(default_factory=list)
    bob_baseline: str = ""
    _pg: psycopg.Connection[Any] | None = None
    _graph_db: FalkorDB | None = None
    _redis: redis.Redis | None = None
    _tables: list[str] = field(default_factory=list)
    _user_tables: list[str] = field(default_factory=list)

    def connect(self) -> None:
        self._pg = psycopg.connect(self.endpoints.postgres_url, autocommit=True)
        schema = self.settings.postgres.schema_name
        rows = self._pg.execute(
            "SELECT c.relname, bool_or(a.attname = 'user_id') FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid "
            "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') AND NOT c.relispartition "
            "AND a.attnum > 0 GROUP BY c.relname ORDER BY c.relname",
            (schema,),
        ).fetchall()
        self._tables = [str(name) for name, _ in rows]
        self._user_tables = [str(name) for name, has_user in rows if has_user]
        self._graph_db = FalkorDB.from_url(self.endpoints.falkordb_url)
        self._redis = redis.Redis.from_url(self.endpoints.redis_url or "")
        self.bob_baseline = self.bob_state()

    def close(self) -> None:
        if self._pg is not None:
            self._pg.close()
        if self._graph_db is not None:
            self._graph_db.connection.close()
        if self._redis is not None:
            self._redis.close()

    def _query_graph(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        assert self._graph_db is not None
        graph = self._graph_db.select_graph(self.settings.graph.name)
        return [list(row) for row in graph.ro_query(query, params).result_set]

    def snapshot(self) -> dict[str, Any]:
        """How much of everything there is (a refused call must not change any of it)."""
        assert self._pg is not None
        assert self._redis is not None
        schema = sql.Identifier(self.settings.postgres.schema_name)
        counts = sql.SQL(" UNION ALL ").join(
            sql.SQL("SELECT {}::text, count(*) FROM {}.{}").format(
                sql.Literal(table), schema, sql.Identifier(table)
            )
            for table in self._tables
        )
        rows = dict(self._pg.execute(counts).fetchall())
        nodes = self._query_graph("MATCH (n) RETURN labels(n)[0], count(n) ORDER BY labels(n)[0]")
        edges = self._query_graph("MATCH ()-[r]->() RETURN type(r), count(r) ORDER BY type(r)")
        keys = sorted(self._redis.scan_iter(f"{self.settings.redis.key_prefix}:*", count=1000))
        return {"rows": rows, "nodes": nodes, "edges": edges, "redis": keys}

    def bob_state(self) -> str:
        """A digest of every byte of bob's data in the three stores."""
        assert self._pg is not None
        assert self._redis is not None
        schema = sql.Identifier(self.settings.postgres.schema_name)
        parts: list[Any] = []
        for table in self._user_tables:
            query = sql.SQL(
                "SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {}.{} t "
                "WHERE user_id = 'bob'"
            ).format(schema, sql.Identifier(table))
            parts.append((table, self._pg.execute(query).fetchone()))
        nodes = self._query_graph(
            "MATCH (n {user_id: 'bob'}) OPTIONAL MATCH (n)-[r]-(m) "
            "RETURN labels(n)[0], properties(n), type(r), properties(r), m.id"
        )
        parts.append(sorted(json.dumps(row, default=str, sort_keys=True) for row in nodes))
        for key in sorted(self._redis.scan_iter(f"{self.settings.redis.key_prefix}:*:bob:*", count=1000)):
            parts.append((key, self._redis.type(key), self._redis.dump(key)))
        return hashlib.sha256(repr(parts).encode()).hexdigest()
