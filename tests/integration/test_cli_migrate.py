"""``agentx-memory migrate`` through typer's CliRunner, against the session's real servers."""

from __future__ import annotations

from typer.testing import CliRunner

from agentx_memory.cli import app
from agentx_memory.settings import Settings
from agentx_memory.stores.migrations import latest_migration
from tests.settings_env import env_of

runner = CliRunner()


def test_migrate_brings_a_store_to_this_version(settings: Settings) -> None:
    env = env_of(settings)
    first = runner.invoke(app, ["migrate"], env=env)
    assert first.exit_code == 0, first.output
    assert f"postgres schema {settings.postgres.schema_name!r}: applied 001_core" in first.stdout
    assert f"falkordb graph {settings.graph.name!r}: schema applied" in first.stdout
    again = runner.invoke(app, ["migrate"], env=env)
    assert again.exit_code == 0, again.output
    assert f"already at version {latest_migration()}" in again.stdout
