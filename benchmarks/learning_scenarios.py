"""Learning scenarios: does memory end up right after a few sessions of ordinary chat?

    python benchmarks/learning_scenarios.py [--split dev|test|all] [--kinds residence,diet] [--limit N]
        [--order forward|reversed] [--json PATH] [--show-failures]

Each scenario (``benchmarks/data/scenarios/scenarios.jsonl``, hand-written; see its README) gets a fresh
user; every session is its own conversation, consolidated in order (``--order reversed``: all sessions
stored first, then consolidated newest-first; the answer must not change). Afterwards the harness reads
only the public API (``list_facts``, ``get_profile``, ``get_context``, ``remember``) and checks the
scenario's ``expect``. A scenario passes when every one of its checks passes. Prints a markdown table
per kind and split; the scoring functions are pure (``score_scenario``) and unit-tested.
"""

from __future__ import annotations

import argparse
import asyncio
import calendar
import json
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agentx_memory import AsyncAgentMemory, Settings
from agentx_memory.models.semantic import Fact
from agentx_memory.settings import owning_process

DATA = Path(__file__).resolve().parent / "data" / "scenarios" / "scenarios.jsonl"
EXPECT_FIELDS = frozenset(
    {
        "current",
        "not_current",
        "history",
        "ranked_above",
        "profile_absent",
        "profile_present",
        "fact_about",
        "user_facts_absent",
        "name",
        "date",
    }
)
#: Checks that, failed on a near-miss scenario, mean something reached the user.
LEAK_CHECKS = frozenset({"user_facts_absent", "profile_absent", "not_current"})
#: Subjects that mean "the user" whatever the speaker is called.
USER_WORDS = frozenset({"the user", "user", "i", "me", "myself"})
PROFILE_PREFIX = "About the user:"
MONTHS = tuple(calendar.month_name)[1:]
DEFAULT_PROMPT = "What do you know about me?"


@dataclass(frozen=True)
class Failure:
    """One failed check of a scenario: which check, and what was found instead."""

    check: str
    detail: str


# ------------------------------------------------------------------ pure helpers


def load_scenarios(path: Path = DATA) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _has(text: str | None, needle: str) -> bool:
    return text is not None and needle.casefold() in text.casefold()


def profile_line(context: str) -> str:
    """The "About the user: …" line of a rendered context ("" when there is none)."""
    for line in context.splitlines():
        stripped = line.strip()
        if stripped.startswith(PROFILE_PREFIX):
            return stripped
    return ""


def profile_text(preferences: Mapping[str, Any], context: str) -> str:
    """The profile's preference values and the context's About-the-user line, as one searchable text."""
    values = " | ".join(str(value) for value in preferences.values())
    return f"{values} | {profile_line(context)}"


def user_subjects(speaker: str | None, name: str | None = None) -> frozenset[str]:
    """Casefolded subjects that stand for the user: the speaker, an introduced name, 'the user' …"""
    subjects = set(USER_WORDS)
    for who in (speaker, name):
        if who:
            subjects.add(who.casefold())
    return frozenset(subjects)


def is_user_fact(fact: Fact, subjects: frozenset[str]) -> bool:
    return fact.subject is None or fact.subject.strip().casefold() in subjects


def first_index(items: Sequence[str], needle: str) -> int | None:
    for index, content in enumerate(items):
        if _has(content, needle):
            return index
    return None


def date_texts(day: date) -> list[str]:
    """Renderings of a day that count as the claim stating it (all carry the year)."""
    month = MONTHS[day.month - 1]
    return [
        day.isoformat(),
        f"{day.day} {month} {day.year}",
        f"{month} {day.day}, {day.year}",
        f"{month} {day.day} {day.year}",
    ]


def target_day(spec: Mapping[str, Any]) -> date | None:
    if {"year", "month", "day"} <= spec.keys():
        return date(int(spec["year"]), int(spec["month"]), int(spec["day"]))
    return None


def check_date(spec: Mapping[str, Any], current: Sequence[Fact]) -> Failure | None:
    about = spec.get("about")
    candidates = [fact for fact in current if about is None or _has(fact.claim, str(about))]
    day = target_day(spec)
    texts = [str(spec["contains"])] if "contains" in spec else []
    if day is not None:
        texts += date_texts(day)
    for fact in candidates:
        if day is not None and fact.event_time is not None and fact.event_time.date() == day:
            return None
        if any(_has(fact.claim, text) for text in texts):
            return None
    found = [f"{fact.claim!r} event_time={fact.event_time}" for fact in candidates] or ["no fact mentions it"]
    wanted = day.isoformat() if day is not None else repr(spec.get("contains"))
    return Failure("date", f"wanted {wanted} about {about!r}; found {'; '.join(found)[:300]}")


def score_scenario(
    expect: Mapping[str, Any],
    facts: Sequence[Fact],
    preferences: Mapping[str, Any],
    context: str,
    remember_items: Sequence[str],
    speaker: str | None,
    strict: bool = False,
) -> list[Failure]:
    """Every failed check of ``expect`` (empty: the scenario passes).

    ``facts`` is ``list_facts(include_history=True)``, ``preferences`` ``get_profile().preferences``,
    ``context`` the ``get_context`` text and ``remember_items`` the contents of ``remember(...).items``
    in rank order. Strings match as case-insensitive substrings. ``strict``: the scoring before the
    ninth session (2026-11-29), which two of the writers called too strict and which is reported beside
    the current one: a fact told of the past ("Back in 2012 Sinead lived in Boston", temporal ``past``)
    counted as asserting its value now, and a name had to be the whole name learned ("Olusegun", not
    "Olusegun Adeyemi").
    """
    unknown = set(expect) - EXPECT_FIELDS
    failures = [Failure("schema", f"unknown expect field {field!r}") for field in sorted(unknown)]
    current = [fact for fact in facts if fact.valid_until is None]
    superseded = [fact for fact in facts if fact.valid_until is not None]
    claims = [fact.claim for fact in current]
    shown = "; ".join(claims)[:300] or "no current facts"
    for word in expect.get("current", []):
        if not any(_has(claim, word) for claim in claims):
            failures.append(Failure("current", f"{word!r} in no current fact; current: {shown}"))
    # A fact that says the value ended or is not so ("Gareth got made redundant from Tata", "Sam is not
    # vegan") tells that it is no longer current: it is no evidence that it is.
    # So does a fact told of the past: "Back in 2012 Sinead lived in Boston" says nothing of where she
    # lives now.
    asserted = [
        fact.claim
        for fact in current
        if fact.key != "ended" and not fact.negated and (strict or fact.temporal != "past")
    ]
    for word in expect.get("not_current", []):
        hits = [claim for claim in asserted if _has(claim, word)]
        if hits:
            failures.append(Failure("not_current", f"{word!r} still current: {hits[:3]}"))
    for word in expect.get("history", []):
        if not any(_has(fact.claim, word) for fact in superseded):
            old = "; ".join(fact.claim for fact in superseded)[:300] or "nothing superseded"
            failures.append(Failure("history", f"{word!r} in no superseded fact; superseded: {old}"))
    ranked = expect.get("ranked_above")
    if ranked is not None:
        first = first_index(remember_items, ranked["first"])
        second = first_index(remember_items, ranked["second"])
        if first is None or (second is not None and second < first):
            failures.append(
                Failure(
                    "ranked_above",
                    f"{ranked['first']!r} at {first}, {ranked['second']!r} at {second} "
                    f"of {len(remember_items)} for {ranked['query']!r}",
                )
            )
    profile = profile_text(preferences, context)
    for word in expect.get("profile_absent", []):
        if _has(profile, word):
            failures.append(Failure("profile_absent", f"{word!r} in profile: {profile[:300]}"))
    for word in expect.get("profile_present", []):
        if not _has(profile, word):
            failures.append(Failure("profile_present", f"{word!r} not in profile: {profile[:300]}"))
    for wanted in expect.get("fact_about", []):
        subject = str(wanted["subject"]).casefold()
        about = [fact for fact in current if (fact.subject or "").strip().casefold() == subject]
        if not any(_has(fact.claim, wanted["contains"]) for fact in about):
            found = "; ".join(f"[{fact.subject}] {fact.claim}" for fact in current)[:300]
            failures.append(
                Failure(
                    "fact_about",
                    f"no current fact of {wanted['subject']!r} with {wanted['contains']!r}; "
                    f"current: {found or 'none'}",
                )
            )
    name = expect.get("name")
    subjects = user_subjects(speaker, name)
    mine = [fact for fact in current if is_user_fact(fact, subjects)]
    for word in expect.get("user_facts_absent", []):
        hits = [f"[{fact.subject}] {fact.claim}" for fact in mine if _has(fact.claim, word)]
        if hits:
            failures.append(Failure("user_facts_absent", f"{word!r} filed under the user: {hits[:3]}"))
    if name is not None:
        wanted_name = str(name).casefold()

        def learned_as(learned: str) -> bool:  # the name, or a full name it begins ("Olusegun Adeyemi")
            learned = learned.strip().casefold()
            return learned == wanted_name or (not strict and learned.startswith(f"{wanted_name} "))

        in_facts = any(
            (fact.key or "").casefold() == "name" and learned_as(fact.value or "") for fact in current
        )
        in_profile = learned_as(str(preferences.get("name", "")))
        if not (in_facts or in_profile):
            named = [f"{fact.key}={fact.value}" for fact in current if (fact.key or "").casefold() == "name"]
            failures.append(
                Failure("name", f"wanted {name!r}; name facts {named}, profile {preferences.get('name')!r}")
            )
    spec = expect.get("date")
    if spec is not None:
        failure = check_date(spec, current)
        if failure is not None:
            failures.append(failure)
    return failures


def validate_scenarios(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Problems with the data file (empty when it is well formed)."""
    problems: list[str] = []
    ids = [row.get("id") for row in rows]
    problems += [f"duplicate id {id_}" for id_ in sorted({i for i in ids if ids.count(i) > 1}, key=str)]
    families: dict[str, set[str]] = defaultdict(set)
    splits: dict[str, set[str]] = defaultdict(set)
    per_family: dict[str, int] = defaultdict(int)
    for row in rows:
        id_, kind, family = row.get("id"), row.get("kind"), row.get("family")
        if not isinstance(kind, str) or not isinstance(family, str):
            problems.append(f"{id_}: family {family!r} does not belong to kind {kind!r}")
            continue
        per_family[family] += 1
        # a set written by someone who never read the learner: held out (``-b``/``-h``/``-k``/``-m``/``-q``/
        # ``-s``/``-w``: blind2-8), reported and never tuned on; or for tuning (``-c``/``-d``/``-n``/``-p``/
        # ``-r``/``-v``: dev3-8), reported once before tuning
        written_blind = {f"{kind}-{letter}": "test" for letter in "bhkmqsw"} | {
            f"{kind}-{letter}": "dev" for letter in "cdnprv"
        }
        prefix = family[: len(kind) + 2]
        if prefix in written_blind:
            if row.get("split") != written_blind[prefix]:
                problems.append(f"{id_}: a {prefix[-1]} family is split {written_blind[prefix]!r}")
        elif not family.startswith(f"{kind}-f"):
            problems.append(f"{id_}: family {family!r} does not belong to kind {kind!r}")
            continue
        else:
            families[kind].add(family)
            splits[kind].add(str(row.get("split")))
            if row.get("split") not in ("dev", "test"):
                problems.append(f"{id_}: split {row.get('split')!r}")
            number = int(family.rsplit("-f", 1)[1])
            if row.get("split") != ("dev" if number % 2 else "test"):
                problems.append(f"{id_}: split does not follow the family rule (odd dev, even test)")
        speaker = row.get("speaker")
        if speaker is not None and not (isinstance(speaker, str) and speaker):
            problems.append(f"{id_}: speaker {speaker!r}")
        sessions = row.get("sessions") or []
        if not sessions:
            problems.append(f"{id_}: no sessions")
        times = [datetime.fromisoformat(session["at"]) for session in sessions]
        if any(stamp.tzinfo is None for stamp in times):
            problems.append(f"{id_}: naive session time")
        elif any(later <= earlier for earlier, later in pairwise(times)):
            problems.append(f"{id_}: sessions not in chronological order")
        for session in sessions:
            turns = session.get("turns") or []
            if not turns:
                problems.append(f"{id_}: empty session")
            for turn in turns:
                if turn.get("role") not in ("user", "assistant") or not str(turn.get("content", "")).strip():
                    problems.append(f"{id_}: bad turn {turn!r}")
        expect = row.get("expect")
        if not isinstance(expect, dict) or not expect:
            problems.append(f"{id_}: no expect")
        elif set(expect) - EXPECT_FIELDS:
            problems.append(f"{id_}: unknown expect fields {sorted(set(expect) - EXPECT_FIELDS)}")
    for kind, names in sorted(families.items()):
        if len(names) < 5:
            problems.append(f"kind {kind}: {len(names)} families (< 5)")
        if splits[kind] != {"dev", "test"}:
            problems.append(f"kind {kind}: splits {sorted(splits[kind])}")
    problems += [f"family {family}: {count} scenario" for family, count in per_family.items() if count < 2]
    return problems


@dataclass(frozen=True)
class Outcome:
    id: str
    kind: str
    split: str
    failures: list[Failure]
    seconds: float
    # "stated" (the user says it in words) or "implied" (shown by circumstances), where the set tags it
    register: str | None = None
    # whether it passes the scoring before the ninth session too (``score_scenario(strict=True)``)
    strict_passed: bool | None = None

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def leaked(self) -> bool:
        return any(failure.check in LEAK_CHECKS for failure in self.failures)


def summarise(outcomes: Iterable[Outcome]) -> dict[str, Any]:
    """Passed/total per kind and split, the near-miss leak count and the overall rate."""
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    leaked = near = 0
    total = passed = strict = 0
    registers: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for outcome in outcomes:
        if outcome.register is not None:
            registers[outcome.register][0] += outcome.passed
            registers[outcome.register][1] += 1
        for split in (outcome.split, "all"):
            cell = table[outcome.kind][split]
            cell[0] += outcome.passed
            cell[1] += 1
        total += 1
        passed += outcome.passed
        strict += outcome.passed if outcome.strict_passed is None else outcome.strict_passed
        if outcome.kind == "near_miss":
            near += 1
            leaked += outcome.leaked
    per_kind = {
        kind: {
            split: {"passed": cell[0], "total": cell[1], "rate": round(cell[0] / cell[1], 3)}
            for split, cell in sorted(splits.items())
        }
        for kind, splits in sorted(table.items())
    }
    return {
        "per_kind": per_kind,
        "per_register": {
            name: {"passed": cell[0], "total": cell[1]} for name, cell in sorted(registers.items())
        },
        "near_miss_leaked": leaked,
        "near_miss_total": near,
        "passed": passed,
        "strict_passed": strict,
        "total": total,
        "rate": round(passed / total, 3) if total else None,
    }


def markdown(summary: Mapping[str, Any], wall_seconds: float) -> str:
    def cell(split: Mapping[str, Any] | None) -> str:
        return "–" if split is None else f"{split['passed']}/{split['total']} ({split['rate']:.2f})"

    lines = ["| kind | dev | test | all |", "|---|---|---|---|"]
    for kind, splits in summary["per_kind"].items():
        lines.append(
            f"| {kind} | {cell(splits.get('dev'))} | {cell(splits.get('test'))} | {cell(splits['all'])} |"
        )
    lines.append(
        f"| near misses: something reached the user | | | {summary['near_miss_leaked']}/"
        f"{summary['near_miss_total']} |"
    )
    rate = "–" if summary["rate"] is None else f"{summary['rate']:.2f}"
    lines.append(f"| **overall** | | | **{summary['passed']}/{summary['total']} ({rate})** |")
    if "strict_passed" in summary:
        before = f"{summary['strict_passed']}/{summary['total']}"
        lines.append(f"| overall, scored as before 2026-11-29 | | | {before} |")
    for name, cell_ in summary.get("per_register", {}).items():
        lines.append(f"| register {name} | | | {cell_['passed']}/{cell_['total']} |")
    return "\n".join(lines) + f"\n\nwall time {wall_seconds:.1f} s"


# ------------------------------------------------------------------ the run (embedded servers)


async def run_scenario(row: Mapping[str, Any], settings: Settings, order: str) -> Outcome:
    started = time.perf_counter()
    user = f"scen-{row['id']}-{uuid.uuid4().hex[:8]}"
    speaker = row.get("speaker")
    metadata = {"speaker": speaker} if speaker else None
    expect = row["expect"]
    memory = await AsyncAgentMemory(user, settings=settings).open()
    try:
        conversations: list[str] = []
        for session in row["sessions"]:
            conversation = await memory.new_conversation()
            at = datetime.fromisoformat(session["at"])
            for offset, turn in enumerate(session["turns"]):
                await memory.store_turn(
                    conversation,
                    turn["role"],
                    turn["content"],
                    timestamp=at + timedelta(minutes=offset),
                    metadata=metadata,
                )
            if order == "forward":
                await memory.consolidate_conversation(conversation)
            conversations.append(conversation)
        if order == "reversed":
            for conversation in reversed(conversations):
                await memory.consolidate_conversation(conversation)
        facts = await memory.list_facts(limit=1000, include_history=True)
        profile = await memory.get_profile()
        ranked = expect.get("ranked_above")
        prompt = ranked["query"] if ranked else DEFAULT_PROMPT
        context = await memory.get_context(prompt, budget_tokens=1500)
        items: list[str] = []
        if ranked:
            bundle = await memory.remember(ranked["query"], top_k=10)
            items = [item.content for item in bundle.items]
        failures = score_scenario(expect, facts, profile.preferences, context, items, speaker)
        strict = not score_scenario(expect, facts, profile.preferences, context, items, speaker, strict=True)
        await memory.forget_user()
    except Exception as error:  # a crash is a failed scenario, reported, not the end of the run
        failures = [Failure("error", f"{type(error).__name__}: {error}"[:300])]
        strict = False
    finally:
        await memory.close()
    return Outcome(
        row["id"],
        row["kind"],
        row["split"],
        failures,
        time.perf_counter() - started,
        row.get("register"),
        strict,
    )


def select(
    rows: Sequence[dict[str, Any]], split: str, kinds: str | None, limit: int | None
) -> list[dict[str, Any]]:
    wanted = set(kinds.split(",")) if kinds else None
    chosen = [
        row
        for row in rows
        if (split == "all" or row["split"] == split) and (wanted is None or row["kind"] in wanted)
    ]
    return chosen[:limit] if limit is not None else chosen


async def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--kinds", help="comma-separated kinds (default: all)")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--order", choices=("forward", "reversed"), default="forward")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--show-failures", action="store_true")
    args = parser.parse_args(argv)
    rows = load_scenarios(args.data)
    problems = validate_scenarios(rows)
    if problems:
        raise SystemExit("bad scenario file:\n" + "\n".join(problems))
    chosen = select(rows, args.split, args.kinds, args.limit)
    settings = owning_process(Settings.model_validate({"learning": {"auto_consolidate": False}}))
    started = time.perf_counter()
    outcomes = [await run_scenario(row, settings, args.order) for row in chosen]
    wall = time.perf_counter() - started
    summary = summarise(outcomes)
    print(f"## Learning scenarios (split {args.split}, order {args.order})\n")
    print(markdown(summary, wall))
    failures = [
        {"id": outcome.id, "kind": outcome.kind, "split": outcome.split, **asdict(failure)}
        for outcome in outcomes
        for failure in outcome.failures
    ]
    if args.show_failures:
        print("\n### Failures\n")
        for failure in failures:
            print(f"- {failure['id']} [{failure['check']}] {failure['detail']}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "split": args.split,
            "order": args.order,
            "scenarios": len(outcomes),
            "wall_seconds": round(wall, 1),
            "seconds_per_scenario": round(wall / len(outcomes), 2) if outcomes else None,
            **summary,
            "failures": failures,
        }
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
