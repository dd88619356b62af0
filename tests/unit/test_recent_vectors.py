"""The in-process recent query vectors: least recently used out first, copies handed out."""

from __future__ import annotations

from agentx_memory.embedding.recent import RecentVectors


def test_the_least_recently_used_vector_goes_first() -> None:
    recent = RecentVectors(2)
    recent.put({"a": [1.0], "b": [2.0]})
    assert recent.get(["a"]) == [[1.0]]  # "a" is now the most recent
    recent.put({"c": [3.0]})
    assert recent.get(["a", "b", "c"]) == [[1.0], None, [3.0]]


def test_a_vector_handed_out_is_a_copy() -> None:
    recent = RecentVectors(4)
    recent.put({"a": [1.0, 2.0]})
    [vector] = recent.get(["a"])
    assert vector is not None
    vector.append(9.0)
    assert recent.get(["a"]) == [[1.0, 2.0]]
