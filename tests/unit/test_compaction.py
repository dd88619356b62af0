"""Compaction's pure half: which turns fold, and the extractive summary that builds on the last one."""

from __future__ import annotations

from datetime import UTC, datetime

from agentx_memory.memory.compaction import MARKER, extractive_summary, split_for_compaction
from agentx_memory.models import Turn


def turn(index: int, content: str) -> Turn:
    return Turn(
        id=f"t{index}", conversation_id="c", user_id="u", channel="_global", index=index, role="user",
        content=content, timestamp=datetime(2024, 5, 1, tzinfo=UTC), content_hash="h",
    )  # fmt: skip


def words(text: str) -> int:
    return len(text.split())


def test_the_newest_turns_that_fit_are_kept() -> None:
    turns = [turn(i, "one two three four") for i in range(6)]
    folded, kept = split_for_compaction(turns, words, keep_tokens=9)
    assert [t.id for t in kept] == ["t4", "t5"]
    assert [t.id for t in folded] == ["t0", "t1", "t2", "t3"]
    big = [turn(0, "word " * 50)]
    assert split_for_compaction(big, words, keep_tokens=3) == ([], big)  # the newest always stays


def test_summary_keeps_informative_sentences_in_order_and_builds_on_the_last() -> None:
    first = extractive_summary(
        None,
        [
            turn(0, "hi! I'm flying to Lisbon on May 3rd."),
            turn(1, "ok thanks"),
            turn(2, "Maya is vegetarian."),
        ],
        words,
        budget_tokens=40,
    )
    assert first == f"{MARKER}\nuser: I'm flying to Lisbon on May 3rd.\nuser: Maya is vegetarian."
    second = extractive_summary(first, [turn(3, "We booked the Alfama flat for 150 euros.")], words, 40)
    assert second.splitlines() == [
        MARKER,
        "user: I'm flying to Lisbon on May 3rd.",
        "user: Maya is vegetarian.",
        "user: We booked the Alfama flat for 150 euros.",
    ]
    tight = extractive_summary(second, [turn(4, "My passport expires in June 2031.")], words, 20)
    assert tight.startswith(MARKER)
    assert words(tight) <= 20
    assert "passport" in tight
    assert "Lisbon" not in tight
