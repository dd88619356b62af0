"""Agent experience → skill proposals on the real servers: a proposed strategy is never recalled until
published; review states; proposals from a conversation's tool calls (and through consolidation);
another user can neither see nor review them."""

from __future__ import annotations

import uuid

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


def test_the_title_names_the_task_and_the_first_request_describes_it(memory: AgentMemory) -> None:
    c = memory.new_conversation(title="Release billing")
    memory.store_turn(c, "assistant", "How can I help?")
    memory.store_turn(c, "user", "Ship the billing service to production tonight after the tests pass please")
    _calls(memory, c, ("run_tests", True), ("deploy", True))
    proposal = memory.propose_from_conversation(c)
    assert proposal is not None
    assert proposal.context_pattern == "Release billing"
    assert proposal.description.startswith("Ship the billing service")
    assert proposal.description.endswith("after the tests pass please")
    assert proposal.source_conversation_id == c
    assert proposal.what_failed == []
    untitled = memory.new_conversation()
    memory.store_turn(untitled, "user", "Ship the billing service to production tonight after the tests pass")
    _calls(memory, untitled, ("run_tests", True), ("deploy", True))
    other = memory.propose_from_conversation(untitled)
    assert other is not None
    assert other.context_pattern == "Ship the billing service to production tonight after"  # first 8 words
    silent = memory.new_conversation()
    _calls(memory, silent, ("run_tests", True), ("deploy", True))
    steps_only = memory.propose_from_conversation(silent)
    assert steps_only is not None
    assert steps_only.context_pattern == "run_tests → deploy"


def test_a_reviewed_proposal_is_not_proposed_again(memory: AgentMemory) -> None:
    c = memory.new_conversation()
    memory.store_turn(c, "user", "Rotate the API keys of the staging cluster")
    _calls(memory, c, ("list_keys", True), ("rotate", False), ("rotate", True))
    proposal = memory.propose_from_conversation(c)
    assert proposal is not None
    assert proposal.tool_sequence == ["list_keys", "rotate"]  # each tool once, in the order it worked
    assert proposal.what_failed == ["rotate: timed out"]
    memory.publish_strategy(proposal.id)
    again = memory.propose_from_conversation(c)
    assert again is not None
    assert (again.id, again.status) == (proposal.id, "published")
    assert memory.proposed_strategies() == []
    assert len(memory.find_strategies("rotate the API keys", top_k=10)) == 1


def test_nothing_to_learn(memory: AgentMemory) -> None:
    quiet = memory.new_conversation()
    memory.store_turn(quiet, "user", "Just chatting today")
    assert memory.propose_from_conversation(quiet) is None  # no tool calls
    single = memory.new_conversation()
    _calls(memory, single, ("search", True))
    assert memory.propose_from_conversation(single) is None  # one call is not a path
    assert memory.proposed_strategies() == []


def test_consolidation_counts_a_proposal_once(memory: AgentMemory) -> None:
    c = memory.new_conversation()
    memory.store_turn(c, "user", "Export the quarterly report as PDF")
    _calls(memory, c, ("query_db", True), ("render_pdf", True))
    assert memory.consolidate_conversation(c).strategies_proposed == 1
    memory.store_turn(c, "user", "Great, that worked, thanks")
    assert memory.consolidate_conversation(c).strategies_proposed == 0
    assert len(memory.proposed_strategies()) == 1


def test_another_user_cannot_learn_from_or_recall_them(memory: AgentMemory) -> None:
    c = memory.new_conversation()
    memory.store_turn(c, "user", "Back up the photo library to the NAS")
    _calls(memory, c, ("mount_nas", True), ("rsync", True))
    bob = memory.for_user("bob")
    with pytest.raises(NotFoundError, match="does not exist for user 'bob'"):
        bob.propose_from_conversation(c)
    proposal = memory.propose_from_conversation(c)
    assert proposal is not None
    memory.publish_strategy(proposal.id)
    assert bob.find_strategies("back up the photo library") == []
    assert bob.proposed_strategies() == []
    with pytest.raises(NotFoundError, match="does not exist for user 'bob'"):
        bob.reject_strategy(proposal.id, reason="not mine")
    assert memory.find_strategies("back up the photo library")[0].strategy.status == "published"


def test_missing_ids(memory: AgentMemory) -> None:
    missing = str(uuid.uuid4())
    with pytest.raises(NotFoundError, match=f"strategy {missing} does not exist for user 'alice'"):
        memory.publish_strategy(missing)
    with pytest.raises(NotFoundError):
        memory.reject_strategy(missing)
    with pytest.raises(NotFoundError, match=f"conversation {missing} does not exist"):
        memory.propose_from_conversation(missing)
    with pytest.raises(NotFoundError):
        memory.propose_strategy("sort mail", "email triage", ["label"], from_conversation_id=missing)


def test_a_published_strategy_cannot_be_rejected_nor_a_rejected_one_published(memory: AgentMemory) -> None:
    learned = memory.learn_strategy("water the plants", "gardening", ["check_soil", "water"], None, True)
    assert learned.status == "published"  # learn_strategy publishes, as before proposals existed
    with pytest.raises(InvalidInputError, match="is published, not proposed: only a proposal can be rej"):
        memory.reject_strategy(learned.id)
    proposal = memory.propose_strategy("prune the roses", "gardening", ["cut"])
    memory.reject_strategy(proposal.id)
    with pytest.raises(InvalidInputError, match="is rejected, not proposed: only a proposal can be pub"):
        memory.publish_strategy(proposal.id)
    assert [m.strategy.id for m in memory.find_strategies("gardening", top_k=10)] == [learned.id]


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("", "pattern", ["a"]), {}),
        (("task", "   ", ["a"]), {}),
        (("task", "pattern", []), {}),
        (("task", "pattern", "abc"), {}),
        (("task", "pattern", ["a"]), {"what_failed": "ssh"}),
        (("task", "pattern", ["a"]), {"what_failed": [""]}),
        (("task", "pattern", ["a"]), {"applies_when": ""}),
        (("task", "pattern", ["a"]), {"from_conversation_id": "not-a-uuid"}),
    ],
)
def test_bad_proposals_are_refused(
    memory: AgentMemory, args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    with pytest.raises(InvalidInputError):
        memory.propose_strategy(*args, **kwargs)  # type: ignore[arg-type]
    assert memory.proposed_strategies() == []


def test_bad_review_input(memory: AgentMemory) -> None:
    proposal = memory.propose_strategy("task", "pattern", ["a", "b"])
    for call in (
        lambda: memory.publish_strategy("nope"),
        lambda: memory.reject_strategy("nope"),
        lambda: memory.reject_strategy(proposal.id, reason=""),
        lambda: memory.proposed_strategies(limit=0),
        lambda: memory.propose_from_conversation("nope"),
    ):
        with pytest.raises(InvalidInputError):
            call()
    assert memory.proposed_strategies()[0].status == "proposed"
