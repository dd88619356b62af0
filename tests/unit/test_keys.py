"""Redis key layout (pure): one user's or one session's SCAN pattern never reaches anyone else's keys."""

from __future__ import annotations

import random
import re
import uuid
from fnmatch import fnmatchcase
from typing import get_args

import pytest

from agentx_memory.stores import keys
from agentx_memory.validation import validate_channel, validate_user_id

PREFIX = "agentx"
CID = "0b9a8f3e-3c55-4f57-9d3a-6f0f1d2b7c11"
PARTS: tuple[keys.WorkingPart, ...] = get_args(keys.WorkingPart)


def all_keys(user_id: str, channel: str = "_global", cid: str = CID, prefix: str = PREFIX) -> list[str]:
    """Every key working memory writes for one session."""
    found = [keys.working_key(prefix, user_id, channel, cid, part) for part in PARTS]
    found += [keys.working_context_item(prefix, user_id, channel, cid, name) for name in ("plan", "a.b-c_1")]
    return found


def test_layout() -> None:
    assert keys.working_key("p", "alice", "proj-a", CID, "turns") == f"p:working:alice:proj-a:{CID}:turns"
    assert keys.working_context_item("p", "alice", "_global", CID, "plan") == (
        f"p:working:alice:_global:{CID}:context:plan"
    )
    assert keys.working_pattern("p", "alice", "_global", CID) == f"p:working:alice:_global:{CID}:*"
    assert keys.user_pattern("p", "alice") == "p:working:alice:*"
    assert set(PARTS) == {"turns", "context", "thoughts", "goal", "recalled", "summary"}
    assert keys.consolidation_lock("p", "alice", CID) == f"p:consolidation:alice:lock:{CID}"
    assert keys.consolidation_job("p", "alice", "j1") == "p:consolidation:alice:job:j1"
    assert keys.consolidation_pattern("p", "alice") == "p:consolidation:alice:*"


def test_context_items_live_under_the_context_key() -> None:
    index = keys.working_key(PREFIX, "alice", "_global", CID, "context")
    item = keys.working_context_item(PREFIX, "alice", "_global", CID, "plan")
    assert item.removeprefix(index + ":") == "plan"


def test_user_pattern_matches_all_of_that_users_keys() -> None:
    pattern = keys.user_pattern(PREFIX, "alice")
    for channel in ("_global", "proj-a"):
        for key in all_keys("alice", channel):
            assert fnmatchcase(key, pattern), key


@pytest.mark.parametrize("other", ["alice2", "alice.x", "alice-b", "Alice", "alic", "xalice", "bob"])
def test_user_pattern_never_matches_a_similar_user(other: str) -> None:
    pattern = keys.user_pattern(PREFIX, "alice")
    for key in all_keys(other):
        assert not fnmatchcase(key, pattern), key
    # and the other way round
    for key in all_keys("alice"):
        assert not fnmatchcase(key, keys.user_pattern(PREFIX, other)), key


def test_user_pattern_never_matches_another_prefix() -> None:
    assert not any(
        fnmatchcase(key, keys.user_pattern("agentx", "alice")) for key in all_keys("alice", prefix="agentx2")
    )
    assert not any(
        fnmatchcase(key, keys.user_pattern("agentx2", "alice")) for key in all_keys("alice", prefix="agentx")
    )


def test_session_pattern_matches_only_that_session() -> None:
    pattern = keys.working_pattern(PREFIX, "alice", "_global", CID)
    assert all(fnmatchcase(key, pattern) for key in all_keys("alice"))
    other_cid = str(uuid.uuid4())
    outsiders = [
        *all_keys("alice", cid=other_cid),
        *all_keys("alice", channel="proj-a"),
        *all_keys("alice2"),
        *all_keys("bob"),
    ]
    assert [key for key in outsiders if fnmatchcase(key, pattern)] == []


def test_random_valid_ids_only_ever_match_themselves() -> None:
    """Property check over generated ids: user A's pattern matches user B's keys iff A == B."""
    rng = random.Random(20240503)
    alphabet = "abcdefghijklmnopqrstuvwxyzABC0123456789_.@+-"
    users = {"alice", "alice2", "alice.2", "a", "a.", "a-"}
    while len(users) < 60:
        first = rng.choice("abcXYZ019")
        users.add(first + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))))
    users = {validate_user_id(user) for user in users}
    channels = [validate_channel(channel) for channel in ("_global", "proj-a", "p")]
    for owner in users:
        pattern = keys.user_pattern(PREFIX, owner)
        for other in users:
            matched = any(
                fnmatchcase(key, pattern) for channel in channels for key in all_keys(other, channel)
            )
            assert matched == (owner == other), (owner, other)


@pytest.mark.parametrize("user_id", ["alice", "bob.smith@example.com", "a+b-c_d", "X" * 128])
def test_patterns_carry_no_glob_character_but_the_last_star(user_id: str) -> None:
    for pattern in (keys.user_pattern(PREFIX, user_id), keys.working_pattern(PREFIX, user_id, "proj-a", CID)):
        assert pattern.endswith(":*")
        assert not re.search(r"[*?\[\]\\]", pattern[:-1]), pattern
