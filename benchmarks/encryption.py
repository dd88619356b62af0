"""Cost of encryption at rest (``security.encryption_key``) on ``store_turn``, ``record_invocation`` and a
read (``get_conversation``): the same calls with and without a key, in the same run.

    python -m benchmarks.encryption [--calls 300] [--aa] [--data-dir DIR]

Two facades on the same embedded servers, each in its own Postgres schema, graph and key prefix: one
plain, one with a random key. Each round makes the same call on both, in alternating order, so they
share the machine's load. Turns carry metadata (a speaker and a ~200-byte note) and invocations a
~300-byte input and output, the values that get encrypted. The time spent inside the ledger's sealing
codec during each call is measured too (wall time, so it includes being descheduled). Also times the
pure ``Encryptor`` on the same values (seal and open, in microseconds). ``--aa`` leaves the key off on
both sides: the differences it shows are this machine's noise, the yardstick for the real run's.
Prints a markdown table and writes ``benchmarks/results/encryption.json``.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from agentx_memory import AgentMemory, Settings, embedded
from agentx_memory.crypto import Encryptor, open_json, parse_key, seal_json
from agentx_memory.embedded import resolve_endpoints
from agentx_memory.embedding import build_embedder
from agentx_memory.settings import owning_process
from agentx_memory.stores.sealing import FieldCodec
from benchmarks.store_turn import Names, Stats, drop_everything, isolated, machine_info

RESULTS = Path(__file__).resolve().parent / "results" / "encryption.json"
WARM_UP = 20
NOTE = "customer asked to move the delivery of order 48213 to the back door; gate code 4471 " * 2
TOOL_INPUT = {"query": "orders for customer 8812 in May", "filters": {"status": ["open", "late"]},
              "token": "sk-live-" + "x" * 48, "note": NOTE}  # fmt: skip
TOOL_OUTPUT = {"rows": [{"order": 48213 + i, "total": 19.5 * i, "city": "Lisbon"} for i in range(6)]}


def timed(call: Callable[[], object]) -> int:
    began = time.perf_counter_ns()
    call()
    return time.perf_counter_ns() - began


class CodecClock:
    """Wall time spent inside the ledger's sealing codec (``stores/sealing.py``), all calls summed: the
    share of an operation that encryption can account for, measured where it runs (benchmark-only
    instrumentation of the class, undone by :meth:`close`)."""

    METHODS = ("seal_params", "open_rows")  # open_row goes through open_rows

    def __init__(self) -> None:
        self.total = 0
        self._originals = {name: getattr(FieldCodec, name) for name in self.METHODS}
        for name, original in self._originals.items():
            setattr(FieldCodec, name, self._timed(original))

    def _timed(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            began = time.perf_counter_ns()
            try:
                return original(*args)
            finally:
                self.total += time.perf_counter_ns() - began

        return run

    def close(self) -> None:
        for name, original in self._originals.items():
            setattr(FieldCodec, name, original)


def one_round(mem: AgentMemory, conversation: str, round_: int, clock: CodecClock) -> dict[str, int]:
    """One call of each operation on ``mem``; nanoseconds per operation, and in the codec (``codec …``)."""
    metadata = {"speaker": "Ann", "note": NOTE}
    content = f"turn {round_}: please check order {48213 + round_} and tell me when it ships"
    ns: dict[str, int] = {}

    def run(op: str, call: Callable[[], object]) -> None:
        before = clock.total
        ns[op] = timed(call)
        ns[f"codec {op}"] = clock.total - before

    run("store_turn", partial(mem.store_turn, conversation, "user", content, metadata=metadata))
    run(
        "record_invocation",
        partial(
            mem.record_invocation,
            conversation,
            None,
            "orders.search",
            TOOL_INPUT,
            TOOL_OUTPUT,
            True,
            12.0,
        ),
    )
    if round_ % 10 == 0:  # a whole conversation read, every tenth round (it grows)
        run("get_conversation", partial(mem.get_conversation, conversation))
    return ns


def measure(plain: AgentMemory, keyed: AgentMemory, calls: int) -> dict[str, dict[str, list[int]]]:
    ops = ("store_turn", "record_invocation", "get_conversation")
    samples: dict[str, dict[str, list[int]]] = {
        name: {"off": [], "on": []} for op in ops for name in (op, f"codec {op}")
    }
    sides = {"off": plain, "on": keyed}
    conversations = {side: mem.new_conversation(title="bench") for side, mem in sides.items()}
    clock = CodecClock()
    try:
        _rounds(sides, conversations, calls, clock, samples)
    finally:
        clock.close()
    return samples


def _rounds(
    sides: dict[str, AgentMemory],
    conversations: dict[str, str],
    calls: int,
    clock: CodecClock,
    samples: dict[str, dict[str, list[int]]],
) -> None:
    for round_ in range(WARM_UP + calls):
        order = ("off", "on") if round_ % 2 == 0 else ("on", "off")
        for side in order:
            ns = one_round(sides[side], conversations[side], round_, clock)
            if round_ >= WARM_UP:
                for op, value in ns.items():
                    samples[op][side].append(value)


def pure_costs(rounds: int = 2000) -> dict[str, float]:
    """Median microseconds of sealing and opening the benchmark's values with the pure encryptor."""
    encryptor = Encryptor(os.urandom(32))
    costs: dict[str, float] = {}
    values: dict[str, Any] = {"metadata": {"speaker": "Ann", "note": NOTE}, "tool_input": TOOL_INPUT}
    for name, value in values.items():
        seal_ns = [timed(partial(seal_json, encryptor, value, "bench")) for _ in range(rounds)]
        sealed = seal_json(encryptor, value, "bench")
        open_ns = [timed(partial(open_json, encryptor, sealed, "bench")) for _ in range(rounds)]
        costs[f"seal {name}"] = sorted(seal_ns)[rounds // 2] / 1e3
        costs[f"open {name}"] = sorted(open_ns)[rounds // 2] / 1e3
    return costs


def report(samples: dict[str, dict[str, list[int]]], pure: dict[str, float]) -> str:
    lines = [
        "| operation | key | n | median ms | p95 ms | median Δ | in the codec, median µs |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for op, sides in samples.items():
        if op.startswith("codec "):
            continue
        off, on = Stats.of(sides["off"]), Stats.of(sides["on"])
        for side, stats in (("off", off), ("on", on)):
            change = (on.p50 / off.p50 - 1) * 100
            delta = "" if side == "off" else f"{on.p50 - off.p50:+.2f} ms ({change:+.0f} %)"
            codec = Stats.of(samples[f"codec {op}"][side]).p50 * 1e3
            figures = f"{stats.count} | {stats.p50:.2f} | {stats.p95:.2f} | {delta} | {codec:.0f}"
            lines.append(f"| {op} | {side} | {figures} |")
    lines.append("")
    lines.append("| pure encryptor, hot loop | median µs |")
    lines.append("|---|---:|")
    lines.extend(f"| {name} | {micros:.1f} |" for name, micros in pure.items())
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=300, help="measured calls per operation and side")
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded servers' data dir")
    parser.add_argument(
        "--aa", action="store_true", help="A/A check: no key on either side (the run-to-run noise)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})")
    args = parser.parse_args(argv)

    base = owning_process(Settings())  # the entry point: AGENTX_* is read here only
    if args.data_dir is not None:
        base = base.model_copy(update={"data_dir": args.data_dir})
    started_servers = base.uses_embedded and not embedded.status(base).all_running
    endpoints = resolve_endpoints(base)
    key = base64.b64encode(os.urandom(32)).decode()
    parse_key(key)
    names = {"off": Names.fresh(), "on": Names.fresh()}
    plain_settings = isolated(base, names["off"])
    keyed_settings = isolated(base, names["on"])
    if not args.aa:
        keyed_settings = keyed_settings.model_copy(
            update={"security": keyed_settings.security.model_validate({"encryption_key": key})}
        )
    embedder = build_embedder(base.embedding)
    load_before = os.getloadavg()[0]
    print(f"{args.calls} calls per operation, key off and on, interleaved …", file=sys.stderr)
    try:
        with (
            AgentMemory("bench", settings=plain_settings, embedder=embedder) as plain,
            AgentMemory("bench", settings=keyed_settings, embedder=embedder) as keyed,
        ):
            samples = measure(plain, keyed, args.calls)
    finally:
        for chosen in names.values():
            drop_everything(endpoints, chosen)
        if started_servers:
            embedded.stop(base)
    pure = pure_costs()
    print(report(samples, pure))
    document: dict[str, Any] = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(load_before, os.getloadavg()[0]),
        "config": {"calls": args.calls, "warm_up": WARM_UP, "aa": args.aa},
        "results": {
            op: {side: asdict(Stats.of(values)) for side, values in sides.items()}
            for op, sides in samples.items()
        },
        "pure_encryptor_median_us": pure,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
