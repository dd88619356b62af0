"""The core install stays small: importing agentx_memory pulls in no framework, and an adapter whose
extra is missing says which one to install."""

from __future__ import annotations

import subprocess
import sys

import pytest

ADAPTERS = [
    ("agentx_memory.integrations.langgraph_store", "langgraph", "langgraph"),
    ("agentx_memory.integrations.openai_agents", "agents", "openai-agents"),
]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


def test_core_import_loads_no_framework() -> None:
    code = (
        "import sys, agentx_memory\n"
        "from agentx_memory import AgentMemory, AsyncAgentMemory\n"
        "import agentx_memory.integrations\n"
        "print(sorted(m for m in ('langgraph', 'agents', 'langchain_core') if m in sys.modules))"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("module", "framework", "extra"), ADAPTERS)
def test_missing_extra_names_the_install(module: str, framework: str, extra: str) -> None:
    code = (
        f"import sys\nsys.modules[{framework!r}] = None\n"
        "from agentx_memory.errors import AgentMemoryError\n"
        f"try:\n    import {module}\n"
        "except AgentMemoryError as exc:\n    print(type(exc).__name__, exc)\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MissingExtraError ")
    assert f"pip install '.[{extra}]'" in done.stdout  # from a clone: the package is not on PyPI
    assert "pip install 'agentx-memory[" not in done.stdout
