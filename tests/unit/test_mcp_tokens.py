"""The MCP server's bearer tokens (``integrations/mcp_tokens.py``): stored hashed, one user each,
checked in constant time against every known digest, revoked without a restart; and
``agentx-memory mcp-token`` issuing, listing and revoking them."""

from __future__ import annotations

import hmac
import json
import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agentx_memory.cli import app
from agentx_memory.errors import ConfigurationError, InvalidInputError, NotFoundError
from agentx_memory.integrations.mcp_tokens import TokenFile, TokenIndex, hash_token


def test_a_token_is_stored_hashed_and_maps_to_its_one_user(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path / "tokens.json")
    alice, bob = tokens.issue("alice", "laptop"), tokens.issue("bob")
    stored = tokens.path.read_text()
    assert alice.token not in stored
    assert bob.token not in stored
    assert hash_token(alice.token) in stored
    assert stat.S_IMODE(os.stat(tokens.path).st_mode) == 0o600
    index = TokenIndex(tokens.path)
    assert index.user_of(alice.token) == ("alice", alice.entry.id)
    assert index.user_of(bob.token) == ("bob", bob.entry.id)
    for wrong in ("", "agxm_", alice.token[:-1], alice.token + "x", bob.token.upper(), "x" * 100_000):
        assert index.user_of(wrong) is None
    assert [entry.label for entry in tokens.entries()] == ["laptop", ""]


def test_a_revoked_token_stops_working_without_a_new_index(tmp_path: Path) -> None:
    tokens = TokenFile(tmp_path / "tokens.json")
    index = TokenIndex(tokens.path)  # what a running server holds
    assert index.user_of("agxm_00000000_nothing") is None  # no file yet
    first = tokens.issue("alice")
    second = tokens.issue("alice")
    assert index.user_of(first.token) == ("alice", first.entry.id)  # issued after the index: seen
    assert tokens.revoke(first.entry.id) == [first.entry]
    assert index.user_of(first.token) is None
    assert index.user_of(second.token) is not None
    tokens.revoke(user="alice")
    assert index.user_of(second.token) is None
    with pytest.raises(NotFoundError):
        tokens.revoke(first.entry.id)
    with pytest.raises(InvalidInputError):
        tokens.revoke()


def test_every_check_compares_every_digest_in_constant_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Timing-safe: each check runs :func:`hmac.compare_digest` once per known token, whether the
    presented token is the first, the last, unknown or malformed, and nothing else compares digests."""
    tokens = TokenFile(tmp_path / "tokens.json")
    issued = [tokens.issue(f"user{i}") for i in range(5)]
    configured = "b" * 64
    index = TokenIndex(tokens.path, {"zed": [configured]})
    compared: list[int] = []
    real = hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        compared.append(1)
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", counting)
    for token in (issued[0].token, issued[-1].token, "agxm_deadbeef_unknown", "not a token at all", ""):
        compared.clear()
        index.user_of(token)
        assert len(compared) == 6, token
    empty = TokenIndex(tmp_path / "none.json")
    compared.clear()
    assert empty.user_of("anything") is None
    assert len(compared) == 1  # an empty index still pays one comparison


def test_configured_digests_and_malformed_files(tmp_path: Path) -> None:
    token = "agxm_cfg_a-long-random-secret"
    index = TokenIndex(None, {"carol": [f"sha256:{hash_token(token).upper()}"]})
    assert index.user_of(token) == ("carol", f"settings-{hash_token(token)[:8]}")
    with pytest.raises(ConfigurationError, match="SHA-256 digests"):
        TokenIndex(None, {"carol": [token]})
    with pytest.raises(InvalidInputError):
        TokenIndex(None, {"bad user!": [hash_token(token)]})
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ConfigurationError, match="not an agentx-memory MCP token file"):
        TokenIndex(broken).user_of(token)
    with pytest.raises(InvalidInputError):
        TokenFile(tmp_path / "t.json").issue("bad user!")


def test_the_mcp_token_command(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["--data-dir", str(tmp_path), "mcp-token"]
    issued = runner.invoke(app, [*args, "issue", "--user", "alice", "--label", "desktop"])
    assert issued.exit_code == 0, issued.output
    token = issued.stdout.strip()
    assert token.startswith("agxm_")
    assert "shown only now" in issued.stderr
    assert TokenIndex(tmp_path / "mcp-tokens.json").user_of(token) is not None
    listed = runner.invoke(app, [*args, "list"])
    assert "alice" in listed.stdout
    assert "desktop" in listed.stdout
    assert token not in listed.stdout
    token_id = token.split("_")[1]
    revoked = runner.invoke(app, [*args, "revoke", token_id])
    assert revoked.exit_code == 0, revoked.output
    assert TokenIndex(tmp_path / "mcp-tokens.json").user_of(token) is None
    assert runner.invoke(app, [*args, "revoke", token_id]).exit_code == 2
    loose = runner.invoke(app, [*args, "issue", "--user", "bob", "--no-file"])
    assert loose.exit_code == 0, loose.output
    assert hash_token(loose.stdout.strip()) in loose.stderr
    assert "AGENTX_MCP__TOKENS=" in loose.stderr
    assert runner.invoke(app, [*args, "list"]).stdout.count("bob") == 0
