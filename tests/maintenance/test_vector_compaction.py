"""Vector indexes stay compact: recall writes no vector node (96 recalls leave every index as it was,
one entry per live fact, entity and goal), and the vector_compaction job rebuilds an index that other
writes bloated (FalkorDB 4.16 keeps a stale entry per write to a node with a vector, FalkorDB#2197)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from agentx_memory import AgentMemory
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.maintenance.vector_compaction import bloated
from agentx_memory.settings import Settings
from agentx_memory.stores.falkordb import FalkorDBStore
from agentx_memory.stores.vector_index import VectorIndexSize

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)

PEOPLE = ["Ana", "Bruno", "Chen", "Dara", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun"]
TOPICS = ["hiking", "pottery", "chess", "sailing", "baking", "cycling"]
#: Entries an index may hold beyond one per live node after the recalls (none are expected).
SLACK = 2


@pytest.fixture
def graph(settings: Settings, endpoints: ResolvedEndpoints) -> Iterator[FalkorDBStore]:
    """The test's graph, read directly (one flavour: these tests open their own sync facade)."""
    store = FalkorDBStore(endpoints.falkordb_url or "", settings.graph.name)
    yield store
    store.close()


def _sizes(graph: FalkorDBStore) -> dict[str, tuple[int, int]]:
    return {label: (size.entries, size.live) for label, size in graph.vector_index_sizes().items()}


def test_recalls_add_no_vector_index_entry(
    settings: Settings, embedder: Embedder, graph: FalkorDBStore
) -> None:
    with AgentMemory(user_id="alice", settings=settings, embedder=embedder) as memory:
        conversation = memory.new_conversation()
        for person, topic in zip(PEOPLE, itertools.cycle(TOPICS), strict=False):
            memory.upsert_entity(person, "person", description=f"a friend who likes {topic}")
            memory.learn_fact(
                f"{person} goes {topic} with Alice", confidence=0.9, source="chat", about=[person]
            )
            memory.store_turn(conversation, "user", f"I went {topic} with {person} last weekend")
        memory.add_goal("Learn to sail before summer")
        before = _sizes(graph)
        questions = [f"What does {person} like to do?" for person in PEOPLE] + [
            f"Who goes {topic} with Alice?" for topic in TOPICS
        ]
        # Six rounds of the 16 questions (96 recalls; 500 took 9 s of a worker): one write to a node with
        # a vector would already show after the first, and six accesses of every returned fact and entity
        # pass the one threshold on access counts (promotion's min_access_count, 5).
        for question in itertools.islice(itertools.cycle(questions), 6 * len(questions)):
            assert memory.remember(question, top_k=5).items
    # closed: the async reinforcement of every recall has landed
    after = _sizes(graph)
    assert after == before
    for label in ("Fact", "Entity", "Goal"):
        entries, live = after[label]
        assert live > 0
        assert entries <= live + SLACK, (label, entries, live)


def test_bloat_threshold() -> None:
    assert bloated(VectorIndexSize("Fact", entries=260, live=200), ratio=0.25, minimum=10)
    assert not bloated(VectorIndexSize("Fact", entries=240, live=200), ratio=0.25, minimum=10)
    assert not bloated(VectorIndexSize("Fact", entries=15, live=10), ratio=0.25, minimum=10)
    assert not bloated(VectorIndexSize("Fact", entries=99, live=10, building=True), ratio=0.25, minimum=1)


def test_vector_compaction_rebuilds_a_bloated_index_and_reports_before_and_after(
    settings: Settings, embedder: Embedder, graph: FalkorDBStore
) -> None:
    tuned = settings.model_copy(
        update={"maintenance": settings.maintenance.model_copy(update={"vector_stale_min": 5})}
    )
    with AgentMemory(user_id="alice", settings=tuned, embedder=embedder) as memory:
        facts = [memory.learn_fact(f"Alice owns {n} bikes", confidence=0.5, source="chat") for n in range(4)]
        for _ in range(3):  # every confirmation writes the fact's node: a stale entry each
            for fact in facts:
                memory.confirm_fact(fact.id)
        stale = graph.vector_index_sizes()["Fact"]
        assert stale.stale >= 12

        dry = run_job(memory, JOBS["vector_compaction"], dry_run=True)
        assert dry.status == "done"
        assert dry.planned == [f"rebuild the Fact vector index ({stale.stale} stale entries)"]
        assert graph.vector_index_sizes()["Fact"] == stale  # a dry run rebuilds nothing

        report = run_job(memory, JOBS["vector_compaction"])
        assert report.status == "done"
        assert report.counts["rebuilt"] == 1
        assert report.details["before"]["Fact"] == {"entries": stale.entries, "live": 4}
        assert report.details["after"]["Fact"] == {"entries": 4, "live": 4}
        # still found by vector search after the rebuild, and nothing left to do
        found = memory.search_facts("How many bikes does Alice own?", top_k=4)
        assert {fact.id for fact, _ in found} == {fact.id for fact in facts}
        again = run_job(memory, JOBS["vector_compaction"])
        assert again.counts["rebuilt"] == 0
        assert again.planned == []


def test_after_a_forget_any_stale_entry_is_rebuilt_away(
    settings: Settings, embedder: Embedder, graph: FalkorDBStore
) -> None:
    """Below the size threshold an index is left alone, unless something was forgotten since the last
    run: the forgotten fact's vector must not linger as a stale entry."""
    with AgentMemory(user_id="alice", settings=settings, embedder=embedder) as memory:
        kept = memory.learn_fact("Alice keeps bees", confidence=0.9, source="chat")
        memory.confirm_fact(kept.id)  # one stale entry, far below vector_stale_min (100)
        assert run_job(memory, JOBS["vector_compaction"]).counts["rebuilt"] == 0
        gone = memory.learn_fact("Alice's door code is 4711", confidence=0.9, source="chat")
        memory.forget_fact(gone.id)
        report = run_job(memory, JOBS["vector_compaction"])
        assert report.details["forgets_since_last_run"] == 1
        assert report.counts["rebuilt"] == 1
        assert report.details["after"]["Fact"] == {"entries": 1, "live": 1}
        again = run_job(memory, JOBS["vector_compaction"])  # the forget is now behind the last run
        assert (again.details["forgets_since_last_run"], again.counts["rebuilt"]) == (0, 0)


def test_a_forgotten_turn_counts_as_a_forget(settings: Settings, embedder: Embedder) -> None:
    """A popped agents-session message is forgotten with ``forget_turn``: its vector may linger too."""
    with AgentMemory(user_id="alice", settings=settings, embedder=embedder) as memory:
        cid = memory.new_conversation()
        turn = memory.store_turn(cid, "user", "My locker code is 4711")
        assert run_job(memory, JOBS["vector_compaction"]).details["forgets_since_last_run"] == 0
        memory.forget_turn(turn.id)
        assert run_job(memory, JOBS["vector_compaction"]).details["forgets_since_last_run"] == 1
