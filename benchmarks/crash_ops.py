"""The write paths of the crash-consistency matrix (``benchmarks/faults.py``, ``tests/faults/``): what
one iteration of each operation does, and the invariants checked once the killed server is back and
``reconcile`` / ``doctor --repair`` have run.

The checks read the stores directly (raw Cypher and SQL through a :class:`Probe`), not through the
facade under test: they are the oracle. Every operation keeps what the caller was told (acknowledged
ids) and what it attempted; a check turns those into :class:`Tally` counts:

- ``lost``: an acknowledged write missing from a store (the ledger, the graph, a timeline row, a link);
- ``duplicated``: two graph nodes for one ledger row or one name, a tool counted twice;
- ``half_written``: a fact or correction chain cut in the middle (a correction without its
  SUPERSEDES link or its ABOUT links, two current versions, a node without its ledger row);
- ``resurrected``: anything of an acknowledged ``forget_*`` found in any store.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from psycopg import sql

from agentx_memory import AgentMemory
from agentx_memory.embedded import resolve_endpoints
from agentx_memory.settings import Settings
from agentx_memory.stores.falkordb import FalkorDBStore

T0 = datetime(2026, 1, 5, 9, tzinfo=UTC)
SUBJECT = "Crash Subject"


@dataclass
class Tally:
    """What one operation's check found (all should be 0)."""

    lost: int = 0
    duplicated: int = 0
    half_written: int = 0
    resurrected: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, kind: str, count: int, note: str) -> None:
        if count:
            setattr(self, kind, getattr(self, kind) + count)
            self.notes.append(f"{kind} {count}: {note}")


class Probe:
    """Direct reads of the graph and the ledger of one ``Settings`` namespace."""

    def __init__(self, settings: Settings) -> None:
        endpoints = resolve_endpoints(settings)
        self._graph = FalkorDBStore(endpoints.falkordb_url or "", settings.graph.name)
        self._url = endpoints.postgres_url
        self._schema = settings.postgres.schema_name

    def close(self) -> None:
        self._graph.close()

    def cypher(self, statement: str, **params: Any) -> list[dict[str, Any]]:
        return self._graph._execute(statement, params)

    def rows(self, query: str, **params: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(self._url, autocommit=True) as conn:
            conn.execute(sql.SQL("SET search_path TO {}, public").format(sql.Identifier(self._schema)))
            return list(conn.execute(query.encode(), params).fetchall())

    def ids(self, query: str, **params: Any) -> list[str]:
        return [str(row[0]) for row in self.rows(query, **params)]


@contextmanager
def probing(settings: Settings) -> Iterator[Probe]:
    probe = Probe(settings)
    try:
        yield probe
    finally:
        probe.close()


def _count_missing(tally: Tally, kind: str, wanted: Sequence[str], present: set[str], what: str) -> None:
    absent = [item for item in wanted if item not in present]
    tally.add(kind, len(absent), f"{what} {absent[:3]}")


def _count_duplicates(tally: Tally, ids: Sequence[str], what: str) -> None:
    tally.add("duplicated", len(ids) - len(set(ids)), what)


class Operation:
    """One write path: ``prepare`` once, ``step`` per iteration (returns the acknowledged id, or
    raises), ``check`` after the repair. ``attempted`` holds every id a step may have written."""

    name = ""
    #: Share of the cell's iterations this operation runs (one call of some is several writes).
    scale = 1.0

    def __init__(self) -> None:
        self.acknowledged: list[str] = []
        self.attempted: list[str] = []
        self.conversation = ""

    def prepare(self, memory: AgentMemory) -> None:
        self.conversation = memory.new_conversation()

    def step(self, memory: AgentMemory, index: int) -> str:
        raise NotImplementedError

    def check(self, memory: AgentMemory, probe: Probe) -> Tally:
        raise NotImplementedError


class StoreTurn(Operation):
    name = "store_turn"

    def step(self, memory: AgentMemory, index: int) -> str:
        stamp = T0 + timedelta(seconds=index)
        return memory.store_turn(self.conversation, "user", f"turn {index}: notes", timestamp=stamp).id

    def check(self, memory: AgentMemory, probe: Probe) -> Tally:
        tally, user = Tally(), memory.scope.user_id
        ledger = probe.ids(
            "SELECT id FROM conversation_logs WHERE conversation_id = %(c)s", c=self.conversation
        )
        graph = [
            str(row["id"])
            for row in probe.cypher(
                "MATCH (:Conversation {id: $c, user_id: $u})-[:HAS_TURN]->(t:Turn) RETURN t.id AS id",
                c=self.conversation,
                u=user,
            )
        ]
        _count_missing(tally, "lost", self.acknowledged, set(ledger), "acknowledged turns not in the ledger")
        _count_missing(tally, "lost", ledger, set(graph), "ledger turns not in the graph")
        _count_duplicates(tally, graph, "turn nodes per ledger row")
        _count_missing(tally, "half_written", graph, set(ledger), "turn nodes without a ledger row")
        return tally


def _fact_nodes(probe: Probe, user: str) -> list[dict[str, Any]]:
    return probe.cypher(
        "MATCH (f:Fact {user_id: $u}) OPTIONAL MATCH (f)-[:ABOUT]->(e:Entity) "
        "OPTIONAL MATCH (f)-[:SUPERSEDES]->(old:Fact) "
        "RETURN f.id AS id, f.claim AS claim, f.valid_until AS valid_until, f.superseded_by AS by, "
        "count(DISTINCT e) AS about, collect(DISTINCT old.id) AS supersedes",
        u=user,
    )


def _timeline(probe: Probe, user: str, kind: str) -> set[str]:
    return set(
        probe.ids(
            "SELECT memory_id FROM memory_timeline WHERE user_id = %(u)s AND memory_type = %(k)s",
            u=user,
            k=kind,
        )
    )


class LearnFact(Operation):
    name = "learn_fact"

    def step(self, memory: AgentMemory, index: int) -> str:
        claim = f"Crash Subject prefers option {index}"
        return memory.learn_fact(claim, confidence=0.8, source="crash", about=[SUBJECT]).id

    def check(self, memory: AgentMemory, probe: Probe) -> Tally:
        tally, user = Tally(), memory.scope.user_id
        facts = _fact_nodes(probe, user)
        by_id = {str(row["id"]): row for row in facts}
        _count_missing(tally, "lost", self.acknowledged, set(by_id), "acknowledged facts not in the graph")
        _count_missing(
            tally, "lost", self.acknowledged, _timeline(probe, user, "fact"), "facts without timeline"
        )
        _count_duplicates(tally, [str(row["claim"]) for row in facts], "fact nodes per claim")
        unlinked = [fact_id for fact_id, row in by_id.items() if int(row["about"]) != 1]
        tally.add("half_written", len(unlinked), f"facts without their ABOUT link {unlinked[:3]}")
        _entities_once(tally, probe, user)
        return tally


def _entities_once(tally: Tally, probe: Probe, user: str) -> None:
    rows = probe.cypher("MATCH (e:Entity {user_id: $u}) RETURN e.id AS id, e.name AS name", u=user)
    _count_duplicates(tally, [str(row["name"]).casefold() for row in rows], "entity nodes per name")
    timeline = _timeline(probe, user, "entity")
    _count_missing(
        tally, "half_written", [str(row["id"]) for row in rows], timeline, "entities without timeline"
    )


class CorrectFact(Operation):
    """A chain of corrections of one fact: each step corrects whichever version is current."""

    name = "correct_fact"

    def prepare(self, memory: AgentMemory) -> None:
        super().prepare(memory)
        first = memory.learn_fact(
            "Crash Subject lives in city 0", confidence=0.8, source="crash", about=[SUBJECT]
        )
        self.acknowledged.append(first.id)

    def step(self, memory: AgentMemory, index: int) -> str:
        current = [
            fact for fact in memory.list_facts(limit=10) if fact.claim.startswith("Crash Subject lives")
        ]
        if len(current) != 1:
            raise AssertionError(f"{len(current)} current versions of the corrected fact")
        return memory.correct_fact(current[0].id, f"Crash Subject lives in city {index + 1}").id

    def check(self, memory: AgentMemory, probe: Probe) -> Tally:
        tally, user = Tally(), memory.scope.user_id
        facts = {str(row["id"]): row for row in _fact_nodes(probe, user)}
        _count_missing(tally, "lost", self.acknowledged, set(facts), "acknowledged versions not in the graph")
        _count_missing(
            tally, "lost", list(facts), _timeline(probe, user, "fact"), "versions without timeline"
        )
        current = [fact_id for fact_id, row in facts.items() if row["valid_until"] is None]
        tally.add("half_written", abs(len(current) - 1), f"{len(current)} current versions")
        for fact_id, row in facts.items():
            if row["by"] is not None and (
                row["by"] not in facts or facts[row["by"]]["supersedes"] != [fact_id]
            ):
                tally.add("half_written", 1, f"{fact_id} superseded without a SUPERSEDES link")
            if int(row["about"]) != 1:
                tally.add("half_written", 1, f"version {fact_id} without its ABOUT link")
        superseded = [old for row in facts.values() for old in row["supersedes"]]
        _count_duplicates(tally, superseded, "versions superseded twice (a forked chain)")
        return tally


class UpsertEntity(Operation):
    """Twenty names upserted in turn: every later upsert of a name merges into its one node."""

    name = "upsert_entity"

    def step(self, memory: AgentMemory, index: int) -> str:
        return memory.upsert_entity(f"Person {index % 20}", "person").id

    def check(self, memory: AgentMemory, probe: Probe) -> Tally:
        tally, user = Tally(), memory.scope.user_id
        rows = probe.cypher("MATCH (e:Entity {user_id: $u}) RETURN e.id AS id", u=user)
        graph = {str(row["id"]) for row in rows}
        _count_missing(tally, "lost", self.acknowledged, graph, "acknowledged entities not in the graph")
        _count_missing(
            tally, "lost", self.acknowledged, _timeline(probe, user, "entity"), "entities without timeline"
        )
        _entities_once(tally, probe, user)
        return tally


class RecordInvocation(Operation):
    name = "record_invocation"

    def step(self, memory: AgentMemory, index: int) -> str:
        return memory.record_invocation(
            self.conversation, None, "search", {"n": index}, {"ok": True}, True, 5.0
        ).id

    def check(self, memory: AgentMemory, probe: Probe) -> Tally:
        tally, user = Tally(), memory.scope.user_id
        ledger = probe.ids(
            "SELECT id FROM tool_invocations WHERE conversation_id = %(c)s", c=self.conversation
        )
        graph = [
            str(row["id"])
            for row in probe.cypher("MATCH (i:ToolInvocation {user_id: $u}) RETURN i.id AS id", u=user)
        ]
        _count_missing(
            tally, "lost", self.acknowledged, set(ledger), "acknowledged invocations not in the ledger"
        )
        _count_missing(tally, "lost", ledger, set(graph), "ledger invocations not in the graph")
        _count_duplicates(tally, graph, "invocation nodes per ledger row")
        _count_missing(tally, "half_written", graph, set(ledger), "invocation nodes without a ledger row")
        tools = probe.cypher("MATCH (t:Tool {user_id: $u}) RETURN t.usage_count AS used", u=user)
        counted = sum(int(row["used"] or 0) for row in tools)
        tally.add(
            "duplicated", max(0, counted - len(set(graph))), f"tool usage {counted} > {len(set(graph))} calls"
        )
        tally.add(
            "lost", max(0, len(set(graph)) - counted), f"tool usage {counted} < {len(set(graph))} calls"
        )
        return tally


#: What the rule-based extractor learns from each consolidated conversation (one fact per turn).
_SAID = ("I live in Lisbon.", "I work at Initech.")


class ConsolidateConversation(Operation):
    """Each step: a new two-turn conversation, consolidated. A refused consolidation is retried at the
    check (as the background job would): its facts must then be there once."""

    name = "consolidate_conversation"
    scale = 0.5  # two turns and a consolidation per call

    def step(self, memory: AgentMemory, index: int) -> str:
        conversation = memory.new_conversation()
        self.attempted.append(conversation)
        for offset, text in enumerate(_SAID):
            memory.store_turn(
                conversation, "user", text, timestamp=T0 + timedelta(minutes=index, seconds=offset)
            )
        memory.consolidate_conversation(conversation)
        return conversation

    def check(self, memory: AgentMemory, probe: Probe) -> Tally:
        tally, user = Tally(), memory.scope.user_id
        for conversation in self.attempted:
            if probe.ids("SELECT id FROM conversations WHERE id = %(c)s", c=conversation):
                memory.consolidate_conversation(conversation)  # the retry: learns only what is left
        derived = probe.cypher(
            "MATCH (f:Fact {user_id: $u})-[:DERIVED_FROM]->(t:Turn) WHERE f.valid_until IS NULL "
            "RETURN t.conversation_id AS c, f.id AS id, f.claim AS claim",
            u=user,
        )
        learned = {str(row["c"]) for row in derived}
        _count_missing(tally, "lost", self.acknowledged, learned, "consolidated conversations without a fact")
        claims = [f"{row['c']}/{row['claim']}" for row in derived]
        _count_duplicates(tally, claims, "facts learned twice from one conversation")
        facts = {
            str(row["id"]) for row in probe.cypher("MATCH (f:Fact {user_id: $u}) RETURN f.id AS id", u=user)
        }
        _count_missing(
            tally, "half_written", sorted(facts), _timeline(probe, user, "fact"), "facts without timeline"
        )
        return tally


def _seed(memory: AgentMemory, index: int) -> str:
    """A conversation with a turn and a tool call, to be forgotten."""
    conversation = memory.new_conversation()
    memory.store_turn(conversation, "user", f"secret {index}", timestamp=T0 + timedelta(seconds=index))
    memory.record_invocation(conversation, 0, "search", {"n": index}, None, True, 1.0)
    return conversation


class ForgetConversation(Operation):
    name = "forget_conversation"

    def step(self, memory: AgentMemory, index: int) -> str:
        conversation = _seed(memory, index)
        self.attempted.append(conversation)
        memory.forget_conversation(conversation)
        return conversation

    def check(self, memory: AgentMemory, probe: Probe) -> Tally:
        tally = Tally()
        # A refused forget may have deleted the ledger rows only: the repair must remove the rest.
        query = "SELECT id FROM conversations WHERE id = %(c)s"
        gone = [c for c in self.attempted if not probe.ids(query, c=c)]
        for conversation in dict.fromkeys([*self.acknowledged, *gone]):
            rows = probe.rows(
                "SELECT (SELECT count(*) FROM conversations WHERE id = %(c)s) + "
                "(SELECT count(*) FROM conversation_logs WHERE conversation_id = %(c)s) + "
                "(SELECT count(*) FROM tool_invocations WHERE conversation_id = %(c)s)",
                c=conversation,
            )
            nodes = probe.cypher(
                "MATCH (n {conversation_id: $c}) RETURN count(n) AS n UNION ALL "
                "MATCH (n:Conversation {id: $c}) RETURN count(n) AS n",
                c=conversation,
            )
            found = int(rows[0][0]) + sum(int(row["n"]) for row in nodes)
            tally.add("resurrected", found, f"conversation {conversation}")
        return tally


class ForgetUser(Operation):
    """Each step: a fresh user writes a turn, a tool call and a fact, then is forgotten."""

    name = "forget_user"

    def prepare(self, memory: AgentMemory) -> None:
        self.base = memory.scope.user_id

    def step(self, memory: AgentMemory, index: int) -> str:
        user = f"{self.base}-{index}"
        with memory.for_user(user) as other:  # the same connections (and crash-point spies)
            _seed(other, index)
            other.learn_fact(f"{user} has a secret", confidence=0.9, source="crash", about=["Secret"])
            self.attempted.append(user)
            other.forget_user()
        return user

    def check(self, memory: AgentMemory, probe: Probe) -> Tally:
        tally = Tally()
        # A refused forget may have deleted the ledger rows only: the repair must remove the rest.
        query = "SELECT id FROM conversations WHERE user_id = %(u)s"
        gone = [u for u in self.attempted if not probe.ids(query, u=u)]
        for user in dict.fromkeys([*self.acknowledged, *gone]):
            rows = probe.rows(
                "SELECT (SELECT count(*) FROM conversations WHERE user_id = %(u)s) + "
                "(SELECT count(*) FROM conversation_logs WHERE user_id = %(u)s) + "
                "(SELECT count(*) FROM tool_invocations WHERE user_id = %(u)s) + "
                "(SELECT count(*) FROM memory_timeline WHERE user_id = %(u)s)",
                u=user,
            )
            nodes = probe.cypher("MATCH (n {user_id: $u}) RETURN count(n) AS n", u=user)
            found = int(rows[0][0]) + sum(int(row["n"]) for row in nodes)
            tally.add("resurrected", found, f"user {user}")
        return tally


#: A fresh :class:`Operation` per matrix cell, by name (the matrix's row order).
OPERATIONS: dict[str, type[Operation]] = {
    op.name: op
    for op in (
        StoreTurn,
        LearnFact,
        CorrectFact,
        UpsertEntity,
        RecordInvocation,
        ConsolidateConversation,
        ForgetConversation,
        ForgetUser,
    )
}
