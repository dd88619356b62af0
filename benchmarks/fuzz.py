"""The fuzz suite (tests/fuzz) at full size: many examples per public method and for the CLI.

    python benchmarks/fuzz.py [--examples 500] [-k remember]

Runs the same pytest module as the suite with ``AGENTX_FUZZ_EXAMPLES`` (15 there) and collects what
each fuzzed method tried; prints, per method, the examples tried and the failure found (the first
line of the shrunk counterexample's error), then the totals and the wall time. Exit code 1 if any
method failed. Methods without input (``get_profile``, ``memory_stats`` …) run once: hypothesis
stops when there is nothing left to generate.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--examples", type=int, default=500, help="Examples per method (default 500).")
    parser.add_argument("-k", default=None, help="Only the methods pytest's -k expression selects.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="agx-fuzz-") as directory:
        report = Path(directory) / "report.jsonl"
        env = {**os.environ, "AGENTX_FUZZ_EXAMPLES": str(args.examples), "AGENTX_FUZZ_REPORT": str(report)}
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "--tb=no", "tests/fuzz"]
        if args.k:
            command += ["-k", args.k]
        started = time.perf_counter()
        subprocess.run(command, cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
        rows = [json.loads(line) for line in report.read_text().splitlines()] if report.exists() else []
    failed = 0
    print(f"{'method':<28} {'examples':>8}  failure")
    for row in sorted(rows, key=lambda row: str(row["method"])):
        failure = (row["failure"] or "").strip().splitlines()
        failed += bool(failure)
        print(f"{row['method']:<28} {row['examples']:>8}  {failure[0][:110] if failure else '-'}")
    total = sum(int(row["examples"]) for row in rows)
    print(f"\n{len(rows)} fuzzed (methods + cli), {total} examples, {failed} failing, {seconds:.0f} s")
    return 1 if failed or not rows else 0


if __name__ == "__main__":
    raise SystemExit(main())
