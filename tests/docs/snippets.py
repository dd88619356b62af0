"""The fenced Python blocks of the README and the docs pages, with what marks them.

A block is one of:
- **named**: inside ``<!-- --8<-- [start:name] -->`` … ``[end:name]`` (README sections that docs pages
  include with pymdownx.snippets); its own test in ``tests/integrations/test_readme_snippets.py`` runs it
  and checks its output;
- **skipped**: right after ``<!-- no-test: reason -->`` (an API key, a long-running server);
- **plain**: everything else; ``tests/docs/test_snippets.py`` runs it as pasted.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from agentx_memory import Settings
from tests.settings_env import env_of

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"

_FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
_SECTION = re.compile(r"--8<-- \[(start|end):([a-z][-_0-9a-z]*)\]")
_NO_TEST = re.compile(r"<!--\s*no-test:\s*(.+?)\s*-->\s*\Z", re.S)


@dataclass(frozen=True)
class Block:
    """One ```python block: where it is, its code, and how the suite treats it."""

    path: Path
    line: int
    code: str
    section: str | None
    skip_reason: str | None

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    """README.md and every Markdown page under docs/, in a stable order."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    text = path.read_text()
    found = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()]
        open_sections: list[str] = []
        for kind, name in _SECTION.findall(before):
            if kind == "start":
                open_sections.append(name)
            elif name in open_sections:
                open_sections.remove(name)
        reason = _NO_TEST.search(before)
        found.append(
            Block(
                path=path,
                line=before.count("\n") + 1,
                code=match.group(1),
                section=open_sections[-1] if open_sections else None,
                skip_reason=reason.group(1) if reason else None,
            )
        )
    return found


def all_blocks() -> list[Block]:
    return [block for page in pages() for block in blocks(page)]


def named(section: str) -> str:
    """The code of the README block inside the snippet section ``section``."""
    matches = [block for block in blocks(README) if block.section == section]
    assert len(matches) == 1, f"README has {len(matches)} python blocks in section {section!r}"
    return matches[0].code


def run_as_pasted(code: str, label: str, settings: Settings, tmp_path: Path, **extra_env: str) -> list[str]:
    """Run ``code`` as a reader would paste it into a file, in a fresh interpreter pointed at the test's
    stores (``AGENTX_*``); its stdout lines. ``label`` names the failure."""
    script = tmp_path / "docs_block.py"  # not a package's name: the block's imports stay the real ones
    script.write_text(code)
    env = {
        **os.environ,
        **env_of(settings),
        "AGENTX_DATA_DIR": str(settings.data_dir),
        # the background learner would outlive the block's process; blocks that learn say so
        "AGENTX_LEARNING__AUTO_CONSOLIDATE": "false",
        **extra_env,
    }
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, f"{label} failed:\n{done.stderr[-4000:]}"
    return done.stdout.splitlines()
