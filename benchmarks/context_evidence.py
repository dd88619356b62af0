"""Does ``get_context`` earn its tokens? The share of injected lines that hold gold evidence.

    python benchmarks/context_evidence.py ../shared/bench-data/locomo-dev.json \
        [--budgets 500,1500,3000] [--variants "default,context_floor=0.5"] [--limit N]

Each LoCoMo conversation is ingested as in ``benchmarks/locomo.py`` (one user per conversation, one
conversation per session, turns with their session's date-time); every question with gold evidence is
passed to ``get_context`` at each budget. Per variant (retrieval settings, ``key=value;key=value``) and
budget: memory lines per block, tokens used, **precision** (the share of memory lines whose turn is a
gold evidence turn of the question) and **evidence recall** (the share of the question's evidence
turns that reach the block), overall and on conversations 0–2 / 3–4 (choose on the first half, confirm
on the second). A relevance floor should raise precision without losing evidence recall.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AsyncAgentMemory
from agentx_memory.retrieval.context_render import RECALL_MARKER_RE, short_id
from agentx_memory.retrieval.tokens import default_token_counter
from agentx_memory.settings import Settings, owning_process
from benchmarks.here import here
from benchmarks.locomo import CHOOSE, CONFIRM, evidence_of, ingest, variant_settings

RESULTS = Path(__file__).resolve().parent / "results" / "context_evidence.json"


def block_figures(text: str, gold: set[str], dia_of_short: dict[str, str]) -> dict[str, float]:
    """Lines, gold lines and evidence found in one rendered block."""
    tags = RECALL_MARKER_RE.findall(text)
    dias = [dia_of_short.get(tag) for tag in tags]
    found = {dia for dia in dias if dia in gold}
    return {
        "lines": len(tags),
        "gold_lines": sum(1 for dia in dias if dia in gold),
        "evidence_recall": len(found) / len(gold),
    }


async def run(samples: list[dict[str, Any]], variants: list[str], budgets: list[int]) -> dict[str, Any]:
    base = owning_process(
        Settings(
            graph={"name": "bench_context"},
            postgres={"schema": "bench_context"},
            redis={"key_prefix": "bench-context"},
            learning={"auto_consolidate": False},
        )
    )
    counter = default_token_counter()
    # (variant, budget) -> conversation -> list of per-question figures
    cells: dict[tuple[str, int], dict[int, list[dict[str, float]]]] = defaultdict(lambda: defaultdict(list))
    async with here(AsyncAgentMemory("context-setup", settings=base)) as setup:
        backends = await setup._open_backends()
        await backends.graph.drop()
        await backends.ledger.drop_schema()
    async with here(AsyncAgentMemory("context-setup", settings=base)) as root:
        for number, sample in enumerate(samples):
            memory = await root.for_user(f"context-{sample.get('sample_id', number)}")
            dia_of, count = await ingest(memory, sample)
            dia_of_short = {short_id(turn_id): dia for turn_id, dia in dia_of.items()}
            questions = [qa for qa in sample["qa"] if evidence_of(qa)]
            for name in variants:
                variant = await root.for_user(memory.scope.user_id)
                variant.settings = variant_settings(base, name)
                for qa in questions:
                    gold = set(evidence_of(qa))
                    for budget in budgets:
                        text = await variant.get_context(qa["question"], budget_tokens=budget)
                        figures = block_figures(text, gold, dia_of_short)
                        figures["tokens"] = counter.count(text) if text else 0
                        cells[(name, budget)][number].append(figures)
            print(
                f"conversation {number + 1}/{len(samples)}: {count} turns, {len(questions)} questions",
                file=sys.stderr,
                flush=True,
            )
    return {"cells": cells}


def summarise(
    per_conversation: dict[int, list[dict[str, float]]], conversations: range | None
) -> dict[str, float]:
    rows = [
        row
        for c, values in per_conversation.items()
        if conversations is None or c in conversations
        for row in values
    ]
    lines = sum(row["lines"] for row in rows)
    return {
        "questions": len(rows),
        "lines_per_block": lines / len(rows) if rows else 0.0,
        "tokens_per_block": sum(row["tokens"] for row in rows) / len(rows) if rows else 0.0,
        "precision": sum(row["gold_lines"] for row in rows) / lines if lines else 0.0,
        "evidence_recall": sum(row["evidence_recall"] for row in rows) / len(rows) if rows else 0.0,
    }


def table(report: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    rows = [
        "| variant | budget | lines | tokens | precision | evidence recall "
        "| precision 0–2 / 3–4 | recall 0–2 / 3–4 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    figures: dict[str, Any] = {}
    for (name, budget), per_conversation in report["cells"].items():
        whole = summarise(per_conversation, None)
        choose, confirm = summarise(per_conversation, CHOOSE), summarise(per_conversation, CONFIRM)
        figures[f"{name}@{budget}"] = {"all": whole, "0-2": choose, "3-4": confirm}
        rows.append(
            f"| {name} | {budget} | {whole['lines_per_block']:.1f} | {whole['tokens_per_block']:.0f} | "
            f"{whole['precision']:.3f} | {whole['evidence_recall']:.3f} | "
            f"{choose['precision']:.3f} / {confirm['precision']:.3f} | "
            f"{choose['evidence_recall']:.3f} / {confirm['evidence_recall']:.3f} |"
        )
    return "\n".join(rows), figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path, help="a LoCoMo-format JSON file")
    parser.add_argument("--variants", default="default", help="comma-separated retrieval variants")
    parser.add_argument("--budgets", default="500,1500,3000", help="comma-separated token budgets")
    parser.add_argument("--limit", type=int, default=None, help="only the first N conversations")
    parser.add_argument(
        "--json", type=Path, default=RESULTS, help=f"figures written here (default {RESULTS})"
    )
    args = parser.parse_args()
    samples = json.loads(args.path.read_text(encoding="utf-8"))[: args.limit]
    budgets = [int(value) for value in args.budgets.split(",")]
    report = asyncio.run(run(samples, args.variants.split(","), budgets))
    text, figures = table(report)
    print(text)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
