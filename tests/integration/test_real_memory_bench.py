"""``benchmarks/real_memory.py`` bounded to a few turns: the report has its shape and every operation's
ratio to its floor is computed. No timing threshold: the figures are for the README, not for a test."""

from __future__ import annotations

from typing import Any

from agentx_memory.embedded import ResolvedEndpoints
from agentx_memory.embedding import Embedder
from agentx_memory.settings import Settings
from benchmarks.real_memory import measure, questions_of, sessions_of, split_held_back, table

_SAMPLE: dict[str, Any] = {
    "conversation": {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I moved to Lisbon last month for a new job."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Nice! What do you do there?"},
            {"speaker": "Ana", "dia_id": "D1:3", "text": "I work as a nurse at Santa Maria hospital."},
        ],
        "session_2_date_time": "10:37 am on 27 June, 2023",
        "session_2": [
            {"speaker": "Ana", "dia_id": "D2:1", "text": "I adopted a dog called Pico this weekend."},
            {"speaker": "Ben", "dia_id": "D2:2", "text": "What breed is Pico?", "blip_caption": "a dog"},
            {"speaker": "Ana", "dia_id": "D2:3", "text": "A beagle, and he loves the beach."},
        ],
    },
    "qa": [
        {"question": "Where does Ana live?", "evidence": ["D1:1"], "category": 4},
        {"question": "What is Ana's job?", "evidence": ["D1:3"], "category": 4},
        {"question": "What breed is Ana's dog?", "evidence": ["D2:3"], "category": 4},
    ],
}


def test_sessions_keep_their_real_times_and_the_last_turns_are_held_back() -> None:
    sessions = sessions_of([_SAMPLE])
    assert [session.turns[0].timestamp.isoformat() for session in sessions if session.turns[0].timestamp] == [
        "2023-05-08T13:56:00+00:00",
        "2023-06-27T10:37:00+00:00",
    ]
    ingested, held = split_held_back(sessions, 2)
    assert [len(s.turns) for s in ingested] == [3, 1]
    assert [turn.content for s in held for turn in s.turns] == [
        "What breed is Pico? [shares a dog]",
        "A beagle, and he loves the beach.",
    ]
    assert questions_of([_SAMPLE, _SAMPLE], 4) == [
        "Where does Ana live?",
        "Where does Ana live?",
        "What is Ana's job?",
        "What is Ana's job?",
    ]


def test_a_tiny_run_reports_every_operation_beside_its_floor(
    settings: Settings, endpoints: ResolvedEndpoints, embedder: Embedder
) -> None:
    learning = settings.learning.model_copy(update={"auto_consolidate": True})
    report = measure(
        settings.model_copy(update={"learning": learning}),
        endpoints,
        embedder,
        [_SAMPLE],
        questions=3,
        store_turns=2,
    )
    assert (report["turns_ingested"], report["questions"], report["store_turns"]) == (4, 3, 2)
    for operation in ("remember", "get_context", "store_turn"):
        paired = report[operation]
        assert paired["operation"]["count"] == paired["floor"]["count"] > 0
        assert paired["ratio_p50"] == paired["operation"]["p50"] / paired["floor"]["p50"] > 0
        assert paired["ratio_p95"] == paired["operation"]["p95"] / paired["floor"]["p95"] > 0
    assert "turns.vector" in report["techniques_p50_ms"]
    assert set(report["bytes_per_turn"]) == {
        "postgres (tables, indexes)",
        "postgres WAL",
        "falkordb (append-only log)",
    }
    assert "`store_turn`" in table(report)
