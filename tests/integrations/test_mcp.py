"""The MCP server through the SDK's in-process client, against the real embedded servers: the tool list
(names, schemas, hints), every tool called, bad input, background consolidation and user isolation."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent

from agentx_memory import AsyncAgentMemory
from agentx_memory.errors import InvalidInputError, NotFoundError
from agentx_memory.integrations.mcp import AccessDeniedError, MemoryMcpServer, UserAccess
from agentx_memory.integrations.specs import TOOLS, TOOLS_BY_NAME
from agentx_memory.integrations.tools import tool_names


@pytest.fixture(scope="module")
def alice_server(root_memory: AsyncAgentMemory) -> MemoryMcpServer:
    return MemoryMcpServer(root_memory)


async def _server_for(root: AsyncAgentMemory, user: str) -> MemoryMcpServer:
    return MemoryMcpServer(await root.for_user(user))


def _text(result: CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


async def call(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A call that must succeed: its structured result (the same JSON as its text content)."""
    result = await client.call_tool(name, arguments)
    assert not result.is_error, _text(result)
    structured: dict[str, Any] | None = result.structured_content
    assert structured is not None
    assert json.loads(_text(result)) == structured
    return structured


async def refused(client: Client, name: str, arguments: dict[str, Any]) -> str:
    """A call that must come back as a tool error: its message (never a traceback)."""
    result = await client.call_tool(name, arguments)
    assert result.is_error
    message = _text(result)
    assert "Traceback" not in message
    return message


async def test_lists_every_tool_with_its_schema_and_hints(alice_server: MemoryMcpServer) -> None:
    async with Client(alice_server.server) as alice:
        listed = (await alice.list_tools()).tools

        assert [tool.name for tool in listed] == tool_names()
        for tool in listed:
            spec = TOOLS_BY_NAME[tool.name]
            assert tool.input_schema == spec.input_schema()
            assert tool.input_schema["type"] == "object"
            assert "user_id" not in tool.input_schema["properties"]  # no argument chooses the user
            assert tool.description
            assert len(tool.description) > 40
            hints = tool.annotations
            assert hints is not None
            assert hints.read_only_hint is spec.read_only
            assert hints.destructive_hint is spec.destructive
            assert hints.open_world_hint is False
            if spec.read_only:
                assert not spec.destructive
                assert hints.idempotent_hint
        read_only = {tool.name for tool in listed if tool.annotations and tool.annotations.read_only_hint}
        assert read_only == {
            "remember",
            "get_context",
            "search_facts",
            "get_entity",
            "list_active_goals",
            "list_facts",
            "recent_messages",
            "consolidation_status",
        }
        destructive = {tool.name for tool in listed if tool.annotations and tool.annotations.destructive_hint}
        assert destructive == {
            "correct_fact",
            "forget_fact",
            "forget_conversation",
            "forget_user",
            "complete_goal",
        }
        for name in ("forget_fact", "forget_conversation", "forget_user"):  # asked for on purpose
            schema = TOOLS_BY_NAME[name].input_schema()
            assert "confirm" in schema["required"]
            assert schema["properties"]["confirm"]["type"] == "boolean"


async def test_every_tool_answers(alice_server: MemoryMcpServer) -> None:
    async with Client(alice_server.server) as alice:
        called: set[str] = set()

        async def use(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            called.add(name)
            return await call(alice, name, arguments)

        first = await use("add_memory", {"content": "I'm flying to Lisbon on May 3rd", "title": "trip"})
        assert first["new_conversation"]
        assert first["turn_index"] == 0
        cid = first["conversation_id"]
        second = await use(
            "add_memory", {"content": "Noted: Lisbon, May 3rd.", "role": "assistant", "conversation_id": cid}
        )
        assert second == {**second, "conversation_id": cid, "new_conversation": False, "turn_index": 1}

        recalled = await use("remember", {"query": "when do I fly to Lisbon?", "top_k": 5})
        assert any("Lisbon" in memory["content"] for memory in recalled["memories"])
        assert all("user_id" not in memory for memory in recalled["memories"])
        context = await use("get_context", {"prompt": "plan my Lisbon trip"})
        assert "Lisbon" in context["context"]

        fact = (await use("learn_fact", {"claim": "Alice is allergic to peanuts", "about": ["Alice"]}))[
            "fact"
        ]
        assert fact["source"] == "user"
        assert fact["confidence"] == 0.9
        hits = (await use("search_facts", {"query": "food allergies", "top_k": 3}))["facts"]
        assert hits[0]["id"] == fact["id"]
        assert -1 <= hits[0]["similarity"] <= 1
        listed = (await use("list_facts", {}))["facts"]
        assert [f["id"] for f in listed] == [fact["id"]]
        assert (await use("list_facts", {"offset": 1}))["facts"] == []
        entity = await use("get_entity", {"name_or_id": "Alice"})
        assert [f["claim"] for f in entity["facts"]] == ["Alice is allergic to peanuts"]
        acme = await use("add_entity", {"name": "Acme", "type": "organization", "aliases": ["Acme Corp"]})
        assert acme["entity"]["name"] == "Acme"
        again = await use("add_entity", {"name": "Acme Corp", "type": "organization"})
        assert again["entity"]["id"] == acme["entity"]["id"]  # merged, not a second Acme
        related = await use("relate_entities", {"source": "Alice", "relation": "WORKS_FOR", "target": "Acme"})
        assert (related["source"], related["target"]) == ("Alice", "Acme")
        assert any(
            n["entity"]["name"] == "Acme"
            for n in (await use("get_entity", {"name_or_id": "Alice"}))["neighbours"]
        )
        assert "no entity 'Zed'" in await refused(
            alice, "relate_entities", {"source": "Alice", "relation": "KNOWS", "target": "Zed"}
        )

        corrected = await use(
            "correct_fact", {"fact_id": fact["id"], "new_claim": "Alice is allergic to cashews"}
        )
        assert corrected["supersedes"] == fact["id"]
        new_id = corrected["fact"]["id"]
        confirmed = (await use("confirm_fact", {"fact_id": new_id}))["fact"]
        assert confirmed["confidence"] == 1.0
        assert confirmed["decay_rate"] == 0
        forgotten = await use("forget_fact", {"fact_id": new_id, "confirm": True})
        assert forgotten["forgotten"] == new_id
        assert sum(forgotten["deleted"].values()) >= 1
        assert await refused(alice, "confirm_fact", {"fact_id": new_id}) == (
            f"fact {new_id} does not exist for user 'alice'"
        )

        assert (await use("list_facts", {"include_history": True}))["facts"] == []  # forgotten, chain too
        recent = (await use("recent_messages", {"limit": 1}))["messages"]
        assert [m["content"] for m in recent] == ["Noted: Lisbon, May 3rd."]
        assert "user_id" not in recent[0]

        goal = (await use("add_goal", {"description": "Book the Lisbon hotel", "priority": 2}))["goal"]
        assert goal["status"] == "active"
        active = (await use("list_active_goals", {}))["goals"]
        assert [g["id"] for g in active] == [goal["id"]]
        done = (await use("complete_goal", {"goal_id": goal["id"], "result": "Booked in Alfama"}))["goal"]
        assert done["status"] == "completed"
        assert done["result"] == "Booked in Alfama"

        job = await use("consolidate_conversation", {"conversation_id": cid})
        assert job["status"] == "running"
        assert job["conversation_id"] == cid
        status = await _finished(alice, job["job_id"])
        called.add("consolidation_status")
        assert status["status"] == "done", status
        assert status["report"]["status"] == "done"
        assert status["report"]["turns_read"] == 2

        gone = await use("forget_conversation", {"conversation_id": cid, "confirm": True})
        assert gone["forgotten"] == cid
        assert (await use("forget_user", {"confirm": True}))["forgotten"] == "user"
        assert (await use("remember", {"query": "when do I fly to Lisbon?"}))["memories"] == []

        assert called == set(tool_names())


async def _finished(client: Client, job_id: str) -> dict[str, Any]:
    for _ in range(200):
        status = await call(client, "consolidation_status", {"job_id": job_id})
        if status["status"] != "running":
            return status
        await asyncio.sleep(0.05)
    raise AssertionError(f"job {job_id} still running")


async def test_bad_input_is_a_tool_error_with_our_message(alice_server: MemoryMcpServer) -> None:
    async with Client(alice_server.server) as alice:
        assert (
            await refused(alice, "add_memory", {"content": "   "})
            == "content is empty: there is nothing to remember"
        )
        missing = await refused(alice, "add_memory", {"contnt": "typo"})
        assert missing == (
            "invalid arguments for add_memory: content: Field required; "
            "contnt: Extra inputs are not permitted"
        )
        assert "fact_id" in await refused(alice, "correct_fact", {"fact_id": "nope", "new_claim": "x"})
        unknown = str(uuid.uuid4())
        assert await refused(alice, "forget_fact", {"fact_id": unknown, "confirm": True}) == (
            f"fact {unknown} does not exist for user 'alice'"
        )
        assert "top_k" in await refused(alice, "remember", {"query": "x", "top_k": 0})
        assert "role" in await refused(alice, "add_memory", {"content": "hi", "role": "narrator"})
        assert "has no turns" in await refused(
            alice, "consolidate_conversation", {"conversation_id": unknown}
        )
        assert "no consolidation job" in await refused(alice, "consolidation_status", {"job_id": unknown})
        # The user is the server's: an argument naming another is refused, not obeyed.
        assert "user_id" in await refused(alice, "remember", {"query": "x", "user_id": "bob"})


async def test_unexpected_errors_are_generic_and_jobs_report_failures(
    root_memory: AsyncAgentMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    erin = await root_memory.for_user("erin")

    async def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals /srv/db password=hunter2")

    async def refuse(*args: object, **kwargs: object) -> None:
        raise InvalidInputError("the conversation is archived")

    server = MemoryMcpServer(erin)
    async with Client(server.server) as client:
        cid = (await call(client, "add_memory", {"content": "I live in Porto"}))["conversation_id"]
        monkeypatch.setattr(erin, "remember", crash)
        message = await refused(client, "remember", {"query": "where do I live?"})
        assert message == "remember failed unexpectedly; the server log has the details"

        monkeypatch.setattr(erin, "consolidate_conversation", crash)
        job = await call(client, "consolidate_conversation", {"conversation_id": cid})
        failed = await _finished(client, job["job_id"])
        assert failed["status"] == "failed"
        assert failed["error"] == "unexpected error: the server log has the details"

        monkeypatch.setattr(erin, "consolidate_conversation", refuse)
        job = await call(client, "consolidate_conversation", {"conversation_id": cid})
        assert (await _finished(client, job["job_id"]))["error"] == "the conversation is archived"


async def test_a_server_sees_only_its_users_memory(root_memory: AsyncAgentMemory) -> None:
    carol, dave = await _server_for(root_memory, "carol"), await _server_for(root_memory, "dave")
    async with Client(carol.server) as as_carol, Client(dave.server) as as_dave:
        cid = (await call(as_carol, "add_memory", {"content": "My locker code is 4711"}))["conversation_id"]
        fact = (
            await call(as_carol, "learn_fact", {"claim": "Carol's locker code is 4711", "about": ["Carol"]})
        )["fact"]
        job = (await call(as_carol, "consolidate_conversation", {"conversation_id": cid}))["job_id"]
        await _finished(as_carol, job)

        recalled = await call(as_dave, "remember", {"query": "locker code 4711"})
        assert recalled["memories"] == []
        assert (await call(as_dave, "search_facts", {"query": "locker code"}))["facts"] == []
        assert await call(as_dave, "get_context", {"prompt": "what is the locker code?"}) == {"context": ""}
        assert "no entity 'Carol'" in await refused(as_dave, "get_entity", {"name_or_id": "Carol"})
        gone = {"fact_id": fact["id"], "confirm": True}
        assert "does not exist" in await refused(as_dave, "forget_fact", gone)
        assert "does not exist" in await refused(
            as_dave, "forget_conversation", {"conversation_id": cid, "confirm": True}
        )
        assert "does not exist" in await refused(
            as_dave, "correct_fact", {"fact_id": fact["id"], "new_claim": "it is 0000"}
        )
        written = await refused(as_dave, "add_memory", {"content": "x", "conversation_id": cid})
        assert written == f"conversation {cid} does not exist for user 'dave'"
        assert "no consolidation job" in await refused(as_dave, "consolidation_status", {"job_id": job})
        with pytest.raises(NotFoundError):  # one registry serves every user of an HTTP server
            carol.jobs.status("dave", job)

        still = (await call(as_carol, "search_facts", {"query": "locker code"}))["facts"]
        assert [f["claim"] for f in still] == ["Carol's locker code is 4711"]


def test_user_access_rules() -> None:
    stdio = UserAccess("alice")
    assert stdio.user_for(None) == "alice"
    assert stdio.user_for({}) == "alice"
    assert stdio.user_for({"x-agentx-user": "alice"}) == "alice"
    with pytest.raises(AccessDeniedError, match="user 'bob' is not allowed"):
        stdio.user_for({"X-AgentX-User": "bob"})

    shared = UserAccess(None, allowed_users=frozenset({"bob", "carol"}))
    assert shared.user_for({"X-AgentX-User": " carol "}) == "carol"
    with pytest.raises(AccessDeniedError, match="no default user: send the X-AgentX-User header"):
        shared.user_for({"accept": "application/json"})
    with pytest.raises(AccessDeniedError, match="no default user"):
        shared.user_for(None)
    with pytest.raises(InvalidInputError):
        UserAccess(None, allowed_users=frozenset({"bad user!"}))


def test_every_spec_is_served() -> None:
    assert len({spec.name for spec in TOOLS}) == len(TOOLS) == 20


async def test_forget_tools_need_confirmation_and_reach_every_store(root_memory: AsyncAgentMemory) -> None:
    frank = await root_memory.for_user("frank")
    async with Client(MemoryMcpServer(frank).server) as client:
        first = await call(client, "add_memory", {"content": "My bike lock code is 1234"})
        cid = first["conversation_id"]
        other = (await call(client, "add_memory", {"content": "I grow tomatoes"}))["conversation_id"]
        fact = (await call(client, "learn_fact", {"claim": "Frank grows tomatoes"}))["fact"]

        for name, arguments in (
            ("forget_conversation", {"conversation_id": cid}),
            ("forget_fact", {"fact_id": fact["id"]}),
            ("forget_user", {}),
        ):
            missing = await refused(client, name, arguments)
            assert "confirm: Field required" in missing
            declined = await refused(client, name, {**arguments, "confirm": False})
            assert declined.startswith(f"{name} deletes for good: nothing was deleted")
        assert len(await frank.get_conversation(cid)) == 1  # nothing happened
        assert [f.id for f in await frank.list_facts()] == [fact["id"]]

        done = await call(client, "forget_conversation", {"conversation_id": cid, "confirm": True})
        assert done["forgotten"] == cid
        assert await frank.get_conversation(cid) == []
        assert len(await frank.get_conversation(other)) == 1
        recalled = await call(client, "remember", {"query": "bike lock code"})
        assert "1234" not in json.dumps(recalled["memories"])

        everything = await call(client, "forget_user", {"confirm": True})
        assert everything["forgotten"] == "user"
        assert await frank.get_conversation(other) == []
        assert await frank.list_facts() == []
        # nothing of frank is left in any store (read on the loop frank's connections live on)
        assert frank.home is not None
        assert not any((await frank.home.run(_left_of(frank))).values())


async def _left_of(memory: AsyncAgentMemory) -> dict[str, int]:
    backends = await memory._open_backends()
    return dict(await backends.forgetting.remaining(memory.scope))


async def test_resources_and_the_prompt_are_real_and_the_users_own(root_memory: AsyncAgentMemory) -> None:
    """Listed means served: the profile and current facts of the server's user, and the memory block."""
    gail = await root_memory.for_user("gail")
    await gail.update_profile(preferences={"seat": "window"}, expertise_areas=["botany"])
    fact = await gail.learn_fact("Gail is allergic to peanuts", confidence=0.9, source="user", about=["Gail"])
    await gail.store_turn(await gail.new_conversation(), "user", "I'm flying to Lisbon on May 3rd")
    hugo = await root_memory.for_user("hugo")
    async with (
        Client(MemoryMcpServer(gail).server) as as_gail,
        Client(MemoryMcpServer(hugo).server) as as_hugo,
    ):
        listed = {str(r.uri): r for r in (await as_gail.list_resources()).resources}
        assert set(listed) == {"memory://profile", "memory://facts"}
        assert all(r.mime_type == "application/json" and r.description for r in listed.values())

        profile = json.loads(_contents(await as_gail.read_resource("memory://profile")))
        assert profile["preferences"] == {"seat": "window"}
        assert profile["expertise_areas"] == ["botany"]
        facts = json.loads(_contents(await as_gail.read_resource("memory://facts")))["facts"]
        assert [(f["id"], f["claim"]) for f in facts] == [(fact.id, "Gail is allergic to peanuts")]
        assert json.loads(_contents(await as_hugo.read_resource("memory://facts"))) == {"facts": []}

        prompts = (await as_gail.list_prompts()).prompts
        assert [p.name for p in prompts] == ["memory_block"]
        assert [(a.name, a.required) for a in prompts[0].arguments or []] == [
            ("prompt", True),
            ("budget_tokens", False),
        ]
        block = await as_gail.get_prompt("memory_block", {"prompt": "When is my Lisbon flight?"})
        text = block.messages[0].content
        assert isinstance(text, TextContent)
        assert "Lisbon" in text.text
        other = await as_hugo.get_prompt("memory_block", {"prompt": "When is my Lisbon flight?"})
        assert isinstance(other.messages[0].content, TextContent)
        assert "Lisbon" not in other.messages[0].content.text


def _contents(result: Any) -> str:
    block = result.contents[0]
    assert block.mime_type == "application/json"
    text: str = block.text
    return text
