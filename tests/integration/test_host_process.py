"""A library leaves its host alone: opening a memory does not retune the host's garbage collector
unless asked; entry points that own their interpreter (CLI, benchmarks, workers) opt in."""

from __future__ import annotations

import json
import subprocess
import sys

from agentx_memory.settings import RuntimeSettings, Settings, owning_process

SCRIPT = """
import gc, json, sys
from agentx_memory import AgentMemory, Settings
settings = Settings.model_validate_json(sys.argv[1])
before = {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}
with AgentMemory(user_id="host", settings=settings) as memory:
    memory.new_conversation()
    after = {"threshold": gc.get_threshold(), "frozen": gc.get_freeze_count()}
print(json.dumps({"before": before, "after": after}))
"""


def _open_in_fresh_process(settings: Settings) -> dict[str, dict[str, object]]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, settings.model_dump_json()],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result: dict[str, dict[str, object]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_opening_a_memory_leaves_the_host_gc_alone(settings: Settings) -> None:
    result = _open_in_fresh_process(settings)
    assert result["after"] == result["before"]
    assert result["after"]["frozen"] == 0


def test_an_owning_process_tunes_the_gc_when_the_memory_opens(settings: Settings) -> None:
    result = _open_in_fresh_process(owning_process(settings))
    assert result["after"]["threshold"] != result["before"]["threshold"]
    frozen = result["after"]["frozen"]
    assert isinstance(frozen, int)
    assert frozen > 1000


def test_owning_process_keeps_an_explicit_choice() -> None:
    assert owning_process(Settings()).runtime.tune_gc is True
    assert Settings().runtime.tune_gc is False
    explicit = Settings(runtime=RuntimeSettings(tune_gc=False))
    assert owning_process(explicit).runtime.tune_gc is False
