"""Crash consistency of ``store_turn`` under a SIGKILL of the embedded FalkorDB: the issue's fault test
at full size, as a matrix.

    python benchmarks/faults.py [--turns 1000] [--kills 3]

For each run: fresh embedded servers in a temporary data dir; ``--turns`` turns stored one by one; the
graph server SIGKILLed at ``--kills`` random points (and started again before the next); then
``reconcile``. Prints per run: acknowledged, refused (with the library's error classes), lost (a turn in
the ledger missing from the graph), duplicated (two graph nodes for one turn), repaired (turns
reconcile replayed). Goal: 0 lost, 0 duplicated.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AgentMemory, AgentMemoryError, embedded
from agentx_memory.embedded._common import data_paths, read_pid
from agentx_memory.maintenance.jobs import JOBS
from agentx_memory.maintenance.runner import run_job
from agentx_memory.settings import Settings, owning_process

T0 = datetime(2026, 1, 5, 9, tzinfo=UTC)


def one_run(turns: int, kills: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    kill_at = sorted(rng.sample(range(1, turns), kills))
    with tempfile.TemporaryDirectory(prefix="agx-b-", dir="/tmp") as directory:
        settings = owning_process(Settings(data_dir=Path(directory), learning={"auto_consolidate": False}))
        try:
            with AgentMemory("faults", settings=settings) as memory:
                conversation = memory.new_conversation()
                acknowledged: list[str] = []
                refused: Counter[str] = Counter()
                started = time.perf_counter()
                for index in range(turns):
                    if kill_at and index == kill_at[0]:
                        kill_at.pop(0)
                        pid = read_pid(data_paths(settings).falkordb_pidfile)
                        if pid is not None:
                            os.kill(pid, signal.SIGKILL)
                        if index % 2:  # half the time the server is back before the next write
                            embedded.start_or_attach(settings)
                    try:
                        text = f"turn {index}: notes"
                        stamp = T0 + timedelta(seconds=index)
                        acknowledged.append(memory.store_turn(conversation, "user", text, timestamp=stamp).id)
                    except AgentMemoryError as exc:
                        refused[type(exc).__name__] += 1
                        if refused.total() % 25 == 1:
                            embedded.start_or_attach(settings)  # a supervisor restarting it
                embedded.start_or_attach(settings)
                report = run_job(memory, JOBS["reconcile"])
                params = {"user_id": memory.scope.user_id, "conversation_id": conversation}
                rows = memory._open_backends().graph.run("get_conversation_turns", params)
                graph_ids = [str(row["item"]["id"]) for row in rows]
                ledger_ids = {turn.id for turn in memory.get_conversation(conversation)}
                return {
                    "turns": turns,
                    "kills": kills,
                    "acknowledged": len(acknowledged),
                    "refused": dict(refused),
                    "ledger": len(ledger_ids),
                    "lost": len(ledger_ids - set(graph_ids)),
                    "duplicated": len(graph_ids) - len(set(graph_ids)),
                    "repaired": report.counts.get("turns", 0),
                    "seconds": round(time.perf_counter() - started, 1),
                }
        finally:
            embedded.stop(settings)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| run | turns | kills | acknowledged | refused | in ledger | lost | duplicated | repaired | s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for run in range(args.runs):
        r = one_run(args.turns, args.kills, seed=run)
        refused = ", ".join(f"{k} {v}" for k, v in sorted(r["refused"].items())) or "0"  # type: ignore[attr-defined]
        print(
            f"| {run + 1} | {r['turns']} | {r['kills']} | {r['acknowledged']} | {refused} | {r['ledger']} | "
            f"**{r['lost']}** | **{r['duplicated']}** | {r['repaired']} | {r['seconds']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
