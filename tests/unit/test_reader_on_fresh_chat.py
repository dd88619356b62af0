"""The offline reader over 600 chat messages written for this project (`tests/data/chat_corpus.jsonl`,
30 families of register and topic: texting, catch-ups between friends, requests to an assistant in
British, American, Indian, Nigerian and Australian English …), none of them tuned on: every message is
read to the end, in bounded time, with no error.

A sentence once sent the pet reader round a loop for ever ("Enrolled our lab puppy, Bear, in obedience
classes at PetSmart, Saturdays at 10.": a walk up to the clause's verb compared spaCy tokens by identity,
and a sentence whose root is no verb never ended it). One such message stalls a user's learning."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agentx_memory.extraction.names import NameRecognizer
from agentx_memory.extraction.rules import TurnText, extract_turns
from tests.reading import spacy_reader

pytestmark = pytest.mark.long  # ~45 s on one worker: xdist hands it out first (tests/conftest.py)

CORPUS = Path(__file__).resolve().parent.parent / "data" / "chat_corpus.jsonl"
#: Far beyond any message's time (~70 ms on this machine, parse and re-parse included).
LIMIT_S = 20

parser = pytest.fixture(scope="module")(spacy_reader)


@contextmanager
def _at_most(seconds: int, what: str) -> Iterator[None]:
    def stop(*_: object) -> None:
        raise TimeoutError(f"reading took over {seconds} s: {what!r}")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_every_fresh_message_is_read_to_the_end(parser: NameRecognizer) -> None:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) == 600
    said_at = datetime(2025, 6, 3, 18, 0, tzinfo=UTC)
    learned = 0
    for row in rows:
        turn = TurnText(row["id"], "user", row["text"], said_at, row["speaker"])
        with _at_most(LIMIT_S, row["text"]):
            facts = extract_turns([turn], recognizer=parser).facts
        assert all(fact.statement.strip() and fact.subject for fact in facts), row["id"]
        learned += len(facts)
    # the messages were written to carry facts: a reader that read nothing would pass the loop above
    assert learned > 300
