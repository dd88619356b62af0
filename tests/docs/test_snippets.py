"""Every ```python block of the README and the docs pages runs as pasted, each in its own interpreter,
against the test's embedded servers (``AGENTX_*`` from the ``settings`` fixture: a fresh schema, graph and
key prefix). Blocks marked ``<!-- no-test: reason -->`` say why they cannot run here; the README's named
sections run in ``tests/integrations/test_readme_snippets.py``, which checks their output too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentx_memory import Settings
from tests.docs.snippets import README, ROOT, Block, all_blocks, pages, run_as_pasted

pytestmark = pytest.mark.long  # one interpreter per block: xdist hands the file out first

BLOCKS = all_blocks()
PLAIN = [block for block in BLOCKS if block.section is None and block.skip_reason is None]
NAMED_TESTS = ROOT / "tests" / "integrations" / "test_readme_snippets.py"


@pytest.mark.parametrize("block", PLAIN, ids=lambda block: block.id)
def test_block_runs(block: Block, settings: Settings, tmp_path: Path) -> None:
    run_as_pasted(block.code, block.id, settings, tmp_path)


def test_blocks_are_found_and_few_are_skipped() -> None:
    assert len(PLAIN) >= 8, [block.id for block in BLOCKS]
    skipped = [block for block in BLOCKS if block.skip_reason is not None]
    assert all(len(block.skip_reason or "") >= 10 for block in skipped), "say why a block cannot run"
    assert len(skipped) <= 3, [block.id for block in skipped]


def test_every_named_section_has_its_test() -> None:
    sections = {block.section for block in BLOCKS if block.section is not None}
    assert sections == {"use-it", "langgraph", "openai-agents"}
    tests = NAMED_TESTS.read_text()
    for section in sections:
        assert f'"{section}"' in tests, f"no test runs the README section {section!r}"


def test_readme_is_a_landing_page() -> None:
    assert len(README.read_text().splitlines()) <= 250


def test_readme_links_resolve() -> None:
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text()):
        if not re.match(r"[a-z]+:", target):
            assert (ROOT / target).exists(), target


def test_install_says_how_it_really_works() -> None:
    """agentx-memory is not on the package index: every page installs from a clone or a built wheel."""
    for page in pages():
        text = page.read_text()
        assert not re.search(r"pip install ['\"]?agentx-memory", text), page
    readme = README.read_text()
    assert 'pip install ".[mcp]"' in readme
    assert "dist/agentx_memory-" in readme  # the built wheel
