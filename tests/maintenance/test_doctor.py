"""``doctor``: each invariant across the stores, broken with real writes to the real embedded stores,
found by a check, restored by a repair, and clean on the next check; ``forget_user`` then ``doctor``
leaves nothing of the user anywhere while another user's memory is untouched."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import psycopg
import pytest
from psycopg import sql

from agentx_memory import AgentMemory
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.maintenance.base import Clock, utc_now
from agentx_memory.maintenance.doctor_rules import INVARIANTS, DoctorReport
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.models import Scope
from agentx_memory.settings import Settings
from agentx_memory.stores import keys
from agentx_memory.stores.falkordb import FalkorDBStore

Conn = psycopg.Connection[tuple[object, ...]]


def later(hours: float = 1) -> Clock:
    """A clock past the doctor's grace window."""
    return lambda: utc_now() + timedelta(hours=hours)


def doctor(root: AgentMemory, *, repair: bool = False, clock: Clock = utc_now) -> DoctorReport:
    run = run_job(root, JOBS["doctor"], dry_run=not repair, clock=clock)
    assert run.status == "done", run.error
    report = DoctorReport.from_job(run)
    assert report is not None
    return report


def violations(report: DoctorReport) -> dict[str, int]:
    return {finding.name: finding.violations for finding in report.findings if finding.violations}


@dataclass
class Made:
    """What :func:`populate` stored for one user."""

    conversation: str
    turns: list[str]
    invocation: str
    fact: str
    entity: str
    goal: str


def populate(memory: AgentMemory) -> Made:
    conversation = memory.new_conversation("moving")
    turns = [
        memory.store_turn(conversation, "user", f"I moved to Lisbon in {year}").id for year in (2019, 2021)
    ]
    invocation = memory.record_invocation(conversation, 0, "maps", {"q": "Lisbon"}, {"ok": True}, True, 12.0)
    fact = memory.learn_fact(f"{memory.scope.user_id} lives in Lisbon", confidence=0.9, source="chat")
    entity = memory.upsert_entity("Lisbon", "location", description="a city")
    goal = memory.add_goal("Learn Portuguese")
    memory.working(conversation).set("mood", "calm")
    return Made(conversation, turns, invocation.id, fact.id, entity.id, goal.id)


@pytest.fixture
def root(settings: Settings, embedder: Embedder) -> Iterator[AgentMemory]:
    tuned = settings.model_copy(
        update={"maintenance": settings.maintenance.model_copy(update={"vector_stale_min": 5})}
    )
    with AgentMemory("alice", settings=tuned, embedder=embedder) as memory:
        yield memory


@pytest.fixture
def graph(settings: Settings, endpoints: ResolvedEndpoints, root: AgentMemory) -> Iterator[FalkorDBStore]:
    """The test's graph, for writes no public method makes (one flavour: the facade is sync here)."""
    with contextlib.closing(FalkorDBStore(endpoints.falkordb_url or "", settings.graph.name)) as store:
        yield store


@pytest.fixture
def conn(settings: Settings, root: AgentMemory) -> Iterator[Conn]:
    with psycopg.connect(settings.postgres.url or "", autocommit=True) as connection:
        connection.execute(
            sql.SQL("SET search_path TO {}, public").format(sql.Identifier(settings.postgres.schema_name))
        )
        yield connection


def remaining(root: AgentMemory, user_id: str) -> dict[str, int]:
    forgetting = root._open_backends().forgetting
    return forgetting.remaining(Scope(user_id=user_id, channel="_global"))


def test_a_clean_store_reports_nothing_and_repairs_nothing(root: AgentMemory) -> None:
    populate(root)
    populate(root.for_user("bob"))
    report = doctor(root)
    assert [finding.name for finding in report.findings] == [invariant.name for invariant in INVARIANTS]
    assert violations(report) == {}
    assert report.ok
    assert not report.repair
    repaired = doctor(root, repair=True, clock=later())
    assert repaired.ok
    assert repaired.repair
    assert all(finding.repaired == 0 and finding.remaining is None for finding in repaired.findings)


def test_each_violation_is_found_repaired_and_gone(
    root: AgentMemory, graph: FalkorDBStore, conn: Conn
) -> None:
    alice, bob = populate(root), populate(root.for_user("bob"))
    extra = root.new_conversation("to forget from the ledger only")
    root.store_turn(extra, "user", "This conversation loses its ledger rows.")
    before_bob = remaining(root, "bob")
    # turns_without_ledger_row: a turn's ledger row gone
    conn.execute("DELETE FROM conversation_logs WHERE id = %s", (alice.turns[0],))
    # conversations_without_ledger_row: a conversation's ledger rows gone (its turns cascade)
    conn.execute("DELETE FROM conversations WHERE id = %s", (extra,))
    # tool_invocations_without_ledger_row
    conn.execute("DELETE FROM tool_invocations WHERE id = %s", (alice.invocation,))
    # memories_without_timeline_row
    conn.execute("DELETE FROM memory_timeline WHERE memory_id = ANY(%s)", ([alice.fact, alice.goal],))
    # ledger_rows_missing_from_graph: the graph lost a synced turn
    graph._execute("MATCH (t:Turn {id: $id}) DETACH DELETE t", {"id": alice.turns[1]})
    # unsynced_ledger_rows: one of bob's turns waits for its graph write
    conn.execute("INSERT INTO turn_sync_pending (turn_id) VALUES (%s)", (bob.turns[0],))
    # cross_user_relationships
    graph._execute(
        "MATCH (f:Fact {id: $fact}), (e:Entity {id: $entity}) CREATE (f)-[:ABOUT]->(e)",
        {"fact": alice.fact, "entity": bob.entity},
    )
    # graph_users_unknown + redis_keys_of_forgotten_users: a ghost's remnants in the graph and Redis
    graph._execute(
        "CREATE (:User {id: 'ghost', user_id: 'ghost', created_at: 0})-[:HAS_GOAL]->"
        "(:Goal {id: $id, user_id: 'ghost', channel: '_global', description: 'x', created_at: 0})",
        {"id": str(uuid.uuid4())},
    )
    redis = root._open_backends().redis
    prefix = root.settings.redis.key_prefix
    redis.set_value(keys.working_key(prefix, "ghost", "_global", str(uuid.uuid4()), "summary"), "left", 600)
    # vector_index_bloat: confirmations rewrite a fact's node, a stale index entry each
    for _ in range(6):
        root.confirm_fact(alice.fact)

    found = doctor(root)
    stale = found.finding("vector_index_bloat").violations
    assert stale >= 6
    expected = {
        "graph_users_unknown": 2,
        "turns_without_ledger_row": 1,
        "conversations_without_ledger_row": 1,
        "tool_invocations_without_ledger_row": 1,
        "memories_without_timeline_row": 2,
        "ledger_rows_missing_from_graph": 1,
        "unsynced_ledger_rows": 1,
        "cross_user_relationships": 1,
        "redis_keys_of_forgotten_users": 1,
        "vector_index_bloat": stale,
    }
    assert violations(found) == expected
    assert found.finding("turns_without_ledger_row").samples == [f"alice/{alice.turns[0]}"]
    assert found.finding("graph_users_unknown").samples == ["ghost"]
    assert not found.ok

    fixed = doctor(root, repair=True, clock=later())
    assert fixed.ok, [f for f in fixed.findings if f.open]
    rebuilt = fixed.finding("vector_index_bloat").repaired
    # the stale entries a rebuild removed include those the repair's own deletions left
    assert rebuilt >= stale
    # reconcile replayed bob's turn and alice's lost one, and restored her conversation (a no-op MERGE)
    replayed = {"unsynced_ledger_rows": 3, "vector_index_bloat": rebuilt}
    assert {f.name: f.repaired for f in fixed.findings if f.repaired} == {**expected, **replayed}
    assert violations(doctor(root)) == {}
    # what the repair restored is back, what it deleted is gone, and nothing else moved
    assert [turn.id for turn in root.get_conversation(alice.conversation)] == [alice.turns[1]]
    assert root.get_conversation(extra) == []
    assert remaining(root, "ghost") == dict.fromkeys(remaining(root, "ghost"), 0)
    assert remaining(root, "bob") == before_bob
    assert {fact.id for fact, _ in root.search_facts("Where does alice live?", top_k=3)} >= {alice.fact}


def test_nodes_without_a_user_are_reported_not_repaired(root: AgentMemory, graph: FalkorDBStore) -> None:
    graph._execute("CREATE (:Entity {id: 'stray', name: 'stray'})", {})
    report = doctor(root, repair=True, clock=later())
    finding = report.finding("nodes_without_user")
    assert (finding.violations, finding.repaired, finding.remaining, finding.samples) == (1, 0, 1, ["Entity"])
    assert not report.ok


def test_forget_user_then_doctor_leaves_nothing_of_the_user(
    settings: Settings, embedder: Embedder, graph: FalkorDBStore
) -> None:
    """The issue's acceptance test, with the default settings. On FalkorDB 4.16 the forgotten nodes'
    vectors stay in the HNSW indexes as stale, unreachable entries (FalkorDB#2197) until an index is
    rebuilt; after a forget, the vector_compaction rule (the doctor's repair) rebuilds any index with
    a stale entry, so no vector of the user is left either."""
    with AgentMemory("root", settings=settings, embedder=embedder) as root:
        _forget_and_doctor(root, graph)


def _forget_and_doctor(root: AgentMemory, graph: FalkorDBStore) -> None:
    carol = root.for_user("carol")
    populate(carol)
    populate(root.for_user("bob"))
    before_bob = remaining(root, "bob")
    carol.forget_user()
    report = doctor(root)
    assert set(violations(report)) <= {"vector_index_bloat"}
    fixed = doctor(root, repair=True)
    assert fixed.ok
    assert violations(doctor(root)) == {}
    assert remaining(root, "carol") == dict.fromkeys(remaining(root, "carol"), 0)
    assert graph._execute("MATCH (n {user_id: 'carol'}) RETURN count(n) AS n", {}) == [{"n": 0}]
    sizes = graph.vector_index_sizes()
    assert {label: size.entries for label, size in sizes.items()} == {
        label: size.live for label, size in sizes.items()
    }
    assert carol.search_facts("Where does carol live?", top_k=5) == []
    assert carol.remember("Lisbon", top_k=5).items == []
    assert remaining(root, "bob") == before_bob
    assert len(root.for_user("bob").search_facts("Where does bob live?", top_k=5)) == 1


def test_a_forget_cut_short_is_finished_by_doctor_at_once(root: AgentMemory) -> None:
    """The ledger step of forget_user ran, then the graph went away: the graph nodes and Redis keys
    are left. Dave's turn, conversation and tool-invocation nodes were written after their (now gone)
    ledger rows, so he is no new user: repair removes everything at once, and bob's memory stays whole."""
    dave = root.for_user("dave")
    populate(dave)
    populate(root.for_user("bob"))
    before_bob = remaining(root, "bob")
    root._open_backends().ledger.fetch_one("forget_user_rows", {"user_id": "dave"})
    left = remaining(root, "dave")
    assert left["graph_nodes"] > 0
    assert left["redis_keys"] > 0

    now = doctor(root, repair=True)
    assert now.ok
    assert now.finding("graph_users_unknown").repaired == left["graph_nodes"]
    assert now.finding("redis_keys_of_forgotten_users").repaired == left["redis_keys"]
    assert remaining(root, "dave") == dict.fromkeys(left, 0)
    assert remaining(root, "bob") == before_bob


def test_a_forget_cut_short_of_graph_only_memories_waits_for_the_grace_window(root: AgentMemory) -> None:
    """A user with facts, entities and goals only (graph first, timeline row a moment later): within
    the grace window the doctor leaves them (they may be a new user's first writes); past it, repair
    removes them, and bob's memory stays whole."""
    dave = root.for_user("dave")
    dave.learn_fact("dave lives in Lisbon", confidence=0.9, source="chat")
    dave.upsert_entity("Lisbon", "location", description="a city")
    dave.add_goal("Learn Portuguese")
    populate(root.for_user("bob"))
    before_bob = remaining(root, "bob")
    root._open_backends().ledger.fetch_one("forget_user_rows", {"user_id": "dave"})
    left = remaining(root, "dave")
    assert left["graph_nodes"] > 0

    now = doctor(root, repair=True)
    unknown = now.finding("graph_users_unknown")
    assert (unknown.violations, unknown.repaired, unknown.remaining) == (
        left["graph_nodes"],
        0,
        left["graph_nodes"],
    )
    assert unknown.skipped == "1 of these users wrote within the grace window: left for a later run"
    assert now.finding("redis_keys_of_forgotten_users").violations == 0  # not provably forgotten yet

    past = doctor(root, repair=True, clock=later())
    assert past.ok
    assert past.finding("graph_users_unknown").repaired == left["graph_nodes"]
    assert past.finding("redis_keys_of_forgotten_users").repaired == left["redis_keys"]
    assert remaining(root, "dave") == dict.fromkeys(left, 0)
    assert remaining(root, "bob") == before_bob
    assert violations(doctor(root, clock=later())) == {}
