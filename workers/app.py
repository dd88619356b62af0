"""The Celery app, built from :class:`~agentx_memory.settings.Settings` (read once, at the entry point).

Broker and result backend are ``maintenance.broker_url`` or else the Redis already in use (on the
embedded stack, the FalkorDB server, which is a Redis 8). The beat scheduler is RedBeat: its schedule
lives in that Redis and a lock there keeps a second beat from running it twice. Every job in
``agentx_memory.maintenance.jobs.JOBS`` is a task ``agentx.jobs.<name>``, scheduled at its
``MaintenanceSettings`` interval. The tasks are
idempotent and hold the job's own lock, so they are acknowledged late (a worker that dies mid-job
leaves the message to another); the broker's visibility timeout is longer than the job lock.

The pool is threads, not prefork: the jobs wait on the stores (whose clients are pooled and
thread-safe), and one process keeps one set of metrics, which the worker serves on
``maintenance.metrics_port`` (a prefork child's counters would never reach the parent's endpoint);
a thread pool also keeps ``celery inspect ping`` answered while a long job runs.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Any
from urllib.parse import unquote, urlsplit

from celery import Celery, Task, bootsteps
from celery.signals import worker_process_shutdown, worker_shutdown
from prometheus_client import start_http_server

from agentx_memory import AgentMemory
from agentx_memory.embedded import resolve_endpoints
from agentx_memory.errors import StoreUnavailableError
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.maintenance.sizes import memory_size
from agentx_memory.metrics import REGISTRY, size_on_scrape
from agentx_memory.settings import Settings

__all__ = ["TASK_PREFIX", "broker_url", "make_app", "schedule"]

log = logging.getLogger(__name__)

TASK_PREFIX = "agentx.jobs."
#: The root facade's user: a handle only (a job reaches every user through ``for_user``).
_ROOT_USER = "maintenance"
#: Retries of a job that met an unavailable store (a restarting server): exponential, jittered.
_MAX_RETRIES = 5


def broker_url(redis_url: str) -> str:
    """Kombu's spelling of a Redis URL: a unix socket is ``redis+socket://`` (kombu reads
    ``unix://`` as an unknown transport)."""
    parts = urlsplit(redis_url)
    if parts.scheme == "unix":
        return "redis+socket://" + unquote(parts.path)
    return redis_url


def schedule(settings: Settings) -> dict[str, dict[str, Any]]:
    """The beat schedule: each job at its interval (``maintenance.<job>_minutes``)."""
    return {
        name: {
            "task": TASK_PREFIX + name,
            "schedule": timedelta(minutes=job.interval_minutes(settings)),
            "options": {"expires": job.interval_minutes(settings) * 60},
        }
        for name, job in sorted(JOBS.items())
    }


class _Root:
    """One root facade per worker process, opened on first use and closed at process shutdown."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._memory: AgentMemory | None = None
        self._lock = threading.Lock()

    def get(self) -> AgentMemory:
        with self._lock:
            if self._memory is None:
                self._memory = AgentMemory(_ROOT_USER, settings=self._settings).open()
            return self._memory

    def close(self) -> None:
        with self._lock:
            if self._memory is not None:
                self._memory.close()
                self._memory = None


def make_app(settings: Settings) -> Celery:
    """The Celery app for ``settings`` (starts or attaches to the embedded servers if they are used)."""
    redis_url = settings.maintenance.broker_url or resolve_endpoints(settings).redis_url
    broker = broker_url(redis_url)
    prefix = settings.redis.key_prefix
    app = Celery("agentx_memory", broker=broker, backend=broker, set_as_current=False)
    app.conf.update(
        # Deployments (and test schemas) sharing one Redis never take each other's tasks.
        task_default_queue=f"{prefix}.jobs",
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_transport_options={"visibility_timeout": settings.maintenance.lock_seconds + 600},
        result_expires=24 * 3600,
        result_extended=True,
        timezone="UTC",
        beat_schedule=schedule(settings),
        beat_scheduler="redbeat.RedBeatScheduler",
        redbeat_redis_url=redis_url,  # RedBeat talks redis-py, which reads unix:// itself
        redbeat_redis_options={},
        redbeat_key_prefix=f"{prefix}:redbeat",
        redbeat_lock_key=f"{prefix}:redbeat::lock",
        redbeat_lock_timeout=300,
        worker_hijack_root_logger=False,
        worker_pool="threads",
    )
    root = _Root(settings)
    maintenance = settings.maintenance
    app.steps["worker"].add(_metrics_step(root, maintenance.metrics_host, maintenance.metrics_port))
    app.steps["worker"].add(_StartUpJobs)
    # A prefork child closes its facade when it exits; a worker with a threads or solo pool once its
    # pool has drained (worker_shutdown comes after; the signal is process-wide, hence the check).
    worker_process_shutdown.connect(lambda **_: root.close(), weak=False)

    def close(sender: Any, **_: Any) -> None:
        if getattr(sender, "app", None) is app:
            root.close()

    worker_shutdown.connect(close, weak=False)
    for name in JOBS:
        _register(app, root, name)
    return app


def _metrics_step(root: _Root, host: str, port: int) -> type[bootsteps.StartStopStep]:
    """A bootstep of this app's workers (not beat's, not a client's): from start, the metrics on
    ``host:port`` (port 0: off) with the memory size counted by a scrape (once a minute at most); at
    stop, warm or cold, the server stopped and its port freed."""

    class Metrics(bootsteps.StartStopStep):  # type: ignore[misc, unused-ignore]
        server: Any = None

        def start(self, parent: Any) -> None:
            if port:
                size_on_scrape(lambda: memory_size(root.get()._open_backends()))
                # prometheus_client binds every interface by default: the address is always passed
                self.server = start_http_server(port, addr=host, registry=REGISTRY)[0]
                log.info("metrics on http://%s:%d/metrics", host, port)

        def stop(self, parent: Any) -> None:
            if self.server is not None:
                size_on_scrape(None)
                self.server.shutdown()
                self.server.server_close()  # frees the port (shutdown alone leaves it bound)
                self.server = None

        def terminate(self, parent: Any) -> None:
            self.stop(parent)

    return Metrics


class _StartUpJobs(bootsteps.StartStopStep):  # type: ignore[misc, unused-ignore]
    """Jobs queued when a worker starts: seed 003 enforces the session-ledger window on start-up too,
    not only every 6 h (the job's lock keeps workers starting together to one run)."""

    def start(self, parent: Any) -> None:
        parent.app.tasks[TASK_PREFIX + "ledger_retention"].apply_async()


def _register(app: Celery, root: _Root, name: str) -> None:
    @app.task(  # type: ignore[untyped-decorator, unused-ignore]
        name=TASK_PREFIX + name,
        # Not shared with other apps of the process: each app's tasks use its own settings' root.
        shared=False,
        bind=True,
        autoretry_for=(StoreUnavailableError,),
        retry_backoff=True,
        retry_jitter=True,
        max_retries=_MAX_RETRIES,
    )
    def job_task(task: Task, dry_run: bool = False) -> dict[str, Any]:
        report = run_job(root.get(), JOBS[name], dry_run=dry_run)
        log.info("job %s: %s in %.0f ms %s", name, report.status, report.duration_ms, report.counts)
        return report.model_dump(mode="json")
