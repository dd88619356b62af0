"""The memory inspector: ``agentx-memory ui`` serves a user's memory as web pages on this machine.

Users, a user's profile, facts with their history and provenance (correct, forget, undo), entities
drawn as a graph, conversations on a timeline, a recall debugger, the review queue, jobs and doctor.
Every write is a call of the public :class:`~agentx_memory.AsyncAgentMemory` API. Needs the ``[ui]``
extra (Starlette, Jinja2, uvicorn); the core never imports this package.
"""

from __future__ import annotations

from .app import create_app, serve
from .security import check_bind, is_loopback

__all__ = ["check_bind", "create_app", "is_loopback", "serve"]
