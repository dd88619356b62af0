"""Facade methods that learn from conversations. Async source of ``api/learning.py``.

``consolidate_conversation`` pages through the turns not yet learned from, extracts (one LLM call per
chunk when one is configured, the offline rules otherwise), and writes what it learned through the
same subsystems as the public API (:mod:`.learning_write_async`). A conversation's lock in Redis keeps
two runs apart; the ledger's watermark makes the whole thing idempotent: turns below it are never read
again, and a chunk that fails is left for the next run.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from .._compat.aio import background, sleep, to_thread
from ..backends_async import AsyncBackends
from ..errors import AgentMemoryError, ConflictError, InvalidInputError, NotFoundError
from ..extraction.atoms import Extraction
from ..extraction.learning_pure import speaker_of
from ..extraction.llm_extract import EXTRACTION_SCHEMA, EXTRACTION_SYSTEM, extraction_prompt, parse_extraction
from ..extraction.names import NameRecognizer, ParsedAhead, name_recognizer
from ..extraction.rules import TurnText, extract_turns, parsed_texts
from ..llm import LLM
from ..memory.episodic_pure import PendingConversation
from ..models.learning import ConsolidationReport, ContradictionReview
from ..stores import keys
from ..validation import is_one_of, validate_top_k, validate_uuid
from .learning_write_async import WRITE_LEASE_S, AsyncLearningWrites

__all__ = ["AsyncLearningApi"]

log = logging.getLogger(__name__)

#: How long a job record stays readable (``consolidation_status``).
_JOB_TTL_S = 86_400


#: How often a consolidation waiting to write a user's facts asks again (seconds).
_WRITE_POLL_S = 0.05


class AsyncLearningApi(AsyncLearningWrites):
    """Learning methods of ``AsyncAgentMemory``: consolidation, corrections under review."""

    async def consolidate_conversation(self, conversation_id: str) -> ConsolidationReport:
        """Learn entities, facts, relationships and profile entries from a conversation's new turns.

        Idempotent: turns already consolidated are not read again, so a second call reports
        ``skipped`` and changes nothing. Returns ``locked`` while another run holds the conversation.
        """
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = await self._open_backends()
        state = await backends.episodic.consolidation_state(self.scope, conversation_id)
        if state is None:
            raise NotFoundError(
                f"conversation {conversation_id} does not exist for user {self.scope.user_id!r}"
            )
        return await self._consolidate(backends, state, str(uuid.uuid4()))

    async def consolidation_status(self, job_id: str) -> ConsolidationReport | None:
        """The record of a consolidation job of this user (kept a day), or None."""
        job_id = validate_uuid(job_id, "job_id")
        backends = await self._open_backends()
        raw = await backends.redis.get_value(keys.consolidation_job(self._prefix, self.scope.user_id, job_id))
        return None if raw is None else ConsolidationReport.model_validate_json(raw)

    async def consolidate_pending(
        self, *, exclude: str | None = None, idle_only: bool = False
    ) -> list[ConsolidationReport]:
        """Consolidate this user's conversations with unlearned turns (except ``exclude``); with
        ``idle_only``, only those idle for ``learning.idle_minutes``. What the background trigger and
        the scheduled job run."""
        backends = await self._open_backends()
        idle_s = self.settings.learning.idle_minutes * 60
        now = datetime.now(UTC)
        reports = []
        for pending in await backends.episodic.to_consolidate(self.scope):
            if pending.id == exclude:
                continue
            idle = pending.last_turn_at is not None and (now - pending.last_turn_at).total_seconds() >= idle_s
            if idle_only and not idle:
                continue
            reports.append(await self._consolidate(backends, pending, str(uuid.uuid4())))
        return reports

    async def review_queue(self, limit: int = 50) -> list[ContradictionReview]:
        """Contradictions between current facts waiting for a decision, oldest first."""
        limit = validate_top_k(limit, self.settings.limits, "limit")
        backends = await self._open_backends()
        facts = backends.facts
        pairs = await facts.review_queue(self.scope, limit)
        found = {
            fact.id: fact for fact in await facts.get_many(self.scope, [i for p in pairs for i in p[:2]])
        }
        return [
            ContradictionReview(new=found[new], old=found[old], reason=reason)
            for new, old, reason in pairs
            if new in found and old in found
        ]

    async def resolve_contradiction(self, new_id: str, old_id: str, keep: str) -> None:
        """Decide a contradiction: ``keep='new'`` supersedes the old fact, ``'old'`` retires the new
        one, ``'both'`` keeps both current (they were not in conflict after all)."""
        new_id = validate_uuid(new_id, "new_id")
        old_id = validate_uuid(old_id, "old_id")
        if not is_one_of(keep, ("new", "old", "both")):
            raise InvalidInputError(f"keep must be 'new', 'old' or 'both', not {keep!r}")
        backends = await self._open_backends()
        facts = backends.facts
        if not await facts.close_contradiction(self.scope, new_id, old_id, f"kept_{keep}"):
            raise NotFoundError(f"no contradiction under review between {new_id} and {old_id}")
        if keep != "both":
            loser, winner = (old_id, new_id) if keep == "new" else (new_id, old_id)
            await facts.retire(self.scope, loser, winner)
        await backends.audit.log_write(
            self.scope, "resolve_contradiction", "fact", new_id, {"old_id": old_id, "keep": keep}
        )

    # -- the run -----------------------------------------------------------------------------------

    def _queue_consolidation(self, backends: AsyncBackends, exclude: str) -> None:
        """Session switch: consolidate the user's earlier conversations in the background."""
        if self.settings.learning.auto_consolidate:
            background(self._consolidate_quietly, backends.pending, exclude)

    async def _consolidate_quietly(self, exclude: str) -> None:
        # In the background nobody can catch an error: log it, the next trigger retries.
        try:
            await self.consolidate_pending(exclude=exclude)
        except AgentMemoryError as exc:
            log.warning("background consolidation for user %s failed: %s", self.scope.user_id, exc)

    async def _consolidate(
        self, backends: AsyncBackends, state: PendingConversation, job_id: str
    ) -> ConsolidationReport:
        report = ConsolidationReport(conversation_id=state.id, job_id=job_id)
        if not state.pending:
            return report.model_copy(update={"status": "skipped"})
        lock = keys.consolidation_lock(self._prefix, self.scope.user_id, state.id)
        if not await backends.redis.acquire(lock, job_id, self.settings.learning.lock_seconds):
            return report.model_copy(update={"status": "locked"})
        started = time.perf_counter()
        try:
            report = await self._run_chunks(backends, state, report)
        finally:
            await backends.redis.release(lock, job_id)
        report = report.model_copy(update={"duration_ms": round((time.perf_counter() - started) * 1000, 1)})
        await backends.redis.set_value(
            keys.consolidation_job(self._prefix, self.scope.user_id, job_id),
            report.model_dump_json(),
            _JOB_TTL_S,
        )
        await backends.audit.log_write(
            self.scope,
            "consolidate_conversation",
            "conversation",
            state.id,
            report.model_dump(exclude={"conversation_id"}),
        )
        return report

    async def _run_chunks(
        self, backends: AsyncBackends, state: PendingConversation, report: ConsolidationReport
    ) -> ConsolidationReport:
        chunk = self.settings.learning.chunk_turns
        position = state.consolidated_turns
        # Re-read the watermark under the lock: a run that finished meanwhile moved it.
        fresh = await backends.episodic.consolidation_state(self.scope, state.id)
        if fresh is not None:
            position = max(position, fresh.consolidated_turns)
        echoed = await self._echoed(backends, state.id)
        known = await backends.entities.names(self.scope)
        speaker = await self._user_name(backends)
        status = "skipped" if position >= state.next_turn_index else "done"
        while True:
            turns = await backends.episodic.turns_from(self.scope, state.id, position, chunk)
            if not turns:
                break
            texts = [
                TurnText(t.id, t.role, t.content, t.timestamp, speaker_of(t.role, t.metadata, speaker))
                for t in turns
            ]
            extraction, report = await self._extract(backends, texts, known, echoed, report)
            if extraction is None:
                status = "failed"
                break
            async with backends.episodic.learning_from(self.scope, [t.id for t in turns]) as present:
                if not present:  # forgotten meanwhile: learn nothing from it; a later run re-reads
                    status = "skipped"
                    break
                async with self._writing(backends) as lease:
                    report = await self._apply(backends, texts, extraction, known, report, lease)
                position = turns[-1].index + 1
                await backends.episodic.advance_consolidation(self.scope, state.id, position)
            speaker = await self._user_name(backends)
            report = report.model_copy(
                update={"turns_read": report.turns_read + len(turns), "chunks": report.chunks + 1}
            )
        if status == "done" and (await self._propose_from_conversation(backends, state.id))[1]:
            report = report.model_copy(update={"strategies_proposed": report.strategies_proposed + 1})
        return report.model_copy(update={"status": status})

    @asynccontextmanager
    async def _writing(self, backends: AsyncBackends) -> AsyncIterator[tuple[str, str]]:
        """One consolidation at a time writes a user's facts: two conversations learned at once (the
        background learner and a worker) would each compare with what the other has not written yet,
        and both values of a slot would stay current. Reading and extracting stay concurrent. The lock
        is a short lease the writer renews with every fact (``(key, token)`` is yielded for it), so a
        writer that died holding it (a killed worker, a store restarted mid-write) holds it seconds,
        not ``learning.lock_seconds``."""
        key = keys.consolidation_writes(self._prefix, self.scope.user_id)
        token = str(uuid.uuid4())
        seconds = self.settings.learning.lock_seconds
        deadline = time.monotonic() + seconds
        while not await backends.redis.acquire(key, token, WRITE_LEASE_S):
            if time.monotonic() > deadline:
                raise ConflictError(
                    f"another consolidation has been writing user {self.scope.user_id!r}'s memory for "
                    f"{seconds} s (learning.lock_seconds); retry, or run `agentx-memory doctor`"
                )
            await sleep(_WRITE_POLL_S)
        try:
            yield key, token
        finally:
            await backends.redis.release(key, token)

    async def _extract(
        self,
        backends: AsyncBackends,
        turns: list[TurnText],
        known: dict[str, str],
        echoed: frozenset[str],
        report: ConsolidationReport,
    ) -> tuple[Extraction | None, ConsolidationReport]:
        """The chunk's extraction: the rules offline; with an LLM one structured call, retried once
        when the answer is malformed, else None (the chunk stays unconsolidated, logged)."""
        recognizer = name_recognizer(self.settings.learning.names)
        if recognizer is not None:
            recognizer = await self._parse_ahead(backends, recognizer, turns, echoed)
        # gates (and the offline extraction, names by spaCy when installed)
        gated = extract_turns(turns, known.keys(), echoed, recognizer, parse=self.settings.learning.parse)
        llm = backends.llm
        if llm is None:
            return gated, report
        allowed = [turn for turn in turns if turn.id not in gated.refused]
        extraction: Extraction | None = Extraction(refused=gated.refused, flagged=gated.flagged)
        if allowed:
            extraction, report = await self._llm_extract(llm, allowed, report)
            if extraction is not None:
                extraction = extraction.model_copy(
                    update={"refused": gated.refused, "flagged": gated.flagged}
                )
        return extraction, report.model_copy(update={"extractor": llm.model_id})

    async def _parse_ahead(
        self,
        backends: AsyncBackends,
        recognizer: NameRecognizer,
        turns: list[TurnText],
        echoed: frozenset[str],
    ) -> NameRecognizer:
        """The chunk's parses, one turn at a time, yielding to the caller between them: the whole
        chunk's batch was ~200 ms of CPU in one piece (20 turns), ~10 ms a turn."""
        parses: dict[str, object] = {}
        for text in parsed_texts(turns, echoed):
            if text not in parses:
                await self._yield_to_callers(backends)
                parses[text] = recognizer.parse([text])[0]
        return ParsedAhead(recognizer, parses)

    async def _llm_extract(
        self, llm: LLM, turns: list[TurnText], report: ConsolidationReport
    ) -> tuple[Extraction | None, ConsolidationReport]:
        prompt = extraction_prompt(turns)
        error = ""
        for _attempt in range(2):
            try:
                answer = await to_thread(
                    llm.complete_structured,
                    prompt,
                    schema=EXTRACTION_SCHEMA,
                    name="record_memories",
                    system=EXTRACTION_SYSTEM,
                    max_tokens=self.settings.learning.max_output_tokens,
                )
            except AgentMemoryError as exc:
                report = report.model_copy(update={"llm_calls": report.llm_calls + 1})
                error = str(exc)
                continue
            report = report.model_copy(
                update={
                    "llm_calls": report.llm_calls + 1,
                    "input_tokens": report.input_tokens + answer.usage.input_tokens,
                    "output_tokens": report.output_tokens + answer.usage.output_tokens,
                }
            )
            try:
                return parse_extraction(answer.data, turns), report
            except ValueError as exc:  # pydantic's ValidationError is a ValueError
                error = f"malformed extraction: {exc}"
        log.warning("chunk of %d turns left unconsolidated after 2 attempts: %s", len(turns), error[:500])
        return None, report.model_copy(update={"error": error[:500]})

    async def _echoed(self, backends: AsyncBackends, conversation_id: str) -> frozenset[str]:
        """The normalised texts ``get_context`` injected into this conversation (the recall echo)."""
        session = await self.working(conversation_id)  # type: ignore[attr-defined]
        ids = await session.recalled_ids()
        if not ids:
            return frozenset()
        facts = await backends.facts.get_many(self.scope, list(ids))
        return frozenset(" ".join(fact.claim.casefold().split()) for fact in facts)

    async def _user_name(self, backends: AsyncBackends) -> str | None:
        name = (await backends.profile.get(self.scope)).preferences.get("name")
        return name if isinstance(name, str) and name else None

    @property
    def _prefix(self) -> str:
        return self.settings.redis.key_prefix
