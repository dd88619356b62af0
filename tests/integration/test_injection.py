"""Cypher / SQL injection payloads (tests/payloads.py INJECTIONS) in every string field the learning and
background work added: what an LLM's extraction answer carries (entity names and aliases, fact atom
subject / statement / key / value / persons / location / topic, relationship ends and types, strategy
task / steps / what_failed / applies_when, the profile values it derives), entity descriptions,
conversation titles, turn and conversation metadata keys and values (and the ``remember`` metadata
filter), proposals' tool names, and the MCP ``add_entity`` / ``relate_entities`` arguments.

Property: each payload is stored and read back verbatim, or the call is refused with an
:class:`AgentMemoryError` and no store changes (every node and relationship of the graph, every row of
every ledger table counted before and after); the graph still answers afterwards.
"""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from psycopg import sql

from agentx_memory import AgentMemory, AgentMemoryError, InvalidInputError, Settings
from agentx_memory.integrations.tools import dispatch
from agentx_memory.stores.falkordb import FalkorDBStore
from tests.llm_stub import LLMStub
from tests.payloads import INJECTIONS

TURN = "My friend Leo loves jazz and works at Acme."


def snapshot(settings: Settings) -> dict[str, int]:
    """Every node and relationship of the test's graph, every row of every table of its schema."""
    graph = FalkorDBStore(settings.graph.falkordb_url or "", settings.graph.name)
    try:
        counts = {
            "graph nodes": int(graph._execute("MATCH (n) RETURN count(n) AS n", {})[0]["n"]),
            "graph edges": int(graph._execute("MATCH ()-[r]->() RETURN count(r) AS n", {})[0]["n"]),
        }
    finally:
        graph.close()
    schema = settings.postgres.schema_name
    with psycopg.connect(settings.postgres.url or "", autocommit=True) as conn:
        tables = conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relkind IN ('r', 'p') AND NOT c.relispartition",
            (schema,),
        ).fetchall()
        for (table,) in tables:
            query = sql.SQL("SELECT count(*) FROM {}.{}").format(
                sql.Identifier(schema), sql.Identifier(table)
            )
            row = conn.execute(query).fetchone()
            counts[table] = int(row[0]) if row else 0
    return counts


def graph_answers(memory: AgentMemory) -> None:
    """The graph and the ledger still serve a recall and an entity search (no store was broken)."""
    memory.remember("jazz")
    memory.search_entities("Acme")


def extraction(payload: str, relation: str = "WORKS_FOR") -> dict[str, Any]:
    """An LLM extraction answer with ``payload`` in every free-text field."""
    return {
        "entities": [
            {"name": payload, "type": "person", "aliases": [payload + " alias"], "turns": [1]},
            {"name": "Acme", "type": "organization", "turns": [1]},
        ],
        "facts": [
            {
                "fact_kind": "preference",
                "subject": payload,
                "statement": payload + " loves jazz",
                "key": payload,
                "value": payload,
                "certainty": "explicit",
                "persons": [payload],
                "location": payload,
                "topic": payload,
                "turns": [1],
            },
            {
                "fact_kind": "identity",
                "subject": "the user",
                "statement": "The user's diet is " + payload,
                "key": "diet",
                "value": payload,
                "certainty": "explicit",
                "turns": [1],
            },
        ],
        "relationships": [{"source": payload, "target": "Acme", "type": relation}],
        "strategies": [
            {"task": payload, "steps": ["web_search"], "what_failed": [payload], "applies_when": payload},
            {"task": "book a flight", "steps": [payload]},  # not a tool name: dropped, never proposed
        ],
    }


@pytest.mark.parametrize("payload", INJECTIONS)
def test_llm_extraction_fields_are_stored_verbatim(
    llm_memory: AgentMemory, stub: LLMStub, payload: str
) -> None:
    conversation = llm_memory.new_conversation()
    llm_memory.store_turn(conversation, "user", TURN)
    stub.script(extraction(payload))
    report = llm_memory.consolidate_conversation(conversation)
    assert (report.status, report.strategies_proposed) == ("done", 1), report.error
    info = llm_memory.get_entity_info(payload)
    assert (info.entity.name, info.entity.aliases) == (payload, [payload + " alias"])
    acme = llm_memory.get_entity_info("Acme").entity
    edges = llm_memory.get_entity_graph([info.entity.id], depth=1).edges
    assert [(edge.target_id, edge.type) for edge in edges] == [(acme.id, "WORKS_FOR")]
    learned = {fact.key: fact for fact in llm_memory.list_facts()}
    fact = learned[payload]
    assert (fact.claim, fact.subject, fact.value) == (payload + " loves jazz", payload, payload)
    assert learned["diet"].value == payload
    assert llm_memory.get_profile().preferences == {"diet": payload}
    [strategy] = llm_memory.proposed_strategies()
    assert (strategy.description, strategy.what_failed, strategy.applies_when) == (
        payload,
        [payload],
        payload,
    )
    assert strategy.context_pattern == payload
    graph_answers(llm_memory)


#: Relationship types outside the allow-list: a plausible one, one written as Cypher, the payloads.
BAD_RELATIONS = ["REPORTS_TO", "KNOWS]->(x) DETACH DELETE x //", *INJECTIONS]


def test_llm_relationship_type_outside_the_allow_list_is_never_written(
    llm_memory: AgentMemory, stub: LLMStub
) -> None:
    leo, acme = llm_memory.upsert_entity("Leo", "person"), llm_memory.upsert_entity("Acme", "organization")
    backends = llm_memory._backends
    assert backends is not None
    for payload in BAD_RELATIONS:
        conversation = llm_memory.new_conversation()
        llm_memory.store_turn(conversation, "user", TURN)
        before = snapshot(llm_memory.settings)
        stub.script(extraction("Leo", relation=payload), extraction("Leo", relation=payload))  # and the retry
        report = llm_memory.consolidate_conversation(conversation)
        assert (report.status, report.facts_added, report.entities) == ("failed", 0, 0), payload
        assert "malformed" in (report.error or "")
        after = snapshot(llm_memory.settings)
        # The failed run is recorded (its job row, an audit row); nothing it would have learned is.
        changed = {name for name in before if before[name] != after[name]}
        assert changed <= {"consolidation_jobs", "memory_audit_log"}, (payload, before, after)
        before = after
        with pytest.raises(InvalidInputError):
            llm_memory.create_relationship(leo.id, acme.id, payload)
        with pytest.raises(InvalidInputError):  # the subsystem refuses it too, whoever the caller
            backends.entities.relate(llm_memory.scope, leo.id, acme.id, payload, {})
        assert snapshot(llm_memory.settings) == before, payload
    graph_answers(llm_memory)


def test_titles_descriptions_and_metadata_are_stored_verbatim(memory: AgentMemory) -> None:
    for payload in INJECTIONS:
        metadata = {payload: payload, "nested": {payload: [payload]}}
        conversation = memory.new_conversation(title=payload, metadata=metadata)
        turn = memory.store_turn(conversation, "user", "I planted tomatoes", metadata=metadata)
        [stored] = memory.get_conversation(conversation)
        assert stored.metadata == metadata, payload
        recalled = memory.remember("tomatoes", metadata={payload: payload})
        assert [item.id for item in recalled.items] == [turn.id], payload
        assert memory.remember("tomatoes", metadata={payload: "other"}).items == [], payload
        entity = memory.upsert_entity("Leo", "person", description=payload)
        assert memory.get_entity_info(entity.id).entity.description == payload
    titles = {
        record["data"]["title"]: record["data"]["metadata"]
        for record in memory.export_user(embeddings=False)
        if record.get("type") == "conversation"
    }
    assert titles == {payload: {payload: payload, "nested": {payload: [payload]}} for payload in INJECTIONS}
    graph_answers(memory)


def test_proposal_fields_are_stored_verbatim_and_tool_names_refused(memory: AgentMemory) -> None:
    for payload in INJECTIONS:
        proposed = memory.propose_strategy(
            payload, payload, ["web_search"], what_failed=[payload], applies_when=payload
        )
        [strategy] = [s for s in memory.proposed_strategies() if s.id == proposed.id]
        assert (strategy.description, strategy.context_pattern) == (payload, payload)
        assert (strategy.what_failed, strategy.applies_when) == ([payload], payload)
        before = snapshot(memory.settings)
        with pytest.raises(AgentMemoryError):
            memory.propose_strategy("book a flight", "travel", [payload])
        assert snapshot(memory.settings) == before, payload
    graph_answers(memory)


def test_mcp_entity_tools_store_verbatim_or_refuse(memory: AgentMemory) -> None:
    for index, payload in enumerate(INJECTIONS):
        user = memory.for_user(f"mcp-{index}")  # one user each: entity resolution stays per payload
        added = dispatch(
            user,
            "add_entity",
            {"name": payload, "type": "person", "aliases": [payload + "!"], "description": payload},
        )
        dispatch(user, "add_entity", {"name": "Acme", "type": "organization"})
        info = user.get_entity_info(payload).entity
        assert (info.name, info.aliases, info.description) == (payload, [payload + "!"], payload)
        assert added["entity"]["id"] == info.id
        before = snapshot(memory.settings)
        with pytest.raises(InvalidInputError):
            dispatch(user, "relate_entities", {"source": payload, "relation": payload, "target": "Acme"})
        assert snapshot(memory.settings) == before, payload
        related = dispatch(
            user, "relate_entities", {"source": payload, "relation": "WORKS_FOR", "target": "Acme"}
        )
        assert related["source"] == payload
        graph_answers(user)


def test_import_refuses_an_edge_type_outside_the_allow_list(memory: AgentMemory) -> None:
    """A dump is data from outside: its relationship types pick a statement by name, never Cypher text."""
    leo, acme = memory.upsert_entity("Leo", "person"), memory.upsert_entity("Acme", "organization")
    memory.create_relationship(leo.id, acme.id, "WORKS_FOR")
    dump = memory.export_user(embeddings=False)
    [edge] = [i for i, record in enumerate(dump) if record.get("rel") == "WORKS_FOR"]
    before = snapshot(memory.settings)
    for payload in BAD_RELATIONS:
        tampered = [{**record, "rel": payload} if i == edge else record for i, record in enumerate(dump)]
        with pytest.raises(InvalidInputError):
            memory.import_user(tampered)
        assert snapshot(memory.settings) == before, payload
    graph_answers(memory)
