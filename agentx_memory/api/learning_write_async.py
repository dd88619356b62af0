"""How consolidation writes what it learned. Async source of ``api/learning_write.py``.

Through the same subsystems (and checks, embeddings, audit rows and channels) as the public API:
entities through ``upsert_entity``'s resolution, facts through the facts subsystem after the dedup /
contradiction decision of :func:`agentx_memory.extraction.dedup.decide`, ``MENTIONS`` edges from each
turn to the entities it names, and the user's own identity, preferences and skills into the profile.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime

from .._compat.aio import sleep
from ..backends_async import AsyncBackends
from ..errors import ConflictError, InvalidInputError
from ..extraction.atoms import Extraction, FactAtom
from ..extraction.clause_atoms import UNKNOWN_SPEAKER
from ..extraction.dedup import Decision, StoredFact, decide, dedup_batch, ends_the_new, slot_keys
from ..extraction.dependants import FREE_KEYS, cascades, former_names, leaning_on, of_the_former
from ..extraction.frame_appointments import as_appointment
from ..extraction.frame_rivals import FAVOURITES, PREFERRED, in_category
from ..extraction.learning_pure import PROFILE_KEYS, fact_priority, profile_changes
from ..extraction.lexicon import ANY_APPOINTMENT
from ..extraction.rules import TurnText
from ..extraction.stored import in_slots
from ..extraction.substitutions import substituted, substitutions
from ..models.learning import ConsolidationReport
from ..validation import validate_tool_sequence
from .procedural_async import AsyncProceduralApi
from .semantic_async import AsyncSemanticApi

__all__ = ["WRITE_LEASE_S", "AsyncLearningWrites"]

log = logging.getLogger(__name__)

#: Stored facts compared with each new atom (besides those in its subject/key slot).
_NEAREST = 5
#: The speaker's newest facts a correction that says only the new word is compared with.
_ABOUT_SPEAKER = 200


#: The user's write lock is a lease of this many seconds, renewed with every fact written.
WRITE_LEASE_S = 10
#: Learning yields to the caller (``callers.CallerActivity``): before each step it waits while a call is
#: in flight or ended less than _YIELD_QUIET_S ago, asking every _YIELD_POLL_S, at most _YIELD_MAX_S.
_YIELD_QUIET_S = 0.05
_YIELD_POLL_S = 0.005
_YIELD_MAX_S = 0.5


@dataclass
class _Chunk:
    """What every atom of one chunk is written with."""

    #: turn id → (role, speaker)
    speakers: dict[str, tuple[str, str]]
    extractor: str
    #: turn id → when it was said
    said: dict[str, datetime]
    #: the names the user's own facts are filed under
    selves: frozenset[str]
    #: the user's write lock, (key, token), renewed with every fact
    lease: tuple[str, str] | None = None
    #: the keys of what the chunk's endings ended ("I quit my job")
    ended: set[str] = field(default_factory=set)
    #: the facts the chunk learned in place of an older value ("I'm seeing Saoirse now")
    replaced: set[str] = field(default_factory=set)


class AsyncLearningWrites(AsyncSemanticApi, AsyncProceduralApi):
    async def _yield_to_callers(self, backends: AsyncBackends) -> None:
        """Wait while the caller's calls are in flight (and a moment after), at most _YIELD_MAX_S."""
        deadline = time.monotonic() + _YIELD_MAX_S
        while backends.callers.busy(_YIELD_QUIET_S) and time.monotonic() < deadline:
            await sleep(_YIELD_POLL_S)

    async def _apply(
        self,
        backends: AsyncBackends,
        turns: list[TurnText],
        extraction: Extraction,
        known: dict[str, str],
        report: ConsolidationReport,
        lease: tuple[str, str] | None = None,
    ) -> ConsolidationReport:
        """Write one chunk's extraction; ``known`` (name → entity id) grows with the new entities;
        ``lease`` (key, token) is the user's write lock, renewed with every fact."""
        for turn_id, reason in extraction.flagged.items():
            await backends.audit.log_write(
                self.scope, "flag_instruction", "turn", turn_id, {"reason": reason}
            )
        refused = dict(report.refused)
        for reason in extraction.refused.values():
            refused[reason] = refused.get(reason, 0) + 1
        said = {turn.id: turn.timestamp for turn in turns}
        mentions, created = await self._entities(backends, extraction, known, said)
        speakers = {turn.id: (turn.role, turn.speaker) for turn in turns}
        counts: dict[str, int] = defaultdict(int)
        # Only the turns the extractor read: a refused one (an echo of the memory, tool output) says nothing.
        read = [turn for turn in turns if turn.id not in extraction.refused]
        said_anew = await self._substitutions(backends, read, known)
        current: list[FactAtom] = []
        chunk = _Chunk(
            speakers, report.extractor, said, await self._selves(backends, extraction, speakers), lease
        )
        for atom in dedup_batch([*said_anew, *extraction.facts]):
            await self._yield_to_callers(backends)
            action = await self._learn_atom(backends, atom, known, chunk)
            counts[action] += 1
            if action != "past":  # what was said before the stored value is no profile entry
                current.append(atom)
        for relationship in extraction.relationships:
            source, target = (
                known.get(relationship.source.casefold()),
                known.get(relationship.target.casefold()),
            )
            if source and target and source != target:
                await backends.entities.relate(self.scope, source, target, relationship.type, {})
        for turn_id, entity_ids in mentions.items():
            await backends.entities.link_mentions(self.scope, turn_id, sorted(entity_ids))
        proposed = 0
        for candidate in extraction.strategies:  # the LLM's strategy candidates: proposals to review
            try:
                steps = validate_tool_sequence(candidate.steps)
            except InvalidInputError as exc:
                log.info("strategy candidate %r not proposed: %s", candidate.task, exc)
                continue
            proposed += 1
            await self._propose(
                backends,
                candidate.task,
                candidate.applies_when or candidate.task,
                steps,
                candidate.what_failed,
                candidate.applies_when,
                None,
            )
        preferences, expertise = profile_changes(current, speakers)
        # What an ending ended leaves the profile, unless the chunk said its new value.
        await backends.profile.drop_preferences(
            self.scope, sorted(chunk.ended & PROFILE_KEYS - set(preferences))
        )
        if preferences or expertise:
            await backends.profile.update(self.scope, preferences or None, expertise or None, None)
        return report.model_copy(
            update={
                "refused": refused,
                "flagged": report.flagged + len(extraction.flagged),
                "entities": report.entities + created,
                "mentions": report.mentions + sum(len(ids) for ids in mentions.values()),
                "facts_added": report.facts_added + counts["add"] + counts["conflict"] + counts["past"],
                "facts_updated": report.facts_updated + counts["update"],
                "facts_unchanged": report.facts_unchanged + counts["noop"] + counts["skip"],
                "facts_superseded": report.facts_superseded + counts["supersede"],
                "contradictions_flagged": report.contradictions_flagged + counts["conflict"],
                "strategies_proposed": report.strategies_proposed + proposed,
            }
        )

    async def _substitutions(
        self, backends: AsyncBackends, turns: list[TurnText], known: dict[str, str]
    ) -> list[FactAtom]:
        """Stored facts said anew by corrections that say only the new word ("no wait, I meant
        Piranesi"): the turn states no fact itself (:mod:`agentx_memory.extraction.substitutions`).
        Candidates: the speaker's facts, and the facts nearest the turn (a user with no name has no
        entity to hold them)."""
        atoms: list[FactAtom] = []
        for turn in turns:
            found = substitutions(turn) if turn.speaker != UNKNOWN_SPEAKER or turn.role == "user" else []
            if not found:
                continue
            candidates: dict[str, StoredFact] = {}
            vector = await backends.embed_one(turn.text)
            for fact, similarity in await backends.facts.nearest(self.scope, vector, _NEAREST):
                candidates[fact.id] = StoredFact.of(fact, similarity)
            if (speaker := known.get(turn.speaker.casefold())) is not None:
                for fact in await backends.facts.facts_about(self.scope, speaker, _ABOUT_SPEAKER):
                    candidates.setdefault(fact.id, StoredFact.of(fact, 0.0))
            atoms += [
                atom for sub in found if (atom := substituted(sub, list(candidates.values()))) is not None
            ]
        return atoms

    async def _entities(
        self,
        backends: AsyncBackends,
        extraction: Extraction,
        known: dict[str, str],
        said: dict[str, datetime],
    ) -> tuple[dict[str, set[str]], int]:
        """Upsert the extracted entities and the facts' named subjects, each first seen at its earliest
        source turn's time (``said``: turn id → time); ``(turn id → entity ids it names, how many
        entities were new)``."""
        mentions: dict[str, set[str]] = defaultdict(set)
        seen: dict[str, datetime] = {}
        created = 0
        wanted = [(e.name, e.type, e.aliases, e.source_turn_ids, True) for e in extraction.entities]
        wanted += [(a.subject, "person", [], a.source_turn_ids, False) for a in extraction.facts]
        for name, entity_type, aliases, turn_ids, mentioned in wanted:
            key = name.casefold()
            if key not in known:
                if key == "the user":
                    continue
                try:
                    entity = await self.upsert_entity(name, entity_type, aliases)
                except InvalidInputError as exc:  # a name the API would refuse is not learned either
                    log.info("entity %r not learned: %s", name, exc)
                    continue
                known[key] = entity.id
                created += 1
            if mentioned:
                for turn_id in turn_ids:
                    mentions[turn_id].add(known[key])
            times = [said[turn_id] for turn_id in turn_ids if turn_id in said]
            if times and (known[key] not in seen or min(times) < seen[known[key]]):
                seen[known[key]] = min(times)
        await backends.entities.first_seen(self.scope, seen)
        return mentions, created

    async def _selves(
        self, backends: AsyncBackends, extraction: Extraction, speakers: dict[str, tuple[str, str]]
    ) -> frozenset[str]:
        """The names the user's own facts are filed under: "The user" and the name they gave, stored
        (the profile) or given in this chunk ("I'm Dana.")."""
        name = (await backends.profile.get(self.scope)).preferences.get("name")
        given = {
            atom.value
            for atom in extraction.facts
            if atom.key == "name"
            and any(speakers.get(t, ("", ""))[0] == "user" for t in atom.source_turn_ids)
        }
        return frozenset({UNKNOWN_SPEAKER, *given, *([name] if isinstance(name, str) and name else [])})

    async def _retire_leaning(
        self,
        backends: AsyncBackends,
        old: StoredFact,
        new: FactAtom,
        new_id: str,
        stated_at: datetime | None,
        chunk: _Chunk,
    ) -> None:
        """The free statements that named the superseded value go with it ("my Leeds flat is tiny" after
        the move to Harrogate), and what was learned of a partner or pet who is gone ("Callum is a
        chef"), retired as of when the new value was said (:mod:`..extraction.dependants`)."""
        if old.subject is None or not old.value or not cascades(old, new):
            return
        subjects = sorted(chunk.selves) if old.subject in chunk.selves else [old.subject]
        statements = [
            StoredFact.of(fact, 0.0)
            for subject in subjects
            for fact in await backends.facts.in_slot(self.scope, subject, FREE_KEYS)
        ]
        theirs = [
            StoredFact.of(fact, 0.0)
            for who in former_names(old)  # only a partner or a pet has facts of their own to take along
            for fact in await backends.facts.in_slot(self.scope, who, ["*"])
        ]
        for fact_id in [*leaning_on(old, statements, stated_at), *of_the_former(old, theirs, stated_at)]:
            await backends.facts.retire(self.scope, fact_id, new_id, stated_at)

    async def _learn_atom(
        self, backends: AsyncBackends, atom: FactAtom, known: dict[str, str], chunk: _Chunk
    ) -> str:
        """Write one atom after the dedup / contradiction decision; returns the action taken."""
        facts = backends.facts
        if chunk.lease is not None:
            await backends.redis.extend(*chunk.lease, WRITE_LEASE_S)
        vector = await backends.embed_one(atom.statement)
        candidates: dict[str, StoredFact] = {}
        for fact, similarity in await facts.nearest(self.scope, vector, _NEAREST):
            candidates[fact.id] = StoredFact.of(fact, similarity)
        # the slot's facts, what an ending ends, and the endings that may have ended this one already;
        # the user's own under every name they are filed under ("The user" before "I'm Dana", "Dana")
        keys = [*slot_keys(atom.key), *atom.ends, "ended"]
        for subject in sorted(chunk.selves) if atom.subject in chunk.selves else [atom.subject]:
            for fact in await facts.in_slot(self.scope, subject, keys):
                candidates.setdefault(fact.id, StoredFact.of(fact, 0.0))
        ranked = [
            replace(stored, subject=atom.subject)
            if atom.subject in chunk.selves and stored.subject in chunk.selves
            else stored
            for stored in sorted(candidates.values(), key=lambda stored: -stored.similarity)
        ]
        said, speakers, ended = chunk.said, chunk.speakers, chunk.ended
        stated_at = max((said[turn] for turn in atom.source_turn_ids if turn in said), default=None)
        decision = decide(atom, ranked, stated_at, backends.calibration)
        if (
            atom.key == PREFERRED
            and decision.target is not None
            and in_slots(decision.target.key, [FAVOURITES])
        ):
            # a new favourite told against the stored one: filed under its category ("favourite_band")
            atom = in_category(atom, decision.target.key or "")
            vector = await backends.embed_one(atom.statement)
        if atom.key == ANY_APPOINTMENT and decision.target is not None and decision.target.key:
            # "they've preponed it to 20th June": filed under the appointment it moved ("root canal")
            atom = as_appointment(atom, decision.target.key, decision.target.claim)
            vector = await backends.embed_one(atom.statement)
        action: str = decision.action
        if ends_the_new(atom, decision, chunk.replaced):
            # "I'm seeing Saoirse now … Orla and I are finished": an ending that names no one is of the
            # value the new one replaced, which is ended already; the ending is kept as said
            decision = Decision("add", None, "ends what the new value replaced")
            action = "add"
        policy = self.settings.learning.contradiction_policy
        if action == "conflict" and policy != "flag_review":
            action = "supersede" if policy == "prefer_new" else "skip"
        if action in {"noop", "skip"}:
            return action
        assert decision.target is not None or action == "add"
        if action == "update" and decision.target is not None:
            await facts.add_sources(self.scope, decision.target.id, atom.source_turn_ids)
            await backends.audit.log_write(
                self.scope,
                "learn_fact",
                "fact",
                decision.target.id,
                {"decision": "update", "source_turn_ids": atom.source_turn_ids, "reason": decision.reason},
            )
            return action
        about = [known[name.casefold()] for name in [atom.subject, *atom.persons] if name.casefold() in known]
        priority, protected = fact_priority(atom, speakers)
        supersedes = decision.target.id if action == "supersede" and decision.target is not None else None
        try:
            fact = await facts.create(
                self.scope,
                claim=atom.statement,
                confidence=atom.confidence,
                source=f"conversation:{chunk.extractor}",
                temporal=atom.temporal,
                priority=priority,
                embedding=vector,
                about=list(dict.fromkeys(about)),
                source_turn_ids=atom.source_turn_ids,
                atom=atom,
                supersedes=supersedes,
                protected=protected,
                stated_at=stated_at,
            )
        except ConflictError as exc:  # corrected concurrently: the other correction stands
            log.info("correction skipped: %s", exc)
            return "skip"
        if action == "conflict" and decision.target is not None:
            await facts.flag_contradiction(self.scope, fact.id, decision.target.id, decision.reason)
        for also in decision.also:  # "I quit my job": the occupation ends with the employer
            await facts.retire(self.scope, also.id, fact.id, stated_at)
        if action == "supersede" and decision.target is not None:
            await self._retire_leaning(backends, decision.target, atom, fact.id, stated_at, chunk)
            if not atom.ends and atom.key != "ended":
                chunk.replaced.add(fact.id)
        # what an ending ended leaves the profile: "I quit my job", "I left Amazon in August" (its value
        # named), "I'm no longer with Barclays" (its value said not to hold)
        if (
            (atom.ends or atom.ends_words or atom.negated)
            and action == "supersede"
            and decision.target is not None
        ):
            ended.update(stored.key for stored in (decision.target, *decision.also) if stored.key)
        if action == "past" and decision.target is not None:
            # Said before the stored value: history, whatever order the turns were learned in.
            await facts.retire(self.scope, fact.id, decision.target.id, decision.target.stated_at)
        await backends.audit.log_write(
            self.scope,
            "correct_fact" if supersedes else "learn_fact",
            "fact",
            fact.id,
            {
                "decision": action,
                "supersedes": supersedes,
                "contradicts": decision.target.id if action == "conflict" and decision.target else None,
                "superseded_by": decision.target.id if action == "past" and decision.target else None,
                "reason": decision.reason,
                "confidence": atom.confidence,
                "source_turn_ids": atom.source_turn_ids,
            },
            {"claim": atom.statement},
        )
        return action
