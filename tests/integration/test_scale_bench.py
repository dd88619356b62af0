"""``benchmarks/scale.py`` bounded to two tiny users: the fillers are renamed, re-dated and shuffled
copies, and a run reports each point of the curve with the probe's recall beside its recall alone and
the bytes per table and index. No timing or recall threshold: the figures are for the docs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.settings import Settings
from benchmarks.scale import filler_user, measure, parse, probe_user
from benchmarks.store_turn import Names, drop_everything, isolated

_SAMPLE: dict[str, Any] = {
    "conversation": {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "Ben, I moved to Lisbon last month for a new job."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Nice, Ana! What do you do there?"},
            {"speaker": "Ana", "dia_id": "D1:3", "text": "I work as a nurse at Santa Maria hospital."},
        ],
        "session_2_date_time": "10:37 am on 27 June, 2023",
        "session_2": [
            {"speaker": "Ana", "dia_id": "D2:1", "text": "I adopted a dog called Pico this weekend."},
            {"speaker": "Ben", "dia_id": "D2:2", "text": "What breed is Pico?", "blip_caption": "a dog"},
            {"speaker": "Ana", "dia_id": "D2:3", "text": "A beagle, and Anastasia loves the beach."},
        ],
    },
    "qa": [
        {"question": "Where does Ana live?", "evidence": ["D1:1"], "category": 4},
        {"question": "What breed is Ana's dog?", "evidence": ["D2:3"], "category": 4},
        {"question": "What does Ana do on Mars?", "evidence": ["D9:9"], "category": 4},
    ],
}


def test_a_filler_is_the_conversation_renamed_re_dated_and_shuffled() -> None:
    probe = probe_user(0, _SAMPLE, None)
    filler = filler_user(7, _SAMPLE, None)
    assert filler == filler_user(7, _SAMPLE, None)  # deterministic
    texts = [turn.content for _, turns in filler.sessions for turn in turns]
    speakers = {(turn.metadata or {})["speaker"] for _, turns in filler.sessions for turn in turns}
    assert speakers.isdisjoint({"Ana", "Ben"})
    assert len(speakers) == 2
    assert not any("Ana," in text or "Ben," in text for text in texts)
    assert any("Anastasia" in text for text in texts)  # whole words only
    assert all("dia_id" not in (turn.metadata or {}) for _, turns in filler.sessions for turn in turns)
    assert sorted(texts) != sorted(t.content for _, turns in probe.sessions for t in turns)
    first = min(turn.timestamp for _, turns in filler.sessions for turn in turns if turn.timestamp)
    assert first.year == 2020
    # no two fillers of one conversation share their names (an earlier version repeated every 30 users)
    names = [
        frozenset(
            (t.metadata or {})["speaker"] for _, ts in filler_user(u, _SAMPLE, None, 1).sessions for t in ts
        )
        for u in range(1, 200)
    ]
    assert len(set(names)) == len(names)
    assert probe_user(0, _SAMPLE, 4).turns == 4
    assert [len(turns) for _, turns in probe_user(0, _SAMPLE, 4).sessions] == [3, 1]


def test_a_tiny_curve_reports_recall_beside_alone_and_the_bytes(
    settings: Settings, endpoints: ResolvedEndpoints, embedder: Embedder, tmp_path: Any
) -> None:
    @contextmanager
    def namespace() -> Iterator[tuple[Settings, ResolvedEndpoints, Names]]:
        names = Names.fresh()
        try:
            yield isolated(settings, names), endpoints, names
        finally:
            drop_everything(endpoints, names)

    args = parse(["--users", "1,2", "--probes", "1", "--latency-questions", "2", "--json", str(tmp_path)])
    report = measure(args, [_SAMPLE], namespace, embedder)
    assert report["alone"]["turns"] == 6
    assert report["alone"]["questions"] == 2  # the one whose evidence is not stored is left out
    assert [(p["users"], p["turns"]) for p in report["curve"]] == [(1, 6), (2, 12)]
    for point in report["curve"]:
        assert set(point["r_at_10_by_user"]) == {"probe-0"}
        assert 0.0 <= point["r_at_10"] <= 1.0
        assert point["remember"]["operation"]["count"] == point["remember"]["floor"]["count"] == 2
        parts = point["bytes_per_turn"]["postgres_parts"]
        assert parts["pg index conversation_logs_embedding"] > 0
        assert point["bytes_per_turn"]["postgres"] >= sum(parts.values()) - len(parts)
    assert report["curve"][1]["ingest_turns_per_s"] > 0
    assert "falkordb_aof_rewritten" in report["curve"][-1]["bytes_per_turn"]
