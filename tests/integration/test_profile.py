"""User profiles end to end on Postgres: defaults, JSON merge semantics, isolation, audit, bad input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from agentx_memory import AgentMemory, AsyncAgentMemory, InvalidInputError
from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.models.profile import UserProfile
from agentx_memory.stores.postgres import PostgresStore
from tests.conftest import cleanup, isolated_settings
from tests.payloads import INJECTIONS


def test_defaults_when_missing(memory: AgentMemory) -> None:
    profile = memory.get_profile()
    assert profile == UserProfile(user_id="alice")
    assert (profile.preferences, profile.expertise_areas, profile.communication_style) == ({}, [], None)
    assert profile.created_at is None


def test_update_merges_fields(memory: AgentMemory) -> None:
    first = memory.update_profile(
        preferences={"units": "metric", "theme": {"mode": "dark"}},
        expertise_areas=["python", "sql", "python"],
        communication_style="concise",
    )
    assert first.preferences == {"units": "metric", "theme": {"mode": "dark"}}
    assert first.expertise_areas == ["python", "sql"]
    assert first.communication_style == "concise"
    assert first.created_at is not None
    second = memory.update_profile(preferences={"theme": {"accent": "blue"}, "language": "pt"})
    # Key by key at the top level: a nested object is replaced, not deep-merged (jsonb ||).
    assert second.preferences == {"units": "metric", "theme": {"accent": "blue"}, "language": "pt"}
    assert second.expertise_areas == ["python", "sql"]
    assert second.communication_style == "concise"
    third = memory.update_profile(expertise_areas=["rust", "sql", "go"], communication_style="detailed")
    assert third.expertise_areas == ["python", "sql", "rust", "go"]
    assert third.communication_style == "detailed"
    assert third.preferences == second.preferences
    assert third.created_at == first.created_at
    assert third.updated_at is not None
    assert first.updated_at is not None
    assert third.updated_at >= first.updated_at
    assert memory.get_profile() == third
    assert memory.update_profile() == third.model_copy(update={"updated_at": memory.get_profile().updated_at})


def test_profiles_are_per_user(memory: AgentMemory) -> None:
    memory.update_profile(preferences={"secret": "alice"}, expertise_areas=["law"])
    bob = memory.for_user("bob")
    assert bob.get_profile() == UserProfile(user_id="bob")
    bob.update_profile(preferences={"secret": "bob"})
    assert memory.get_profile().preferences == {"secret": "alice"}
    assert memory.get_profile().expertise_areas == ["law"]
    assert bob.get_profile().expertise_areas == []
    # Profiles belong to the user, not the channel.
    assert memory.for_user("alice", "trip").get_profile().preferences == {"secret": "alice"}


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_strings_are_stored_verbatim(memory: AgentMemory, payload: str) -> None:
    memory.for_user("bob").update_profile(communication_style="bob's")
    profile = memory.update_profile(
        preferences={payload: payload}, expertise_areas=[payload], communication_style=payload
    )
    assert profile.preferences == {payload: payload}
    assert profile.expertise_areas == [payload]
    assert profile.communication_style == payload
    assert memory.for_user("bob").get_profile().communication_style == "bob's"


def test_bad_input_changes_nothing(memory: AgentMemory) -> None:
    memory.update_profile(preferences={"a": 1})
    calls: list[Callable[[], object]] = [
        lambda: memory.update_profile(preferences={1: "x"}),  # type: ignore[dict-item]
        lambda: memory.update_profile(preferences="dark"),  # type: ignore[arg-type]
        lambda: memory.update_profile(preferences={"f": float("nan")}),
        lambda: memory.update_profile(expertise_areas="python"),
        lambda: memory.update_profile(expertise_areas=["ok", ""]),
        lambda: memory.update_profile(expertise_areas=[3]),  # type: ignore[list-item]
        lambda: memory.update_profile(communication_style=""),
        lambda: memory.update_profile(communication_style="x" * 10_000),
    ]
    for call in calls:
        with pytest.raises(InvalidInputError):
            call()
    profile = memory.get_profile()
    assert (profile.preferences, profile.expertise_areas, profile.communication_style) == ({"a": 1}, [], None)


def test_audit_rows(endpoints: ResolvedEndpoints, data_dir: Path, embedder: Embedder) -> None:
    chosen = isolated_settings(endpoints, data_dir, audit={"level": "reads"})
    try:
        with AgentMemory(user_id="alice", settings=chosen, embedder=embedder) as mem:
            mem.update_profile(preferences={"units": "metric"}, communication_style="brief")
            mem.get_profile()
            audit = PostgresStore.connect(
                chosen.postgres.url or "",
                chosen.postgres,
                embedding_dim=384,
                embedding_model=embedder.model_id,
            )
            try:
                rows = audit.fetch_all("list_audit", {"user_id": "alice"})
            finally:
                audit.close()
    finally:
        cleanup(chosen, endpoints)
    seen = [(row["operation"], row["memory_type"], row["memory_id"], row["level"]) for row in rows]
    assert seen == [("update_profile", "profile", "alice", "writes"), ("get_profile", None, None, "reads")]
    assert rows[0]["details"] == {"fields": ["preferences", "communication_style"]}


async def test_async_profile(amemory: AsyncAgentMemory) -> None:
    assert await amemory.get_profile() == UserProfile(user_id="alice")
    await amemory.update_profile(preferences={"a": 1}, expertise_areas=["x"])
    updated = await amemory.update_profile(preferences={"b": 2}, expertise_areas=["y", "x"])
    assert updated.preferences == {"a": 1, "b": 2}
    assert updated.expertise_areas == ["x", "y"]
    assert await amemory.get_profile() == updated
    bob = await amemory.for_user("bob")
    assert (await bob.get_profile()).preferences == {}
