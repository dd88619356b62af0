"""Seed 000's enrichment: emails, URLs, @mentions, #hashtags and dates in a text become entities.

Pure: regexes for the first four (their grammar is small and exact), the shared time grammar for
dates, resolved against the turn's time so "tomorrow" becomes the day it names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Final

from ..retrieval.time_phrases import find_time_phrase
from .atoms import ExtractedEntity

__all__ = ["enrichment_entities"]

_EMAIL: Final = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")
_URL: Final = re.compile(r"\bhttps?://[^\s<>\"')\]]+|\bwww\.[^\s<>\"')\]]+", re.IGNORECASE)
_MENTION: Final = re.compile(r"(?<![\w@.])@([A-Za-z][A-Za-z0-9_]{1,30})\b")
_HASHTAG: Final = re.compile(r"(?<![\w#&])#([A-Za-z][A-Za-z0-9_]{1,40})\b")


def enrichment_entities(text: str, turn_id: str, now: datetime) -> Iterator[ExtractedEntity]:
    """Entities for every email, URL, @mention, #hashtag and time phrase in ``text``."""
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
    found = find_time_phrase(text, now)
    if found is not None and found.time_range.start is not None and found.time_range.end is not None:
        start = found.time_range.start
        span_days = (found.time_range.end - start).days
        name = (
            start.date().isoformat()
            if span_days <= 1
            else f"{start:%Y-%m}"
            if span_days <= 31
            else str(start.year)
        )
        yield ExtractedEntity(
            name=name, type="date", aliases=[found.time_range.phrase], source_turn_ids=[turn_id]
        )
