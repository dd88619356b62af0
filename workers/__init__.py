"""Celery for agentx-memory: the app, the beat schedule and thin task wrappers over
``agentx_memory.maintenance`` (DESIGN §2: ``workers/``). Start it with ``agentx-memory worker``, or
``celery -A workers.app worker -B`` where the settings come from ``AGENTX_*``."""

from .app import broker_url, make_app, schedule

__all__ = ["broker_url", "make_app", "schedule"]
