# Generated from agentx_memory/maintenance/patterns_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""The ``patterns`` job: recurring successful tool sequences → strategy proposals, and reinforcement of the
strategies they match. Generated from ``maintenance/patterns_async.py``: edit that file.

Each conversation is mined once, after it has been idle for ``learning.idle_minutes``: the ledger's
``conversations.patterns_extracted_at`` is its flag and ``tool_pattern`` the path it found (migration
008). What to do with the patterns is decided by :mod:`.patterns_rules`; proposals go through the
facade's idempotent ``propose_from_conversation``, credits through the procedural subsystem.
"""

from __future__ import annotations

from datetime import timedelta

from ..memory.procedural_pure import proposal_from_invocations
from ..models import Scope
from .patterns_rules import KnownStrategy, MinedConversation, PatternPlan, Steps, plan_patterns
from .runner import JobContext

__all__ = ["patterns"]


def patterns(context: JobContext) -> None:
    """Every user's newly idle conversations with tool calls are mined; see :mod:`.patterns_rules`."""
    for user_id in context.users():
        mined = _mine(context, user_id)
        if not mined:
            continue
        scope = Scope(user_id=user_id, channel="_global")
        procedural = context.backends.procedural
        strategies = [
            KnownStrategy(
                id=str(row["id"]),
                steps=tuple(row["steps"] or ()),
                status=str(row["status"]),
                source_conversation_id=row["source_conversation_id"],
            )
            for row in procedural.pattern_strategies(scope)
        ]
        earlier_rows = context.backends.ledger.fetch_all("mined_patterns", {"user_id": user_id})
        earlier = {tuple(row["steps"]): int(row["conversations"]) for row in earlier_rows}
        threshold = context.settings.maintenance.patterns_min_occurrences
        plan = plan_patterns(mined, strategies, earlier, threshold)
        _count(context, plan, len(mined))
        if context.dry_run:
            _plan_lines(context, user_id, plan, mined)
            continue
        _apply(context, user_id, plan)
        now = context.clock()
        for conversation in mined:
            context.backends.ledger.execute(
                "mark_patterns_extracted",
                {
                    "id": conversation.id,
                    "user_id": user_id,
                    "now": now,
                    "steps": None if conversation.steps is None else list(conversation.steps),
                },
            )


def _mine(context: JobContext, user_id: str) -> list[MinedConversation]:
    """The user's unmined conversations idle long enough, with their successful tool path (or None)."""
    idle_before = context.clock() - timedelta(minutes=context.settings.learning.idle_minutes)
    rows = context.backends.ledger.fetch_all(
        "conversations_to_mine", {"user_id": user_id, "idle_before": idle_before}
    )
    mined: list[MinedConversation] = []
    for row in rows:
        scope = Scope(user_id=user_id, channel=str(row["channel"]))
        calls = context.backends.procedural.conversation_invocations(scope, str(row["id"]))
        found = proposal_from_invocations(calls)
        steps: Steps | None = None if found is None else tuple(found[0])
        mined.append(MinedConversation(str(row["id"]), scope.channel, row["ended_at"], steps))
    return mined


def _count(context: JobContext, plan: PatternPlan, mined: int) -> None:
    tally = context.tally
    tally.count("conversations", mined)
    tally.count("unsuccessful", plan.unsuccessful)
    tally.count("proposed", len(plan.propose))
    tally.count("reinforced", sum(item.successes for item in plan.reinforce.values()))
    tally.count("waiting", len(plan.waiting))
    tally.count("already_counted", plan.already_counted)
    tally.count("rejected_match", plan.rejected)


def _plan_lines(context: JobContext, user_id: str, plan: PatternPlan, mined: list[MinedConversation]) -> None:
    for proposal in plan.propose:
        steps = " → ".join(proposal.source.steps or ())
        context.tally.plan(
            f"propose {user_id}/{proposal.source.id}: {steps} ({proposal.occurrences} conversations)"
        )
    for item in plan.reinforce.values():
        context.tally.plan(f"reinforce {user_id}/{item.strategy_id} +{item.successes}")
    for conversation in mined:
        context.tally.plan(f"mined {user_id}/{conversation.id}")


def _apply(context: JobContext, user_id: str, plan: PatternPlan) -> None:
    scope = Scope(user_id=user_id, channel="_global")
    procedural = context.backends.procedural
    now = context.clock()
    for proposal in plan.propose:
        memory = context.for_user(user_id, proposal.source.channel)
        strategy = memory.propose_from_conversation(proposal.source.id)
        if strategy is None:  # cannot happen for a mined path; nothing to credit
            continue
        # The proposal counts its own conversation; the other occurrences are credited in one write.
        procedural.record_use(scope, strategy.id, proposal.credits(), proposal.source.ended_at, now)
    for item in plan.reinforce.values():
        if item.last_used is not None:
            credits = dict.fromkeys(item.conversations, 1)
            procedural.record_use(scope, item.strategy_id, credits, item.last_used, now)
