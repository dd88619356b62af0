"""Calibrate an embedder's cosine thresholds against the reference model's, from labelled pairs.

    python benchmarks/calibrate.py ../shared/bench-data/locomo-dev.json --model multilingual-e5-small --write

Each threshold of the reference profile (all-MiniLM-L6-v2, whose values were tuned on this project's
benchmarks) is carried to the other model at the same quantile of one pool of text pairs that both
models score: the share of pairs at or above MiniLM's threshold is the share at or above the new one.
Models spread cosines very differently (e5 puts 96.6 % of random LoCoMo turn pairs at 0.80 or more,
MiniLM 0.2 %), but they agree far more on the *order* of pairs, which is what a threshold decides.

Two pools, because two kinds of comparison use thresholds:

- stored text against stored text ("passage" both sides: the learner's merges, entity resolution):
  the 40 facts said three ways (``benchmarks/data/learning/duplicates.jsonl``, 120 same-fact pairs),
  the 140 before/after exchanges of ``corrections.jsonl`` (related, not the same fact) and random pairs
  of the canonical statements of ``extraction.jsonl``;
- a question against stored text (recall's floors, the focus entity): LoCoMo questions of the
  *choosing* half (conversations 0–2) against their gold evidence turns and against random turns of
  their conversation. The data file is CC BY-NC and is only read, never copied.

For each threshold the report also gives the share of same-fact pairs and of near-misses at or above
it under both models: a mapped threshold should separate them about as the reference does.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agentx_memory.embedding import Embedder, build_embedder
from agentx_memory.embedding.base import embed_queries
from agentx_memory.embedding.calibration import DEFAULT_MODEL_ID, Calibration, load_profile, profile_path
from agentx_memory.settings import EmbeddingSettings
from benchmarks.locomo import CHOOSE, evidence_of, session_turns, turn_text

LEARNING = Path(__file__).resolve().parent / "data" / "learning"
#: The thresholds compared stored text against stored text; the rest compare a question with it.
PASSAGE_FIELDS = (
    "duplicate",
    "same_kind",
    "same_key",
    "statement",
    "named_statement",
    "entity_merge",
    "entity_candidate",
)
QUERY_FIELDS = ("focus", "fact_floor", "document_floor", "context_fact_floor")
#: Where recall's score scale is pinned (``query_scale``): quantiles of the question pool, denser in the
#: tails, where evidence sits.
SCALE_QUANTILES = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 1.0)
RANDOM_PAIRS = 3000
NEGATIVES_PER_QUESTION = 10
SEED = 34


@dataclass(frozen=True)
class Pairs:
    """Text pairs of one pool: ``left`` is embedded as a question when ``query`` (else as stored text)."""

    left: list[str]
    right: list[str]
    label: list[str]
    query: bool


def _jsonl(name: str) -> list[dict[str, Any]]:
    lines = (LEARNING / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def passage_pairs(rng: random.Random) -> Pairs:
    left: list[str] = []
    right: list[str] = []
    label: list[str] = []
    for fact in _jsonl("duplicates.jsonl"):
        said = fact["phrasings"]
        for i in range(len(said)):
            for j in range(i + 1, len(said)):
                left.append(said[i])
                right.append(said[j])
                label.append("same")
    for exchange in _jsonl("corrections.jsonl"):
        left.append(exchange["before"])
        right.append(exchange["after"])
        label.append("near")
    statements = [fact["statement"] for turn in _jsonl("extraction.jsonl") for fact in turn["facts"]]
    for _ in range(RANDOM_PAIRS):
        a, b = rng.sample(range(len(statements)), 2)
        left.append(statements[a])
        right.append(statements[b])
        label.append("random")
    return Pairs(left, right, label, query=False)


def query_pairs(samples: list[dict[str, Any]], rng: random.Random) -> Pairs:
    left: list[str] = []
    right: list[str] = []
    label: list[str] = []
    for sample in (samples[index] for index in CHOOSE if index < len(samples)):
        turns = {
            str(turn["dia_id"]): turn_text(turn)
            for _, _, session in session_turns(sample["conversation"])
            for turn in session
        }
        ids = sorted(turns)
        for qa in sample["qa"]:
            gold = [dia for dia in evidence_of(qa) if dia in turns]
            if not gold:
                continue
            for dia in gold:
                left.append(qa["question"])
                right.append(turns[dia])
                label.append("evidence")
            for dia in rng.sample(ids, NEGATIVES_PER_QUESTION):
                if dia not in gold:
                    left.append(qa["question"])
                    right.append(turns[dia])
                    label.append("random")
    return Pairs(left, right, label, query=True)


def cosines(embedder: Embedder, pairs: Pairs) -> NDArray[np.float64]:
    """Each pair's cosine under ``embedder``, every distinct text embedded once."""
    lefts, rights = sorted(set(pairs.left)), sorted(set(pairs.right))
    left_vectors = embed_queries(embedder, lefts) if pairs.query else embedder.embed(lefts)
    right_vectors = embedder.embed(rights)
    left_of = dict(zip(lefts, np.asarray(left_vectors), strict=True))
    right_of = dict(zip(rights, np.asarray(right_vectors), strict=True))
    return np.array([float(left_of[a] @ right_of[b]) for a, b in zip(pairs.left, pairs.right, strict=True)])


def carried(
    reference: NDArray[np.float64], target: NDArray[np.float64], threshold: float
) -> tuple[float, float]:
    """``threshold`` of the reference model carried to the target's cosine at the same quantile of the
    pool, and that quantile (the share of pairs at or above it)."""
    share = float(np.mean(reference >= threshold))
    if share <= 0.0:  # above every pair: keep the same margin below 1 as the reference's best pair
        return float(
            target.max() + (threshold - reference.max()) * (1 - target.max()) / (1 - reference.max())
        ), 0.0
    return float(np.quantile(target, 1.0 - share, method="higher")), share


def scale_knots(reference: NDArray[np.float64], target: NDArray[np.float64]) -> list[tuple[float, float]]:
    """(target cosine, reference cosine) at the same quantiles of one pool: recall's scores of the target
    model carried into the reference's units (``Calibration.to_reference``), increasing in both."""
    knots: list[tuple[float, float]] = []
    for q in SCALE_QUANTILES:
        x, y = round(float(np.quantile(target, q)), 4), round(float(np.quantile(reference, q)), 4)
        if not knots or (x > knots[-1][0] and y > knots[-1][1]):
            knots.append((x, y))
    return knots


def _share(values: NDArray[np.float64], labels: Sequence[str], label: str, threshold: float) -> float:
    chosen = values[[i for i, name in enumerate(labels) if name == label]]
    return float(np.mean(chosen >= threshold)) if len(chosen) else 0.0


def calibrate(model: str, locomo: Path, threads: int) -> tuple[Calibration, list[str]]:
    reference_profile = load_profile(DEFAULT_MODEL_ID)
    reference = build_embedder(EmbeddingSettings(model="all-MiniLM-L6-v2", local_threads=threads))
    target = build_embedder(EmbeddingSettings(model=model, local_threads=threads))
    rng = random.Random(SEED)
    samples = json.loads(locomo.read_text(encoding="utf-8"))
    values: dict[str, float] = {}
    values_scale: list[tuple[float, float]] = []
    rows = [
        "| threshold | pool | share of pool ≥ | MiniLM | target | same/evidence ≥ (MiniLM → target) "
        "| near/random ≥ |",
        "|---|---|---|---|---|---|---|",
    ]
    provenance: dict[str, Any] = {
        "script": "benchmarks/calibrate.py",
        "reference": DEFAULT_MODEL_ID,
        "seed": SEED,
    }
    for pool_name, pairs, fields, positive, negative in (
        ("passage", passage_pairs(rng), PASSAGE_FIELDS, "same", "near"),
        ("query", query_pairs(samples, rng), QUERY_FIELDS, "evidence", "random"),
    ):
        print(f"{pool_name}: {len(pairs.left)} pairs", file=sys.stderr, flush=True)
        ours, theirs = cosines(reference, pairs), cosines(target, pairs)
        counts = {name: pairs.label.count(name) for name in sorted(set(pairs.label))}
        provenance[f"{pool_name}_pool"] = {
            "pairs": counts,
            "spearman": float(
                np.corrcoef(np.argsort(np.argsort(ours)), np.argsort(np.argsort(theirs)))[0, 1]
            ),
        }
        if pairs.query:
            provenance["query_scale"] = "the query pool's quantiles " + ", ".join(map(str, SCALE_QUANTILES))
            values_scale = scale_knots(ours, theirs)
        for name in fields:
            old = float(getattr(reference_profile, name))
            new, share = carried(ours, theirs, old)
            values[name] = round(new, 4)
            kept = [
                f"{_share(ours, pairs.label, label, old):.2f} → {_share(theirs, pairs.label, label, new):.2f}"
                for label in (positive, negative)
            ]
            rows.append(
                f"| {name} | {pool_name} | {share:.3f} | {old:.3f} | {new:.3f} | {kept[0]} | {kept[1]} |"
            )
    provenance["method"] = (
        "each reference threshold at the same quantile of the pool (both models score the same pairs)"
    )
    profile = Calibration.model_validate(
        {"model_id": target.model_id, **values, "query_scale": values_scale, "provenance": provenance}
    )
    return profile, rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "locomo", type=Path, help="a LoCoMo-format JSON file (its conversations 0–2 are used)"
    )
    parser.add_argument(
        "--model", default="multilingual-e5-small", help="AGENTX_EMBEDDING__MODEL of the local model"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--write", action="store_true", help="write the profile into the package")
    args = parser.parse_args()
    profile, rows = calibrate(args.model, args.locomo, args.threads)
    print("\n".join(rows))
    text = json.dumps(profile.model_dump(mode="json"), indent=2) + "\n"
    if args.write:
        profile_path(profile.model_id).write_text(text, encoding="utf-8")
        print(f"wrote {profile_path(profile.model_id)}", file=sys.stderr)
    else:
        print(text)


if __name__ == "__main__":
    main()
