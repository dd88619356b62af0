"""Whether a place named is a home or an organisation: "I'm in Bristol, near the harbourside" (a home, not a
stay), "moved to Atlanta Fire Rescue" (a new employer, not a city), "Capitol Hill" (a district the small
model calls an organisation). Pure functions over a spaCy parse."""

from __future__ import annotations

from typing import Any, Final

__all__ = ["a_business", "frame_moves", "settled_in"]


#: What makes being somewhere a stay, not a home: "in Leeds for work", "this week", "on holiday".
_STAY: Final = frozenset(
    ["today", "tonight", "tomorrow", "week", "weekend", "weeks", "days", "day", "night", "nights", "month",
     "trip", "holiday", "holidays", "vacation", "visit", "visiting", "conference", "business", "work",
     "moment", "until", "till", "for", "still", "again", "back", "currently", "airport", "hotel"]
)  # fmt: skip


#: Words of a stay however long it lasts: "been in Crete on holiday for a week now".
_VISITING: Final = frozenset(
    [
        "trip",
        "holiday",
        "holidays",
        "vacation",
        "visit",
        "visiting",
        "conference",
        "business",
        "hotel",
        "work",
    ]
)


def settled_in(value: Any, predicate: Any) -> bool:
    """ "I'm in Bristol, near the harbourside": a city said to be where one is, with nothing that makes it
    a stay ("in Leeds for work this week", "on holiday in Crete", "back in Leeds for Christmas")."""
    if value.ent_type_ != "GPE" or value.head.lower_ != "in" or value.head.head.i != predicate.i:
        return False
    clause = [c for c in predicate.children if c.dep_ not in {"conj", "advcl", "ccomp", "parataxis"}]
    words = {t.lower_ for c in clause for t in c.subtree} - {t.lower_ for t in value.subtree}
    # "I've been in Nairobi about a month now": a time lasting until now is how long one has lived there
    lived = (
        predicate.tag_ == "VBN"
        and any(c.dep_ == "aux" and c.lemma_ == "have" for c in predicate.children)
        and "now" in words
        and not words & _VISITING
    )
    # "right now" is a stay; "right by the west end" says where in town
    now = any(
        t.lower_ == "right" and t.nbor(1).lower_ == "now" for t in predicate.subtree if t.i + 1 < len(t.doc)
    )
    return (lived or not (words & _STAY or now)) and predicate.tag_ != "VBD"


def a_business(value: Any) -> bool:
    """ "Atlanta Fire Rescue", "the BBC", "a Superdrug": an organisation of several words or an acronym,
    or a name said with "a", one of many (a branch: no city is "a Leeds"). The small model takes many a
    one-word district for an organisation ("moved to Ballard"), so one word alone is a place."""
    if value.pos_ == "PROPN" and any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in value.children):
        return True
    entity = next((e for e in value.doc.ents if e.start <= value.i < e.end), None)
    if entity is None or entity.label_ != "ORG":
        return False
    if entity[-1].lower_ in _PLACE_WORDS:
        return False  # "Capitol Hill", "Canary Wharf": the model's organisations that are districts
    return len([t for t in entity if t.pos_ == "PROPN"]) > 1 or entity.text.strip().isupper()


#: Last words of a district's name: "Capitol Hill", "Notting Hill", "Canary Wharf", "Park Slope".
_PLACE_WORDS: Final = frozenset(
    ["hill", "hills", "park", "heights", "village", "town", "city", "beach", "valley", "square", "green",
     "gardens", "street", "road", "side", "end", "bay", "lake", "springs", "falls", "island", "point",
     "harbour", "harbor", "quarter", "cross", "wood", "woods", "wharf", "slope", "vale", "common", "fields"]
)  # fmt: skip


def frame_moves(predicate: Any) -> bool:
    """A verb of moving ("moved to", "relocated to"): its "to" may name a new employer, not a home;
    "live in", "based in" never do."""
    return str(predicate.lemma_) in {"move", "relocate", "transfer", "switch"}
