"""The learning-scenarios harness: its pure scoring functions and the hand-written data file."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from itertools import count
from typing import Any

import pytest

from agentx_memory.models.semantic import Fact
from benchmarks.learning_scenarios import (
    Failure,
    Outcome,
    load_scenarios,
    markdown,
    profile_line,
    score_scenario,
    summarise,
    validate_scenarios,
)

_ids = count()
NOW = datetime(2025, 3, 1, 12, tzinfo=UTC)


def fact(
    claim: str,
    subject: str | None = "Dana",
    *,
    ended: bool = False,
    key: str | None = None,
    value: str | None = None,
    event_time: datetime | None = None,
) -> Fact:
    return Fact(
        id=f"f{next(_ids)}",
        user_id="u",
        channel="default",
        claim=claim,
        confidence=0.9,
        source="learned",
        created_at=NOW,
        valid_until=NOW if ended else None,
        subject=subject,
        key=key,
        value=value,
        event_time=event_time,
    )


def checks(
    expect: Mapping[str, Any],
    facts: Sequence[Fact] = (),
    preferences: Mapping[str, Any] | None = None,
    context: str = "",
    items: Sequence[str] = (),
    speaker: str | None = "Dana",
    strict: bool = False,
) -> list[str]:
    failures = score_scenario(expect, facts, preferences or {}, context, items, speaker, strict)
    return [failure.check for failure in failures]


MOVED = [fact("Dana lives in Toronto"), fact("Dana lives in Montreal", ended=True)]


def test_current_passes_and_fails() -> None:
    assert checks({"current": ["toronto"]}, MOVED) == []
    assert checks({"current": ["Vancouver"]}, MOVED) == ["current"]
    # a superseded fact is not current
    assert checks({"current": ["Montreal"]}, MOVED) == ["current"]


def test_not_current_passes_and_fails() -> None:
    assert checks({"not_current": ["Montreal"]}, MOVED) == []
    assert checks({"not_current": ["TORONTO"]}, MOVED) == ["not_current"]


def test_a_fact_saying_the_value_ended_or_is_not_so_is_no_evidence_it_is_current() -> None:
    ended = [fact("Dana got made redundant from Tata this week", key="ended")]
    assert checks({"not_current": ["Tata"]}, ended) == []
    denied = [fact("Dana is not vegan", key="diet", value="vegan").model_copy(update={"negated": True})]
    assert checks({"not_current": ["vegan"]}, denied) == []
    assert checks({"not_current": ["Tata"]}, [fact("Dana works at Tata", key="works_at")]) == ["not_current"]


def test_a_fact_told_of_the_past_says_nothing_of_now_unless_scored_strictly() -> None:
    past = [fact("Back in 2012 Dana lived in Boston", key="said").model_copy(update={"temporal": "past"})]
    assert checks({"not_current": ["Boston"]}, past) == []
    assert checks({"not_current": ["Boston"]}, past, strict=True) == ["not_current"]


def test_history_passes_and_fails() -> None:
    assert checks({"history": ["montreal"]}, MOVED) == []
    assert checks({"history": ["Toronto"]}, MOVED) == ["history"]


def test_ranked_above() -> None:
    ranked = {"ranked_above": {"query": "where do I live?", "first": "Toronto", "second": "Montreal"}}
    assert checks(ranked, items=["I moved to Toronto", "I live in Montreal"]) == []
    assert checks(ranked, items=["I live in Montreal", "I moved to Toronto"]) == ["ranked_above"]
    # second absent: passes when first is there, fails when neither is
    assert checks(ranked, items=["nothing", "Toronto it is"]) == []
    assert checks(ranked, items=["nothing"]) == ["ranked_above"]
    # one item holding both counts as first not after second
    assert checks(ranked, items=["moved from Montreal to Toronto"]) == []


def test_profile_line_is_found_in_context() -> None:
    context = "Known facts:\n- x\nAbout the user: name Dana; lives in Toronto\nMore"
    assert profile_line(context) == "About the user: name Dana; lives in Toronto"
    assert profile_line("no profile here") == ""


def test_profile_absent_reads_preferences_and_about_line() -> None:
    assert checks({"profile_absent": ["Montreal"]}, preferences={"lives_in": "Toronto"}) == []
    assert checks({"profile_absent": ["Montreal"]}, preferences={"lives_in": "Montreal"}) == [
        "profile_absent"
    ]
    context = "About the user: lives in Montreal"
    assert checks({"profile_absent": ["montreal"]}, context=context) == ["profile_absent"]
    # the word elsewhere in the context is not the profile
    assert checks({"profile_absent": ["Montreal"]}, context="Known facts:\n- moved from Montreal") == []


def test_profile_present() -> None:
    assert checks({"profile_present": ["Toronto"]}, context="About the user: lives in Toronto") == []
    assert checks({"profile_present": ["Toronto"]}, preferences={"city": "Toronto"}) == []
    assert checks({"profile_present": ["Toronto"]}, context="- lives in Toronto") == ["profile_present"]


def test_fact_about() -> None:
    facts = [fact("Arjun is a high-school teacher", "Arjun"), fact("Dana is a pharmacist")]
    expect = {"fact_about": [{"subject": "arjun", "contains": "Teacher"}]}
    assert checks(expect, facts) == []
    # filed under the user, or no longer current: fails
    assert checks(expect, [fact("Dana's husband Arjun is a teacher")]) == ["fact_about"]
    assert checks(expect, [fact("Arjun is a teacher", "Arjun", ended=True)]) == ["fact_about"]


def test_user_facts_absent_uses_speaker_name_and_the_user() -> None:
    expect = {"user_facts_absent": ["teacher"]}
    assert checks(expect, [fact("Arjun is a teacher", "Arjun")]) == []
    assert checks(expect, [fact("Dana is a teacher", "dana")]) == ["user_facts_absent"]
    assert checks(expect, [fact("The user is a teacher", "The user")], speaker=None) == ["user_facts_absent"]
    assert checks(expect, [fact("a teacher", None)], speaker=None) == ["user_facts_absent"]
    # the introduced name counts as the user too
    named = {"user_facts_absent": ["teacher"], "name": "Bea"}
    found = checks(named, [fact("Bea is a teacher", "Bea"), fact("name Bea", "Bea", key="name", value="Bea")])
    assert found == ["user_facts_absent"]
    # a superseded one does not count
    assert checks(expect, [fact("Dana is a teacher", ended=True)]) == []


def test_name() -> None:
    named = [fact("The user's name is Dana", "The user", key="name", value="Dana")]
    assert checks({"name": "dana"}, named, speaker=None) == []
    assert checks({"name": "Dana"}, preferences={"name": "Dana"}, speaker=None) == []
    assert checks({"name": "Dana"}, [fact("Dana likes Heat", "Dana")], speaker=None) == ["name"]
    assert checks({"name": "Dana"}, preferences={"name": "Dan"}, speaker=None) == ["name"]
    ended = [fact("name Dana", "The user", key="name", value="Dana", ended=True)]
    assert checks({"name": "Dana"}, ended, speaker=None) == ["name"]
    full = [fact("The user's name is Dana Ruiz", "The user", key="name", value="Dana Ruiz")]
    assert checks({"name": "Dana"}, full, speaker=None) == []
    assert checks({"name": "Dana"}, full, speaker=None, strict=True) == ["name"]
    assert checks({"name": "Dan"}, full, speaker=None) == ["name"]


def test_date_by_event_time_or_claim_text() -> None:
    spec = {"date": {"about": "Tokyo", "year": 2026, "month": 1, "day": 5}}
    on_day = datetime(2026, 1, 5, 9, tzinfo=UTC)
    assert checks(spec, [fact("Dana is flying to Tokyo", event_time=on_day)]) == []
    assert checks(spec, [fact("Dana flies to Tokyo on 5 January 2026")]) == []
    assert checks(spec, [fact("Dana flies to Tokyo on 2026-01-05")]) == []
    # a wrong year, no date, or the date on another fact: fails
    wrong = datetime(2025, 1, 5, 9, tzinfo=UTC)
    assert checks(spec, [fact("Dana is flying to Tokyo", event_time=wrong)]) == ["date"]
    assert checks(spec, [fact("Dana is flying to Tokyo on January 5")]) == ["date"]
    assert checks(spec, [fact("Dana is flying to Tokyo"), fact("exam", event_time=on_day)]) == ["date"]
    contains = {"date": {"about": "exam", "contains": "3 February 2026"}}
    assert checks(contains, [fact("Dana's exam is on 3 February 2026")]) == []
    assert checks(contains, [fact("Dana's exam is on 3 February")]) == ["date"]


def test_every_check_must_pass_and_unknown_fields_are_reported() -> None:
    expect = {"current": ["Toronto"], "not_current": ["Montreal"], "history": ["Montreal"]}
    assert checks(expect, MOVED) == []
    assert checks(expect, [fact("Dana lives in Toronto"), fact("Dana lives in Montreal")]) == [
        "not_current",
        "history",
    ]
    assert checks({"currnet": ["x"]}) == ["schema"]


def test_summary_counts_near_miss_leaks() -> None:
    outcomes = [
        Outcome("residence-f1-01", "residence", "dev", [], 1.0),
        Outcome("residence-f2-01", "residence", "test", [Failure("current", "x")], 1.0),
        Outcome("near_miss-f1-01", "near_miss", "dev", [Failure("user_facts_absent", "x")], 1.0),
        Outcome("near_miss-f2-01", "near_miss", "test", [Failure("ranked_above", "x")], 1.0),
    ]
    summary = summarise(outcomes)
    assert summary["per_kind"]["residence"]["all"] == {"passed": 1, "total": 2, "rate": 0.5}
    assert summary["near_miss_leaked"] == 1
    assert (summary["passed"], summary["total"]) == (1, 4)
    table = markdown(summary, 3.2)
    assert "| residence | 1/1 (1.00) | 0/1 (0.00) | 1/2 (0.50) |" in table
    assert "1/2 |" in table
    assert "register" not in table  # untagged sets report no registers


def test_summary_counts_registers() -> None:
    outcomes = [
        Outcome("residence-r1-01", "residence", "dev", [], 1.0, "stated"),
        Outcome("residence-r2-01", "residence", "dev", [Failure("current", "x")], 1.0, "stated"),
        Outcome("residence-r3-01", "residence", "dev", [Failure("current", "x")], 1.0, "implied"),
    ]
    summary = summarise(outcomes)
    assert summary["per_register"] == {
        "implied": {"passed": 0, "total": 1},
        "stated": {"passed": 1, "total": 2},
    }
    assert "| register stated | | | 1/2 |" in markdown(summary, 1.0)


# ------------------------------------------------------------------ the data file


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return load_scenarios()


def test_data_file_validates(rows: list[dict[str, Any]]) -> None:
    assert validate_scenarios(rows) == []
    assert len(rows) >= 170


def test_every_kind_has_five_families_and_both_splits(rows: list[dict[str, Any]]) -> None:
    families: dict[str, set[str]] = defaultdict(set)
    splits: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        families[row["kind"]].add(row["family"])
        splits[row["kind"]].add(row["split"])
    assert len(families) >= 16
    assert all(len(names) >= 5 for names in families.values())
    assert all(found == {"dev", "test"} for found in splits.values())


def test_ids_unique_and_sessions_chronological(rows: list[dict[str, Any]]) -> None:
    ids = [row["id"] for row in rows]
    assert len(ids) == len(set(ids))
    for row in rows:
        times = [datetime.fromisoformat(session["at"]) for session in row["sessions"]]
        assert times == sorted(times), row["id"]
        assert len(set(times)) == len(times), row["id"]


def test_validator_catches_bad_rows(rows: list[dict[str, Any]]) -> None:
    first = dict(rows[0])
    late, early = "2025-02-01T00:00:00+00:00", "2025-01-01T00:00:00+00:00"
    turns = [{"role": "user", "content": "hi"}]
    backwards = dict(first, id="x-1", sessions=[{"at": late, "turns": turns}, {"at": early, "turns": turns}])
    problems = validate_scenarios([*rows, first, backwards])
    assert any("duplicate id" in problem for problem in problems)
    assert any("chronological" in problem for problem in problems)
    assert any("families (< 5)" in problem for problem in validate_scenarios(rows[:3]))
