"""Fault tests run on their own embedded servers (killed and restarted), so the session's stay up."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentx_memory import embedded
from agentx_memory.settings import Settings


@pytest.fixture(scope="module")
def own_servers() -> Iterator[Settings]:
    """Embedded servers of the test module's own (one start per module: the crash matrix's cells share
    them, each in its own schema, graph and key prefix), stopped at its end."""
    with tempfile.TemporaryDirectory(prefix="agx-f-", dir="/tmp") as directory:
        # A restart replays the server's log; on a loaded 2-core host (the suite under pytest-xdist) that
        # took longer than the 15 s a user's start waits, and the test failed on the wait, not on a loss.
        settings = Settings(
            data_dir=Path(directory),
            learning={"auto_consolidate": False},
            embedded={"start_timeout_s": 60},
        )
        try:
            yield settings
        finally:
            embedded.stop(settings)
