"""The built wheel is complete: installed alone in a fresh venv, ``agentx-memory demo`` works end to end.

The fresh venv borrows the dependencies of the development venv through a ``.pth`` line naming its
site-packages *directory*: ``site`` adds that directory to ``sys.path`` but does not process the ``.pth``
files inside it, so the editable install of agentx-memory stays invisible and only the wheel is imported.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.long]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(ROOT)])
    (built,) = out.glob("agentx_memory-*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    venv = tmp_path_factory.mktemp("venv") / "fresh"
    # Without pip: the development venv's pip installs into it (``pip --python``), which is much faster.
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    site_packages = Path(
        _run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).strip()
    )
    (site_packages / "_agentx_dev_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)]
    )
    return venv


@pytest.fixture
def data_dir() -> Iterator[Path]:
    # Short on purpose: the FalkorDB unix socket lives under it (sun_path holds 107 bytes).
    directory = Path(tempfile.mkdtemp(prefix="agxw-", dir="/tmp"))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def test_wheel_carries_resources(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()

    def some(prefix: str, suffix: str) -> bool:
        return any(name.startswith(prefix) and name.endswith(suffix) for name in names)

    assert some("agentx_memory/_resources/cypher/", ".cypher"), names
    assert some("agentx_memory/_resources/migrations/", ".sql"), names
    assert some("agentx_memory/stores/sql/", ".sql"), names
    assert "agentx_memory/embedding/data/vocab.txt" in names
    assert "agentx_memory/py.typed" in names
    assert "agentx_memory/demo_data.json" in names
    # the memory inspector's pages and its vendored graph library, with the library's licence
    assert some("agentx_memory/ui/templates/", ".html"), names
    assert "agentx_memory/ui/static/style.css" in names
    assert "agentx_memory/ui/static/vendor/cytoscape/cytoscape.min.js" in names
    assert "agentx_memory/ui/static/vendor/cytoscape/LICENSE" in names
    assert not any(name.startswith(("tests/", "benchmarks/")) for name in names)


def test_demo_runs_from_the_installed_wheel(fresh_venv: Path, data_dir: Path, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("AGENTX_", "PYTHON"))}
    env["AGENTX_DATA_DIR"] = str(data_dir)
    bin_dir = fresh_venv / "bin"

    located = _run(
        [str(bin_dir / "python"), "-c", "import agentx_memory; print(agentx_memory.__file__)"],
        env=env,
        cwd=tmp_path,
    )
    # cwd elsewhere: `python -c` puts the working directory first on sys.path.
    assert Path(located.strip()).is_relative_to(fresh_venv), located

    try:
        demo = subprocess.run(
            [str(bin_dir / "agentx-memory"), "demo"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert demo.returncode == 0, demo.stdout + demo.stderr
        assert f"Starting embedded servers under {data_dir}" in demo.stdout
        assert "Stored 30 turns" in demo.stdout
        assert "peanuts" in demo.stdout
    finally:
        down = subprocess.run(
            [str(bin_dir / "agentx-memory"), "down"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
    assert down.returncode == 0, down.stdout + down.stderr


def _run(command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done.stdout
