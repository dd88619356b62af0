"""``agentx-memory ingest`` on small hand-written files: JSONL and the LoCoMo shape, run twice (nothing
stored twice), a bad file (the line and the fix named, nothing stored), and another user seeing nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agentx_memory import AgentMemory, Settings
from agentx_memory.cli import app
from agentx_memory.embedding import Embedder
from agentx_memory.ingest_formats import conversation_uuid
from tests.settings_env import env_of

runner = CliRunner()
TRIP_ID = "0b6c1c52-3a1e-4d8e-9f57-8f0c5b8d2a11"
JSONL: list[dict[str, object]] = [
    {"conversation_id": TRIP_ID, "title": "trip", "role": "user",
     "content": "I'm flying to Lisbon on May 3rd", "timestamp": "2024-05-01T10:00:00Z", "speaker": "Maya"},
    {"conversation_id": "pets", "role": "user", "content": "My cat is called Whiskers",
     "timestamp": 1714557600, "metadata": {"source": "import"}},
    {"conversation_id": TRIP_ID, "role": "assistant", "content": "Noted: Lisbon on May 3rd.",
     "timestamp": "2024-05-01T10:00:05+00:00"},
    {"role": "user", "content": "A turn without a conversation"},
    {"conversation_id": "pets", "role": "assistant", "content": "Whiskers, noted.", "turn_index": 1},
]  # fmt: skip
LOCOMO = [
    {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a dog last week!"},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely, what breed?",
                 "blip_caption": "a photo of a beagle"},
                {"speaker": "Ana", "dia_id": "D1:3", "text": "A beagle called Rex."},
            ],
            "session_2_date_time": "10:00 am on 9 June, 2023",
            "session_2": [
                {"speaker": "Ben", "dia_id": "D2:1", "text": "How is Rex?"},
                {"speaker": "Ana", "dia_id": "D2:2", "text": "He learned to sit."},
            ],
        },
        "qa": [],
    }
]  # fmt: skip


@pytest.fixture
def reader(settings: Settings, embedder: Embedder) -> Iterator[AgentMemory]:
    with AgentMemory("alice", settings=settings, embedder=embedder) as memory:
        yield memory


def _write(path: Path, lines: Sequence[object]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def _snapshot(memory: AgentMemory, cid: str) -> list[tuple[object, ...]]:
    return [
        (turn.index, turn.role, turn.content, turn.timestamp, turn.metadata, turn.synced)
        for turn in memory.get_conversation(cid)
    ]


def test_ingest_jsonl_twice_stores_each_turn_once(
    tmp_path: Path, settings: Settings, reader: AgentMemory
) -> None:
    path = _write(tmp_path / "history.jsonl", JSONL)
    args = ["ingest", str(path), "--user", "alice", "--batch", "2"]
    result = runner.invoke(app, args, env=env_of(settings))
    assert result.exit_code == 0, result.output
    assert "Stored 5 new turns in 3 conversations for user 'alice'" in result.stdout
    assert "turns/s" in result.stdout
    pets = conversation_uuid("alice", "_global", "pets")
    default = conversation_uuid("alice", "_global", "history")
    ten = datetime(2024, 5, 1, 10, tzinfo=UTC)
    assert _snapshot(reader, TRIP_ID) == [
        (0, "user", "I'm flying to Lisbon on May 3rd", ten, {"speaker": "Maya"}, True),
        (1, "assistant", "Noted: Lisbon on May 3rd.", ten + timedelta(seconds=5), {}, True),
    ]
    assert [(t[0], t[2], t[3], t[4]) for t in _snapshot(reader, pets)][:1] == [(
        0, "My cat is called Whiskers", ten, {"source": "import"},
    )]  # fmt: skip
    assert [t[2] for t in _snapshot(reader, default)] == ["A turn without a conversation"]
    before = {cid: _snapshot(reader, cid) for cid in (TRIP_ID, pets, default)}
    again = runner.invoke(app, args, env=env_of(settings))
    assert again.exit_code == 0, again.output
    # an honest count: the second run stored nothing, and says so
    assert "Nothing new: all 5 turns in 3 conversations for user 'alice' were already stored" in again.stdout
    assert "Stored" not in again.stdout
    assert {cid: _snapshot(reader, cid) for cid in before} == before
    bob = reader.for_user("bob")
    assert all(bob.get_conversation(cid) == [] for cid in before)
    assert bob.get_recent_turns(hours=24 * 365 * 10) == []
    more = _write(tmp_path / "history.jsonl", [*JSONL, {"role": "user", "content": "One more turn"}])
    third = runner.invoke(app, ["ingest", str(more), "--user", "alice"], env=env_of(settings))
    assert "Stored 1 new turn in 3 conversations for user 'alice'" in third.stdout, third.output
    assert "; 5 were already stored." in " ".join(third.stdout.split())


def test_ingest_locomo_makes_a_conversation_per_session(
    tmp_path: Path, settings: Settings, reader: AgentMemory
) -> None:
    path = tmp_path / "dialogues.json"
    path.write_text(json.dumps(LOCOMO), encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--user", "alice"], env=env_of(settings))
    assert result.exit_code == 0, result.output
    assert "Stored 5 new turns in 2 conversations" in result.stdout
    first = reader.get_conversation(conversation_uuid("alice", "_global", "conv-x/session_1"))
    stamp = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert [(t.role, t.content, t.timestamp, t.metadata) for t in first] == [
        ("user", "I adopted a dog last week!", stamp, {"dia_id": "D1:1", "speaker": "Ana"}),
        ("assistant", "Lovely, what breed? [shares a photo of a beagle]", stamp + timedelta(seconds=1),
         {"dia_id": "D1:2", "speaker": "Ben"}),
        ("user", "A beagle called Rex.", stamp + timedelta(seconds=2), {"dia_id": "D1:3", "speaker": "Ana"}),
    ]  # fmt: skip
    second = reader.get_conversation(conversation_uuid("alice", "_global", "conv-x/session_2"))
    assert [t.content for t in second] == ["How is Rex?", "He learned to sit."]
    assert reader.remember("What is the dog called?", top_k=1).items[0].id == first[2].id


@pytest.mark.parametrize(
    ("name", "content", "args", "message"),
    [
        ("bad.jsonl", [JSONL[0], JSONL[1], {"role": "robot", "content": "hi"}], [], "line 3: role 'robot'"),
        ("bad.jsonl", [JSONL[0], "{not json"], [], "line 2: not JSON"),
        ("bad.jsonl", [JSONL[0], {"role": "user", "text": "hi"}], [], "line 2: unknown field 'text'"),
        ("bad.jsonl", [JSONL[0], {**JSONL[2], "timestamp": "noon"}], [], "line 2: timestamp 'noon'"),
        ("bad.jsonl", [JSONL[0], {**JSONL[2], "turn_index": 0}], [], "line 2: turn_index 0 .* by line 1"),
        ("bad.json", [{"conversation": {"speaker_a": "A", "session_1": [{"speaker": "A", "text": "x"}]}}], [],
         "session_1_date_time is None"),
        ("ok.jsonl", [JSONL[0]], ["--format", "csv"], "--format 'csv' is unknown"),
    ],
)  # fmt: skip
def test_a_bad_file_names_the_problem_and_stores_nothing(
    tmp_path: Path,
    settings: Settings,
    reader: AgentMemory,
    name: str,
    content: list[object],
    args: list[str],
    message: str,
) -> None:
    path = tmp_path / name
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in content))
    if name.endswith(".json"):
        path.write_text(json.dumps(content))
    result = runner.invoke(app, ["ingest", str(path), "--user", "alice", *args], env=env_of(settings))
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")
    assert re.search(message, result.stderr), result.stderr
    assert reader.get_conversation(TRIP_ID) == []
    assert reader.get_recent_turns(hours=24 * 365 * 10) == []
