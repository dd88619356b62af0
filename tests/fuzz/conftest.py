"""One world per fuzz module: alice's facade and bob's seeded data on an isolated schema/graph/prefix.

A fresh store per example would be far too slow; the properties are checked against measurements
taken around each call instead (tests/fuzz/world.py).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentx_memory import AgentMemory
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from tests.conftest import cleanup, isolated_settings
from tests.fuzz.world import BOB_MARKER, World, seed

#: Examples per fuzzed method: small in the suite; ``AGENTX_FUZZ_EXAMPLES=500`` for a long run.
EXAMPLES = int(os.environ.get("AGENTX_FUZZ_EXAMPLES", "15"))


def report(name: str, tried: int, failure: BaseException | None) -> None:
    """Append what one fuzzed method tried (and its failure) to ``AGENTX_FUZZ_REPORT``, if set."""
    path = os.environ.get("AGENTX_FUZZ_REPORT")
    if not path:
        return
    entry = {"method": name, "examples": tried, "failure": None if failure is None else str(failure)[:2000]}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(entry) + "\n")


@pytest.fixture(scope="module")
def world(endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder) -> Iterator[World]:
    chosen = isolated_settings(endpoints, data_dir, audit={"level": "reads"})
    try:
        with AgentMemory("alice", settings=chosen, embedder=embedder) as memory:
            bob_memory = memory.for_user("bob")
            bob = seed(bob_memory, BOB_MARKER)
            alice = seed(memory, "alicedata")
            bob_as_alice = (
                json.dumps(bob_memory.export_user(embeddings=False))
                .replace('"user_id": "bob"', '"user_id": "alice"')
                .replace(BOB_MARKER, "imported")
            )
            fuzz_world = World(
                memory,
                chosen,
                endpoints,
                alice,
                bob,
                alice_dump=memory.export_user(embeddings=False),
                bob_dump=json.loads(bob_as_alice),
            )
            fuzz_world.connect()
            try:
                yield fuzz_world
            finally:
                fuzz_world.close()
    finally:
        cleanup(chosen, endpoints)
