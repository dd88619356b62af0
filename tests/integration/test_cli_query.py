"""``agentx-memory recall / context / facts / entity / timeline / stats`` through the real CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from agentx_memory import AgentMemory
from agentx_memory.cli import app
from agentx_memory.settings import Settings
from tests.settings_env import env_of

runner = CliRunner()


@pytest.fixture
def env(memory: AgentMemory, settings: Settings) -> dict[str, str]:
    conversation = memory.new_conversation()
    memory.store_turn(conversation, "user", "My favourite editor is Helix.")
    memory.learn_fact("The user's favourite editor is Helix", confidence=0.9, source="user_stated")
    helix = memory.upsert_entity("Helix", "tool", aliases=["hx"], description="a modal editor")
    rust = memory.upsert_entity("Rust", "concept")
    memory.create_relationship(helix.id, rust.id, "CREATED_BY")
    bob = memory.for_user("bob")
    bob.store_turn(bob.new_conversation(), "user", "Bob's editor is Emacs.")
    return env_of(settings)


def run(env: dict[str, str], *args: str) -> str:
    result = runner.invoke(app, list(args), env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_each_query_answers_for_the_user_as_json_and_as_a_table(env: dict[str, str]) -> None:
    recalled = json.loads(run(env, "recall", "favourite editor", "--user", "alice", "--json"))
    assert any("Helix" in item["content"] for item in recalled)
    assert not any("Emacs" in item["content"] for item in recalled)
    assert "Helix" in run(env, "recall", "favourite editor", "--user", "alice")
    assert "Helix" in json.loads(run(env, "context", "editor", "--user", "alice", "--json"))["context"]
    facts = json.loads(run(env, "facts", "--user", "alice", "--json"))
    assert [fact["claim"] for fact in facts] == ["The user's favourite editor is Helix"]
    assert "Helix" in run(env, "facts", "--user", "alice")
    info = json.loads(run(env, "entity", "hx", "--user", "alice", "--json"))
    assert info["entity"]["name"] == "Helix"
    assert "-[CREATED_BY]->" in run(env, "entity", "Helix", "--user", "alice")
    kinds = [entry["memory_type"] for entry in json.loads(run(env, "timeline", "-u", "alice", "--json"))]
    assert sorted(kinds) == ["entity", "entity", "fact", "turn"]
    only = json.loads(run(env, "timeline", "-u", "alice", "--kind", "turn", "--json"))
    assert [entry["summary"] for entry in only] == ["My favourite editor is Helix."]
    assert "timeline of alice" in run(env, "timeline", "-u", "alice")
    assert json.loads(run(env, "stats", "-u", "alice", "--json"))["current_facts"] == 1
    assert "current facts: 1" in run(env, "stats", "-u", "alice")


def test_another_user_sees_nothing_and_errors_say_what_to_do(env: dict[str, str]) -> None:
    assert json.loads(run(env, "facts", "--user", "carol", "--json")) == []
    empty = runner.invoke(app, ["facts", "--user", "carol"], env=env)
    assert "No facts for user 'carol'" in empty.stderr
    missing = runner.invoke(app, ["entity", "Helix", "--user", "bob"], env=env)
    assert missing.exit_code == 2
    assert "Error:" in missing.stderr
    bad = runner.invoke(app, ["timeline", "-u", "alice", "--kind", "secret"], env=env)
    assert bad.exit_code == 2
    assert "kinds must be" in bad.stderr
    assert runner.invoke(app, ["recall", "", "-u", "alice"], env=env).exit_code == 2


def test_facts_shows_short_ids_and_whole_ones_on_request(memory: AgentMemory, env: dict[str, str]) -> None:
    fact_id = memory.list_facts()[0].id
    narrow = {**env, "COLUMNS": "60"}  # a narrow terminal must not cut a requested id
    assert fact_id not in run(narrow, "facts", "--user", "alice")
    assert fact_id[:8] in run(narrow, "facts", "--user", "alice")
    assert fact_id in run(narrow, "facts", "--user", "alice", "--full-ids")
    assert fact_id in run(narrow, "timeline", "-u", "alice", "--kind", "fact", "--full-ids")


def test_users_lists_every_user_with_counts(memory: AgentMemory, env: dict[str, str]) -> None:
    memory.for_user("dora").put_document("langgraph", ["notes"], "seat", {"text": "window"})
    listed = {user["user_id"]: user for user in json.loads(run(env, "users", "--json"))}
    assert set(listed) == {"alice", "bob", "dora"}
    alice = listed["alice"]
    assert (alice["conversations"], alice["turns"], alice["documents"]) == (1, 1, 0)
    assert alice["memories"] == {"fact": 1, "entity": 2}
    assert listed["dora"]["documents"] == 1  # a LangGraph-store-only user is a user too
    table = run({**env, "COLUMNS": "200"}, "users")
    assert "alice" in table
    assert "dora" in table
