"""An OpenAI Agents SDK ``Session`` over agentx-memory: ``AgentMemorySession(session_id, memory)``.

Each item the SDK adds is kept twice, for two readers:

- **exactly**, as a document (``space="openai-agents"``, namespace ``("session", session_id)``): what
  ``get_items`` returns is what ``add_items`` was given, in order, whatever its type (messages, tool
  calls, reasoning items, …), with no size limit but Postgres's;
- **as long-term memory**, when it is a message with text: a turn of the session's conversation
  (episodic memory in the ledger and the graph, and the conversation's working memory in Redis), so
  ``remember`` recalls it in later sessions and consolidation learns from it. Its document key is the
  turn id (``turn:<uuid>``); items without text (tool calls and outputs, reasoning) stay session-only
  (``item:<uuid>``). A turn keeps at most ``limits.max_content_chars`` of the text, and no NUL
  character (a turn's text column takes none); the document keeps the item whole, NULs included.

``pop_item`` removes the newest item and forgets its turn everywhere (the SDK pops to rewind a retried
input: a popped message must not stay recallable); ``clear_session`` forgets the session's conversation
and its items. The session's conversation is created on the first ``add_items`` and found again by
any later ``AgentMemorySession`` with the same id (a document maps the session id to it). The user and
channel are the facade's: another user's session of the same id is a different session.

Semantics match the SDK's ``SQLiteSession`` (the differential test's oracle): ``get_items(limit)`` gives
the latest ``limit`` items in order (``limit`` None → ``session_settings.limit`` → all; 0 → none;
negative → all), ``pop_item`` on an empty session gives ``None``. Like it, one session may be used from
any event loop and any thread (``Runner.run_sync`` runs each turn in a new loop): every method runs on
the memory's own loop (``AsyncAgentMemory.home``), and the writes of one session take turns, so the
items of one ``add_items`` stay together and a session's first writes start one conversation, not one
each. ``close()`` ends the session (later calls raise :class:`~agentx_memory.errors.ClosedError`, a
``RuntimeError`` as the SDK's closed sessions raise) and closes the memory too when the session owns it
(``owns_memory=True``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import Mapping
from typing import Any, cast

from .._compat.home import HomeLoop, homed
from ..errors import ClosedError, GraphSyncError, InvalidInputError, NotFoundError
from ..facade_async import AsyncAgentMemory
from ..memory.documents_pure import validate_document_value
from ..models import Role, Turn
from . import MissingExtraError

try:
    from agents.items import TResponseInputItem
    from agents.memory.session_settings import (
        SessionSettings,
        coerce_session_settings,
        resolve_session_limit,
    )
except ImportError as exc:  # pragma: no cover - exercised by the missing-extra test in a subprocess
    raise MissingExtraError("openai-agents", "agentx_memory.integrations.openai_agents") from exc

__all__ = ["SPACE", "AgentMemorySession", "item_text"]

#: The document space of Agents SDK sessions (a LangGraph store never lists these).
SPACE = "openai-agents"
_SESSIONS = ("sessions",)
#: The one key under which an earlier version stored an item that held a NUL character, as JSON text
#: (document values then refused one; the ``json`` column keeps one now); no Responses item has it.
_ENCODED = "agentx:json"
_ROLES: Mapping[str, Role] = {
    "user": "user",
    "assistant": "assistant",
    "system": "system",
    "developer": "system",
}


def item_text(item: Mapping[str, Any]) -> tuple[Role, str] | None:
    """The role and text of a message item (``content`` a string or a list of text parts), or ``None``
    for an item without text (tool calls and outputs, reasoning, …)."""
    role = _ROLES.get(str(item.get("role")))
    if role is None or item.get("type", "message") != "message":
        return None
    content = item.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        parts = [part.get("text") for part in content if isinstance(part, Mapping)]
        text = "\n".join(part for part in parts if isinstance(part, str) and part)
    else:
        return None
    text = text.replace("\x00", "")  # a turn's text takes none; the item's document keeps it
    return (role, text) if text.strip() else None


@homed
class AgentMemorySession:
    """The Agents SDK's ``Session`` protocol (``agents.memory.Session``, which third-party sessions
    implement rather than subclassing ``SessionABC``), backed by an
    :class:`~agentx_memory.AsyncAgentMemory`."""

    session_id: str
    session_settings: SessionSettings | None

    def __init__(
        self,
        session_id: str,
        memory: AsyncAgentMemory,
        *,
        session_settings: SessionSettings | dict[str, Any] | None = None,
        title: str | None = None,
        owns_memory: bool = False,
    ) -> None:
        if not isinstance(memory, AsyncAgentMemory):
            # The SDK awaits every session method: a sync facade would fail later, in an await,
            # with a message that names neither class.
            raise InvalidInputError(
                f"AgentMemorySession needs the async facade AsyncAgentMemory, not {type(memory).__name__}: "
                "`async with AsyncAgentMemory(user_id) as memory: AgentMemorySession(session_id, memory)`"
            )
        self.session_id = session_id
        self.memory = memory
        self.owns_memory = owns_memory
        self.session_settings = (
            coerce_session_settings(session_settings) if session_settings is not None else SessionSettings()
        )
        self._title = title
        self._namespace = ("session", session_id)
        self._conversation_id: str | None = None
        # Used only on the memory's loop (every method runs there), so one asyncio lock serves callers
        # on any loop and thread.
        self._writing = asyncio.Lock()
        self._closed = False

    @property
    def home(self) -> HomeLoop:
        """The loop the session's methods run on: its memory's."""
        return self.memory.home

    def _check_open(self) -> None:
        if self._closed:
            raise ClosedError(f"session {self.session_id!r} is closed")

    async def close(self) -> None:
        """End the session: later calls raise :class:`ClosedError`; a write in progress finishes first.
        The memory is closed too when the session owns it (``owns_memory=True``). Idempotent."""
        await self.home.run(self._close_at_home())
        if self.owns_memory:
            await self.memory.close()

    async def _close_at_home(self) -> None:
        async with self._writing:
            self._closed = True

    async def conversation_id(self) -> str | None:
        """The id of the conversation holding this session's turns (``None`` before the first)."""
        if self._conversation_id is None:
            found = await self.memory.get_document(SPACE, _SESSIONS, self.session_id)
            if found is not None:
                self._conversation_id = str(found.value["conversation_id"])
        return self._conversation_id

    async def _conversation(self) -> str:
        cid = await self.conversation_id()
        if cid is None:
            title = self._title or f"agents session {self.session_id}"
            cid = await self.memory.new_conversation(title, {"agents_session": self.session_id})
            await self.memory.put_document(SPACE, _SESSIONS, self.session_id, {"conversation_id": cid})
            self._conversation_id = cid
        return cid

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        self._check_open()
        chosen = resolve_session_limit(limit, self.session_settings)
        documents = await self.memory.scan_documents(SPACE, self._namespace)
        items = [cast("TResponseInputItem", _decoded(document.value)) for document in documents]
        if chosen is None or chosen < 0:
            return items
        return items[-chosen:] if chosen else []

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        async with self._writing:
            self._check_open()
            await self._add(items)

    async def _add(self, items: list[TResponseInputItem]) -> None:
        for item in items:
            value = cast("Mapping[str, Any]", item)
            # Checked before its turn is stored, so that an item no store takes leaves nothing behind.
            stored = validate_document_value(value)
            message = item_text(value)
            key = f"item:{uuid.uuid4()}" if message is None else f"turn:{await self._store_turn(*message)}"
            await self.memory.put_document(SPACE, self._namespace, key, stored)

    async def _store_turn(self, role: Role, text: str) -> str:
        content = text[: self.memory.settings.limits.max_content_chars]
        metadata = {"agents_session": self.session_id}
        try:
            try:
                turn = await self.memory.store_turn(
                    await self._conversation(), role, content, metadata=metadata
                )
            except NotFoundError:  # its conversation was forgotten by hand: the session's turns start anew
                await self.memory.delete_document(SPACE, _SESSIONS, self.session_id)
                self._conversation_id = None
                turn = await self.memory.store_turn(
                    await self._conversation(), role, content, metadata=metadata
                )
        except GraphSyncError as exc:  # durable in the ledger; the reconcile job replays the graph write
            turn = cast("Turn", exc.turn)
        return turn.id

    async def pop_item(self) -> TResponseInputItem | None:
        async with self._writing:
            self._check_open()
            return await self._pop()

    async def _pop(self) -> TResponseInputItem | None:
        documents = await self.memory.scan_documents(SPACE, self._namespace)
        if not documents:
            return None
        newest = documents[-1]
        await self.memory.delete_document(SPACE, self._namespace, newest.key)
        if newest.key.startswith("turn:"):
            with contextlib.suppress(NotFoundError):  # already forgotten (a retried pop)
                await self.memory.forget_turn(newest.key.removeprefix("turn:"))
        return cast("TResponseInputItem", _decoded(newest.value))

    async def clear_session(self) -> None:
        async with self._writing:
            self._check_open()
            await self._clear()

    async def _clear(self) -> None:
        cid = await self.conversation_id()
        await self.memory.delete_document_namespace(SPACE, self._namespace)
        if cid is not None:
            with contextlib.suppress(NotFoundError):  # already forgotten by hand
                await self.memory.forget_conversation(cid)
            await self.memory.delete_document(SPACE, _SESSIONS, self.session_id)
        self._conversation_id = None


def _decoded(value: Mapping[str, Any]) -> Mapping[str, Any]:
    if len(value) == 1 and isinstance(value.get(_ENCODED), str):
        decoded: Mapping[str, Any] = json.loads(value[_ENCODED])
        return decoded
    return value
