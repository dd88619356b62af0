"""Compaction's pure half: which turns fold, and the extractive summary that builds on the last one."""

from __future__ import annotations

from datetime import UTC, datetime

from agentx_memory.memory.compaction import MARKER, extractive_summary, fit_summary, split_for_compaction
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
    assert tight.splitlines() == [  # the new sentence has half the room, the earlier summary's best the rest
        MARKER,
        "user: I'm flying to Lisbon on May 3rd.",
        "user: My passport expires in June 2031.",
    ]


def test_a_repeated_compaction_neither_freezes_nor_forgets() -> None:
    first = extractive_summary(
        None,
        [turn(0, "My flight to Lisbon lands at 10:40 on May 3rd."), turn(1, "Maya is vegetarian.")],
        words,
        30,
    )
    news = [turn(2, "The quarterly report is due on Friday, Priya sends the numbers."), turn(3, "ok thanks")]
    assert first.splitlines()[1:] == [
        "user: My flight to Lisbon lands at 10:40 on May 3rd.",
        "user: Maya is vegetarian.",
    ]
    second = extractive_summary(first, news, words, 26)
    assert second.splitlines() == [
        MARKER,
        "user: My flight to Lisbon lands at 10:40 on May 3rd.",
        "user: The quarterly report is due on Friday, Priya sends the numbers.",
    ]
    again = extractive_summary(second, [turn(4, "My flight to Lisbon lands at 10:40 on May 3rd.")], words, 26)
    assert again == second  # a sentence said again is kept once, where it was first said
    squeezed = extractive_summary(first, news, words, 16)
    assert "Priya" in squeezed  # the best new sentence gets in even when it needs more than half
    assert words(squeezed) <= 16
    by_llm = f"{MARKER}\nflight lands 10:40, hotel booked"
    assert "flight lands 10:40, hotel booked" in extractive_summary(by_llm, [turn(5, "ok")], words, 30)


def test_an_llm_summary_is_kept_within_the_budget() -> None:
    assert fit_summary("  Flight lands 10:40.\n\nMaya is vegetarian. ", words, 20) == (
        f"{MARKER}\nFlight lands 10:40.\nMaya is vegetarian."
    )
    long = "Flight to Lisbon lands at 10:40 on May 3rd. The weather was nice. Maya from Porto is vegetarian."
    trimmed = fit_summary(long, words, 14)
    assert trimmed.splitlines() == [MARKER, "Flight to Lisbon lands at 10:40 on May 3rd."]
