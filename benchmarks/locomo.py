"""Retrieval quality on LoCoMo-format conversations: evidence recall@k through ``remember``.

    python benchmarks/locomo.py ../shared/bench-data/locomo-dev.json [--variants default,rrf]

Each conversation is ingested as its own user; each session becomes a conversation whose turns carry
the session's real date-time (one second apart), ``metadata.speaker`` and ``metadata.dia_id``. A
turn that shares an image gets the image's caption appended, as LoCoMo presents it to models
("[shares a photo of …]"); the image-search ``query`` field is not used. Every question is asked
through ``remember`` (no LLM); recall@k is the share of the question's gold evidence turns among
the first k distinct turns the returned items stand for, in rank order. Plain BM25 over the turns'
text (rank-bm25, the same run) is the baseline. The data file is CC BY-NC and is never copied here.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rank_bm25 import BM25Okapi

from agentx_memory import AsyncAgentMemory
from agentx_memory.models import MemoryBundle
from agentx_memory.settings import Settings, owning_process
from benchmarks.here import here

KS = (1, 5, 10, 20)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
TARGET = 0.75
_WORD = re.compile(r"\w+")
_STOP = frozenset(
    re.findall(
        r"\w+",
        "a an the and or but if of at by for with about to from in on is are was were be been do does did "
        "what when where who whom which why how i you he she it we they me my your his her its our their",
    )
)


@dataclass
class Scores:
    """recall@k per k, overall and per category, plus query latencies (ms)."""

    by_k: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    by_category: dict[tuple[int, int], list[float]] = field(default_factory=lambda: defaultdict(list))
    #: R@10 per conversation (0-based, in file order): settings are chosen on 0–2 and confirmed on 3–4.
    by_conversation: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    latency_ms: list[float] = field(default_factory=list)
    #: Each question's outcome, for ``--dump`` (reading failure kinds, never tuning on one question).
    questions: list[dict[str, Any]] = field(default_factory=list)

    def add(self, category: int, ranked: list[str], evidence: list[str], conversation: int = 0) -> None:
        gold = set(evidence)
        for k in KS:
            value = len(set(ranked[:k]) & gold) / len(gold)
            self.by_k[k].append(value)
            self.by_category[(k, category)].append(value)
        self.by_conversation[conversation].append(len(set(ranked[:10]) & gold) / len(gold))

    def conversations_mean(self, conversations: range) -> float:
        values = [v for c in conversations for v in self.by_conversation.get(c, [])]
        return sum(values) / len(values) if values else 0.0

    def mean(self, k: int, category: int | None = None) -> float:
        values = self.by_k[k] if category is None else self.by_category[(k, category)]
        return sum(values) / len(values) if values else 0.0


def session_turns(conversation: dict[str, Any]) -> list[tuple[int, datetime, list[dict[str, Any]]]]:
    sessions = []
    for key, value in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if match and isinstance(value, list) and value:
            stamp = datetime.strptime(conversation[f"{key}_date_time"], "%I:%M %p on %d %B, %Y")
            sessions.append((int(match.group(1)), stamp.replace(tzinfo=UTC), value))
    return sorted(sessions, key=lambda session: session[0])


def turn_text(turn: dict[str, Any]) -> str:
    caption = turn.get("blip_caption")
    return f"{turn['text']} [shares {caption}]" if caption else str(turn["text"])


def words(text: str) -> list[str]:
    return [word for word in _WORD.findall(text.casefold()) if word not in _STOP]


def evidence_of(qa: dict[str, Any]) -> list[str]:
    # A few gold entries hold several ids in one string ("D8:6; D9:17"); split them.
    return [
        part.strip() for entry in qa.get("evidence", []) for part in re.split(r"[;,]", entry) if part.strip()
    ]


def ranked_turns(bundle: MemoryBundle, dia_of: dict[str, str]) -> list[str]:
    """Distinct turns (dia ids) the items stand for, in rank order; a fact uses up its source turns."""
    ranked: list[str] = []
    for item in bundle.items:
        for turn_id in item.source_turn_ids:
            dia = dia_of.get(turn_id)
            if dia is not None and dia not in ranked:
                ranked.append(dia)
    return ranked


async def ingest(memory: AsyncAgentMemory, sample: dict[str, Any]) -> tuple[dict[str, str], int]:
    conversation = sample["conversation"]
    first = conversation["speaker_a"]
    dia_of: dict[str, str] = {}
    count = 0
    for number, stamp, turns in session_turns(conversation):
        conversation_id = await memory.new_conversation(title=f"session {number}")
        for index, turn in enumerate(turns):
            stored = await memory.store_turn(
                conversation_id,
                "user" if turn["speaker"] == first else "assistant",
                turn_text(turn),
                timestamp=stamp + timedelta(seconds=index),
                metadata={"speaker": turn["speaker"], "dia_id": turn["dia_id"]},
            )
            dia_of[stored.id] = turn["dia_id"]
            count += 1
    return dia_of, count


def bm25_baseline(sample: dict[str, Any], scores: Scores, conversation: int) -> None:
    turns = [turn for _, _, session in session_turns(sample["conversation"]) for turn in session]
    index = BM25Okapi([words(turn_text(turn)) for turn in turns])
    for qa in sample["qa"]:
        evidence = evidence_of(qa)
        if not evidence:
            continue
        values = index.get_scores(words(qa["question"]))
        order = sorted(range(len(turns)), key=lambda i: -values[i])
        scores.add(qa["category"], [turns[i]["dia_id"] for i in order[:20]], evidence, conversation)


#: Variants that read a second copy of each conversation, consolidated first (learned facts stand for
#: their source turns); retrieval settings as ``default``.
CONSOLIDATED = "consolidated"


def variant_settings(base: Settings, name: str) -> Settings:
    retrieval = base.retrieval
    changes: dict[str, dict[str, Any]] = {
        "default": {},
        CONSOLIDATED: {},
        "consolidated-statements": {"recall_statements": True},
        "consolidated-manyfacts": {"max_fact_share": 1.0},
        "rrf": {"fusion": "rrf"},
        "no-neighbours": {"neighbour_weight": 0.0},
        "dense-only": {"hybrid": False, "neighbour_weight": 0.0, "query_expansion": False},
        "speaker": {"speaker_boost": 1.2},
    }
    if name not in changes:
        # "session_weight=0.2" or "consolidated:session_weight=0.2;speaker_boost=1.2": retrieval
        # settings, on the turns-only or the consolidated copy.
        _, _, assignments = name.rpartition(":")
        if "=" not in assignments:
            raise SystemExit(f"unknown variant {name!r}: use {', '.join(changes)} or retrieval key=value")
        pairs = dict(pair.split("=", 1) for pair in assignments.split(";"))
        update = {**retrieval.model_dump(), **pairs}
        return base.model_copy(update={"retrieval": type(retrieval).model_validate(update)})
    return base.model_copy(update={"retrieval": retrieval.model_copy(update=changes[name])})


async def stored_dia_ids(memory: AsyncAgentMemory) -> dict[str, str]:
    """Turn id -> dia id of the turns a previous run stored for this user (``--reuse``)."""
    records = await memory.export_user(embeddings=False)
    return {
        str(record["data"]["id"]): str(record["data"]["metadata"]["dia_id"])
        for record in records
        if record["type"] == "turn" and "dia_id" in record["data"].get("metadata", {})
    }


async def run(
    samples: list[dict[str, Any]], variants: list[str], name: str = "bench_locomo", reuse: bool = False
) -> dict[str, Any]:
    base = owning_process(
        Settings(
            graph={"name": name},
            postgres={"schema": name},
            redis={"key_prefix": name.replace("_", "-")},
            learning={"auto_consolidate": False},
        )
    )
    results: dict[str, Scores] = {name: Scores() for name in variants}
    baseline = Scores()
    ingest_seconds = 0.0
    ingested = 0
    if not reuse:
        async with here(AsyncAgentMemory("locomo-setup", settings=base)) as setup:
            backends = await setup._open_backends()
            await backends.graph.drop()
            await backends.ledger.drop_schema()
    async with here(AsyncAgentMemory("locomo-setup", settings=base)) as root:
        for number, sample in enumerate(samples, start=1):
            memory = await root.for_user(f"locomo-{sample.get('sample_id', number)}")
            started = time.perf_counter()
            if reuse:
                dia_of = await stored_dia_ids(memory)
                count = len(dia_of)
                if not count:
                    raise SystemExit(f"--reuse: no stored turns under --name {name}; run once without it")
            else:
                dia_of, count = await ingest(memory, sample)
                ingest_seconds += time.perf_counter() - started
            ingested += count
            bm25_baseline(sample, baseline, number - 1)
            questions = [qa for qa in sample["qa"] if evidence_of(qa)]
            learned: AsyncAgentMemory | None = None
            if any(name.startswith(CONSOLIDATED) for name in variants):
                learned = await root.for_user(f"{memory.scope.user_id}-consolidated")
                if reuse:
                    learned_dia = await stored_dia_ids(learned)
                    if not learned_dia:
                        raise SystemExit(f"--reuse: no consolidated copy under --name {name}")
                else:
                    learned_dia, _ = await ingest(learned, sample)
                    for pending in await learned.consolidate_pending():
                        print(f"  consolidated {pending.turns_read} turns", file=sys.stderr, flush=True)
                dia_of = {**dia_of, **learned_dia}
            for name in variants:
                user = (
                    learned.scope.user_id
                    if name.startswith(CONSOLIDATED) and learned
                    else memory.scope.user_id
                )
                variant = await root.for_user(user)
                variant.settings = variant_settings(base, name)
                for qa in questions:
                    started = time.perf_counter()
                    bundle = await variant.remember(qa["question"], top_k=20)
                    results[name].latency_ms.append((time.perf_counter() - started) * 1000)
                    ranked = ranked_turns(bundle, dia_of)
                    results[name].add(qa["category"], ranked, evidence_of(qa), number - 1)
                    results[name].questions.append(
                        {
                            "conversation": number - 1,
                            "question": qa["question"],
                            "category": qa["category"],
                            "evidence": evidence_of(qa),
                            "ranked": ranked[:20],
                        }
                    )
            print(
                f"conversation {number}/{len(samples)}: {count} turns, {len(questions)} questions",
                file=sys.stderr,
                flush=True,
            )
    return {"results": results, "baseline": baseline, "turns": ingested, "ingest_s": ingest_seconds}


def table(report: dict[str, Any]) -> str:
    rows = [
        "| retriever | R@1 | R@5 | R@10 | R@20 | "
        + " | ".join(f"{c} {n} @10" for c, n in CATEGORIES.items())
        + " | p50 ms | p95 ms |",
        "|---" * (7 + len(CATEGORIES)) + "|",
    ]
    entries: list[tuple[str, Scores]] = [("BM25 over turns (baseline)", report["baseline"])]
    entries += [(f"agentx `remember` ({name})", scores) for name, scores in report["results"].items()]
    for label, scores in entries:
        latency = sorted(scores.latency_ms)
        p50 = f"{statistics.median(latency):.1f}" if latency else "–"
        p95 = f"{latency[int(0.95 * (len(latency) - 1))]:.1f}" if latency else "–"
        cells = [f"{scores.mean(k):.3f}" for k in KS]
        cells += [f"{scores.mean(10, c):.3f}" for c in CATEGORIES]
        rows.append(f"| {label} | " + " | ".join(cells) + f" | {p50} | {p95} |")
    rows += ["", halves(report)]
    default = next(iter(report["results"].values()))
    gaps = ", ".join(f"{n} {default.mean(10, c) - TARGET:+.3f}" for c, n in CATEGORIES.items())
    rows.append("")
    rows.append(f"Gap to the {TARGET} target at k=10: overall {default.mean(10) - TARGET:+.3f}; {gaps}.")
    rows.append(
        f"Ingestion: {report['turns']} turns in {report['ingest_s']:.1f} s "
        f"({report['turns'] / report['ingest_s']:.0f} turns/s, sequential `store_turn`)."
        if report["ingest_s"]
        else f"Ingestion: none, {report['turns']} stored turns reused (--reuse)."
    )
    return "\n".join(rows)


#: The protocol's halves: choose on the first, confirm on the second (never tune on one question).
CHOOSE, CONFIRM = range(0, 3), range(3, 5)


def halves(report: dict[str, Any]) -> str:
    """R@10 per variant on conversations 0–2 (choose), 3–4 (confirm) and each conversation."""
    results: dict[str, Scores] = report["results"]
    count = max((max(s.by_conversation, default=-1) for s in results.values()), default=-1) + 1
    rows = [
        "| R@10 | conversations 0–2 | 3–4 | " + " | ".join(f"#{c}" for c in range(count)) + " |",
        "|---|---|---|" + "---|" * count,
    ]
    for name, scores in results.items():
        each = " | ".join(f"{scores.conversations_mean(range(c, c + 1)):.3f}" for c in range(count))
        rows.append(
            f"| {name} | {scores.conversations_mean(CHOOSE):.3f} | "
            f"{scores.conversations_mean(CONFIRM):.3f} | {each} |"
        )
    names = list(results)
    if len(names) > 1:
        first = results[names[0]]
        header = f"| R@10 change against {names[0]} (95 % paired bootstrap) | 0–2 | 3–4 |"
        rows += ["", header, "|---|---|---|"]
        for name in names[1:]:
            cells = []
            for half in (CHOOSE, CONFIRM):
                before = [v for c in half for v in first.by_conversation.get(c, [])]
                after = [v for c in half for v in results[name].by_conversation.get(c, [])]
                delta, low, high = paired_interval(before, after)
                cells.append(f"{delta:+.3f} [{low:+.3f}, {high:+.3f}]")
            rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def paired_interval(
    before: list[float], after: list[float], resamples: int = 2000, seed: int = 17
) -> tuple[float, float, float]:
    """Mean per-question change and its 95 % bootstrap interval (questions resampled with replacement).

    Both lists hold one value per question, in the same order: the variants ask the same questions. A
    difference of a few thousandths on one half is often inside the interval, i.e. a few questions."""
    if len(before) != len(after) or not before:
        return 0.0, 0.0, 0.0
    deltas = [b - a for a, b in zip(before, after, strict=True)]
    rng = random.Random(seed)
    count = len(deltas)
    means = sorted(sum(deltas[rng.randrange(count)] for _ in range(count)) / count for _ in range(resamples))
    return sum(deltas) / count, means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path, help="a LoCoMo-format JSON file")
    parser.add_argument("--variants", default="default,rrf", help="comma-separated retrieval variants")
    parser.add_argument("--limit", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--name", default="bench_locomo", help="graph, schema and key prefix (runs at once need their own)"
    )
    parser.add_argument("--dump", type=Path, default=None, help="also write each question's ranking here")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help=(
            "ask the questions again on the store an earlier run left under --name: ~1 min instead of ~5, "
            "for query-time settings only; recalled facts' access counts carry over (reinforce_access), "
            "so compare variants within one run"
        ),
    )
    args = parser.parse_args()
    samples = json.loads(args.path.read_text(encoding="utf-8"))[: args.limit]
    report = asyncio.run(run(samples, args.variants.split(","), args.name, args.reuse))
    print(table(report))
    if args.json is not None:
        figures = {
            name: {
                "recall": {str(k): scores.mean(k) for k in KS},
                "by_category_at_10": {CATEGORIES[c]: scores.mean(10, c) for c in CATEGORIES},
                "at_10_by_conversation": {
                    str(c): scores.conversations_mean(range(c, c + 1)) for c in sorted(scores.by_conversation)
                },
            }
            for name, scores in [("bm25", report["baseline"]), *report["results"].items()]
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    if args.dump is not None:
        dump = {name: scores.questions for name, scores in report["results"].items()}
        args.dump.write_text(json.dumps(dump) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
