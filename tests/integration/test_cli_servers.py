"""``agentx-memory up / status / down`` through typer's CliRunner, against real embedded servers."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agentx_memory.cli import app
from agentx_memory.embedded import status, stop
from agentx_memory.settings import Settings

runner = CliRunner()


@pytest.fixture
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("cli")
    try:
        yield path
    finally:
        stop(Settings(data_dir=path))


def test_up_status_down(data_dir: Path) -> None:
    args = ["--data-dir", str(data_dir)]

    before = runner.invoke(app, [*args, "status"])
    assert before.exit_code == 1, before.output
    assert "stopped" in before.stdout
    assert "agentx-memory up" in before.stdout

    up = runner.invoke(app, [*args, "up"])
    assert up.exit_code == 0, up.output
    assert up.stdout.count("started") == 2
    assert f"unix://{data_dir}/falkordb/falkordb.sock" in up.stdout
    assert f"postgresql://postgres@/postgres?host={data_dir}/postgres" in up.stdout
    pids = status(Settings(data_dir=data_dir))

    again = runner.invoke(app, [*args, "up"])
    assert again.exit_code == 0, again.output
    assert again.stdout.count("attached") == 2
    assert f"pid {pids.falkordb.pid}" in again.stdout

    running = runner.invoke(app, [*args, "status"])
    assert running.exit_code == 0, running.output
    assert running.stdout.count("running") >= 2
    assert "Both embedded servers are running." in running.stdout

    down = runner.invoke(app, [*args, "down"])
    assert down.exit_code == 0, down.output
    assert f"Stopped FalkorDB (pid {pids.falkordb.pid})" in down.stdout
    assert f"Stopped PostgreSQL (pid {pids.postgres.pid})" in down.stdout

    down_again = runner.invoke(app, [*args, "down"])
    assert down_again.exit_code == 0, down_again.output
    assert "Nothing was running" in down_again.stdout

    after = runner.invoke(app, [*args, "status"])
    assert after.exit_code == 1
    assert "Not running: FalkorDB, PostgreSQL" in after.stdout


def test_data_dir_comes_from_the_environment_without_the_option(data_dir: Path) -> None:
    result = runner.invoke(app, ["up"], env={"AGENTX_DATA_DIR": str(data_dir)})
    assert result.exit_code == 0, result.output
    assert status(Settings(data_dir=data_dir)).all_running


def test_start_failure_is_a_red_message_and_exit_code_2(data_dir: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {"AGENTX_EMBEDDED__FALKORDB_TCP_PORT": str(port)}
        result = runner.invoke(app, ["--data-dir", str(data_dir), "up"], env=env)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: The embedded FalkorDB server did not start")
    assert "Address already in use" in result.stderr
    assert "Traceback" not in result.output


def test_invalid_settings_are_reported_not_raised(data_dir: Path) -> None:
    result = runner.invoke(
        app, ["--data-dir", str(data_dir), "status"], env={"AGENTX_EMBEDDED__START_TIMEOUT_S": "-1"}
    )
    assert result.exit_code == 2
    assert "Invalid AGENTX_* settings" in result.stderr
    assert "start_timeout_s" in result.stderr


def test_help_lists_the_server_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("up", "down", "status", "demo"):
        assert command in result.stdout
