"""How much of what LoCoMo's authors wrote down about each speaker does consolidation learn?

    python benchmarks/locomo_observations.py ../shared/bench-data/locomo-dev.json [--json out.json]
        [--name observations] [--facts facts.jsonl]

Each LoCoMo sample carries ``observation``: per session and speaker, canonical facts with the turn
(``dia_id``) they come from. After ingest + consolidation (the offline extractor unless an LLM is
configured through ``AGENTX_LLM__*``), a gold observation counts as *learned* when a current learned
fact is within cosine ``--threshold`` (0.75) of it with the local embedder **and** the fact's
provenance contains the gold turn. The baseline takes each gold turn's own text as the "fact".
It also reports learned facts that match no observation of their session, and writes a sample of
them to read by hand (``--unmatched``), and every learned fact in the order it was learned
(``--facts``, one JSON line each) to count the junk. ``--name`` keeps runs in separate stores, which
are dropped at the end unless ``--keep`` is given (to read them with the CLI afterwards).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AsyncAgentMemory
from agentx_memory.embedded import resolve_endpoints
from agentx_memory.memory.episodic_pure import turn_search_text
from agentx_memory.settings import Settings, owning_process
from benchmarks.here import here
from benchmarks.locomo import session_turns, turn_text
from benchmarks.store_turn import Names, drop_everything


def observations(sample: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    """``(speaker, text, gold dia ids)`` of every observation."""
    found = []
    for _session, per_speaker in sample["observation"].items():
        for speaker, items in per_speaker.items():
            for text, dia in items:
                ids = [dia] if isinstance(dia, str) else list(dia)
                found.append((speaker, text, [part.strip() for d in ids for part in str(d).split(";")]))
    return found


async def ingest_and_learn(memory: AsyncAgentMemory, sample: dict[str, Any]) -> tuple[dict[str, str], float]:
    conversation = sample["conversation"]
    first = conversation["speaker_a"]
    dia_of: dict[str, str] = {}
    ids = []
    for number, stamp, turns in session_turns(conversation):
        cid = await memory.new_conversation(title=f"session {number}")
        ids.append(cid)
        for index, turn in enumerate(turns):
            stored = await memory.store_turn(
                cid,
                "user" if turn["speaker"] == first else "assistant",
                turn_text(turn),
                timestamp=stamp + timedelta(seconds=index),
                metadata={"speaker": turn["speaker"], "dia_id": turn["dia_id"]},
            )
            dia_of[stored.id] = turn["dia_id"]
    started = time.perf_counter()
    for cid in ids:
        await memory.consolidate_conversation(cid)
    return dia_of, time.perf_counter() - started


def unit(vectors: list[list[float]]) -> np.ndarray:
    array = np.asarray(vectors, dtype=np.float32)
    normed: np.ndarray = array / np.maximum(np.linalg.norm(array, axis=1, keepdims=True), 1e-9)
    return normed


async def evaluate(memory: AsyncAgentMemory, sample: dict[str, Any], threshold: float) -> dict[str, Any]:
    dia_of, seconds = await ingest_and_learn(memory, sample)
    backends = await memory._open_backends()
    facts = await memory.list_facts(limit=5000)
    gold = observations(sample)
    gold_vectors = unit(await backends.embed([text for _, text, _ in gold]))
    fact_vectors = unit(await backends.embed([fact.claim for fact in facts])) if facts else np.zeros((0, 1))
    # The baseline is the turn as it is stored and embedded: "<speaker>: <text>".
    text_of = {
        turn["dia_id"]: turn_search_text(turn_text(turn), {"speaker": turn["speaker"]})
        for _, _, turns in session_turns(sample["conversation"])
        for turn in turns
    }
    gold_turns = [text_of.get(ids[0], "") for _, _, ids in gold]
    turn_vectors = unit(await backends.embed(gold_turns))
    baseline = float(np.mean(np.sum(turn_vectors * gold_vectors, axis=1) >= threshold))
    similarity = gold_vectors @ fact_vectors.T if facts else np.zeros((len(gold), 0))
    provenance = [{dia_of.get(turn_id) for turn_id in fact.source_turn_ids} for fact in facts]
    matched_gold = 0
    matched_facts: set[int] = set()
    matches: list[dict[str, Any]] = []
    for g, (_, text, ids) in enumerate(gold):
        hits = [f for f in range(len(facts)) if similarity[g, f] >= threshold and provenance[f] & set(ids)]
        matched_gold += bool(hits)
        if hits:
            matches.append({"gold": text, "facts": [facts[f].claim for f in hits]})
        matched_facts.update(f for f in range(len(facts)) if similarity[g, f] >= threshold)
    unmatched = [facts[f].claim for f in range(len(facts)) if f not in matched_facts]
    # Learned order: ids are random, so creation time orders them (then the time they were said).
    in_order = sorted(facts, key=lambda fact: (fact.created_at, fact.stated_at or fact.created_at))
    return {
        "learned_facts": [
            {
                "id": fact.id,
                "claim": fact.claim,
                "kind": fact.fact_kind,
                "dia": sorted(str(dia_of.get(turn_id)) for turn_id in fact.source_turn_ids),
            }
            for fact in in_order
        ],
        "observations": len(gold),
        "facts": len(facts),
        "learned": matched_gold,
        "baseline_turn_matches": baseline,
        "unmatched_facts": unmatched,
        "matches": matches,
        "consolidation_s": seconds,
        "turns": len(dia_of),
    }


async def run(samples: list[dict[str, Any]], threshold: float, name: str, *, keep: bool) -> dict[str, Any]:
    settings = owning_process(
        Settings.model_validate(
            {
                "graph": {"name": f"bench_{name}"},
                "postgres": {"schema": f"bench_{name}"},
                "redis": {"key_prefix": f"bench-{name}"},
                "learning": {"auto_consolidate": False},
            }
        )
    )
    async with here(AsyncAgentMemory("setup", settings=settings)) as setup:
        backends = await setup._open_backends()
        await backends.graph.drop()
        await backends.ledger.drop_schema()
    per_sample = []
    async with here(AsyncAgentMemory("setup", settings=settings)) as root:
        for number, sample in enumerate(samples, start=1):
            memory = await root.for_user(f"obs-{sample.get('sample_id', number)}")
            result = await evaluate(memory, sample, threshold)
            per_sample.append(result)
            print(
                f"conversation {number}/{len(samples)}: "
                f"{result['learned']}/{result['observations']} learned, {result['facts']} facts",
                file=sys.stderr,
                flush=True,
            )
    if not keep:
        # A 1,000-fact graph per run slows every later server start: nothing is left behind unasked.
        schema = f"bench_{name}"
        drop_everything(
            resolve_endpoints(settings), Names(schema, schema, f"{schema}_floor", f"bench-{name}")
        )
    observations_total = sum(r["observations"] for r in per_sample)
    facts_total = sum(r["facts"] for r in per_sample)
    unmatched = [claim for r in per_sample for claim in r["unmatched_facts"]]
    return {
        "observations": observations_total,
        "learned_share": sum(r["learned"] for r in per_sample) / observations_total,
        "baseline_share": sum(r["baseline_turn_matches"] * r["observations"] for r in per_sample)
        / observations_total,
        "facts": facts_total,
        "unmatched_share": len(unmatched) / facts_total if facts_total else 0.0,
        "turns_per_s": sum(r["turns"] for r in per_sample) / sum(r["consolidation_s"] for r in per_sample),
        "per_conversation": [
            {"observations": r["observations"], "learned": r["learned"], "facts": r["facts"]}
            for r in per_sample
        ],
        "unmatched": unmatched,
        "matches": [
            {"conversation": number, **match} for number, r in enumerate(per_sample) for match in r["matches"]
        ],
        "learned_facts": [
            {"conversation": number, **fact}
            for number, r in enumerate(per_sample)
            for fact in r["learned_facts"]
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("path", type=Path)
    parser.add_argument("--threshold", type=float, default=0.75)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--unmatched", type=Path, default=None, help="write a random sample of 50 unmatched facts"
    )
    parser.add_argument(
        "--name", default="observations", help="store namespace (graph, schema, key prefix): bench_<name>"
    )
    parser.add_argument("--facts", type=Path, default=None, help="write every learned fact, as JSON lines")
    parser.add_argument(
        "--matches",
        type=Path,
        default=None,
        help="write each matched observation and its facts, as JSON lines",
    )
    parser.add_argument(
        "--keep", action="store_true", help="leave the store behind (it is dropped otherwise)"
    )
    args = parser.parse_args()
    if not re.fullmatch(r"[a-z0-9_]{1,40}", args.name):
        parser.error("--name: lowercase letters, digits and underscores (it names a Postgres schema)")
    samples = json.loads(args.path.read_text(encoding="utf-8"))[: args.limit]
    report = asyncio.run(run(samples, args.threshold, args.name, keep=args.keep))
    print(
        f"| observations | learned (cosine ≥ {args.threshold} + provenance) | source turn as fact | facts | "
        "facts matching no observation | consolidation turns/s |\n|---|---|---|---|---|---|\n"
        f"| {report['observations']} | **{report['learned_share']:.3f}** | {report['baseline_share']:.3f} | "
        f"{report['facts']} | {report['unmatched_share']:.3f} | {report['turns_per_s']:.0f} |"
    )
    if args.unmatched is not None:
        sample = random.Random(0).sample(report["unmatched"], min(50, len(report["unmatched"])))
        args.unmatched.write_text("\n".join(sample) + "\n")
    if args.facts is not None:
        args.facts.write_text("".join(json.dumps(fact) + "\n" for fact in report["learned_facts"]))
    if args.matches:
        args.matches.write_text("".join(json.dumps(match) + "\n" for match in report["matches"]))
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {k: v for k, v in report.items() if k not in {"unmatched", "learned_facts", "matches"}},
                indent=2,
            )
            + "\n"
        )


if __name__ == "__main__":
    main()
