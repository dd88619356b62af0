"""A question about one of the user's own single-valued things is answered by its current value first.

"Where do I live now?", "who is my girlfriend?", "what car do I drive?", "when is my dentist
appointment?": the user asks for a slot the learner keeps one current value of (DESIGN §8). Ranking by
closeness puts the turn that said the old value ("I live in Montreal") above the fact that holds now
("Dana lives in Toronto"), whose words are further from the question; so the current facts of the slot
asked about lead the results. A question in the first person ("I", "my", "me") asks for the user's; one
that names someone ("where does Megan live?", "what is Diego's favourite coffee?": an agent asking
about its user by name, or about a friend) asks for the named person's. The cue words are data; pure
functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from ..extraction.lexicon import APPOINTMENTS, PARTNER_NOUNS, PET_KIND, VEHICLE_NOUNS
from ..models import Fact, MemoryItem
from .items import fact_item

__all__ = ["SlotAsk", "answer_first", "asked_slots", "newest_first"]

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
#: Sorts a turn without a time last.
_NEVER: Final = datetime.min.replace(tzinfo=UTC)
_FIRST_PERSON: Final = re.compile(r"\b(?:i|my|me|i'm|im)\b", re.IGNORECASE)
_WORD: Final = re.compile(r"[a-z][a-z'-]*")
#: A capitalised word (a name) not at the start of the question, or at its start with a possessive.
_NAMED: Final = re.compile(r"(?<=\w )(?<!\bI )([A-Z][a-z][\w-]*)|^([A-Z][a-z][\w-]*)(?='s|’s)")
#: A question in the present, and words of a question about the past or about a time.
_PRESENT: Final = re.compile(r"\b(?:does|do|is|are|has|have)\b|['’]s\s", re.IGNORECASE)
_PAST: Final = re.compile(
    r"\b(?:did|was|were|had|used|ago|when|before|after|first|last|since)\b", re.IGNORECASE
)
#: Capitalised words that name no one: question words and the like, when a question capitalises them.
_NO_NAME: Final = frozenset(
    ["where", "what", "who", "whom", "whose", "when", "which", "how", "why", "does", "do", "did", "is", "the"]
)
_FOR_A_LIVING: Final = re.compile(r"\b(?:for|make|makes|made|earn|earns|earned) an? living\b")
_FAVOURITE: Final = re.compile(r"\bfavou?rite (\w+(?: \w+)?)", re.IGNORECASE)
#: "when is my MOT?", "when's the recital?": a dated thing of the user's, whatever it is called.
_WHEN_IS: Final = re.compile(
    r"\bwhen(?:'s|’s| is| are)\s+(?:my|our|the)\s+(?:\w+\s+)?([a-z][\w-]*)\W*$", re.I
)


@dataclass(frozen=True)
class SlotAsk:
    """The slot keys a question asks about; ``things`` the appointments it names ("dentist"); whose:
    the user's (``mine``) and/or the people it ``names`` (casefolded)."""

    keys: tuple[str, ...] = ()
    things: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    mine: bool = True

    def __bool__(self) -> bool:
        return bool(self.keys or self.things)


def asked_slots(query: str) -> SlotAsk:
    """The slots ``query`` asks about: the user's when it speaks in the first person, the named
    people's when it names any (none when it does neither)."""
    names = tuple(
        dict.fromkeys(
            name.casefold()
            for match in _NAMED.finditer(query)
            if (name := match.group(1) or match.group(2)).casefold() not in _NO_NAME
        )
    )
    # a named person's slot is asked in the present only: "where does Megan live?", not "when did Megan
    # move?" or "where did Megan live in 2019?" (LoCoMo's questions about the past: R@10 0.815 -> 0.741
    # when every named question put the slot first and the turns newest first)
    names = names if _PRESENT.search(query) and not _PAST.search(query) else ()
    # "where does my sister Anna live?" asks about Anna, not the user
    mine = not names and _FIRST_PERSON.search(query) is not None
    if not mine and not names:
        return SlotAsk()
    # "what do I do for a living?" asks for the job: "living" there is no home
    asked = _FOR_A_LIVING.sub(" job ", query.casefold())
    words = [word.removesuffix("'s").removesuffix("’s") for word in _WORD.findall(asked)]
    keys = [key for word in words for key in _CUES.get(word, ())]
    for match in _FAVOURITE.finditer(query):
        # "favourite board game": the learner keys the last noun ("favourite_game") or the whole
        said = match.group(1).casefold().split()
        keys += [f"favourite_{'_'.join(said)}", f"favourite_{said[-1]}", f"favourite_{said[0]}"]
    things = [word for word in words if word in APPOINTMENTS and word != "appointment"]
    if (when := _WHEN_IS.search(query)) is not None and when.group(1).casefold() != "appointment":
        things.append(when.group(1).casefold())
    return SlotAsk(tuple(dict.fromkeys(keys)), tuple(dict.fromkeys(things)), names, mine)


def answer_first(
    items: Sequence[MemoryItem], facts: Sequence[Fact], top_k: int, asked: SlotAsk | None = None
) -> list[MemoryItem]:
    """``items`` with the current slot ``facts`` first (newest said first), scored just above the best
    item, each once; at most ``top_k``. When a slot of the user's own was ``asked`` the turns come newest
    first (:func:`newest_first`), whether or not a fact of it was learned; a named person's slot only
    puts its facts first (the turns about someone else keep the order relevance gave them)."""
    if asked and asked.mine:  # the user's own slot: what holds now is what they ask
        items = newest_first(items)
    if not facts:
        return list(items)
    top = max((item.score for item in items), default=0.0)
    chosen = {fact.id for fact in facts}
    leading = [
        fact_item(fact, round(top + 0.001 * (len(facts) - rank), 6), ["slot"])
        for rank, fact in enumerate(facts)
    ]
    return [*leading, *(item for item in items if item.id not in chosen)][:top_k]


def newest_first(items: Sequence[MemoryItem]) -> list[MemoryItem]:
    """The turns among ``items`` newest first, in the places (and at the scores) the turns held; the
    other kinds keep theirs.

    A question about a single-valued thing of the user's asks what holds *now*, and of two turns that
    told it the later one is the answer whatever words each used: "I live in Montreal" is closer to
    "where do I live?" than "these days I'm based in Toronto", said a year later. The learner orders
    them when it understood both (the slot's current fact leads, a superseded turn is stale); this is
    the same rule for the turns it did not understand. The set of results is unchanged, only their
    order: relevance chose them, time orders them.
    """
    places = [index for index, item in enumerate(items) if item.kind == "episodic"]
    if len(places) < 2:
        return list(items)
    turns = [items[index] for index in places]
    newest = sorted(turns, key=lambda item: item.timestamp or _NEVER, reverse=True)
    scores = [item.score for item in turns]  # the places' scores, best first as ranked
    ordered = list(items)
    for index, item, score in zip(places, newest, scores, strict=True):
        ordered[index] = item if item.score == score else item.model_copy(update={"score": score})
    return ordered
