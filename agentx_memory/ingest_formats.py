"""What ``agentx-memory ingest`` reads, as plain functions (no I/O): JSONL of turns and the LoCoMo format,
each turned into conversations of checked :class:`TurnSpec` with fixed indexes, so an import that runs
again stores nothing twice.

A JSONL line is one turn: ``role`` and ``content``, optional ``conversation_id`` (a UUID, or any name
for the conversation), ``title``, ``timestamp`` (ISO 8601, or epoch seconds), ``metadata`` (an
object), ``speaker`` and ``turn_index`` (default: the turn's position in its conversation in the file).
Lines without a conversation belong to one conversation named after the file. LoCoMo: a list of
samples ``{"sample_id", "conversation": {"speaker_a", "speaker_b", "session_N": [turns],
"session_N_date_time": "1:56 pm on 8 May, 2023"}}``; each session becomes a conversation, the turns
one second apart from the session's time, ``speaker_a`` as the user. Every error names the line (or
sample and session) and what to change; nothing is stored unless the whole file reads.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from .errors import AgentMemoryError, InvalidInputError
from .memory.turn_batch import check_turns
from .models import TurnSpec
from .settings import LimitSettings

__all__ = ["FORMATS", "IngestConversation", "conversation_uuid", "read_jsonl", "read_locomo"]

FORMATS: Final = ("jsonl", "locomo")
_JSONL_FIELDS: Final = (
    "conversation_id", "title", "role", "content", "timestamp", "metadata", "speaker", "turn_index",
)  # fmt: skip
_TURN_FIELDS: Final = ("role", "content", "timestamp", "metadata", "speaker", "turn_index")
_NAMESPACE: Final = uuid.UUID("5b0f1a52-8f0e-4a51-9d0e-0a9d3c6f1e21")
_LOCOMO_TIME: Final = "%I:%M %p on %d %B, %Y"


@dataclass
class IngestConversation:
    """One conversation to store: the file's name for it, its title and its turns in order."""

    key: str
    title: str | None
    turns: list[TurnSpec] = field(default_factory=list)
    #: Where the turn at each index came from ("line 7", "sample 0 (conv-26) session_2 turn 4").
    taken: dict[int, str] = field(default_factory=dict)


def conversation_uuid(user_id: str, channel: str, key: str) -> str:
    """The conversation id a file's name for a conversation stands for: the name itself when it is a
    UUID, else one derived from (user, channel, name), the same on every run."""
    try:
        return str(uuid.UUID(key))
    except ValueError:
        return str(uuid.uuid5(_NAMESPACE, f"{user_id}\x00{channel}\x00{key}"))


def read_jsonl(lines: Iterable[str], limits: LimitSettings, default_key: str) -> list[IngestConversation]:
    """The conversations of a JSONL file, in the order they first appear."""
    conversations: dict[str, IngestConversation] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"{where}: not JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(record, dict):
            raise InvalidInputError(f"{where}: a line must be a JSON object with role and content")
        unknown = sorted(set(record) - set(_JSONL_FIELDS))
        if unknown:
            raise InvalidInputError(
                f"{where}: unknown field {unknown[0]!r}; a line may hold {', '.join(_JSONL_FIELDS)}"
            )
        key = record.get("conversation_id", default_key)
        if not isinstance(key, str) or not key.strip():
            raise InvalidInputError(f"{where}: conversation_id must be a non-empty string")
        title = record.get("title")
        if title is not None and not isinstance(title, str):
            raise InvalidInputError(f"{where}: title must be a string")
        conversation = conversations.setdefault(key, IngestConversation(key, None))
        conversation.title = conversation.title or title
        turn = {name: record[name] for name in _TURN_FIELDS if name in record}
        turn.setdefault("turn_index", len(conversation.turns))
        _add(conversation, turn, where, limits)
    if not conversations:
        raise InvalidInputError("the file holds no turns: write one JSON object per line")
    for conversation in conversations.values():
        if conversation.key == default_key and conversation.title is None:
            conversation.title = default_key
    return list(conversations.values())


def read_locomo(text: str, limits: LimitSettings) -> list[IngestConversation]:
    """The conversations of a LoCoMo file: one per session of each sample."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    samples = [data] if isinstance(data, dict) else data
    if not isinstance(samples, list) or not samples:
        raise InvalidInputError("a LoCoMo file is a list of samples, each with a 'conversation' object")
    conversations: list[IngestConversation] = []
    for position, sample in enumerate(samples):
        name = sample.get("sample_id", f"sample-{position}") if isinstance(sample, dict) else None
        where = f"sample {position} ({name})"
        dialogue = sample.get("conversation") if isinstance(sample, dict) else None
        if not isinstance(dialogue, dict) or not isinstance(dialogue.get("speaker_a"), str):
            raise InvalidInputError(f"{where}: needs a 'conversation' object naming 'speaker_a'")
        for number, stamp, turns in _sessions(dialogue, where):
            conversation = IngestConversation(f"{name}/session_{number}", f"{name} session {number}")
            for index, turn in enumerate(turns):
                origin = f"{where} session_{number} turn {index}"
                spec = _locomo_turn(turn, dialogue["speaker_a"], stamp, index, origin)
                _add(conversation, spec, origin, limits)
            conversations.append(conversation)
    return conversations


def _sessions(dialogue: Mapping[str, Any], where: str) -> list[tuple[int, datetime, list[Any]]]:
    sessions = []
    for key, value in dialogue.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if not match or not value:
            continue
        if not isinstance(value, list):
            raise InvalidInputError(f"{where}: {key} must be a list of turns")
        stamp = dialogue.get(f"{key}_date_time")
        try:
            when = datetime.strptime(str(stamp), _LOCOMO_TIME).replace(tzinfo=UTC)
        except ValueError:
            raise InvalidInputError(
                f"{where}: {key}_date_time is {stamp!r}; write it like '1:56 pm on 8 May, 2023'"
            ) from None
        sessions.append((int(match.group(1)), when, value))
    if not sessions:
        raise InvalidInputError(f"{where}: no session_N list of turns")
    return sorted(sessions, key=lambda session: session[0])


def _locomo_turn(turn: object, first: str, stamp: datetime, index: int, origin: str) -> dict[str, Any]:
    if not isinstance(turn, dict) or not isinstance(turn.get("speaker"), str) or "text" not in turn:
        raise InvalidInputError(f"{origin}: a turn needs 'speaker' and 'text'")
    caption = turn.get("blip_caption")  # a shared image, as LoCoMo shows it to models
    content = f"{turn['text']} [shares {caption}]" if caption else turn["text"]
    metadata = {"dia_id": turn["dia_id"]} if "dia_id" in turn else {}
    return {
        "role": "user" if turn["speaker"] == first else "assistant",
        "content": content,
        "timestamp": stamp + timedelta(seconds=index),
        "metadata": metadata,
        "speaker": turn["speaker"],
        "turn_index": index,
    }


def _add(conversation: IngestConversation, turn: dict[str, Any], where: str, limits: LimitSettings) -> None:
    """Check one turn as ``store_turns`` will and add it; a repeated index names both places."""
    if "timestamp" in turn:
        turn["timestamp"] = _timestamp(turn["timestamp"], where)
    try:
        check_turns([turn], limits)
    except AgentMemoryError as exc:
        raise InvalidInputError(f"{where}: {str(exc).removeprefix('turn 0: ')}") from None
    spec = TurnSpec.model_validate(turn)
    index = spec.turn_index if spec.turn_index is not None else len(conversation.turns)
    if index in conversation.taken:
        raise InvalidInputError(
            f"{where}: turn_index {index} of conversation {conversation.key!r} is taken by "
            f"{conversation.taken[index]}; give each turn its own index (or none)"
        )
    conversation.taken[index] = where
    conversation.turns.append(spec)


def _timestamp(value: object, where: str) -> datetime:
    if isinstance(value, datetime):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, UTC)
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    raise InvalidInputError(
        f"{where}: timestamp {value!r} is neither ISO 8601 (2024-05-01T10:00:00Z) nor epoch seconds"
    )
