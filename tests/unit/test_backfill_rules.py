"""The backfill's pure rules: a stored turn's derived fields as ingest derives them, which turns are
embedded again, and the rows its write statement takes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

from agentx_memory.maintenance.backfill_rules import BackfillReport, derive_turn, write_rows
from agentx_memory.memory.episodic_pure import turn_event

SAID_AT = datetime(2026, 2, 11, 9, 30, tzinfo=UTC)


def _row(content: str, **extra: object) -> dict[str, object]:
    return {"id": "t1", "content": content, "metadata": {"speaker": "Ben"}, "timestamp": SAID_AT, **extra}


def test_a_turn_that_tells_of_another_day_gets_its_event_and_a_text_to_embed() -> None:
    derived = derive_turn(_row("Yesterday I cooked a risotto", event_label=None))
    event = turn_event("Yesterday I cooked a risotto", SAID_AT)
    assert event is not None
    assert (derived.event_start, derived.event_end, derived.event_label) == (
        event.start,
        event.end,
        event.label,
    )
    assert derived.embed_text == "Ben: Yesterday I cooked a risotto [10 February 2026]"


def test_a_turn_without_a_relative_phrase_keeps_its_vector() -> None:
    derived = derive_turn(_row("I cook on Sundays", event_label=None))
    assert (derived.event_start, derived.event_label, derived.embed_text) == (None, None, None)


def test_a_turn_that_already_embeds_its_label_is_not_embedded_again() -> None:
    # Stored between migrations 011 and 013: the label is there, and so is its vector.
    assert derive_turn(_row("Yesterday I cooked", event_label="10 February 2026")).embed_text is None


def test_a_label_the_rules_no_longer_read_is_dropped_from_the_embedded_text() -> None:
    derived = derive_turn(_row("I cook on Sundays", event_label="10 February 2026"))
    assert (derived.event_label, derived.embed_text) == (None, "Ben: I cook on Sundays")


def test_the_time_phrase_is_read_in_utc_whatever_zone_the_session_returns() -> None:
    # 9:30 UTC on 11 February is 23:30 on 10 February in UTC-10: the event is still ingest's, 10 February.
    late = SAID_AT.astimezone(timezone(timedelta(hours=-10)))
    assert derive_turn(_row("Yesterday I cooked", timestamp=late)).event_label == "10 February 2026"


def test_write_rows_carry_a_vector_only_for_turns_embedded_again() -> None:
    told = derive_turn(_row("Yesterday I cooked", event_label=None))
    plain = derive_turn({**_row("I cook"), "id": "t2"})
    rows = json.loads(write_rows([told, plain], {"t1": [0.5, 0.25]}))
    assert rows[0]["embedding"] == "[0.5,0.25]"
    assert rows[0]["event_label"] == "10 February 2026"
    assert rows[0]["event_start"] == "2026-02-10T00:00:00+00:00"
    assert rows[1] == {
        "id": "t2",
        "event_start": None,
        "event_end": None,
        "event_label": None,
        "embedding": None,
    }


def test_the_report_rate_is_turns_per_second() -> None:
    assert BackfillReport(turns=500, seconds=2.0).rate == 250
    assert BackfillReport().rate == 0
