"""Turns get timeline rows in the same commit; recall that crosses channels is audited."""

from __future__ import annotations

import psycopg

from agentx_memory import AgentMemory
from agentx_memory.embedded import ResolvedEndpoints


def _query(endpoints: ResolvedEndpoints, mem: AgentMemory, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(endpoints.postgres_url) as conn:
        conn.execute(f'SET search_path TO "{mem.settings.postgres.schema_name}", public')
        return list(conn.execute(sql, ("alice",)).fetchall())


def test_every_turn_has_a_timeline_row(memory: AgentMemory, endpoints: ResolvedEndpoints) -> None:
    cid = memory.new_conversation(title="timeline")
    first = memory.store_turn(cid, "user", "I moved to Porto in March")
    memory.store_turn(cid, "user", "I moved to Porto in March", turn_index=0)  # idempotent retry
    second = memory.store_turn(cid, "assistant", "Porto is lovely in spring.")
    rows = _query(
        endpoints,
        memory,
        "SELECT memory_type, memory_id, conversation_id::text, summary, channel FROM memory_timeline "
        "WHERE user_id = %s ORDER BY event_time",
    )
    assert rows == [
        ("turn", first.id, cid, "I moved to Porto in March", "_global"),
        ("turn", second.id, cid, "Porto is lovely in spring.", "_global"),
    ]


def test_recall_across_channels_is_audited(memory: AgentMemory, endpoints: ResolvedEndpoints) -> None:
    global_cid = memory.new_conversation()
    shared = memory.store_turn(global_cid, "user", "My sister Maya lives in Osaka")
    project = memory.for_user("alice", channel="proj-japan")
    project_cid = project.new_conversation()
    project.store_turn(project_cid, "user", "Book the Osaka ryokan for the team offsite")

    found = {item.id: item.channel for item in project.remember("Where does Maya live?", top_k=5).items}
    assert found[shared.id] == "_global"
    rows = _query(
        endpoints,
        memory,
        "SELECT channel, details FROM memory_audit_log "
        "WHERE user_id = %s AND operation = 'cross_channel_recall'",
    )
    assert len(rows) == 1
    channel, details = rows[0]
    assert channel == "proj-japan"
    assert {"id": shared.id, "channel": "_global"} in details["matches"]  # type: ignore[index]
    # recall inside _global never crosses: _global reads do not cover project channels
    assert all(item.channel == "_global" for item in memory.remember("Osaka", top_k=5).items)


def test_promoted_fact_is_found_once_and_global_hits_are_audited(
    memory: AgentMemory, endpoints: ResolvedEndpoints
) -> None:
    project = memory.for_user("alice", channel="proj-a")
    fact = project.learn_fact("The team standup is at 9:30", confidence=0.95, source="user")
    copy = project.promote_to_global(fact.id, "applies to every project")
    # both copies match; the project one wins, once
    hits = project.search_facts("When is the standup?", top_k=5)
    assert [(found.id, found.channel) for found, _ in hits] == [(fact.id, "proj-a")]
    # another project sees the _global copy, and that crossing is in the trail
    other = memory.for_user("alice", channel="proj-b")
    assert [found.id for found, _ in other.search_facts("When is the standup?", top_k=5)] == [copy.id]
    rows = _query(
        endpoints,
        memory,
        "SELECT channel, memory_type, details FROM memory_audit_log "
        "WHERE user_id = %s AND operation = 'cross_channel_recall'",
    )
    assert [(channel, kind) for channel, kind, _ in rows] == [("proj-b", "fact")]
    assert rows[0][2] == {"channel": "proj-b", "matches": [{"id": copy.id, "channel": "_global"}]}
