"""A question about one of the user's own single-valued things is answered by its current value first.

"Where do I live now?", "who is my girlfriend?", "what car do I drive?", "when is my dentist
appointment?": the user asks for a slot the learner keeps one current value of (DESIGN §8). Ranking by
closeness puts the turn that said the old value ("I live in Montreal") above the fact that holds now
("Dana lives in Toronto"), whose words are further from the question; so the current facts of the slot
asked about lead the results. Only first-person questions ("I", "my", "me"): a question about someone
else names them, and their facts are found by name. The cue words are data; pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..extraction.lexicon import APPOINTMENTS, PARTNER_NOUNS, PET_KIND, VEHICLE_NOUNS
from ..models import Fact, MemoryItem
from .items import fact_item

__all__ = ["SlotAsk", "answer_first", "asked_slots"]

_PARTNERS: Final = tuple(sorted(PARTNER_NOUNS))
_JOB: Final = ("works_at", "works_as")
#: Words of a question → the slot keys it asks about.
_CUES: Final[dict[str, tuple[str, ...]]] = {
    **dict.fromkeys(["live", "living", "based", "home", "city", "town", "address", "reside"], ("lives_in",)),
    **dict.fromkeys(["work", "working", "employer", "company", "job", "workplace", "employed"], _JOB),
    **dict.fromkeys(["occupation", "profession", "title", "career"], ("works_as",)),
    **dict.fromkeys(["drive", "driving", "ride", "riding", *VEHICLE_NOUNS], ("drives",)),
    **dict.fromkeys(["diet", "dietary", "vegan", "vegetarian"], ("diet",)),
    **dict.fromkeys(["dating", "seeing", "partner", "married", *PARTNER_NOUNS], _PARTNERS),
    **dict.fromkeys(["phone", "number", "mobile", "cell"], ("phone",)),
    **dict.fromkeys(["email", "e-mail"], ("email",)),
    **{word: (kind, "pet") for word, kind in PET_KIND.items()},
    "pet": ("pet", *sorted(set(PET_KIND.values()))),
}
_FIRST_PERSON: Final = re.compile(r"\b(?:i|my|me|i'm|im)\b", re.IGNORECASE)
_WORD: Final = re.compile(r"[a-z][a-z'-]*")
_FAVOURITE: Final = re.compile(r"\bfavou?rite (\w+(?: \w+)?)", re.IGNORECASE)


@dataclass(frozen=True)
class SlotAsk:
    """The slot keys a question asks about; ``things`` the appointments it names ("dentist")."""

    keys: tuple[str, ...] = ()
    things: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.keys or self.things)


def asked_slots(query: str) -> SlotAsk:
    """The user's own slots ``query`` asks about (none unless it speaks in the first person)."""
    if not _FIRST_PERSON.search(query):
        return SlotAsk()
    words = [word.removesuffix("'s").removesuffix("’s") for word in _WORD.findall(query.casefold())]
    keys = [key for word in words for key in _CUES.get(word, ())]
    for match in _FAVOURITE.finditer(query):
        # "favourite board game": the learner keys the last noun ("favourite_game") or the whole
        said = match.group(1).casefold().split()
        keys += [f"favourite_{'_'.join(said)}", f"favourite_{said[-1]}", f"favourite_{said[0]}"]
    things = [word for word in words if word in APPOINTMENTS and word != "appointment"]
    return SlotAsk(tuple(dict.fromkeys(keys)), tuple(dict.fromkeys(things)))


def answer_first(items: Sequence[MemoryItem], facts: Sequence[Fact], top_k: int) -> list[MemoryItem]:
    """``items`` with the current slot ``facts`` first (newest said first), scored just above the best
    item, each once; at most ``top_k``."""
    if not facts:
        return list(items)
    top = max((item.score for item in items), default=0.0)
    chosen = {fact.id for fact in facts}
    leading = [
        fact_item(fact, round(top + 0.001 * (len(facts) - rank), 6), ["slot"])
        for rank, fact in enumerate(facts)
    ]
    return [*leading, *(item for item in items if item.id not in chosen)][:top_k]
