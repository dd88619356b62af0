"""``agentx-memory doctor [--repair] [--json]`` and ``reset`` through the real CLI entry, real servers."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from agentx_memory import AgentMemory
from agentx_memory.cli import app
from agentx_memory.cli_doctor import EXIT_VIOLATIONS
from agentx_memory.settings import Settings
from agentx_memory.stores import keys
from tests.settings_env import env_of

runner = CliRunner()


def test_doctor_checks_repairs_and_exits_by_what_remains(memory: AgentMemory, settings: Settings) -> None:
    env = env_of(settings)
    conversation = memory.new_conversation()
    memory.store_turn(conversation, "user", "The doctor finds this store healthy.")
    clean = runner.invoke(app, ["doctor"], env=env)
    assert clean.exit_code == 0, clean.output
    assert "No invariant is violated." in clean.stdout

    # carol was forgotten, but a session of hers left a key behind
    carol = memory.for_user("carol")
    carol.store_turn(carol.new_conversation(), "user", "Forget me.")
    carol.forget_user()
    redis = memory._open_backends().redis
    prefix = settings.redis.key_prefix
    redis.set_value(keys.working_key(prefix, "carol", "_global", conversation, "summary"), "left", 600)

    found = runner.invoke(app, ["doctor", "--json"], env=env)
    assert found.exit_code == EXIT_VIOLATIONS, found.output
    report = json.loads(found.stdout)
    stale = {f["name"]: f["violations"] for f in report["findings"] if f["violations"]}
    assert stale == {"redis_keys_of_forgotten_users": 1}
    printed = runner.invoke(app, ["doctor"], env=env)
    assert printed.exit_code == EXIT_VIOLATIONS
    assert "agentx-memory doctor --repair" in printed.stdout

    repaired = runner.invoke(app, ["doctor", "--repair", "--json"], env=env)
    assert repaired.exit_code == 0, repaired.output
    fixed = {f["name"]: f["repaired"] for f in json.loads(repaired.stdout)["findings"] if f["repaired"]}
    assert fixed == {"redis_keys_of_forgotten_users": 1}
    assert runner.invoke(app, ["doctor"], env=env).exit_code == 0
    status = json.loads(runner.invoke(app, ["jobs", "status", "--json"], env=env).stdout)
    assert status["doctor"]["dry_run"] is True  # the last run: a check


def test_reset_asks_then_deletes_every_memory(memory: AgentMemory, settings: Settings) -> None:
    env = env_of(settings)
    memory.store_turn(memory.new_conversation(), "user", "Reset deletes this.")
    declined = runner.invoke(app, ["reset"], env=env, input="n\n")
    assert declined.exit_code == 1
    assert "Nothing deleted." in declined.stderr
    assert memory.get_recent_turns()
    done = runner.invoke(app, ["reset"], env=env, input="y\n")
    assert done.exit_code == 0, done.output
    assert f"postgres schema {settings.postgres.schema_name!r}: dropped" in done.stdout
    with AgentMemory("alice", settings=settings) as fresh:  # migrates afresh
        assert fresh.get_recent_turns() == []


def test_doctor_after_forget_user_reports_pending_compaction_and_exits_0(
    memory: AgentMemory, settings: Settings
) -> None:
    """Ordinary use: a user with facts and entities is forgotten. On FalkorDB each deleted vector node
    leaves a stale index entry until vector_compaction runs; that is the job's pending work, not a
    violation, so doctor says so and exits 0 (it reported them as violations and exited 1)."""
    env = env_of(settings)
    dana = memory.for_user("dana")
    dana.store_turn(dana.new_conversation(), "user", "I live in Lisbon and work at Acme.")
    for claim in ("Dana lives in Lisbon", "Dana works at Acme", "Dana is allergic to cats"):
        dana.learn_fact(claim, about=["Dana"], confidence=0.9, source="user")
    dana.forget_user()

    checked = runner.invoke(app, ["doctor", "--json"], env=env)
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.stdout)
    bloat = next(f for f in report["findings"] if f["name"] == "vector_index_bloat")
    assert bloat["pending"] is True
    assert bloat["violations"] > 0  # the forgotten facts' and entity's stale entries, counted
    assert {f["name"] for f in report["findings"] if f["violations"] and not f["pending"]} == set()
    printed = runner.invoke(app, ["doctor"], env={**env, "COLUMNS": "200"})
    assert printed.exit_code == 0, printed.output
    assert "Pending, not a violation: vector_index_bloat" in printed.stdout
    assert "No invariant is violated." in printed.stdout
    assert "violations." not in printed.stdout
    repaired = runner.invoke(app, ["doctor", "--repair", "--json"], env=env)
    assert repaired.exit_code == 0, repaired.output
    again = json.loads(runner.invoke(app, ["doctor", "--json"], env=env).stdout)
    assert all(f["violations"] == 0 for f in again["findings"])
