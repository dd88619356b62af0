"""How a recall chooses each graph label's search from the user's node counts, and when it counts."""

from __future__ import annotations

from agentx_memory.stores.label_counts import EXACT_SCAN_MAX, RECOUNT_EVERY, LabelCounts

LABELS = ("Fact", "Entity")


def test_first_recall_asks_the_ann_and_counts_every_label() -> None:
    plan = LabelCounts(LABELS).plan("alice", ["_global"])
    assert (plan.exact, plan.ann, plan.count) == ([], ["Fact", "Entity"], ["Fact", "Entity"])


def test_counts_choose_the_path_until_the_next_counting() -> None:
    counts = LabelCounts(LABELS)
    assert counts.record("alice", ["_global"], {"Fact": EXACT_SCAN_MAX + 1, "Entity": 0}) == {
        "Fact": EXACT_SCAN_MAX + 1,
        "Entity": 0,
    }
    plans = []
    for _ in range(RECOUNT_EVERY - 1):
        plans.append(counts.plan("alice", ["_global"]))
        assert counts.record("alice", ["_global"], {})["Entity"] == 0
    assert all((plan.exact, plan.ann, plan.count) == (["Entity"], ["Fact"], []) for plan in plans)
    assert counts.plan("alice", ["_global"]).count == ["Fact", "Entity"]  # RECOUNT_EVERY calls on
    # Another user, or the same user in other channels, is counted on its own.
    assert counts.plan("bob", ["_global"]).count == ["Fact", "Entity"]
    assert counts.plan("alice", ["_global", "work"]).ann == ["Fact", "Entity"]
    assert counts.record("bob", ["_global"], {}) == {}  # nothing counted, nothing known
