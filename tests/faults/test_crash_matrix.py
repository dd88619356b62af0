"""The crash-consistency matrix, bounded: each write path in a short loop while its store's server is
SIGKILLed once mid-call (FalkorDB, then Postgres) and started again; then ``reconcile`` and
``doctor --repair``; then the invariants of ``benchmarks/crash_ops.py``: no acknowledged write lost,
nothing duplicated, no half-written fact or correction chain, nothing forgotten resurrected, and only
``AgentMemoryError`` subclasses raised. The full-size matrix is ``benchmarks/faults.py``."""

from __future__ import annotations

import pytest

from agentx_memory.embedding import Embedder
from agentx_memory.settings import Settings
from benchmarks.crash_ops import OPERATIONS
from benchmarks.faults import STORES, run_cell

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)

ITERATIONS = 6


@pytest.mark.parametrize("store", STORES)
@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_a_killed_store_loses_duplicates_and_resurrects_nothing(
    own_servers: Settings, embedder: Embedder, operation: str, store: str
) -> None:
    cell = run_cell(own_servers.data_dir, operation, store, ITERATIONS, kills=1, seed=0, embedder=embedder)
    assert cell.kills == 1
    assert cell.acknowledged > 0
    assert not cell.leaked, cell.notes  # every failed call raised an AgentMemoryError subclass
    assert (cell.lost, cell.duplicated, cell.half_written, cell.resurrected) == (0, 0, 0, 0), cell.notes
