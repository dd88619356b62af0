"""``agentx-memory migrate`` through typer's CliRunner, against the session's real servers."""

from __future__ import annotations

from typer.testing import CliRunner

from agentx_memory.cli import app
from agentx_memory.settings import Settings
from agentx_memory.stores.migrations import latest_migration

runner = CliRunner()


def test_migrate_brings_a_store_to_this_version(settings: Settings) -> None:
    env = {
        "AGENTX_POSTGRES__URL": settings.postgres.url or "",
        "AGENTX_POSTGRES__SCHEMA": settings.postgres.schema_name,
        "AGENTX_GRAPH__FALKORDB_URL": settings.graph.falkordb_url or "",
        "AGENTX_GRAPH__NAME": settings.graph.name,
        "AGENTX_REDIS__URL": settings.redis.url or "",
    }
    first = runner.invoke(app, ["migrate"], env=env)
    assert first.exit_code == 0, first.output
    assert f"postgres schema {settings.postgres.schema_name!r}: applied 001_core" in first.stdout
    assert f"falkordb graph {settings.graph.name!r}: schema applied" in first.stdout
    again = runner.invoke(app, ["migrate"], env=env)
    assert again.exit_code == 0, again.output
    assert f"already at version {latest_migration()}" in again.stdout
