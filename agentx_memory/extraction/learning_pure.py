"""Consolidation's pure decisions: whose "I" a turn speaks, a learned fact's priority, what reaches
the user's profile."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from .atoms import FactAtom
from .rules import UNKNOWN_SPEAKER

__all__ = ["PROFILE_KEYS", "fact_priority", "profile_changes", "speaker_of"]

#: Identity and constraint keys copied into ``user_profiles.preferences`` (the latest value wins).
PROFILE_KEYS: Final = frozenset(
    {"name", "age", "lives_in", "hometown", "works_as", "works_at", "diet", "allergy", "nationality"}
)


def speaker_of(role: str, metadata: Mapping[str, Any], user_name: str | None) -> str:
    """Whose first person a turn speaks: its ``metadata.speaker`` (imported multi-party chats), else the
    user's known name for the user's turns, else :data:`UNKNOWN_SPEAKER` (an assistant's "I" is not the
    user, and :func:`~agentx_memory.extraction.rules.extract_turns` skips such turns)."""
    speaker = metadata.get("speaker")
    if isinstance(speaker, str) and speaker.strip():
        return speaker.strip()[:100]
    if role == "user" and user_name:
        return user_name
    return UNKNOWN_SPEAKER


def _about_speaker(
    atom: FactAtom, speakers: Mapping[str, tuple[str, str]], names: Collection[str] = ()
) -> tuple[bool, bool]:
    """``(stated by the user about themself, stated by its subject about themself)``. Only a fact whose
    subject is the speaker is theirs: "my husband Arjun is a teacher" is Arjun's. ``names`` are the
    names a user with no known name gave themself ("I'm Dana."). Subjects compare without case (an
    LLM writes "the user")."""
    subject = atom.subject.casefold()
    own = {UNKNOWN_SPEAKER.casefold(), *(name.casefold() for name in names)}
    for turn_id in atom.source_turn_ids:
        role, speaker = speakers.get(turn_id, ("", ""))
        if subject == speaker.casefold() or (
            speaker == UNKNOWN_SPEAKER and (subject in own or atom.key == "name")
        ):
            return role == "user", True
    return False, False


def fact_priority(atom: FactAtom, speakers: Mapping[str, tuple[str, str]]) -> tuple[str, bool]:
    """``(priority, protected)`` of a learned fact (seed 001): what the user explicitly said about
    themself is highest and never decays (only a correction replaces it); implied self-statements are
    high; what was said about other people, or inferred, is medium."""
    by_user, by_subject = _about_speaker(atom, speakers)
    if by_user and atom.certainty == "explicit":
        return "critical", True
    if by_subject and atom.certainty in {"explicit", "implied"}:
        return "high", False
    return "medium", False


def profile_changes(
    atoms: Sequence[FactAtom], speakers: Mapping[str, tuple[str, str]]
) -> tuple[dict[str, Any], list[str]]:
    """The profile preferences (identity, diet, allergies …) and expertise areas the user stated about
    themself; later atoms win."""
    preferences: dict[str, Any] = {}
    expertise: list[str] = []
    names = {atom.value for atom in atoms if atom.key == "name"}
    for atom in atoms:
        by_user, _ = _about_speaker(atom, speakers, names)
        if not by_user or atom.certainty not in {"explicit", "implied"}:
            continue
        if atom.key in PROFILE_KEYS and not atom.negated:
            preferences[atom.key] = atom.value
        elif atom.fact_kind == "skill" and not atom.negated and atom.value not in expertise:
            expertise.append(atom.value)
    return preferences, expertise
