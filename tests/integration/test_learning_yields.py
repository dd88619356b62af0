"""Background learning yields to the caller's calls (issue 36), on the real embedded servers: it waits
while a call is in flight before each step, and after a burst of writes it still completes, nothing
lost. No timing is asserted: what the learner asked, and what it learned."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from agentx_memory import AgentMemory
from agentx_memory.callers import CallerActivity
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from tests.conftest import cleanup, isolated_settings

T0 = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)
SAID = (
    "I'm allergic to cats.",
    "I live in Lisbon and I work as a pharmacist.",
    "My sister Ana plays the cello.",
)


class BusyAtFirst(CallerActivity):
    """Says a call is in flight the first ``times`` it is asked; counts the questions."""

    def __init__(self, times: int) -> None:
        super().__init__()
        self.times = times
        self.asked = 0
        self._count = threading.Lock()

    def busy(self, quiet_s: float) -> bool:
        with self._count:
            self.asked += 1
            return self.asked <= self.times or super().busy(quiet_s)


def _learned(memory: AgentMemory) -> str:
    return " ".join(fact.claim for fact, _ in memory.search_facts("cats Lisbon pharmacist", top_k=20))


def test_the_learner_waits_while_a_call_is_in_flight_then_learns(
    endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> None:
    settings = isolated_settings(endpoints, data_dir, learning={"auto_consolidate": False})
    try:
        with AgentMemory("yield-1", settings=settings, embedder=embedder) as memory:
            c = memory.new_conversation()
            for offset, text in enumerate(SAID):
                memory.store_turn(c, "user", text, timestamp=T0 + timedelta(minutes=offset))
            gate = BusyAtFirst(times=4)
            memory._backends.callers = gate  # type: ignore[union-attr]
            report = memory.consolidate_conversation(c)
            assert report.status == "done"
            # Four "busy" answers, then one "quiet" before the first step: the learner asked, waited
            # (it asked again, not once), and asked again before every later step.
            assert gate.asked > gate.times + 1
            learned = _learned(memory)
            assert "cats" in learned
            assert "Lisbon" in learned
    finally:
        cleanup(settings, endpoints)


def test_learning_completes_after_a_burst_of_writes_and_nothing_is_lost(
    endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder
) -> None:
    settings = isolated_settings(endpoints, data_dir, learning={"auto_consolidate": True})
    try:
        with AgentMemory("yield-2", settings=settings, embedder=embedder) as memory:
            first = memory.new_conversation()
            for offset, text in enumerate(SAID):
                memory.store_turn(first, "user", text, timestamp=T0 + timedelta(minutes=offset))
            burst = memory.new_conversation()  # the session switch sets the learner on `first`
            for index in range(120):  # back to back: the learner yields to each of them
                memory.store_turn(burst, "user", f"Burst message number {index} about the weather.")
            stored = memory.get_conversation(burst)
            assert [turn.index for turn in stored] == list(range(120))
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and "pharmacist" not in _learned(memory):
                time.sleep(0.2)
            learned = _learned(memory)
            assert "cats" in learned
            assert "Lisbon" in learned
            assert "pharmacist" in learned
    finally:
        cleanup(settings, endpoints)
