"""The demo end to end on the test's isolated stores: it stores the scripted chat and recalls the answers."""

from __future__ import annotations

import io
import re
from datetime import UTC, date, datetime

from rich.console import Console

from agentx_memory import Settings
from agentx_memory.demo import load_script, run_demo, story_months


def test_script_spans_sessions_days_apart() -> None:
    script = load_script()
    assert len(script.sessions) == 3
    assert 25 <= sum(len(session.turns) for session in script.sessions) <= 40
    assert [session.ago.get("days", 0) for session in script.sessions] == sorted(
        (session.ago.get("days", 0) for session in script.sessions), reverse=True
    )
    assert len(script.questions) >= 5


def test_script_months_lie_ahead_whatever_the_month_it_runs_in() -> None:
    for month in range(1, 13):
        today = date(2026, month, 28)
        script = load_script(today)
        text = script.model_dump_json()
        for placeholder in story_months(today):
            assert placeholder not in text
        trip = story_months(today)["{trip_month}"]
        assert f"probably mid {trip}" in script.sessions[0].turns[0][1]
        assert script.questions[-1].expect == f"{trip} 28th"


def test_demo_recalls_answers_from_earlier_sessions(settings: Settings) -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, width=200, color_system=None, force_terminal=False)

    code = run_demo(settings, console)

    out = buffer.getvalue()
    assert code == 0, out
    assert "Stored 30 turns" in out
    assert re.search(r"user demo-[0-9a-f]{8}", out)
    # The allergy was mentioned twelve days ago, in other words: it must be in the first two results
    # (the assistant's question that it answers may rank just above it, since both match).
    allergy = out.split("“Is there anything I can't eat?”", 1)[1]
    assert allergy.startswith(("  answer at rank 1", "  answer at rank 2")), allergy[:300]
    top_rows = allergy.split("│ 1 │", 1)[1].split("│ 3 │", 1)[0]
    assert "allergic to peanuts" in top_rows or "cannot eat peanuts" in top_rows
    assert "Japan trip: first" in top_rows  # the session of twelve days ago
    for question in load_script().questions:
        verdict = out.split(f"“{question.question}”", 1)[1]
        assert verdict.startswith("  answer at rank"), f"{question.question}: {verdict[:300]}"
    assert "Verdant" in out
    assert "traditional inns" in out
    assert "for 5 of 5 questions" in out
    # It learns from the chat by rules: the allergy (said after "Yes, an important one:"), the standing
    # request, and the profile, which every memory block then carries, whatever the request.
    learned = out.split("What did it learn?", 1)[1].split("get_context(", 1)[0]
    assert "The user is severely allergic to peanuts and carries an EpiPen." in learned
    assert "The user always wants a window seat." in learned
    assert "The user's sister is Maya." in learned
    assert "Profile (shown in every memory block): allergy peanuts" in learned
    # The new job starts on the 3rd of the month after next but one, ahead of the demo, not a year on.
    today = datetime.now(UTC).date()
    starts = story_months(today)["{next_month}"]
    year = today.year + (1 if today.month >= 10 else 0)
    assert f"The user's new job starts on {starts} 3rd (3 {starts} {year})." in learned
    block = out.split("get_context(", 1)[1].split("Short-term state", 1)[0]
    assert "About the user: allergy peanuts" in block
    # Working memory and the 24-hour ledger window show the last session only.
    recent = out.split("Short-term state", 1)[1]
    assert "Kenji" in recent
    assert "EpiPen" not in recent
    assert "store_turn" in out.split("Timings", 1)[1]
    # The demo ends by forgetting its user: 30 turns, 3 conversations, and nothing left behind.
    assert "removed the demo user everywhere: 30 turns and 3 conversations" in out
    assert re.search(r"\d+ graph nodes, \d+ Redis keys", out)
