"""Authenticated MCP over streamable HTTP (uvicorn in a thread, the SDK's real HTTP client): a bearer
token acts for exactly its user through every tool, whatever header the request carries; no token or a
wrong one is a 401; a revoked token stops working at the next request; ``/health`` needs none and names
no user; header mode exists only on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.auth.provider import AccessToken

from agentx_memory import AsyncAgentMemory, Settings
from agentx_memory.embedding import Embedder
from agentx_memory.errors import ConfigurationError
from agentx_memory.integrations.mcp import MemoryMcpServer, UserAccess, serve
from agentx_memory.integrations.mcp_auth import (
    AuthConfig,
    ClaimUserVerifier,
    MemoryAccessToken,
    TokenFileVerifier,
    auth_from_settings,
    is_loopback,
)
from agentx_memory.integrations.mcp_tokens import TokenFile, TokenIndex
from agentx_memory.integrations.tools import tool_names
from tests.integrations.http_thread import serving
from tests.integrations.test_mcp import _finished, call, refused

_INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


@dataclass(frozen=True)
class AuthServer:
    url: str
    tokens: TokenFile
    alice: str
    bob: str


@pytest.fixture(scope="module")
def auth_server(
    module_settings: Settings, embedder: Embedder, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[AuthServer]:
    """The HTTP app in token mode, tokens for ``alice`` and ``bob`` in a token file."""
    tokens = TokenFile(tmp_path_factory.mktemp("mcp-auth") / "mcp-tokens.json")
    alice, bob = tokens.issue("alice").token, tokens.issue("bob").token
    auth = AuthConfig("token", TokenFileVerifier(TokenIndex(tokens.path)))
    with serving(module_settings, embedder, "root", lambda: UserAccess(None, auth=auth)) as url:
        yield AuthServer(url, tokens, alice, bob)


@contextlib.asynccontextmanager
async def _client(server: AuthServer, headers: dict[str, str]) -> AsyncIterator[Client]:
    # Not a fixture: the SDK client's task group must close in the task that opened it.
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(f"{server.url}/mcp", http_client=http)) as client,
    ):
        yield client


def _post(url: str, headers: dict[str, str]) -> tuple[int, dict[str, Any], dict[str, str]]:
    body = json.dumps(_INIT).encode()
    base = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    request = urllib.request.Request(url, data=body, headers={**base, **headers})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, {}, dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}"), dict(exc.headers)


async def test_a_token_reaches_only_its_users_memory_through_every_tool(auth_server: AuthServer) -> None:
    """Bob's memory of every kind, then alice (her token, and a header naming bob that must change
    nothing) through every tool."""
    alice_headers = {"Authorization": f"Bearer {auth_server.alice}", "X-AgentX-User": "bob"}
    async with (
        _client(auth_server, alice_headers) as as_alice,
        _client(auth_server, {"Authorization": f"Bearer {auth_server.bob}"}) as as_bob,
    ):
        await _cross_user(as_alice, as_bob)


async def _cross_user(as_alice: Client, as_bob: Client) -> None:
    cid = (await call(as_bob, "add_memory", {"content": "Bob's safe code is 2718"}))["conversation_id"]
    fact = (await call(as_bob, "learn_fact", {"claim": "Bob's safe code is 2718", "about": ["Bob"]}))["fact"]
    goal = (await call(as_bob, "add_goal", {"description": "Change the safe code 2718"}))["goal"]
    vault = (await call(as_bob, "add_entity", {"name": "Vaultco", "type": "organization"}))["entity"]
    job = (await call(as_bob, "consolidate_conversation", {"conversation_id": cid}))["job_id"]
    await _finished(as_bob, job)

    called: set[str] = set()

    async def use(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        called.add(name)
        return await call(as_alice, name, arguments)

    async def deny(name: str, arguments: dict[str, Any]) -> str:
        called.add(name)
        return await refused(as_alice, name, arguments)

    denied = "does not exist for user 'alice'"
    assert denied in await deny("add_memory", {"content": "x", "conversation_id": cid})
    own = await use("add_memory", {"content": "Alice waters the ferns on Sundays"})
    assert "2718" not in json.dumps((await use("remember", {"query": "safe code 2718"}))["memories"])
    assert "2718" not in (await use("get_context", {"prompt": "what is the safe code?"}))["context"]
    assert (await use("search_facts", {"query": "safe code"}))["facts"] == []
    assert "no entity 'Bob'" in await deny("get_entity", {"name_or_id": "Bob"})
    assert "no entity" in await deny("get_entity", {"name_or_id": vault["id"]})
    mine = (await use("add_entity", {"name": "Vaultco", "type": "organization"}))["entity"]
    assert mine["id"] != vault["id"]
    assert "no entity 'Bob'" in await deny(
        "relate_entities", {"source": "Bob", "relation": "WORKS_FOR", "target": "Vaultco"}
    )
    await use("learn_fact", {"claim": "Alice likes ferns"})
    assert denied in await deny("correct_fact", {"fact_id": fact["id"], "new_claim": "it is 0000"})
    assert denied in await deny("confirm_fact", {"fact_id": fact["id"]})
    assert denied in await deny("forget_fact", {"fact_id": fact["id"], "confirm": True})
    assert denied in await deny("forget_conversation", {"conversation_id": cid, "confirm": True})
    assert "2718" not in json.dumps(await use("list_facts", {"include_history": True}))
    assert "2718" not in json.dumps(await use("recent_messages", {"limit": 50}))
    await use("add_goal", {"description": "Repot the ferns"})
    assert "not found" in await deny("complete_goal", {"goal_id": goal["id"], "result": "done"})
    assert [g["description"] for g in (await use("list_active_goals", {}))["goals"]] == ["Repot the ferns"]
    assert "has no turns" in await deny("consolidate_conversation", {"conversation_id": cid})
    assert "no consolidation job" in await deny("consolidation_status", {"job_id": job})
    await use("forget_user", {"confirm": True})  # alice's own memory only
    assert called == set(tool_names()), set(tool_names()) - called

    # Bob's memory is as he left it, and none of alice's reached it.
    still = (await call(as_bob, "search_facts", {"query": "safe code"}))["facts"]
    assert [f["id"] for f in still] == [fact["id"]]
    assert [g["id"] for g in (await call(as_bob, "list_active_goals", {}))["goals"]] == [goal["id"]]
    assert own["conversation_id"] not in json.dumps(await call(as_bob, "recent_messages", {"limit": 50}))
    assert "ferns" not in json.dumps(await call(as_bob, "list_facts", {}))


def test_no_token_or_a_wrong_one_is_401_and_health_needs_none(auth_server: AuthServer) -> None:
    url = f"{auth_server.url}/mcp"
    for headers in (
        {},
        {"X-AgentX-User": "alice"},
        {"Authorization": "Bearer agxm_00000000_forged"},
        {"Authorization": f"Bearer {auth_server.alice}x"},
        {"Authorization": f"Basic {auth_server.alice}"},
    ):
        status, body, answered = _post(url, headers)
        assert status == 401, headers
        assert body["error"] == "invalid_token"
        assert answered["www-authenticate"].startswith("Bearer ")
    assert _post(url, {"Authorization": f"Bearer {auth_server.alice}"})[0] == 200
    with urllib.request.urlopen(f"{auth_server.url}/health", timeout=10) as response:
        health = response.read().decode()
    assert json.loads(health) == {
        "status": "ok",
        "server": "agentx-memory",
        "tools": len(tool_names()),
        "stores": {"graph": "ok", "postgres": "ok", "redis": "ok"},
    }
    assert "alice" not in health
    assert "bob" not in health


def test_a_revoked_token_stops_working_without_a_restart(auth_server: AuthServer) -> None:
    carol = auth_server.tokens.issue("carol")  # issued while the server runs: works at once
    bearer = {"Authorization": f"Bearer {carol.token}"}
    assert _post(f"{auth_server.url}/mcp", bearer)[0] == 200
    auth_server.tokens.revoke(carol.entry.id)
    assert _post(f"{auth_server.url}/mcp", bearer)[0] == 401
    assert _post(f"{auth_server.url}/mcp", {"Authorization": f"Bearer {auth_server.alice}"})[0] == 200


def test_header_mode_exists_only_on_loopback(root_memory: AsyncAgentMemory, tmp_path: Path) -> None:
    assert all(is_loopback(host) for host in ("127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(host) for host in ("0.0.0.0", "::", "10.0.0.5", "memory.example.com"))
    with pytest.raises(ConfigurationError, match=r"refusing to serve MCP on 0\.0\.0\.0 in header mode"):
        MemoryMcpServer(root_memory).http_app("0.0.0.0")
    settings = Settings(data_dir=tmp_path, mcp={"auth": "header"})
    with pytest.raises(ConfigurationError, match=r"serve MCP on 0\.0\.0\.0 without authentication"):
        auth_from_settings(settings, "0.0.0.0")
    with pytest.raises(ConfigurationError, match="without authentication"):
        asyncio.run(serve(settings, transport="http", host="0.0.0.0"))  # before any store is opened
    assert auth_from_settings(settings, "127.0.0.1") is None
    auto = Settings(data_dir=tmp_path)
    assert auth_from_settings(auto, "127.0.0.1") is None  # no tokens yet: header mode, loopback
    off_loopback = auth_from_settings(auto, "0.0.0.0")
    assert off_loopback is not None
    assert off_loopback.mode == "token"
    TokenFile(tmp_path / "mcp-tokens.json").issue("alice")
    on_loopback = auth_from_settings(auto, "127.0.0.1")
    assert on_loopback is not None
    assert on_loopback.mode == "token"  # once tokens exist, loopback requires them too


class _ProviderVerifier:
    """What a deployment plugs in: its OAuth provider's token check (introspection, a JWT library)."""

    async def verify_token(self, token: str) -> AccessToken | None:
        claims = {"good": ("dana", {"preferred_username": "dana"}), "odd": ("bad user!", {})}
        if token not in claims:
            return None
        subject, extra = claims[token]
        return AccessToken(token=token, client_id="app", scopes=["memory"], subject=subject, claims=extra)


def provider_verifier(settings: Settings) -> _ProviderVerifier:
    return _ProviderVerifier()


async def test_a_deployments_verifier_maps_a_claim_to_the_user(tmp_path: Path) -> None:
    by_subject = ClaimUserVerifier(_ProviderVerifier())
    verified = await by_subject.verify_token("good")
    assert isinstance(verified, MemoryAccessToken)
    assert verified.user_id == "dana"
    assert await by_subject.verify_token("odd") is None  # no valid user id: refused, not guessed
    assert await by_subject.verify_token("unknown") is None
    by_claim = ClaimUserVerifier(_ProviderVerifier(), "preferred_username")
    assert await by_claim.verify_token("odd") is None  # the claim is missing
    settings = Settings(
        data_dir=tmp_path,
        mcp={
            "verifier": f"{__name__}:provider_verifier",
            "issuer_url": "https://auth.example.com",
            "resource_url": "https://memory.example.com/mcp",
            "required_scopes": ["memory"],
        },
    )
    auth = auth_from_settings(settings, "0.0.0.0")
    assert auth is not None
    assert auth.mode == "oauth"
    sdk = auth.sdk_settings()
    assert str(sdk.resource_server_url) == "https://memory.example.com/mcp"
    assert sdk.validate_token_resource is True
    with pytest.raises(ConfigurationError, match="AGENTX_MCP__ISSUER_URL"):
        auth_from_settings(Settings(data_dir=tmp_path, mcp={"auth": "oauth"}), "0.0.0.0")
    with pytest.raises(ConfigurationError, match="cannot be imported"):
        auth_from_settings(
            Settings(data_dir=tmp_path, mcp={"verifier": "nowhere:thing", "issuer_url": "https://a"}), "::"
        )
