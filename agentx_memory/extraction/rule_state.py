"""What earlier turns of a chunk teach the rules reading the later ones (:class:`RuleState`), and the
"my <relation> <Name> …" clause the rules read as a relationship and a clause about the name."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .atoms import ExtractedEntity, ExtractedRelationship, FactAtom
from .clause_atoms import TurnText
from .english import third_person
from .introductions import NOT_NAMES, RELATION_NAME
from .names import ANIMALS

__all__ = ["RuleState", "relation_clause"]


@dataclass
class RuleState:
    """What earlier turns of the chunk taught the later ones: names, people, the last person."""

    speaker_name: str | None = None
    persons: dict[str, str] = field(default_factory=dict)  # casefolded name → name
    last_person: str | None = None
    #: The last turn spoke of the speaker's number without giving it ("my number's different").
    contact_pending: bool = False
    #: The appointment the last turn said changed without its new time.
    appointment_pending: str | None = None
    #: The slot whose change the last turn told without its value (a move, someone new).
    untold: str | None = None
    #: The slot of the speaker's the listener's last turn asked about ("Where are you working now?").
    slot_asked: str | None = None


def relation_clause(
    clause: str,
    turn: TurnText,
    speaker: str,
    state: RuleState,
    facts: list[FactAtom],
    entities: list[ExtractedEntity],
    relationships: list[ExtractedRelationship],
) -> str | None:
    """Record "my <relation> <Name> …" as a relationship and return the rest as a clause about Name."""
    pattern = RELATION_NAME.pattern.replace("{S}", re.escape(speaker))
    match = re.search(pattern, clause)
    if match is None or match.group("name") in NOT_NAMES:
        return clause
    relation, name, rest = match.group("rel").casefold(), match.group("name"), match.group("rest")
    state.persons[name.casefold()] = name
    state.last_person = name
    is_pet = relation in ANIMALS
    entities.append(
        ExtractedEntity(name=name, type="other" if is_pet else "person", source_turn_ids=[turn.id])
    )
    relationships.append(ExtractedRelationship(source=speaker, target=name, type="KNOWS"))
    facts.append(
        FactAtom(
            fact_kind="relationship",
            subject=speaker,
            statement=f"{speaker}'s {relation} is {name}.",
            key=relation,
            value=name,
            persons=[name],
            source_turn_ids=[turn.id],
        )
    )
    rest = rest.strip(" ,")
    if not rest or not re.match(
        r"^(?:is|was|has|had|loves|likes|\w+s|\w+ed|just|really|also|always)\b", rest
    ):
        return None
    return f"{name} {third_person(rest, speaker)}"
