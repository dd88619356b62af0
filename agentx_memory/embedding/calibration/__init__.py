"""Cosine thresholds per embedding model: the data files beside this module, read by model id.

Models spread cosines very differently: all-MiniLM-L6-v2 puts 0.2 % of random LoCoMo turn pairs at 0.80
or more, multilingual-e5-small 96.6 %. So no threshold is a constant of the code (DESIGN §5): each
model has a profile here (``<model id>.json``), computed by ``benchmarks/calibrate.py`` from labelled
pairs, and settings may override any value (``similarity.*``, and the three ``retrieval.*`` floors that
predate the profiles; ``None`` = the profile's value). A model without a profile (an OpenAI model) uses
MiniLM's, as before profiles existed: its overrides are the way to fit it.
"""

from __future__ import annotations

import bisect
import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from pydantic import BaseModel, ConfigDict, Field

from agentx_memory.errors import ConfigurationError

if TYPE_CHECKING:
    from agentx_memory.settings import RetrievalSettings, SimilaritySettings

__all__ = ["DEFAULT_MODEL_ID", "Calibration", "load_profile", "profile_path"]

_HERE: Final = Path(__file__).resolve().parent
#: The profile a model without its own uses (the default local model's).
DEFAULT_MODEL_ID: Final = "all-MiniLM-L6-v2-int8-onnx"
_Cosine = Field(ge=-1, le=1)


class Calibration(BaseModel):
    """Every cosine threshold of one embedding model. Stored text against stored text ("passage"):
    the learner's merges and entity resolution; a question against stored text ("query"): recall."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model_id: str
    #: A new fact is the stored one said again: this close and token Jaccard ≥ 0.75.
    duplicate: float = _Cosine
    #: Same subject and kind, naming the same names: the same fact in other words …
    same_kind: float = _Cosine
    #: … and under the same key, this close is enough (also: two events of one subject on one day).
    same_key: float = _Cosine
    #: A free statement restating a typed fact about the same subject, on the same topic …
    statement: float = _Cosine
    #: … or this close when both name the typed fact's value.
    named_statement: float = _Cosine
    #: A new entity is the nearest one of its type (merged) from this cosine ...
    entity_merge: float = _Cosine
    #: ... and a SAME_AS candidate for review from this one.
    entity_candidate: float = _Cosine
    #: The entity nearest a "tell me about X" question is the one it names from this cosine.
    focus: float = _Cosine
    #: A learned fact is recalled only at this cosine with the question (``retrieval.fact_min_similarity``).
    fact_floor: float = _Cosine
    #: A document is recalled only at this cosine (``retrieval.document_min_similarity``).
    document_floor: float = _Cosine
    #: A current fact joins get_context's facts unranked at this cosine
    #: (``retrieval.context_fact_min_similarity``).
    context_fact_floor: float = _Cosine
    #: Recall's scores in the reference model's units: knots (this model's cosine, the reference model's
    #: cosine at the same quantile of the question-against-stored-text pool), increasing in both. Empty
    #: for the reference model (its cosines are the units). See :meth:`to_reference`.
    query_scale: tuple[tuple[float, float], ...] = ()
    #: How the values were computed (script, data, method): read by people, not by the code.
    provenance: dict[str, Any] = Field(default_factory=dict)

    @functools.cached_property
    def _scale_xs(self) -> list[float]:
        return [x for x, _ in self.query_scale]

    def to_reference(self, cosine: float) -> float:
        """A question-to-text cosine of this model as the reference model's cosine at the same quantile.

        Recall adds cosines to its scores (the reply's and the session's evidence, each kind's anchor)
        in units tuned on the reference model; e5 bunches the same pairs into 0.75–0.93, where those
        additions lose their contrast. Piecewise linear between the knots, the end segments extended;
        the identity without knots."""
        knots = self.query_scale
        if len(knots) < 2:
            return cosine
        i = min(max(bisect.bisect_right(self._scale_xs, cosine), 1), len(knots) - 1)
        (x0, y0), (x1, y1) = knots[i - 1], knots[i]
        return y0 + (cosine - x0) * (y1 - y0) / (x1 - x0)

    def overridden(
        self, similarity: SimilaritySettings | None = None, retrieval: RetrievalSettings | None = None
    ) -> Calibration:
        """This profile with the settings' explicit values in place of its own (``None`` keeps it)."""
        changes: dict[str, float] = {}
        if similarity is not None:
            changes.update({k: v for k, v in similarity.model_dump().items() if v is not None})
        if retrieval is not None:
            floors = {
                "fact_floor": retrieval.fact_min_similarity,
                "document_floor": retrieval.document_min_similarity,
                "context_fact_floor": retrieval.context_fact_min_similarity,
            }
            changes.update({k: v for k, v in floors.items() if v is not None})
        return self.model_copy(update=changes) if changes else self


def profile_path(model_id: str) -> Path:
    """Where ``model_id``'s profile lives (it may not exist)."""
    return _HERE / f"{model_id}.json"


@functools.cache
def load_profile(model_id: str) -> Calibration:
    """The profile of ``model_id``, or the default model's (re-labelled) when it has none."""
    path = profile_path(model_id)
    if not path.is_file():
        return load_profile(DEFAULT_MODEL_ID).model_copy(update={"model_id": model_id})
    try:
        return Calibration.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        raise ConfigurationError(
            f"cannot read the calibration profile {path}: {exc}; reinstall agentx-memory"
        ) from exc
