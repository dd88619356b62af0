# Generated from agentx_memory/retrieval/document_recall_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Recall's document step: what a framework stored as the agent's memory (a LangGraph store's items, as
LangMem keeps memories) found by its embedded texts and ranked with the other kinds. Generated from
``retrieval/document_recall_async.py``: edit that file. Documents stored without texts (``index=False``,
session items) have no vector and are never recalled, as they are never found by a LangGraph search either.
"""

from __future__ import annotations

from functools import partial

from ..backends import Backends
from ..models import Scope
from ..settings import RetrievalSettings
from .candidates import Candidate, Retrieved, TechniqueTimer
from .items import RecallPlan, document_id, document_item

__all__ = ["recall_documents"]


def recall_documents(
    backends: Backends, settings: RetrievalSettings, scope: Scope, plan: RecallPlan, found: Retrieved
) -> None:
    """Fill ``found``'s document candidates for ``plan`` (its vectors embedded): cosine is relevance."""
    if "document" not in plan.kinds:
        return
    timer = TechniqueTimer(found.metrics, "documents")
    hits = backends.documents.recall(
        scope, plan.channels, plan.vectors["vector"], limit=max(plan.top_k * 2, 10)
    )
    kind = found.kinds["document"]
    floor = backends.calibration.overridden(retrieval=settings).document_floor
    kept = [hit for hit in hits if hit.score >= floor]
    for hit in kept:
        item_id = document_id(hit.space, hit.namespace, hit.key)
        build = partial(document_item, hit, found_by=["vector"])
        kind.items[item_id] = Candidate(item_id, hit.updated_at, None, hit.text, build)
        kind.relevance[item_id] = hit.score
    kind.anchor = max((hit.score for hit in kept), default=0.0)
    timer.done(len(kept))
