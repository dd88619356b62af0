"""A running server whose executable was deleted (its checkout's .venv removed) is told apart, so the
embedded start-up replaces it instead of attaching to a server that cannot load its extensions."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from agentx_memory.embedded._postgres import _install_gone


@pytest.mark.skipif(not Path("/proc/self/exe").exists(), reason="needs Linux's /proc")
def test_a_process_whose_executable_was_deleted_is_told_apart(tmp_path: Path) -> None:
    copy = tmp_path / "sleeper"
    shutil.copy(shutil.which("sleep") or "/bin/sleep", copy)
    child = subprocess.Popen([str(copy), "30"])
    try:
        assert not _install_gone(child.pid)
        copy.unlink()
        assert _install_gone(child.pid)
    finally:
        child.kill()
        child.wait()
    assert not _install_gone(os.getpid())
    assert not _install_gone(2**22 + 7)  # no such process: nothing to tell
