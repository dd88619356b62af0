"""``agentx-memory jobs list | run | status`` and ``metrics`` through typer's CliRunner, real servers."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from typer.testing import CliRunner

from agentx_memory import AgentMemory
from agentx_memory.cli import app
from agentx_memory.cli_jobs import EXIT_LOCKED
from agentx_memory.cli_support import human_duration
from agentx_memory.maintenance.base import fold_partitions
from agentx_memory.settings import Settings
from agentx_memory.stores import keys
from tests.settings_env import env_of

runner = CliRunner()


def _env(settings: Settings) -> dict[str, str]:
    return env_of(settings)


def test_list_run_and_status(memory: AgentMemory, settings: Settings) -> None:
    env = _env(settings)
    listed = runner.invoke(app, ["jobs", "list"], env=env)
    assert listed.exit_code == 0, listed.output
    assert "audit_partitions" in listed.stdout
    assert "15 min" in listed.stdout  # consolidate's interval, from the settings
    dry = runner.invoke(app, ["jobs", "run", "audit_partitions", "--dry-run", "--json"], env=env)
    assert dry.exit_code == 0, dry.output
    report = json.loads(dry.stdout)
    assert (report["job"], report["status"], report["dry_run"]) == ("audit_partitions", "done", True)
    status = runner.invoke(app, ["jobs", "status", "--json"], env=env)
    assert json.loads(status.stdout)["audit_partitions"]["dry_run"] is True
    assert "consolidate" not in json.loads(status.stdout)  # never ran


def test_an_unknown_job_and_a_held_lock(memory: AgentMemory, settings: Settings) -> None:
    env = _env(settings)
    unknown = runner.invoke(app, ["jobs", "run", "nope"], env=env)
    assert unknown.exit_code == 2
    assert "unknown job 'nope': the jobs are audit_partitions, backfill, cleanup" in unknown.stderr
    backends = memory._open_backends()
    assert backends.redis.acquire(keys.job_lock(settings.redis.key_prefix, "consolidate"), "other", 60)
    locked = runner.invoke(app, ["jobs", "run", "consolidate"], env=env)
    assert locked.exit_code == EXIT_LOCKED, locked.output


def test_metrics_report_the_memory_size(memory: AgentMemory, settings: Settings) -> None:
    memory.store_turn(memory.new_conversation(), "user", "The metrics count this turn.")
    printed = runner.invoke(app, ["metrics"], env=_env(settings))
    assert printed.exit_code == 0, printed.output
    assert 'agentx_memory_nodes{label="Turn"} 1.0' in printed.stdout
    assert 'agentx_memory_relationships{type="HAS_TURN"} 1.0' in printed.stdout
    assert 'agentx_memory_rows{table="memory_audit_log"}' in printed.stdout
    keys = [line for line in printed.stdout.splitlines() if line.startswith("agentx_redis_keys ")]
    assert len(keys) == 1
    assert float(keys[0].split()[1]) >= 1  # at least the graph's own key


def test_partitions_count_in_their_table() -> None:
    folded = fold_partitions({"memory_audit_log_20261125": 3, "memory_audit_log_20261126": 2, "turns": 4})
    assert folded == {"memory_audit_log": 5, "turns": 4}


def test_status_shows_the_consolidation_lag_in_human_units(memory: AgentMemory, settings: Settings) -> None:
    env = _env(settings)
    conversation = memory.new_conversation()
    said = datetime.now(UTC) - timedelta(days=3, hours=19)
    memory.store_turn(conversation, "user", "I moved to Porto last spring.", timestamp=said)
    ran = runner.invoke(app, ["jobs", "run", "consolidate"], env=env)
    assert ran.exit_code == 0, ran.output
    status = runner.invoke(app, ["jobs", "status"], env={**env, "COLUMNS": "250"})
    assert status.exit_code == 0, status.output
    assert "lag median 3d 19h, max 3d 19h" in status.stdout
    assert "329" not in status.stdout  # not a count of seconds


def test_durations_read_in_two_units_at_most() -> None:
    assert [human_duration(s) for s in (None, 0.4, 12, 302, 11_100, 329_220.775)] == [
        "-",
        "0.4s",
        "12s",
        "5m 02s",
        "3h 05m",
        "3d 19h",
    ]
