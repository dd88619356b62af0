"""Learning benchmarks: the offline extractor on the hand-labelled set, corrections, duplicates, junk,
and consolidation cost. Prints markdown tables (quoted in the README); figures, not timed tests.

    python benchmarks/learning.py [--json benchmarks/results/learning.json] [--sections extraction,…]

``extraction`` is pure (no servers). The others run consolidation end to end on the embedded servers:
each case gets its own user, so nothing leaks between cases. Data: ``benchmarks/data/learning/``
(hand-written for this project; see its README).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AsyncAgentMemory
from agentx_memory.extraction.atoms import FactAtom
from agentx_memory.extraction.names import NameRecognizer, name_recognizer
from agentx_memory.extraction.rules import TurnText, extract_turns
from agentx_memory.settings import Settings, owning_process

DATA = Path(__file__).resolve().parent / "data" / "learning"
KINDS = ("preference", "relationship", "experience", "skill", "goal", "constraint", "identity", "event")
#: Untyped statements: scored by subject + words (any gold kind), reported on their own row.
STATEMENT = "statement"


def load(name: str) -> list[dict[str, Any]]:
    with (DATA / name).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def matches(atom: FactAtom, gold: dict[str, Any], *, kind: bool = True) -> bool:
    statement = atom.statement.casefold()
    return (
        (not kind or atom.fact_kind == gold["kind"])
        and atom.subject.casefold() == gold["subject"].casefold()
        and all(word in statement for word in gold["words"])
        and atom.negated == gold["negated"]
    )


def extraction_section(recognizer: NameRecognizer | None = None) -> dict[str, Any]:
    """Precision and recall on the labelled turns: the rules alone, or with the parse reader."""
    rows = load("extraction.jsonl")
    predicted: Counter[str] = Counter()
    correct: Counter[str] = Counter()
    gold_total: Counter[str] = Counter()
    found: Counter[str] = Counter()
    any_kind_correct = 0
    on_negatives = 0
    wrong: list[str] = []
    #: Facts the first labels missed that a later read found true (``also_true``): right, not recall.
    also_right = 0
    started = time.perf_counter()
    for row in rows:
        stamp = datetime.fromisoformat(row["timestamp"].replace("Z", "+00:00"))
        turn = TurnText(row["id"], "user", row["text"], stamp, row["speaker"])
        atoms = extract_turns([turn], recognizer=recognizer).facts
        for gold in row["facts"]:
            gold_total[gold["kind"]] += 1
            if any(matches(atom, gold) for atom in atoms):
                found[gold["kind"]] += 1
        for atom in atoms:
            predicted[atom.fact_kind] += 1
            typed = atom.fact_kind != STATEMENT
            if any(matches(atom, gold, kind=typed) for gold in row["facts"]):
                correct[atom.fact_kind] += 1
            elif any(matches(atom, gold, kind=typed) for gold in row.get("also_true", ())):
                also_right += 1
            else:
                wrong.append(f"{row['id']}: {atom.fact_kind} {atom.statement!r} <- {row['text']!r}")
            any_kind_correct += any(matches(atom, gold, kind=False) for gold in row["facts"])
            on_negatives += not row["facts"]
    elapsed = time.perf_counter() - started
    per_kind = {
        kind: {
            "predicted": predicted[kind],
            "precision": round(correct[kind] / predicted[kind], 3) if predicted[kind] else None,
            "gold": gold_total[kind],
            "recall": round(found[kind] / gold_total[kind], 3) if gold_total[kind] else None,
        }
        for kind in (*KINDS, STATEMENT)
    }
    total = sum(predicted.values())
    typed_total = total - predicted[STATEMENT]
    return {
        "turns": len(rows),
        "facts_predicted": total,
        "precision": round(sum(correct.values()) / total, 3) if total else None,
        # the same, with the true facts the first labels missed counted right
        "precision_also_true": round((sum(correct.values()) + also_right) / total, 3) if total else None,
        "precision_typed": round((sum(correct.values()) - correct[STATEMENT]) / typed_total, 3)
        if typed_total
        else None,
        "precision_any_kind": round(any_kind_correct / total, 3) if total else None,
        "recall": round(sum(found.values()) / sum(gold_total.values()), 3),
        "facts_on_negative_turns": on_negatives,
        "ms_per_turn": round(elapsed * 1000 / len(rows), 2),
        "per_kind": per_kind,
        "wrong_sample": wrong[:40],
    }


async def _fresh(settings: Settings) -> AsyncAgentMemory:
    return await AsyncAgentMemory(f"bench-{uuid.uuid4().hex[:10]}", settings=settings).open()


async def _say(memory: AsyncAgentMemory, texts: Sequence[str], speaker: str, start: datetime) -> str:
    conversation = await memory.new_conversation()
    for offset, text in enumerate(texts):
        await memory.store_turn(
            conversation,
            "user",
            text,
            timestamp=start + timedelta(minutes=offset),
            metadata={"speaker": speaker},
        )
    await memory.consolidate_conversation(conversation)
    return conversation


async def corrections_section(settings: Settings) -> dict[str, Any]:
    """A correction is detected when consolidating the "after" turn supersedes a fact."""
    outcome: Counter[tuple[bool, bool]] = Counter()
    misses: list[str] = []
    start = datetime(2024, 5, 14, 10, tzinfo=UTC)
    for row in load("corrections.jsonl"):
        memory = await _fresh(settings)
        try:
            await _say(memory, [row["before"]], row["speaker"], start)
            conversation = await memory.new_conversation()
            await memory.store_turn(
                conversation,
                "user",
                row["after"],
                timestamp=start + timedelta(days=1),
                metadata={"speaker": row["speaker"]},
            )
            report = await memory.consolidate_conversation(conversation)
            detected = report.facts_superseded > 0
            outcome[(row["is_correction"], detected)] += 1
            if detected != row["is_correction"]:
                misses.append(
                    f"{row['id']} expected {row['is_correction']}: {row['before']!r} -> {row['after']!r}"
                )
            await memory.forget_user()
        finally:
            await memory.close()
    true_pos, false_pos = outcome[(True, True)], outcome[(False, True)]
    corrections = sum(v for (truth, _), v in outcome.items() if truth)
    return {
        "corrections": corrections,
        "near_misses": sum(v for (truth, _), v in outcome.items() if not truth),
        "detected": true_pos + false_pos,
        "precision": round(true_pos / (true_pos + false_pos), 3) if true_pos + false_pos else None,
        "recall": round(true_pos / corrections, 3) if corrections else None,
        "false_positives": false_pos,
        "misses_sample": misses[:30],
    }


async def duplicates_section(settings: Settings) -> dict[str, Any]:
    """Each fact said three ways in three conversations: how many current facts hold its words."""
    duplicates = 0
    learned = 0
    per_fact: dict[str, int] = {}
    start = datetime(2024, 5, 14, 10, tzinfo=UTC)
    for row in load("duplicates.jsonl"):
        memory = await _fresh(settings)
        try:
            for day, phrasing in enumerate(row["phrasings"]):
                await _say(memory, [phrasing], row["speaker"], start + timedelta(days=day))
            hits = await memory.search_facts(" ".join(row["words"]) + " " + row["phrasings"][0], top_k=20)
            holding = [
                fact for fact, _ in hits if all(word in fact.claim.casefold() for word in row["words"])
            ]
            per_fact[row["id"]] = len(holding)
            learned += bool(holding)
            duplicates += max(0, len(holding) - 1)
            await memory.forget_user()
        finally:
            await memory.close()
    return {
        "facts": len(per_fact),
        "learned": learned,
        "duplicates": duplicates,
        "with_duplicates": [key for key, count in per_fact.items() if count > 1],
    }


async def junk_section(settings: Settings) -> dict[str, Any]:
    """Small talk, acknowledgements, tool output, recall echoes, injections and system prompts, one
    conversation per category: how many facts each leaves behind."""
    rows = load("junk.jsonl")
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_category[row["category"]].append(row)
    stored: dict[str, int] = {}
    flagged = 0
    memory = await _fresh(settings)
    start = datetime(2024, 5, 14, 10, tzinfo=UTC)
    try:
        for category, items in sorted(by_category.items()):
            conversation = await memory.new_conversation()
            for offset, row in enumerate(items):
                await memory.store_turn(
                    conversation, row["role"], row["text"], timestamp=start + timedelta(seconds=offset)
                )
            report = await memory.consolidate_conversation(conversation)
            stored[category] = report.facts_added
            flagged += report.flagged
        await memory.forget_user()
    finally:
        await memory.close()
    total = sum(stored.values())
    return {
        "turns": len(rows),
        "facts_stored": total,
        "share_stored": round(total / len(rows), 4),
        "flagged_injections": flagged,
        "stored_by_category": stored,
    }


async def throughput_section(settings: Settings, sample: dict[str, Any]) -> dict[str, Any]:
    """Offline consolidation speed on the first LoCoMo dev conversation (every session)."""
    conversation = sample["conversation"]
    memory = await _fresh(settings)
    turns = 0
    try:
        ids = []
        number = 1
        while f"session_{number}" in conversation:
            cid = await memory.new_conversation()
            stamp = datetime(2023, 5, 1, tzinfo=UTC) + timedelta(days=number)
            for index, turn in enumerate(conversation[f"session_{number}"]):
                await memory.store_turn(
                    cid,
                    "user" if turn["speaker"] == conversation["speaker_a"] else "assistant",
                    turn["text"],
                    timestamp=stamp + timedelta(seconds=index),
                    metadata={"speaker": turn["speaker"]},
                )
                turns += 1
            ids.append(cid)
            number += 1
        started = time.perf_counter()
        facts = 0
        for cid in ids:
            report = await memory.consolidate_conversation(cid)
            facts += report.facts_added
        elapsed = time.perf_counter() - started
        await memory.forget_user()
    finally:
        await memory.close()
    return {
        "turns": turns,
        "seconds": round(elapsed, 1),
        "turns_per_s": round(turns / elapsed, 1),
        "facts": facts,
    }


async def cost_section(settings: Settings, sample: dict[str, Any]) -> dict[str, Any]:
    """LLM calls per consolidated chunk, counted by the local stub of the OpenAI API (the real SDK)."""
    from tests.llm_stub import LLMStub

    stub = LLMStub(reply=lambda _body: {"entities": [], "facts": [], "relationships": [], "strategies": []})
    stub.start()
    llm = {"provider": "openai", "api_key": "stub", "base_url": stub.openai_url, "max_retries": 0}
    try:
        memory = await _fresh(settings.model_copy(update={"llm": settings.llm.model_validate(llm)}))
        try:
            cid = await memory.new_conversation()
            turns = [
                turn for number in range(1, 6) for turn in sample["conversation"].get(f"session_{number}", [])
            ]
            start = datetime(2023, 5, 1, tzinfo=UTC)
            for index, turn in enumerate(turns):
                await memory.store_turn(
                    cid, "user", turn["text"], timestamp=start + timedelta(seconds=index),
                    metadata={"speaker": turn["speaker"]},
                )  # fmt: skip
            report = await memory.consolidate_conversation(cid)
            await memory.forget_user()
        finally:
            await memory.close()
    finally:
        stub.stop()
    return {
        "turns": report.turns_read,
        "chunks": report.chunks,
        "llm_calls": report.llm_calls,
        "requests_seen_by_stub": len(stub.requests),
        "calls_per_chunk": round(report.llm_calls / report.chunks, 3) if report.chunks else None,
        "input_tokens": report.input_tokens,
        "output_tokens": report.output_tokens,
    }


def print_tables(results: dict[str, Any]) -> None:
    for section, reader in (("extraction", "rules alone"), ("extraction_parse", "rules + parse reader")):
        if section not in results:
            continue
        ex = results[section]
        print(
            f"\n### Offline extractor ({reader}), {ex['turns']} labelled turns "
            f"({ex['ms_per_turn']} ms/turn)\n"
        )
        print("| kind | predicted | precision | gold | recall |\n|---|---|---|---|---|")
        for kind, row in ex["per_kind"].items():
            print(f"| {kind} | {row['predicted']} | {row['precision']} | {row['gold']} | {row['recall']} |")
        print(
            f"| **all** | {ex['facts_predicted']} | **{ex['precision']}** (typed {ex['precision_typed']}; "
            f"any kind {ex['precision_any_kind']}; with `also_true` {ex['precision_also_true']}) | | "
            f"{ex['recall']} |"
        )
        print(f"\nfacts on negative turns: {ex['facts_on_negative_turns']}")
    for name in ("corrections", "duplicates", "junk", "throughput", "cost"):
        if name in results:
            shown = {k: v for k, v in results[name].items() if not k.endswith("sample")}
            print(f"\n### {name}\n\n{json.dumps(shown)}")


DEFAULT_LOCOMO = Path(__file__).resolve().parents[2] / "shared/bench-data/locomo-dev.json"


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sections", default="extraction,corrections,duplicates,junk,throughput,cost")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--locomo",
        type=Path,
        default=DEFAULT_LOCOMO,
    )
    parser.add_argument("--show-wrong", action="store_true")
    args = parser.parse_args(argv)
    sections = set(args.sections.split(","))
    settings = owning_process(Settings.model_validate({"learning": {"auto_consolidate": False}}))
    results: dict[str, Any] = {}
    if "extraction" in sections:
        results["extraction"] = extraction_section()
        if (reader := name_recognizer("auto")) is not None:
            results["extraction_parse"] = extraction_section(reader)
        if args.show_wrong:
            for section in ("extraction", "extraction_parse"):
                print("\n".join(results.get(section, {}).get("wrong_sample", [])))
    if "corrections" in sections:
        results["corrections"] = await corrections_section(settings)
        if args.show_wrong:
            print("\n".join(results["corrections"]["misses_sample"]))
    if "duplicates" in sections:
        results["duplicates"] = await duplicates_section(settings)
    if "junk" in sections:
        results["junk"] = await junk_section(settings)
    if "throughput" in sections and args.locomo.exists():
        results["throughput"] = await throughput_section(settings, json.loads(args.locomo.read_text())[0])
    if "cost" in sections and args.locomo.exists():
        results["cost"] = await cost_section(settings, json.loads(args.locomo.read_text())[0])
    print_tables(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
