"""The restart race of issue 36, bounded: the servers SIGKILLed and started again at once, by a new
client, while CPU burners load the machine; every start must succeed and lose nothing acknowledged. The
full run, 50 kills, is ``benchmarks/restart_stress.py --load 2`` (docs/benchmarks/reliability.md)."""

from __future__ import annotations

import pytest

from agentx_memory.settings import Settings
from benchmarks.restart_stress import run

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)


def test_servers_killed_and_restarted_at_once_under_load_come_back_with_every_marker(
    own_servers: Settings,
) -> None:
    # A generous start-up timeout: this checks that a restart succeeds, not how fast (no timing asserts);
    # beside a second suite on 2 cores a start has taken tens of seconds.
    settings = own_servers.model_copy(
        update={"embedded": own_servers.embedded.model_copy(update={"start_timeout_s": 120})}
    )
    report = run(settings, restarts=5, load=2)
    assert report.failures == []
    assert report.markers_missing == {"falkordb": 0, "postgres": 0}
    assert len(report.restart_s) == 5
