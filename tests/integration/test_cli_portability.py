"""``agentx-memory export`` / ``import`` through the real CLI entry and the real servers."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from agentx_memory import AgentMemory
from agentx_memory.cli import app
from agentx_memory.settings import Settings
from tests.settings_env import env_of

runner = CliRunner()


def test_export_then_import_restores_a_forgotten_user(
    memory: AgentMemory, settings: Settings, tmp_path: Path
) -> None:
    env = env_of(settings)
    conversation = memory.new_conversation()
    memory.store_turn(conversation, "user", "The export keeps this turn.", metadata={"topic": "cli"})
    memory.learn_fact("The user exports memories", confidence=0.9, source="user_stated")

    exported = runner.invoke(app, ["export", "--user", "alice", "--no-embeddings"], env=env)
    assert exported.exit_code == 0, exported.output
    lines = exported.stdout.splitlines()
    assert json.loads(lines[0])["type"] == "header"
    dump = tmp_path / "dump.jsonl"
    dump.write_text(exported.stdout, encoding="utf-8")

    memory.forget_user()
    imported = runner.invoke(app, ["import", str(dump)], env=env)
    assert imported.exit_code == 0, imported.output
    assert "Imported user 'alice'" in imported.stdout
    assert [turn.content for turn in memory.get_conversation(conversation)] == ["The export keeps this turn."]
    assert [fact.claim for fact in memory.list_facts()] == ["The user exports memories"]

    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n{not json\n", encoding="utf-8")
    refused = runner.invoke(app, ["import", str(bad)], env=env)
    assert refused.exit_code == 2
    assert "bad.jsonl:2 is not JSON" in refused.stderr
    missing = runner.invoke(app, ["import", str(tmp_path / "none.jsonl")], env=env)
    assert missing.exit_code == 2
    assert "cannot read" in missing.stderr
