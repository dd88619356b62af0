"""A bounded concurrency soak (``benchmarks/soak.py``, small): two spawned processes × three async
tasks on shared and separate users, mixed writes, reads, corrections, forgets and consolidations for
10 seconds. No unexpected error (only the ones a race makes right, e.g.
``NotFoundError`` for a fact another worker forgot), and the doctor finds every invariant intact for
every user."""

from __future__ import annotations

import pytest

from agentx_memory.settings import Settings
from benchmarks.soak import soak

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)


def test_processes_and_tasks_at_once_leave_no_unexpected_error_and_a_clean_doctor(settings: Settings) -> None:
    # 10 s, not the 30 s CI-sized run (`python benchmarks/soak.py --seconds 30 --processes 2 --tasks 3`,
    # or the full 180 s default): every process and task still races the same shared users from the
    # start; 8 s on a quiet host made 763 operations, every operation type, and 11 expected race errors
    # (forgotten conversations and facts, corrections beaten by another). The 30 s run cost 34 s of a
    # worker's wall time for the same checks.
    result = soak(settings, processes=2, tasks=3, seconds=10)
    operations = sum(len(done) for done in result.tally.latencies.values())
    assert operations > 50, result.tally.latencies.keys()
    assert result.unexpected == 0, "\n\n".join(result.tally.unexpected_samples)
    assert result.violations == {}, result.doctor.findings
    assert result.doctor_after_compaction.ok, result.doctor_after_compaction.findings
