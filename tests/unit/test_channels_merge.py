"""merge_channels: one hit per key, best first, the active channel's copy wins ties."""

from __future__ import annotations

from agentx_memory.memory.channels import merge_channels


def test_duplicates_collapse_to_the_active_channel_copy() -> None:
    hits = [(("g1", "_global", "standup at 9:30"), 0.9), (("p1", "proj", "Standup at  9:30"), 0.9)]
    merged = merge_channels(
        hits,
        active="proj",
        channel_of=lambda h: h[1],
        key_of=lambda h: " ".join(h[2].casefold().split()),
        limit=5,
    )
    assert merged == [(("p1", "proj", "Standup at  9:30"), 0.9)]


def test_best_score_first_and_limit() -> None:
    hits = [(("a", "proj", "a"), 0.2), (("b", "_global", "b"), 0.8), (("c", "proj", "c"), 0.5)]
    merged = merge_channels(hits, active="proj", channel_of=lambda h: h[1], key_of=lambda h: h[2], limit=2)
    assert [item[0] for item, _ in merged] == ["b", "c"]


def test_a_better_global_copy_still_wins_on_score() -> None:
    hits = [(("g", "_global", "x"), 0.9), (("p", "proj", "x"), 0.7)]
    merged = merge_channels(hits, active="proj", channel_of=lambda h: h[1], key_of=lambda h: h[2], limit=5)
    assert [item[0] for item, _ in merged] == ["g"]
