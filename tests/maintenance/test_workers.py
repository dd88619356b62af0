"""Celery on the real embedded Redis: a worker in a thread runs a job task end to end; the beat schedule
comes from the settings; RedBeat keeps its schedule in that Redis and a second beat waits on its lock."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from datetime import timedelta
from types import SimpleNamespace

import pytest
from celery.contrib.testing.worker import start_worker
from redbeat.schedulers import RedBeatScheduler, acquire_distributed_beat_lock, get_redis

from agentx_memory import AgentMemory
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import last_runs
from agentx_memory.settings import Settings
from tests.settings_env import env_of
from workers import broker_url, make_app, schedule

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)


@pytest.fixture(params=["sync"])
def flavour(request: pytest.FixtureRequest) -> str:
    """The sync facade only: these tests' subject is the Celery worker (in a thread or a process), which
    opens its own sync facade from ``settings`` whatever the test's flavour; ``memory`` here only migrates
    the namespace and reads the recorded runs. The async flavour ran each worker a second time (~10 s of
    the suite for the same checks); the facade's reads themselves run in both flavours in test_runner.py."""
    chosen: str = request.param
    return chosen


def test_broker_url_speaks_kombu() -> None:
    assert broker_url("unix:///tmp/agx-1/falkordb.sock") == "redis+socket:///tmp/agx-1/falkordb.sock"
    assert broker_url("redis://cache:6379/0") == "redis://cache:6379/0"


def test_the_schedule_has_every_job_at_its_interval(settings: Settings) -> None:
    tuned = settings.model_copy(
        update={"maintenance": settings.maintenance.model_copy(update={"consolidate_minutes": 5})}
    )
    entries = schedule(tuned)
    assert set(entries) == set(JOBS)
    assert entries["consolidate"]["schedule"] == timedelta(minutes=5)
    assert entries["audit_partitions"]["schedule"] == timedelta(days=1)
    assert all(entry["task"] == f"agentx.jobs.{name}" for name, entry in entries.items())


def test_a_worker_runs_a_job_task_end_to_end(memory: AgentMemory, settings: Settings) -> None:
    memory.memory_stats()  # the store is migrated before the worker's own facade opens it
    app = make_app(settings)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        report = app.send_task("agentx.jobs.audit_partitions", kwargs={"dry_run": True}).get(timeout=60)
        deadline = time.monotonic() + 60
        while "ledger_retention" not in last_runs(memory) and time.monotonic() < deadline:
            time.sleep(0.2)  # queued when the worker became ready (seed 003: on start-up too)
    assert last_runs(memory)["ledger_retention"].status == "done"
    assert (report["job"], report["status"], report["dry_run"]) == ("audit_partitions", "done", True), report[
        "error"
    ]
    assert last_runs(memory)["audit_partitions"].dry_run


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_the_worker_serves_its_metrics_and_frees_the_port(memory: AgentMemory, settings: Settings) -> None:
    """The production worker's pool (threads) keeps the jobs' metrics in the process that serves them;
    the memory size is counted by the scrape itself."""
    memory.store_turn(memory.new_conversation(), "user", "The worker's scrape counts this turn.")
    port = _free_port()
    served = settings.model_copy(
        update={"maintenance": settings.maintenance.model_copy(update={"metrics_port": port})}
    )
    app = make_app(served)
    assert app.conf.worker_pool == "threads"
    with start_worker(app, pool="threads", perform_ping_check=False, shutdown_timeout=30):
        report = app.send_task("agentx.jobs.audit_partitions").get(timeout=60)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
            page = response.read().decode()
        # bound where it says (loopback), not on every interface: another address of the host
        # (127.0.0.2 is one on Linux) finds nothing listening
        with socket.socket() as other:
            other.settimeout(5)
            with pytest.raises(ConnectionRefusedError):
                other.connect(("127.0.0.2", port))
    assert report["status"] == "done", report["error"]
    assert 'agentx_job_runs_total{job="audit_partitions",status="done"}' in page
    assert 'agentx_memory_nodes{label="Turn"} 1.0' in page
    assert 'agentx_memory_rows{table="conversation_logs"}' in page
    assert "\nagentx_redis_keys " in page
    with socket.socket() as again:
        # The scrape's connection may linger in TIME_WAIT; only a listener left behind refuses this.
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        again.bind(("127.0.0.1", port))  # the worker's shutdown stopped the server
        again.listen()


def test_redbeat_keeps_the_schedule_in_redis_and_one_beat_holds_the_lock(
    memory: AgentMemory, settings: Settings
) -> None:
    app = make_app(settings)
    first = RedBeatScheduler(app=app)
    client = get_redis(app)
    prefix = app.conf.redbeat_key_prefix
    stored = {key.decode() if isinstance(key, bytes) else key for key in client.keys(f"{prefix}*")}
    assert {f"{prefix}{name}" for name in JOBS} <= stored
    acquire_distributed_beat_lock(sender=SimpleNamespace(scheduler=first))
    assert first.lock is not None
    second = RedBeatScheduler(app=app)
    waiting = threading.Thread(
        target=acquire_distributed_beat_lock,
        kwargs={"sender": SimpleNamespace(scheduler=second)},
        daemon=True,
    )
    waiting.start()
    waiting.join(timeout=1.5)
    assert waiting.is_alive()  # the second beat waits for the lock
    assert second.lock is None
    first.lock.release()  # the waiting beat retries every beat_max_loop_interval and takes over then


def test_agentx_memory_worker_runs_the_schedule(memory: AgentMemory, settings: Settings) -> None:
    """The CLI's worker with its embedded beat, as a user starts it: a job whose interval is a second
    runs without being asked; the run is recorded; the process stops on SIGTERM."""
    memory.memory_stats()
    env = {**os.environ, **env_of(settings), "AGENTX_MAINTENANCE__AUDIT_PARTITIONS_MINUTES": "0.02"}
    command = [sys.executable, "-m", "agentx_memory.cli", "worker", "--loglevel", "WARNING"]
    with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as process:
        try:
            deadline = time.monotonic() + 60
            while "audit_partitions" not in last_runs(memory) and time.monotonic() < deadline:
                assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
                time.sleep(0.1)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
    run = last_runs(memory)["audit_partitions"]
    assert (run.status, run.dry_run) == ("done", False)
