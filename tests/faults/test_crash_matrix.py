"""The crash-consistency matrix, bounded: each write path in a short loop while its store's server is
SIGKILLed once mid-call (FalkorDB, then Postgres) and started again; then ``reconcile`` and
``doctor --repair``; then the invariants of ``benchmarks/crash_ops.py``: no acknowledged write lost,
nothing duplicated, no half-written fact or correction chain, nothing forgotten resurrected, and only
``AgentMemoryError`` subclasses raised. The full-size matrix, every operation against both stores, is
``benchmarks/faults.py`` (``make bench-reliability``)."""

from __future__ import annotations

import pytest

from agentx_memory.embedding import Embedder
from agentx_memory.settings import Settings
from benchmarks.crash_ops import OPERATIONS
from benchmarks.faults import STORES, run_cell
from tests.faults.test_crash_points import SWEPT

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)

ITERATIONS = 6

#: The cells the suite runs: 10 of the 16, one per distinct recovery path (all 16 took 47 s of a worker,
#: the Postgres cells ~3.5 s each, most of it the restart). Every operation is killed at least once, here
#: or after every statement in test_crash_points.py.
CELLS = [
    # FalkorDB killed: the graph write fails after (or before) its ledger row, and reconcile or the
    # doctor replays it; each operation replays through its own queries. learn_fact, correct_fact and
    # forget_user are left out here: tests/faults/test_crash_points.py kills FalkorDB after *every*
    # statement of them, which covers more than one random kill.
    ("store_turn", "falkordb"),
    ("upsert_entity", "falkordb"),
    ("record_invocation", "falkordb"),
    ("consolidate_conversation", "falkordb"),
    ("forget_conversation", "falkordb"),
    # Postgres killed: one cell per shape of the Postgres side of a call. The ledger row first, then the
    # graph and the sync mark: store_turn (record_invocation writes the same way). The graph node
    # first, then its timeline and audit rows, which the doctor must write back: upsert_entity for an
    # entity, correct_fact for a fact with its correction chain (learn_fact is the same write without
    # the chain). The turns and facts of a consolidation. One delete under the user lock, then the
    # graph's: forget_conversation (forget_user is the same two steps over all of the user's rows).
    ("store_turn", "postgres"),
    ("upsert_entity", "postgres"),
    ("correct_fact", "postgres"),
    ("consolidate_conversation", "postgres"),
    ("forget_conversation", "postgres"),
]


def test_every_operation_and_both_stores_are_killed() -> None:
    assert {operation for operation, _ in CELLS} | set(SWEPT) == set(OPERATIONS)
    assert {store for _, store in CELLS} == set(STORES)
    assert not {(operation, "falkordb") for operation in SWEPT} & set(CELLS)  # swept instead


@pytest.mark.parametrize(("operation", "store"), CELLS)
def test_a_killed_store_loses_duplicates_and_resurrects_nothing(
    own_servers: Settings, embedder: Embedder, operation: str, store: str
) -> None:
    cell = run_cell(own_servers, operation, store, ITERATIONS, kills=1, seed=0, embedder=embedder)
    assert cell.kills == 1
    assert cell.acknowledged > 0
    assert not cell.leaked, cell.notes  # every failed call raised an AgentMemoryError subclass
    assert (cell.lost, cell.duplicated, cell.half_written, cell.resurrected) == (0, 0, 0, 0), cell.notes
