"""Draw the benchmark pages' plots from the committed results JSON (``benchmarks/results/``) into
``docs/images/bench-*.png``.

Run it after a benchmark rewrites its JSON, and commit the images with it:

    python tools/plot_benchmarks.py            # every plot
    python tools/plot_benchmarks.py --check    # fail if a plot's input JSON is missing

Each plot reads one JSON file and nothing else, so a figure on the benchmark pages and the plot beside
it come from the same run. Pure drawing: no store, no network.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display; must precede pyplot
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
IMAGES = ROOT / "docs" / "images"
PERCENTILES = ("p50", "p95", "p99")


def _load(name: str) -> Any:
    return json.loads((RESULTS / name).read_text())


def _bars(ax: Any, groups: list[str], series: dict[str, list[float]], unit: str) -> None:
    """Grouped bars: one group per label in ``groups``, one bar per series, each bar labelled."""
    width = 0.8 / len(series)
    for i, (name, values) in enumerate(series.items()):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        bars = ax.bar(xs, values, width, label=name)
        ax.bar_label(bars, fmt="%.3g", fontsize=7, padding=1)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel(unit)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)


def recall_latency() -> Figure:
    """``recall_latency.json``: remember / get_context / floor percentiles at each corpus size."""
    data = _load("recall_latency.json")
    fig, axes = plt.subplots(1, len(data["sizes"]), figsize=(10, 3.6), sharey=True)
    for ax, size in zip(axes, data["sizes"], strict=True):
        ops = {"remember": "remember", "get_context": "get_context", "floor": "floor"}
        series = {op: [size[key][p] for p in PERCENTILES] for op, key in ops.items()}
        _bars(ax, list(PERCENTILES), series, "ms")
        ax.set_title(f"{size['turns']:,} turns", fontsize=10)
    fig.suptitle(f"Recall latency (make bench-recall, {data['generated_at'][:10]})", fontsize=11)
    return fig


def store_turn() -> Figure:
    """``store_turn.json``: store_turn against its floor and the floor's parts."""
    data = _load("store_turn.json")["latency_ms"]
    names = {
        "store_turn": "store_turn",
        "floor": "floor",
        "floor_embed": "of which: embed",
        "floor_postgres": "of which: Postgres",
        "floor_graph": "of which: graph",
    }
    fig, ax = plt.subplots(figsize=(8, 3.6))
    series = {label: [data[key][p] for p in PERCENTILES] for key, label in names.items()}
    _bars(ax, list(PERCENTILES), series, "ms")
    ax.set_title("store_turn against its floor (make bench)", fontsize=11)
    return fig


def ingest() -> Figure:
    """``ingest.json``: bulk ingest throughput, median of the runs."""
    data = _load("ingest.json")["median_turns_per_s"]
    labels = {
        "floor": "floor: batched\nembedding",
        "store_turns": "store_turns",
        "store_turn": "store_turn\n(one per call)",
    }
    fig, ax = plt.subplots(figsize=(6, 3.4))
    colours = ["#999", "#1f77b4", "#ff7f0e"]
    bars = ax.bar([labels[k] for k in labels], [data[k] for k in labels], color=colours)
    ax.bar_label(bars, fmt="%.0f", fontsize=8)
    ax.set_ylabel("turns/s")
    ax.grid(axis="y", alpha=0.3)
    ax.set_title("Bulk ingest (benchmarks/ingest.py)", fontsize=11)
    return fig


def locomo_recall() -> Figure:
    """``locomo-dev.json``: evidence recall@k per variant, and per category at 10."""
    data = _load("locomo-dev.json")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8))
    for variant, result in data.items():
        ks = sorted(result["recall"], key=int)
        left.plot([int(k) for k in ks], [result["recall"][k] for k in ks], marker="o", label=variant)
    left.set_xlabel("k")
    left.set_ylabel("evidence recall@k")
    left.set_xticks([1, 5, 10, 20])
    left.legend(fontsize=7)
    left.grid(alpha=0.3)
    left.set_title("Recall@k by variant", fontsize=10)
    categories = list(data["default"]["by_category_at_10"])
    shown = [v for v in ("bm25", "dense-only", "default") if v in data]
    by_variant = {v: [data[v]["by_category_at_10"][c] for c in categories] for v in shown}
    _bars(right, categories, by_variant, "R@10")
    right.tick_params(axis="x", labelsize=8)
    right.set_title("R@10 by category", fontsize=10)
    fig.suptitle("LoCoMo-format evidence recall, dev conversations (benchmarks/locomo.py)", fontsize=11)
    return fig


def learning_scenarios() -> Figure:
    """``learning_scenarios.json``: pass rate per kind, dev half against test half."""
    data = _load("learning_scenarios.json")
    kinds = sorted(data["per_kind"])
    fig, ax = plt.subplots(figsize=(11, 3.8))
    series = {half: [data["per_kind"][k][half]["rate"] for k in kinds] for half in ("dev", "test")}
    _bars(ax, kinds, series, "scenarios passed")
    ax.tick_params(axis="x", labelsize=8, rotation=30)
    ax.set_ylim(0, 1.15)
    ax.set_title(
        f"Learning scenarios: {data['passed']} of {data['total']} passed "
        f"(benchmarks/learning_scenarios.py --split {data['split']})",
        fontsize=11,
    )
    return fig


def context_evidence() -> Figure:
    """``context_evidence.json``: what a get_context block carries at each budget."""
    data = _load("context_evidence.json")
    budgets = sorted(data, key=lambda key: int(key.split("@")[1]))
    groups = [f"{int(key.split('@')[1]):,} tokens" for key in budgets]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    series = {
        "evidence recall": [data[key]["all"]["evidence_recall"] for key in budgets],
        "precision": [data[key]["all"]["precision"] for key in budgets],
    }
    _bars(ax, groups, series, "share")
    ax.set_ylim(0, 1.05)
    ax.set_title("get_context: evidence in the block (benchmarks/context_evidence.py)", fontsize=11)
    return fig


PLOTS: dict[str, tuple[str, Callable[[], Figure]]] = {
    "bench-recall-latency.png": ("recall_latency.json", recall_latency),
    "bench-store-turn.png": ("store_turn.json", store_turn),
    "bench-ingest.png": ("ingest.json", ingest),
    "bench-locomo-recall.png": ("locomo-dev.json", locomo_recall),
    "bench-learning-scenarios.png": ("learning_scenarios.json", learning_scenarios),
    "bench-context-evidence.png": ("context_evidence.json", context_evidence),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only check that every input exists")
    args = parser.parse_args()
    missing = [source for source, _ in PLOTS.values() if not (RESULTS / source).exists()]
    if missing:
        raise SystemExit(f"missing results: {', '.join(missing)} (run their benchmarks first)")
    if args.check:
        return
    IMAGES.mkdir(parents=True, exist_ok=True)
    for image, (source, draw) in PLOTS.items():
        fig = draw()
        fig.tight_layout()
        # no Software/date metadata: the same JSON gives the same file
        fig.savefig(IMAGES / image, dpi=110, metadata={"Software": None})
        plt.close(fig)
        print(f"docs/images/{image}  <- benchmarks/results/{source}")


if __name__ == "__main__":
    main()
