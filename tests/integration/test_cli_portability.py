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


def test_import_as_another_user_copies_the_memory_beside_the_original(
    memory: AgentMemory, settings: Settings, tmp_path: Path
) -> None:
    env = env_of(settings)
    conversation = memory.new_conversation("trip")
    memory.store_turn(conversation, "user", "I'm flying to Lisbon on May 3rd.")
    fact = memory.learn_fact("Alice is allergic to peanuts", about=["Alice"], confidence=0.9, source="user")
    memory.correct_fact(fact.id, "Alice is allergic to cashews")
    memory.put_document("langgraph", ["notes"], "seat", {"text": "window"})
    exported = runner.invoke(app, ["export", "--user", "alice"], env=env)
    assert exported.exit_code == 0, exported.output
    dump = tmp_path / "alice.jsonl"
    dump.write_text(exported.stdout, encoding="utf-8")

    imported = runner.invoke(app, ["import", str(dump), "--user", "erin"], env=env)
    assert imported.exit_code == 0, imported.output
    assert "Imported user 'erin'" in imported.stdout
    erin = memory.for_user("erin")
    copied = erin.list_facts(include_history=True)
    assert sorted(f.claim for f in copied) == ["Alice is allergic to cashews", "Alice is allergic to peanuts"]
    assert not {f.id for f in copied} & {f.id for f in memory.list_facts(include_history=True)}
    current = erin.list_facts()
    assert [f.claim for f in current] == ["Alice is allergic to cashews"]  # the correction chain too
    assert "Lisbon" in erin.remember("when do I fly?", top_k=3).items[0].content
    assert erin.get_document("langgraph", ["notes"], "seat") is not None
    assert [f.claim for f in memory.list_facts()] == ["Alice is allergic to cashews"]  # alice untouched
    assert [t.content for t in memory.get_conversation(conversation)] == ["I'm flying to Lisbon on May 3rd."]

    again = runner.invoke(app, ["import", str(dump), "--user", "erin"], env=env)
    assert again.exit_code == 0, again.output
    assert len(erin.list_facts(include_history=True)) == 2  # nothing written twice
    bad = runner.invoke(app, ["import", str(dump), "--user", "no spaces"], env=env)
    assert bad.exit_code == 2
