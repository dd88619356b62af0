"""How a recall searches each graph label for one user: an exact scan of their own nodes or the shared
ANN index, chosen by how many nodes of the label they have. Pure; the graph store counts, this keeps
the counts between recalls.

The exact scan is exact and, up to ``EXACT_SCAN_MAX`` nodes, about as cheap as the ANN, whose top-k
also holds other users' nodes and stale index entries and so can come back short. Counting the user's
nodes was the largest part of the recall statement (~1 ms of FalkorDB's ~3.4 ms on the recall
benchmark's 1,286 current facts), and a count only picks the path (a stale one costs the other path
for a while, never a wrong row): so the nodes are counted on a (user, channels)'s first recall and then
once every ``RECOUNT_EVERY`` recalls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["EXACT_SCAN_MAX", "RECOUNT_EVERY", "LabelCounts", "SearchPlan"]

#: Up to this many nodes of a label (per user and channels) recall scans them exactly.
EXACT_SCAN_MAX = 1000
#: Recalls of one (user, channels) from one counting of their nodes to the next.
RECOUNT_EVERY = 32
#: (user, channels) remembered before the cache starts over.
_KEYS_MAX = 2_500


@dataclass(frozen=True)
class SearchPlan:
    """One recall's labels by path (``exact``, ``ann``) and the labels to count now (``count``: all
    or none)."""

    exact: list[str]
    ann: list[str]
    count: list[str]


@dataclass
class _Known:
    counts: dict[str, int]
    recalls: int = 0


class LabelCounts:
    """The last node counts per (user, channels) and label, and when to count again."""

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = tuple(labels)
        self._known: dict[tuple[str, tuple[str, ...]], _Known] = {}

    def plan(self, user_id: str, channels: Sequence[str]) -> SearchPlan:
        """The next recall's paths: a label with no count yet goes to the ANN (and is counted)."""
        known = self._known.get((user_id, tuple(channels)))
        counts = {} if known is None else known.counts
        exact = [label for label in self.labels if counts.get(label, EXACT_SCAN_MAX + 1) <= EXACT_SCAN_MAX]
        due = known is None or known.recalls >= RECOUNT_EVERY - 1
        return SearchPlan(
            exact=exact,
            ann=[label for label in self.labels if label not in exact],
            count=list(self.labels) if due else [],
        )

    def record(self, user_id: str, channels: Sequence[str], seen: Mapping[str, int]) -> dict[str, int]:
        """After a recall: ``seen`` holds what it counted (empty if it counted nothing). Returns the
        counts now known."""
        key = (user_id, tuple(channels))
        if seen:
            if len(self._known) >= _KEYS_MAX:
                self._known.clear()
            self._known[key] = _Known(dict(seen))
            return dict(seen)
        known = self._known.get(key)
        if known is None:
            return {}
        known.recalls += 1
        return dict(known.counts)
