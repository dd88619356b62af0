"""Agent experience → skill proposals on the real servers: a proposed strategy is never recalled until
published; review states; proposals from a conversation's tool calls (and through consolidation);
another user can neither see nor review them."""

from __future__ import annotations

import pytest

from agentx_memory import AgentMemory, InvalidInputError, NotFoundError


def _calls(memory: AgentMemory, conversation_id: str, *calls: tuple[str, bool]) -> None:
    for index, (tool, success) in enumerate(calls):
        memory.record_invocation(
            conversation_id, index, tool, {"n": index}, None, success, 10.0, None if success else "timed out"
        )


def test_a_proposal_is_recalled_only_once_published(memory: AgentMemory) -> None:
    proposal = memory.propose_strategy(
        "deploy the web app",
        "deploying a web service",
        ["build", "push", "rollout"],
        what_failed=["ssh deploy"],
    )
    assert (proposal.status, proposal.what_failed) == ("proposed", ["ssh deploy"])
    assert memory.find_strategies("deploy the web app") == []
    assert all(item.kind != "strategy" for item in memory.remember("how do I deploy the web app").items)
    assert [s.id for s in memory.proposed_strategies()] == [proposal.id]
    published = memory.publish_strategy(proposal.id)
    assert published.status == "published"
    assert [m.strategy.id for m in memory.find_strategies("deploy the web app")] == [proposal.id]
    assert memory.proposed_strategies() == []
    with pytest.raises(InvalidInputError, match="only a proposal"):
        memory.reject_strategy(proposal.id)


def test_rejected_proposals_stay_out(memory: AgentMemory) -> None:
    proposal = memory.propose_strategy("book a flight", "travel booking", ["search", "book"])
    rejected = memory.reject_strategy(proposal.id, reason="wrong order")
    assert rejected.status == "rejected"
    assert memory.find_strategies("book a flight") == []
    with pytest.raises(InvalidInputError):
        memory.publish_strategy(proposal.id)


def test_proposals_from_a_conversations_tool_calls(memory: AgentMemory) -> None:
    c = memory.new_conversation()
    memory.store_turn(c, "user", "Please deploy the billing service to staging")
    _calls(memory, c, ("build", True), ("ssh_deploy", False), ("helm_rollout", True))
    proposal = memory.propose_from_conversation(c)
    assert proposal is not None
    assert proposal.tool_sequence == ["build", "helm_rollout"]
    assert proposal.what_failed == ["ssh_deploy: timed out"]
    assert proposal.description.startswith("Please deploy the billing service")
    assert memory.propose_from_conversation(c) == proposal  # idempotent
    failed = memory.new_conversation()
    _calls(memory, failed, ("build", True), ("helm_rollout", False))
    assert memory.propose_from_conversation(failed) is None  # it did not end in success


def test_consolidation_proposes_from_tool_calls(memory: AgentMemory) -> None:
    c = memory.new_conversation()
    memory.store_turn(c, "user", "Export the quarterly report as PDF")
    _calls(memory, c, ("query_db", True), ("render_pdf", True))
    report = memory.consolidate_conversation(c)
    assert report.strategies_proposed == 1
    assert [s.tool_sequence for s in memory.proposed_strategies()] == [["query_db", "render_pdf"]]


def test_another_user_cannot_see_or_review_proposals(memory: AgentMemory) -> None:
    proposal = memory.propose_strategy("file taxes", "tax season", ["gather", "submit"])
    bob = memory.for_user("bob")
    assert bob.proposed_strategies() == []
    with pytest.raises(NotFoundError):
        bob.publish_strategy(proposal.id)
    with pytest.raises(NotFoundError):
        bob.reject_strategy(proposal.id)
    assert memory.proposed_strategies()[0].status == "proposed"
