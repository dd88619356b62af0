"""The memory tools an agent can call: names, descriptions, typed inputs and behaviour hints, as data.

The one source of truth for the MCP server (:mod:`.mcp`) and the function-calling schemas of
:mod:`.tools`. Each tool's input is a pydantic model whose field descriptions are written for an LLM;
the handlers that run them live in :mod:`.handlers_async` (and its generated sync twin). No I/O here.

Names follow the field's memory servers: ``add_memory`` / ``search_facts`` / ``get_entity`` as in
graphiti's and mem0's, recall and context as this library calls them, a job id and a status tool for
slow work (graphiti queues its adds the same way).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models.semantic import EntityRelationship, EntityType

__all__ = ["TOOLS", "TOOLS_BY_NAME", "ToolSpec"]


class _Input(BaseModel):
    # A misspelt argument is an error the model can read and fix, not a silently ignored value.
    model_config = ConfigDict(extra="forbid")


_CONVERSATION_ID = "The conversation's id (a UUID), as returned by add_memory."
_FACT_ID = "The fact's id (a UUID), as returned by search_facts, remember or learn_fact."


class AddMemoryInput(_Input):
    content: str = Field(description="The text to remember: one message of the conversation, verbatim.")
    role: Literal["user", "assistant", "system", "tool"] = Field(
        "user", description="Who said it: 'user' for what the user said, 'assistant' for your own replies."
    )
    conversation_id: str | None = Field(
        None,
        description="Add to this conversation (a UUID from an earlier add_memory). Omit to start a new "
        "conversation; its id comes back in the result.",
    )
    title: str | None = Field(None, description="A short title for a new conversation (ignored otherwise).")
    metadata: dict[str, Any] | None = Field(
        None, description="Optional JSON attributes kept with the turn (e.g. {'speaker': 'Ana'})."
    )


class RememberInput(_Input):
    query: str = Field(description="What to recall, in natural language (a question works best).")
    top_k: int = Field(10, ge=1, le=200, description="How many memories to return at most.")
    include_episodic: bool = Field(True, description="Search past conversation turns.")
    include_semantic: bool = Field(True, description="Search facts and entities (people, places, things).")
    include_procedural: bool = Field(True, description="Search strategies that worked and open goals.")
    time_window_hours: float | None = Field(
        None, gt=0, description="Only memories from this many hours back (omit for all time)."
    )


class GetContextInput(_Input):
    prompt: str = Field(description="The user's current message or task: the context is chosen for it.")
    budget_tokens: int = Field(
        1500, ge=128, le=32_000, description="The most tokens the returned markdown block may take."
    )
    conversation_id: str | None = Field(
        None,
        description="The conversation in progress (its own turns are left out, since you already have them).",
    )


class SearchFactsInput(_Input):
    query: str = Field(description="What the facts should be about, in natural language.")
    top_k: int = Field(10, ge=1, le=200, description="How many facts to return at most.")
    min_confidence: float = Field(0.0, ge=0, le=1, description="Leave out facts less certain than this.")


class GetEntityInput(_Input):
    name_or_id: str = Field(
        description="The entity's name or one of its aliases (e.g. 'Lisbon', 'Ana'), or its id."
    )


class AddEntityInput(_Input):
    name: str = Field(description="The name of the person, place, organisation or thing, e.g. 'Ana'.")
    type: EntityType = Field(description="What it is.")
    aliases: list[str] = Field(default_factory=list, description="Other names it goes by.")
    description: str | None = Field(None, description="One sentence saying who or what it is.")


class RelateEntitiesInput(_Input):
    source: str = Field(description="The first entity's name, alias or id (e.g. 'Ana').")
    relation: EntityRelationship = Field(
        description="How the first relates to the second, read source → target: Ana WORKS_FOR Acme, "
        "Porto LOCATED_IN Portugal, Ana KNOWS Ben."
    )
    target: str = Field(description="The second entity's name, alias or id (e.g. 'Acme').")


class LearnFactInput(_Input):
    claim: str = Field(description="The fact as one self-contained sentence, e.g. 'Ana is allergic to nuts'.")
    about: list[str] = Field(
        default_factory=list,
        description="Names (or ids) of the people, places or things it is about; unknown names become "
        "new entities.",
    )
    confidence: float = Field(0.9, ge=0, le=1, description="How sure the fact is, from 0 to 1.")
    source: Literal["user", "agent", "inferred"] = Field(
        "user",
        description="'user' when the user stated it (such facts never fade), 'agent' when you "
        "established it, 'inferred' when you concluded it.",
    )
    temporal: Literal["current", "past", "future", "timeless"] = Field(
        "current", description="Whether it is true now, was true, will be true, or is always true."
    )
    priority: Literal["low", "medium", "high", "critical"] = Field(
        "medium", description="How much it matters when memory is short."
    )


class CorrectFactInput(_Input):
    fact_id: str = Field(description=_FACT_ID)
    new_claim: str = Field(
        description="The corrected fact as one sentence; the old one is kept as history, superseded."
    )


class ConfirmFactInput(_Input):
    fact_id: str = Field(description=_FACT_ID)


def _confirm(what: str) -> Any:
    # Required, no default: a model must set it on purpose, after asking the user.
    return Field(
        description=f"Must be true: deleting {what} cannot be undone. Set it only after the user "
        "asked for it or confirmed it."
    )


class ForgetFactInput(_Input):
    fact_id: str = Field(description=_FACT_ID)
    confirm: bool = _confirm("the fact and its correction history")


class ForgetConversationInput(_Input):
    conversation_id: str = Field(description=_CONVERSATION_ID)
    confirm: bool = _confirm("the conversation, its turns and what was learned only from them")


class ForgetUserInput(_Input):
    confirm: bool = _confirm("everything remembered about the user")


class AddGoalInput(_Input):
    description: str = Field(description="What the user (or you) want to achieve, as one sentence.")
    priority: int = Field(
        0, ge=-1000, le=1000, description="Higher comes first among active goals; 0 is normal."
    )
    deadline: datetime | None = Field(None, description="When it is due, ISO 8601 (e.g. 2026-05-03T09:00Z).")
    parent_id: str | None = Field(None, description="Make it a subgoal of this goal id.")


class CompleteGoalInput(_Input):
    goal_id: str = Field(description="The goal's id (a UUID), as returned by add_goal or list_active_goals.")
    status: Literal["completed", "abandoned", "blocked"] = Field(
        "completed", description="'completed' when done, 'abandoned' when given up, 'blocked' when stuck."
    )
    result: str | None = Field(None, description="What came of it, in a sentence (optional).")


class ListGoalsInput(_Input):
    limit: int = Field(20, ge=1, le=200, description="How many goals to return at most.")


class ListFactsInput(_Input):
    limit: int = Field(50, ge=1, le=200, description="How many facts to return at most, newest first.")
    offset: int = Field(0, ge=0, description="Skip this many (for the next page).")
    include_history: bool = Field(
        False, description="Also the facts that were corrected or replaced (their valid_until is set)."
    )


class RecentMessagesInput(_Input):
    hours: float = Field(24, gt=0, le=24 * 365, description="How far back to look, in hours.")
    limit: int = Field(20, ge=1, le=200, description="How many messages to return at most, newest first.")


class ConsolidateInput(_Input):
    conversation_id: str = Field(description=_CONVERSATION_ID)


class JobStatusInput(_Input):
    job_id: str = Field(description="The job id consolidate_conversation returned.")


@dataclass(frozen=True)
class ToolSpec:
    """One tool: what an LLM reads (name, description, input schema) and how a client may treat it."""

    name: str
    title: str
    description: str
    input_model: type[BaseModel]
    #: Changes nothing (MCP ``readOnlyHint``).
    read_only: bool
    #: May delete or overwrite what was stored (``destructiveHint``); meaningful for writes only.
    destructive: bool = False
    #: Calling it twice with the same arguments has no further effect (``idempotentHint``).
    idempotent: bool = False

    def input_schema(self) -> dict[str, Any]:
        """The input's JSON Schema (draft 2020-12, as pydantic writes it; no ``title`` noise at the top)."""
        schema = self.input_model.model_json_schema()
        schema.pop("title", None)
        return schema


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "add_memory",
        "Add a memory",
        "Store one message of a conversation in long-term memory (durable at once, searchable at once). "
        "Call it for what the user tells you and for your replies worth keeping. Omit conversation_id to "
        "start a new conversation and reuse the returned id for the following messages. Facts are learned "
        "from a conversation later (see consolidate_conversation).",
        AddMemoryInput,
        read_only=False,
    ),
    ToolSpec(
        "remember",
        "Recall memories",
        "Search everything remembered about the user for a query: past conversation turns, facts, people "
        "and things, strategies and goals, best first, each with its kind, id, score and date. Use it "
        "before answering anything that may depend on earlier sessions.",
        RememberInput,
        read_only=True,
    ),
    ToolSpec(
        "get_context",
        "Get memory context",
        "A markdown block of what memory knows that is relevant to the prompt (facts, past conversation, "
        "strategies, active goals, people and things), within a token budget, ready to read before you "
        "answer. Empty when nothing is relevant.",
        GetContextInput,
        read_only=True,
    ),
    ToolSpec(
        "search_facts",
        "Search facts",
        "Find the current facts (statements believed true) closest in meaning to a query, with their "
        "confidence, source and similarity. Corrected facts are left out.",
        SearchFactsInput,
        read_only=True,
    ),
    ToolSpec(
        "get_entity",
        "Get an entity",
        "Everything known about one person, place, organisation or thing, by name, alias or id: its "
        "description, current facts about it, related entities and the turns that mention it.",
        GetEntityInput,
        read_only=True,
    ),
    ToolSpec(
        "add_entity",
        "Add an entity",
        "Record a person, place, organisation or thing the user talks about, with its aliases and a short "
        "description. Merged into the existing entity when it is already known (same name or alias), so "
        "it is safe to call for every mention.",
        AddEntityInput,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        "relate_entities",
        "Relate two entities",
        "Record how two known entities relate (Ana WORKS_FOR Acme, Porto LOCATED_IN Portugal), by name or "
        "id; add_entity first for one that is not known yet. Recording it again changes nothing.",
        RelateEntitiesInput,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        "learn_fact",
        "Learn a fact",
        "Store a fact you want remembered exactly, linked to the entities it is about. Prefer it for "
        "durable preferences and personal details the user states. Returns the fact with its id.",
        LearnFactInput,
        read_only=False,
    ),
    ToolSpec(
        "correct_fact",
        "Correct a fact",
        "Replace a fact that turned out wrong or outdated by a corrected one. The old fact is kept as "
        "history (superseded), not deleted; only a current fact can be corrected.",
        CorrectFactInput,
        read_only=False,
        destructive=True,
    ),
    ToolSpec(
        "confirm_fact",
        "Confirm a fact",
        "Mark a fact as confirmed by the user: its confidence becomes 1 and it never fades.",
        ConfirmFactInput,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        "forget_fact",
        "Forget a fact",
        "Delete a fact for good, with its correction history, from every store. Only when the user asks "
        "you to forget it (confirm=true); to fix a wrong fact use correct_fact.",
        ForgetFactInput,
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        "forget_conversation",
        "Forget a conversation",
        "Delete a conversation for good from every store: its turns, and the facts and entities learned "
        "only from it. Only when the user asks you to (confirm=true).",
        ForgetConversationInput,
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        "forget_user",
        "Forget everything",
        "Delete everything remembered about the user, from every store: conversations, facts, entities, "
        "goals, strategies, profile. Only when the user asks you to forget them entirely and confirmed "
        "it (confirm=true). Memory starts empty afterwards.",
        ForgetUserInput,
        read_only=False,
        destructive=True,
        idempotent=True,
    ),
    ToolSpec(
        "add_goal",
        "Add a goal",
        "Record a goal the user is working towards (optionally a subgoal of another, with a priority and "
        "deadline); it stays active until complete_goal.",
        AddGoalInput,
        read_only=False,
    ),
    ToolSpec(
        "complete_goal",
        "Complete a goal",
        "Close an active goal as completed or abandoned, or mark it blocked, with an optional result.",
        CompleteGoalInput,
        read_only=False,
        destructive=True,
    ),
    ToolSpec(
        "list_active_goals",
        "List active goals",
        "The user's active and blocked goals, highest priority first, then oldest.",
        ListGoalsInput,
        read_only=True,
    ),
    ToolSpec(
        "list_facts",
        "List facts",
        "Every fact known about the user, newest first, page by page (search_facts finds them by "
        "meaning instead). With include_history, also the facts later corrected.",
        ListFactsInput,
        read_only=True,
    ),
    ToolSpec(
        "recent_messages",
        "Recent messages",
        "The user's latest conversation messages across conversations, newest first (what was said "
        "lately, not what is relevant: remember is for that).",
        RecentMessagesInput,
        read_only=True,
    ),
    ToolSpec(
        "consolidate_conversation",
        "Consolidate a conversation",
        "Learn facts, entities and relationships from a conversation's new messages. Runs in the "
        "background: answers at once with a job_id; call consolidation_status with it to see the "
        "result. Safe to repeat (messages already learned from are skipped).",
        ConsolidateInput,
        read_only=False,
        idempotent=True,
    ),
    ToolSpec(
        "consolidation_status",
        "Consolidation status",
        "The state of a consolidate_conversation job: running, done (with what was learned) or failed "
        "(with the error).",
        JobStatusInput,
        read_only=True,
    ),
)

TOOLS_BY_NAME: dict[str, ToolSpec] = {spec.name: spec for spec in TOOLS}
