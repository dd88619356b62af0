"""Run the memory tools of :mod:`.specs` against a facade. Async source of ``handlers.py``.

:func:`run_tool` validates a call's arguments with the tool's input model, calls the facade's public
methods and returns JSON-ready data. Every refusal is an :class:`~agentx_memory.errors.AgentMemoryError`
(bad arguments an :class:`~agentx_memory.errors.InvalidInputError`), so a caller turns errors into tool
errors in one place. Consolidation is slow, so it runs in the background (a task here, a thread in the
sync twin) and is followed through :class:`AsyncConsolidationJobs`.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from .._compat.aio import background, drain
from ..errors import AgentMemoryError, InvalidInputError, NotFoundError
from ..facade_async import AsyncAgentMemory
from ..models.learning import ConsolidationReport
from .specs import (
    TOOLS_BY_NAME,
    AddEntityInput,
    AddGoalInput,
    AddMemoryInput,
    CompleteGoalInput,
    ConfirmFactInput,
    ConsolidateInput,
    CorrectFactInput,
    ForgetConversationInput,
    ForgetFactInput,
    ForgetUserInput,
    GetContextInput,
    GetEntityInput,
    JobStatusInput,
    LearnFactInput,
    ListFactsInput,
    ListGoalsInput,
    RecentMessagesInput,
    RelateEntitiesInput,
    RememberInput,
    SearchFactsInput,
)

__all__ = ["AsyncConsolidationJobs", "JobRecord", "run_tool"]

log = logging.getLogger(__name__)

#: Finished job records kept per registry (the oldest go first).
_KEEP_FINISHED = 1000


class JobRecord(BaseModel):
    """One background consolidation, as ``consolidation_status`` reports it."""

    job_id: str
    conversation_id: str
    status: Literal["running", "done", "failed"] = "running"
    started_at: datetime
    finished_at: datetime | None = None
    #: What the run learned (its own status says ``done``, ``skipped`` or ``locked``).
    report: ConsolidationReport | None = None
    error: str | None = None


class AsyncConsolidationJobs:
    """The consolidation jobs one server (or dispatcher) started, by id, each tied to its user.

    A job's failure is caught and kept as its status, never lost in a background task; another user's
    job ids are indistinguishable from unknown ones.
    """

    def __init__(self) -> None:
        self._jobs: dict[tuple[str, str], JobRecord] = {}
        self._pending: set[Any] = set()

    async def start(self, memory: AsyncAgentMemory, conversation_id: str) -> JobRecord:
        """Check the conversation is this user's, record a running job and start it in the background."""
        if not await memory.get_conversation(conversation_id):
            raise NotFoundError(
                f"conversation {conversation_id} has no turns for user {memory.scope.user_id!r}"
            )
        job = JobRecord(
            job_id=str(uuid.uuid4()), conversation_id=conversation_id, started_at=datetime.now(UTC)
        )
        self._forget_oldest()
        self._jobs[memory.scope.user_id, job.job_id] = job
        background(self._run, self._pending, memory, job)
        return job

    def status(self, user_id: str, job_id: str) -> JobRecord:
        """The job's record; :class:`NotFoundError` for an unknown id or another user's job."""
        job = self._jobs.get((user_id, job_id.strip().lower()))
        if job is None:
            raise NotFoundError(f"no consolidation job {job_id!r} for user {user_id!r} on this server")
        return job

    async def drain(self) -> None:
        """Wait for the jobs still running (at shutdown)."""
        await drain(self._pending)

    async def _run(self, memory: AsyncAgentMemory, job: JobRecord) -> None:
        key = (memory.scope.user_id, job.job_id)
        update: dict[str, Any]
        try:
            report = await memory.consolidate_conversation(job.conversation_id)
        except AgentMemoryError as exc:
            update = {"status": "failed", "error": str(exc)}
        except Exception:  # a background job must report, not vanish
            log.exception("consolidation job %s failed unexpectedly", job.job_id)
            update = {"status": "failed", "error": "unexpected error: the server log has the details"}
        else:
            failed = report.status == "failed"
            update = {"status": "failed" if failed else "done", "report": report, "error": report.error}
        update["finished_at"] = datetime.now(UTC)
        self._jobs[key] = job.model_copy(update=update)

    def _forget_oldest(self) -> None:
        finished = [key for key, job in self._jobs.items() if job.status != "running"]
        for key in finished[: max(0, len(finished) - _KEEP_FINISHED + 1)]:
            del self._jobs[key]


def _dump(model: BaseModel) -> dict[str, Any]:
    # The user is implied by the server; empty fields only cost the model tokens.
    return model.model_dump(mode="json", exclude={"user_id"}, exclude_none=True)


async def _add_memory(memory: AsyncAgentMemory, args: AddMemoryInput) -> dict[str, Any]:
    conversation_id = args.conversation_id
    new = conversation_id is None
    if conversation_id is None:
        conversation_id = await memory.new_conversation(title=args.title)
    turn = await memory.store_turn(conversation_id, args.role, args.content, metadata=args.metadata)
    return {
        "conversation_id": conversation_id,
        "new_conversation": new,
        "turn_id": turn.id,
        "turn_index": turn.index,
        "timestamp": turn.timestamp.isoformat(),
    }


async def _remember(memory: AsyncAgentMemory, args: RememberInput) -> dict[str, Any]:
    bundle = await memory.remember(
        args.query,
        args.top_k,
        include_episodic=args.include_episodic,
        include_semantic=args.include_semantic,
        include_procedural=args.include_procedural,
        time_window_hours=args.time_window_hours,
    )
    return {"query": bundle.query, "memories": [_dump(item) for item in bundle.items]}


async def _get_context(memory: AsyncAgentMemory, args: GetContextInput) -> dict[str, Any]:
    text = await memory.get_context(
        args.prompt, budget_tokens=args.budget_tokens, conversation_id=args.conversation_id
    )
    return {"context": text}


async def _search_facts(memory: AsyncAgentMemory, args: SearchFactsInput) -> dict[str, Any]:
    hits = await memory.search_facts(args.query, args.top_k, args.min_confidence)
    return {"facts": [{**_dump(fact), "similarity": round(score, 4)} for fact, score in hits]}


async def _learn_fact(memory: AsyncAgentMemory, args: LearnFactInput) -> dict[str, Any]:
    fact = await memory.learn_fact(
        args.claim,
        confidence=args.confidence,
        source=args.source,
        about=args.about,
        temporal=args.temporal,
        priority=args.priority,
    )
    return {"fact": _dump(fact)}


async def _relate(memory: AsyncAgentMemory, args: RelateEntitiesInput) -> dict[str, Any]:
    # by name, alias or id, as get_entity finds them: an unknown one is a NotFoundError naming it
    source = (await memory.get_entity_info(args.source)).entity
    target = (await memory.get_entity_info(args.target)).entity
    edge = await memory.create_relationship(source.id, target.id, args.relation)
    return {"relationship": _dump(edge), "source": source.name, "target": target.name}


async def run_tool(
    memory: AsyncAgentMemory,
    name: str,
    arguments: Mapping[str, Any] | None,
    jobs: AsyncConsolidationJobs,
) -> dict[str, Any]:
    """Run tool ``name`` for ``memory``'s user with ``arguments`` (a JSON object); JSON-ready result.

    Raises :class:`InvalidInputError` for an unknown tool or arguments its input model refuses, and
    whatever the facade raises (every one an :class:`AgentMemoryError`).
    """
    spec = TOOLS_BY_NAME.get(name)
    if spec is None:
        raise InvalidInputError(f"unknown tool {name!r}: the tools are {', '.join(sorted(TOOLS_BY_NAME))}")
    try:
        args = spec.input_model.model_validate(dict(arguments or {}))
    except ValidationError as exc:
        raise InvalidInputError(f"invalid arguments for {name}: {_explain(exc)}") from None
    return await _call(memory, args, jobs)


async def _call(memory: AsyncAgentMemory, args: BaseModel, jobs: AsyncConsolidationJobs) -> dict[str, Any]:
    match args:
        case AddMemoryInput():
            return await _add_memory(memory, args)
        case RememberInput():
            return await _remember(memory, args)
        case GetContextInput():
            return await _get_context(memory, args)
        case SearchFactsInput():
            return await _search_facts(memory, args)
        case GetEntityInput():
            return _dump(await memory.get_entity_info(args.name_or_id))
        case AddEntityInput():
            entity = await memory.upsert_entity(args.name, args.type, args.aliases, args.description)
            return {"entity": _dump(entity)}
        case RelateEntitiesInput():
            return await _relate(memory, args)
        case LearnFactInput():
            return await _learn_fact(memory, args)
        case CorrectFactInput():
            fact = await memory.correct_fact(args.fact_id, args.new_claim)
            return {"fact": _dump(fact), "supersedes": args.fact_id}
        case ConfirmFactInput():
            return {"fact": _dump(await memory.confirm_fact(args.fact_id))}
        case ForgetFactInput():
            _confirmed("forget_fact", args.confirm)
            return {"forgotten": args.fact_id, "deleted": await memory.forget_fact(args.fact_id)}
        case ForgetConversationInput():
            _confirmed("forget_conversation", args.confirm)
            deleted = await memory.forget_conversation(args.conversation_id)
            return {"forgotten": args.conversation_id, "deleted": deleted}
        case ForgetUserInput():
            _confirmed("forget_user", args.confirm)
            return {"forgotten": "user", "deleted": await memory.forget_user()}
        case AddGoalInput():
            goal = await memory.add_goal(args.description, args.priority, args.deadline, args.parent_id)
            return {"goal": _dump(goal)}
        case CompleteGoalInput():
            return {"goal": _dump(await memory.complete_goal(args.goal_id, args.status, args.result))}
        case ListGoalsInput():
            return {"goals": [_dump(goal) for goal in await memory.active_goals(args.limit)]}
        case ListFactsInput():
            facts = await memory.list_facts(args.limit, args.offset, args.include_history)
            return {"facts": [_dump(fact) for fact in facts]}
        case RecentMessagesInput():
            turns = await memory.get_recent_turns(args.hours, args.limit)
            return {"messages": [_dump(turn) for turn in turns]}
        case ConsolidateInput():
            return _dump(await jobs.start(memory, args.conversation_id))
        case JobStatusInput():
            return _dump(jobs.status(memory.scope.user_id, args.job_id))
    raise AssertionError(f"no handler for {type(args).__name__}")  # every spec has a case above


def _confirmed(name: str, confirm: bool) -> None:
    if not confirm:
        raise InvalidInputError(
            f"{name} deletes for good: nothing was deleted. Ask the user, then call it with confirm=true"
        )


def _explain(exc: ValidationError) -> str:
    """Pydantic's errors on one line each, without the input values echoed back."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"]) or "arguments"
        parts.append(f"{where}: {error['msg']}")
    return "; ".join(parts)
