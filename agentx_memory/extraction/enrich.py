"""Seed 000's enrichment: emails, URLs, @mentions and #hashtags in a text become entities.

Pure regexes (their grammar is small and exact). Dates are no entities: a date is the time of the fact or
event that says it (``FactAtom.event_time``, resolved against the turn's time), and a date entity only
gathered unrelated mentions of one day (a trial found one holding 38 unrelated dates).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from .atoms import ExtractedEntity

__all__ = ["enrichment_entities"]

_EMAIL: Final = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")
_URL: Final = re.compile(r"\bhttps?://[^\s<>\"')\]]+|\bwww\.[^\s<>\"')\]]+", re.IGNORECASE)
_MENTION: Final = re.compile(r"(?<![\w@.])@([A-Za-z][A-Za-z0-9_]{1,30})\b")
_HASHTAG: Final = re.compile(r"(?<![\w#&])#([A-Za-z][A-Za-z0-9_]{1,40})\b")


def enrichment_entities(text: str, turn_id: str) -> Iterator[ExtractedEntity]:
    """Entities for every email, URL, @mention and #hashtag in ``text``."""
    emails = _EMAIL.findall(text)
    for email in dict.fromkeys(emails):
        yield ExtractedEntity(name=email.casefold(), type="email", source_turn_ids=[turn_id])
    for url in dict.fromkeys(_URL.findall(text)):
        yield ExtractedEntity(name=url.rstrip(".,;:!?"), type="url", source_turn_ids=[turn_id])
    without_emails = _EMAIL.sub(" ", text)
    for handle in dict.fromkeys(_MENTION.findall(without_emails)):
        yield ExtractedEntity(name=f"@{handle}", type="person", source_turn_ids=[turn_id])
    for tag in dict.fromkeys(_HASHTAG.findall(text)):
        yield ExtractedEntity(name=f"#{tag}", type="concept", source_turn_ids=[turn_id])
