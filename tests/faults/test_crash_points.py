"""Every crash point of the fact write paths and of ``forget_user``: FalkorDB killed right after each
statement one call sends (``benchmarks/crash_points.py``), started again, then ``reconcile`` and
``doctor --repair``: no fact about nothing, no correction without its SUPERSEDES or ABOUT links, one
current version, nothing lost or duplicated, nothing left of a user whose forget was cut short."""

from __future__ import annotations

import pytest

from agentx_memory.embedding import Embedder
from agentx_memory.settings import Settings
from benchmarks.crash_points import sweep_cell

#: The operations swept here (test_crash_matrix.py leaves their FalkorDB cells to this sweep).
SWEPT = ("learn_fact", "correct_fact", "forget_user")


@pytest.mark.parametrize("operation", SWEPT)
def test_a_graph_killed_after_any_statement_leaves_nothing_half_written(
    own_servers: Settings, embedder: Embedder, operation: str
) -> None:
    cell = sweep_cell(own_servers, operation, "falkordb", embedder)
    assert cell.kills >= 3  # one per statement of the call
    assert cell.refused  # the kills were felt
    assert cell.acknowledged > cell.kills  # the call after each restart worked
    assert not cell.leaked, cell.notes
    assert (cell.lost, cell.duplicated, cell.half_written, cell.resurrected) == (0, 0, 0, 0), cell.notes
