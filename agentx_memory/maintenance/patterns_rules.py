"""Pure decisions of the ``patterns`` job: which mined conversations reinforce which strategy, and which
tool sequences have recurred often enough to become a proposal.

A conversation is mined once. Its *pattern* is the path its tool calls took when they ended in success
(:func:`~agentx_memory.memory.procedural_pure.proposal_from_invocations`: at least two calls, the last one
successful; the tools that worked, in order, each once), else nothing. Per pattern:

- a strategy with the same tool sequence exists (published before proposed, then the oldest; a
  *rejected* one is left alone and blocks a new proposal: the user said no) → each new conversation
  counts one more success and moves ``last_used``, unless the strategy was learned from that very
  conversation (its success is already counted);
- otherwise, once the pattern has been seen in ``min_occurrences`` conversations (the ones mined
  earlier included) → one proposal, from the latest of them, credited with every occurrence;
- otherwise it waits: the conversations stay counted in the ledger for a later run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

__all__ = [
    "KnownStrategy",
    "MinedConversation",
    "PatternPlan",
    "Proposal",
    "Reinforcement",
    "matching_strategy",
    "plan_patterns",
]

Steps = tuple[str, ...]

_STATUS_ORDER = {"published": 0, "proposed": 1}


@dataclass(frozen=True)
class MinedConversation:
    """A conversation mined in this run: its successful tool path, or None when it did not succeed."""

    id: str
    channel: str
    ended_at: datetime
    steps: Steps | None


@dataclass(frozen=True)
class KnownStrategy:
    id: str
    steps: Steps
    status: str
    source_conversation_id: str | None = None


@dataclass
class Reinforcement:
    """What a strategy gains in this run: successes and the latest time its path was taken."""

    strategy_id: str
    successes: int = 0
    last_used: datetime | None = None
    conversations: list[str] = field(default_factory=list)

    def add(self, conversation: MinedConversation) -> None:
        self.successes += 1
        self.conversations.append(conversation.id)
        if self.last_used is None or conversation.ended_at > self.last_used:
            self.last_used = conversation.ended_at


@dataclass(frozen=True)
class Proposal:
    """A pattern that recurred ``occurrences`` times with no strategy yet: proposed from ``source``."""

    source: MinedConversation
    occurrences: int
    #: The other conversations of this run that took the pattern (credited by id, so that a rerun of
    #: a run that died before marking them mined finds them counted); the rest of ``occurrences``
    #: were mined and marked by earlier runs.
    others: tuple[str, ...] = ()

    def credits(self) -> dict[str, int]:
        """What the proposal credits beside its own conversation: this run's others one each, the
        earlier runs' under one key of the source's."""
        credits = dict.fromkeys(self.others, 1)
        if earlier := self.occurrences - 1 - len(self.others):
            credits[f"before:{self.source.id}"] = earlier
        return credits


@dataclass
class PatternPlan:
    reinforce: dict[str, Reinforcement] = field(default_factory=dict)
    propose: list[Proposal] = field(default_factory=list)
    #: Patterns still below the threshold → how many conversations have taken them so far.
    waiting: dict[Steps, int] = field(default_factory=dict)
    unsuccessful: int = 0
    already_counted: int = 0
    rejected: int = 0


def matching_strategy(steps: Steps, strategies: Sequence[KnownStrategy]) -> KnownStrategy | None:
    """The strategy a conversation with ``steps`` reinforces: same tool sequence, published before
    proposed before rejected, then the first given (callers pass them oldest first)."""
    same = [strategy for strategy in strategies if strategy.steps == steps]
    if not same:
        return None
    return min(same, key=lambda s: _STATUS_ORDER.get(s.status, len(_STATUS_ORDER)))


def plan_patterns(
    mined: Sequence[MinedConversation],
    strategies: Sequence[KnownStrategy],
    earlier: Mapping[Steps, int],
    min_occurrences: int,
) -> PatternPlan:
    """The plan for one user's newly ``mined`` conversations (oldest first), given their strategies
    and how many conversations mined ``earlier`` took each pattern."""
    plan = PatternPlan()
    fresh: dict[Steps, list[MinedConversation]] = {}
    for conversation in mined:
        if conversation.steps is None:
            plan.unsuccessful += 1
            continue
        match = matching_strategy(conversation.steps, strategies)
        if match is None:
            fresh.setdefault(conversation.steps, []).append(conversation)
        elif match.status == "rejected":
            plan.rejected += 1
        elif match.source_conversation_id == conversation.id:
            plan.already_counted += 1
        else:
            plan.reinforce.setdefault(match.id, Reinforcement(match.id)).add(conversation)
    for steps, conversations in fresh.items():
        occurrences = earlier.get(steps, 0) + len(conversations)
        if occurrences >= min_occurrences:
            others = tuple(conversation.id for conversation in conversations[:-1])
            plan.propose.append(Proposal(conversations[-1], occurrences, others))
        else:
            plan.waiting[steps] = occurrences
    return plan
