"""Merging what a read finds in the active channel and in ``_global`` (pure functions, no I/O)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["merge_channels"]

T = TypeVar("T")


def merge_channels(
    hits: Sequence[tuple[T, float]],
    *,
    active: str,
    channel_of: Callable[[T], str],
    key_of: Callable[[T], str],
    limit: int,
) -> list[tuple[T, float]]:
    """One hit per ``key_of`` (e.g. a normalised claim), best score first, at most ``limit``.

    When the same memory exists in both channels (a promoted fact and its ``_global`` copy), the active
    channel's copy wins a tie: it is the one the user is working in.
    """
    ranked = sorted(hits, key=lambda hit: (-hit[1], channel_of(hit[0]) != active))
    seen: set[str] = set()
    merged: list[tuple[T, float]] = []
    for item, score in ranked:
        key = key_of(item)
        if key in seen:
            continue
        seen.add(key)
        merged.append((item, score))
        if len(merged) == limit:
            break
    return merged
