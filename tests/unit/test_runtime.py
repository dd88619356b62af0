"""Process tuning (``agentx_memory.runtime``): run in fresh interpreters, as it changes process state."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import gc, json, sys
from agentx_memory.runtime import tune_process
from agentx_memory.settings import RuntimeSettings
settings = RuntimeSettings.model_validate_json(sys.argv[1])
before = gc.get_threshold()
first = tune_process(settings)
second = tune_process(settings)
print(json.dumps({"before": before, "after": gc.get_threshold(), "first": first, "second": second,
                  "frozen": gc.get_freeze_count()}))
"""


def run(settings: dict[str, object]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(settings)], capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_tuning_freezes_start_up_objects_and_raises_the_young_threshold_once() -> None:
    result = run({"tune_gc": True, "gc_gen0_threshold": 15000})
    assert result["first"] is True
    assert result["second"] is False  # once per process
    assert result["after"] == [15000, 20, 20]
    assert isinstance(result["frozen"], int)
    assert result["frozen"] > 1000  # modules, classes, settings


def test_tuning_switched_off_leaves_the_interpreter_alone() -> None:
    result = run({"tune_gc": False})
    assert result["first"] is False
    assert result["after"] == result["before"]
    assert result["frozen"] == 0
