"""Validate the hand-written learning benchmark data (stdlib only).

Usage: python3 benchmarks/data/learning/check.py
Exits non-zero and lists every problem when a file does not match its schema.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

KINDS = {"preference", "relationship", "experience", "skill", "goal", "constraint", "identity", "event"}
NEGATIVES = {
    "small_talk",
    "question",
    "hypothetical",
    "opinion_about_world",
    "assistant_like",
    "reported_uncertain",
}
JUNK = {"small_talk", "acknowledgement", "tool_output", "recall_echo", "injection", "system_prompt"}
ROLES = {"user", "assistant", "tool"}

errors: list[str] = []


def err(where: str, msg: str) -> None:
    errors.append(f"{where}: {msg}")


def load(name: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with (HERE / name).open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                err(f"{name}:{n}", "blank line")
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                err(f"{name}:{n}", f"bad json: {exc}")
                continue
            if not isinstance(obj, dict):
                err(f"{name}:{n}", "not an object")
                continue
            rows.append(obj)
    ids = Counter(str(r.get("id")) for r in rows)
    for dup, c in ids.items():
        if c > 1:
            err(name, f"duplicate id {dup}")
    return rows


def need(where: str, obj: dict[str, Any], keys: dict[str, type]) -> bool:
    ok = True
    for key, typ in keys.items():
        if key not in obj:
            err(where, f"missing key {key!r}")
            ok = False
        elif not isinstance(obj[key], typ):
            err(where, f"key {key!r} should be {typ.__name__}")
            ok = False
    return ok


def words_ok(where: str, words: Any, text: str, lo: int, hi: int) -> None:
    if not isinstance(words, list) or not lo <= len(words) <= hi:
        err(where, f"words must be a list of {lo}-{hi} items: {words!r}")
        return
    folded = text.casefold()
    for w in words:
        if not isinstance(w, str) or not w or w != w.lower():
            err(where, f"word not a lowercase string: {w!r}")
        elif w not in folded:
            err(where, f"word {w!r} not in text {text!r}")


def check_extraction() -> tuple[Counter[str], Counter[str], int, int, int]:
    rows = load("extraction.jsonl")
    kinds: Counter[str] = Counter()
    negs: Counter[str] = Counter()
    negated = 0
    other_subject_turns = 0
    speakers = {str(r.get("speaker")) for r in rows}
    for r in rows:
        where = f"extraction {r.get('id')}"
        if not need(where, r, {"id": str, "speaker": str, "timestamp": str, "text": str, "facts": list}):
            continue
        text: str = r["text"]
        if not r["facts"]:
            if r.get("negative") not in NEGATIVES:
                err(where, f"no facts but negative={r.get('negative')!r}")
            else:
                negs[r["negative"]] += 1
            continue
        if "negative" in r:
            err(where, "has facts and a negative label")
        other = False
        for f in r["facts"]:
            if not isinstance(f, dict) or not need(
                where, f, {"kind": str, "subject": str, "statement": str, "words": list, "negated": bool}
            ):
                continue
            if f["kind"] not in KINDS:
                err(where, f"bad kind {f['kind']!r}")
            subj: str = f["subject"]
            if subj != r["speaker"]:
                other = True
                if subj.casefold() not in text.casefold():
                    err(where, f"subject {subj!r} is neither speaker nor named in text")
            if subj not in f["statement"]:
                err(where, f"statement does not name subject {subj!r}")
            words_ok(where, f["words"], text, 1, 3)
            for w in f["words"]:
                if isinstance(w, str) and w not in f["statement"].casefold():
                    err(where, f"word {w!r} missing from statement {f['statement']!r}")
            if f["negated"]:
                negated += 1
            else:
                kinds[f["kind"]] += 1
        other_subject_turns += other
        for f in r.get("also_true", []):  # true facts the first labels missed: precision only
            if not isinstance(f, dict) or not need(
                where, f, {"kind": str, "subject": str, "statement": str, "words": list, "negated": bool}
            ):
                continue
            if f["kind"] not in KINDS | {"statement"}:
                err(where, f"bad also_true kind {f['kind']!r}")
            words_ok(where, f["words"], text, 1, 3)
            if not all(w in f["statement"].casefold() for w in f["words"] if isinstance(w, str)):
                err(where, f"also_true words missing from {f['statement']!r}")
    n_neg = sum(negs.values())
    print(
        f"extraction.jsonl: {len(rows)} lines, {len(rows) - n_neg} with facts, {n_neg} negatives, "
        f"{len(speakers)} speakers, {other_subject_turns} turns about another person"
    )
    print(f"  positive facts per kind: {dict(sorted(kinds.items()))}")
    print(f"  negated facts: {negated}")
    print(f"  negatives per category: {dict(sorted(negs.items()))}")
    if len(rows) < 280:
        err("extraction", f"only {len(rows)} lines")
    if n_neg < 90:
        err("extraction", f"only {n_neg} negatives")
    for k in KINDS:
        if kinds[k] < 25:
            err("extraction", f"kind {k} has only {kinds[k]} positive facts")
    for c in NEGATIVES:
        if negs[c] < 10:
            err("extraction", f"negative category {c} has only {negs[c]}")
    if len(speakers) < 12:
        err("extraction", f"only {len(speakers)} speakers")
    return kinds, negs, negated, len(rows), n_neg


def check_corrections() -> None:
    rows = load("corrections.jsonl")
    true = 0
    for r in rows:
        where = f"corrections {r.get('id')}"
        keys = {
            "id": str,
            "speaker": str,
            "before": str,
            "after": str,
            "is_correction": bool,
            "old_words": list,
            "new_words": list,
        }
        if not need(where, r, keys):
            continue
        words_ok(where, r["old_words"], r["before"], 1, 3)
        if r["is_correction"]:
            true += 1
            words_ok(where, r["new_words"], r["after"], 0, 3)
        elif r["new_words"]:
            err(where, "near-miss must have new_words []")
    print(f"corrections.jsonl: {len(rows)} lines, {true} corrections, {len(rows) - true} near-misses")
    if true < 65 or len(rows) - true < 65:
        err("corrections", "need at least 65 of each")


def check_duplicates() -> None:
    rows = load("duplicates.jsonl")
    kinds: Counter[str] = Counter()
    for r in rows:
        where = f"duplicates {r.get('id')}"
        if not need(where, r, {"id": str, "speaker": str, "phrasings": list, "words": list}):
            continue
        ph = r["phrasings"]
        if len(ph) != 3 or len({p.casefold() for p in ph}) != 3:
            err(where, "need three distinct phrasings")
        for p in ph:
            words_ok(where, r["words"], p, 1, 2)
        if "kind" in r:
            if r["kind"] not in KINDS:
                err(where, f"bad kind {r['kind']!r}")
            kinds[r["kind"]] += 1
    print(f"duplicates.jsonl: {len(rows)} lines, kinds {dict(sorted(kinds.items()))}")
    if len(rows) != 40:
        err("duplicates", f"expected exactly 40 lines, got {len(rows)}")


def check_junk() -> None:
    rows = load("junk.jsonl")
    cats: Counter[str] = Counter()
    for r in rows:
        where = f"junk {r.get('id')}"
        if not need(where, r, {"id": str, "role": str, "text": str, "category": str}):
            continue
        if r["role"] not in ROLES:
            err(where, f"bad role {r['role']!r}")
        if r["category"] not in JUNK:
            err(where, f"bad category {r['category']!r}")
        cats[r["category"]] += 1
        if r["category"] == "tool_output" and not 200 <= len(r["text"]) <= 1500:
            err(where, f"tool_output length {len(r['text'])} outside 200-1500")
    print(f"junk.jsonl: {len(rows)} lines, categories {dict(sorted(cats.items()))}")
    if len(rows) < 120:
        err("junk", f"only {len(rows)} lines")
    for c in JUNK:
        if cats[c] < 15:
            err("junk", f"category {c} has only {cats[c]}")


def main() -> int:
    check_extraction()
    for fn in (check_corrections, check_duplicates, check_junk):
        try:
            fn()
        except FileNotFoundError as exc:
            err(fn.__name__, str(exc))
    if errors:
        print(f"\n{len(errors)} problem(s):", file=sys.stderr)
        for e in errors:
            print("  " + e, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
