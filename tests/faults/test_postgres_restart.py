"""A restarted Postgres costs the application one failed call, not one per pooled connection: the
connections opened before the restart all died with the old server, and the first one found dead
makes the pool check the others."""

from __future__ import annotations

import os
import signal
import time

from agentx_memory import AgentMemory, StoreUnavailableError, embedded
from agentx_memory.embedded._common import pid_alive
from agentx_memory.embedding import Embedder
from agentx_memory.settings import Settings
from benchmarks.faults import server_pid

POOL = 4


def test_after_a_postgres_restart_one_call_fails_not_one_per_pooled_connection(
    own_servers: Settings, embedder: Embedder
) -> None:
    settings = own_servers.model_copy(
        update={"postgres": own_servers.postgres.model_copy(update={"pool_min": POOL, "pool_max": POOL})}
    )
    with AgentMemory("restart", settings=settings, embedder=embedder) as memory:
        conversation = memory.new_conversation()
        memory.store_turn(conversation, "user", "before the crash")
        pid = server_pid(settings, "postgres")
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        while pid_alive(pid, "postgres"):
            time.sleep(0.01)
        embedded.start_or_attach(settings)
        failed, read = 0, []
        for _ in range(2 * POOL):
            try:
                read.append([turn.content for turn in memory.get_conversation(conversation)])
            except StoreUnavailableError:
                failed += 1
        assert failed <= 1  # without the pool check: one failure per pooled connection (4)
        assert read == [["before the crash"]] * (2 * POOL - failed)
