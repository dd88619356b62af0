"""Token counters: the bundled WordPiece counter for real (no mocks), OpenAI encodings from a package."""

from __future__ import annotations

import random
import string
from concurrent.futures import ThreadPoolExecutor

import pytest

import agentx_memory.retrieval.tokens as tokens
from agentx_memory.errors import ConfigurationError
from agentx_memory.retrieval.tokens import (
    OpenAITokenCounter,
    TokenCounter,
    WordPieceTokenCounter,
    default_token_counter,
)

PROSE = (
    "Long-term memory lets an agent recall what a user said weeks ago. The store keeps every turn in a "
    "ledger, extracts facts with an LLM, and links entities in a property graph."
)


def test_public_api_is_exactly_all() -> None:
    assert sorted(tokens.__all__) == [
        "OpenAITokenCounter",
        "TokenCounter",
        "WordPieceTokenCounter",
        "default_token_counter",
    ]


def test_default_counter_is_a_shared_wordpiece_counter() -> None:
    counter = default_token_counter()
    assert isinstance(counter, WordPieceTokenCounter)
    assert isinstance(counter, TokenCounter)
    assert counter is default_token_counter()
    assert counter.name == "wordpiece-bert-uncased"


def test_counts_tokens_without_cls_and_sep() -> None:
    counter = WordPieceTokenCounter()
    assert counter.count("hello world") == 2
    assert counter.count("Hello") == 1
    assert counter.count("") == 0
    assert counter.count("   \n\t ") == 0


def test_prose_count_is_plausible() -> None:
    words = len(PROSE.split())
    count = WordPieceTokenCounter().count(PROSE)
    # Punctuation and sub-words add tokens; a sane tokenizer stays well under two per word here.
    assert words < count < 2 * words


def test_long_text_is_not_truncated() -> None:
    # The embedder's tokenizer stops at 256 tokens; a budget counter must see every one.
    assert WordPieceTokenCounter().count("hello " * 1000) == 1000


def test_unknown_pieces_count_their_utf8_bytes() -> None:
    counter = WordPieceTokenCounter()
    party = "🎉"
    assert counter.count(party) == len(party.encode("utf-8")) == 4
    assert counter.count(f"party {party}") == 1 + 4
    assert counter.count(f"{party}{party}") == 8


def test_counts_add_up_across_newlines() -> None:
    counter = WordPieceTokenCounter()
    first, second = "- I went to a support group [mem:abc-1]", "### Known facts"
    assert counter.count(f"{first}\n{second}") == counter.count(first) + counter.count(second)


def test_wordpiece_is_additive_over_any_pieces_joined_at_newlines() -> None:
    # render_context trusts this (``additive``) instead of re-counting the whole block.
    counter = WordPieceTokenCounter()
    assert counter.additive
    rng = random.Random(4242)
    alphabet = (
        "abcXYZ019 .,;:!?-'\"()[]#*_/@&%$€£"  # letters, digits, punctuation
        "éÅßçñ"  # accented (stripped) and special Latin
        "\u0301\u0308"  # combining marks, which could start a piece
        "日本語中文한국"  # CJK (split per character) and Hangul
        "हिन्दी"  # Devanagari ([UNK] pieces counted by bytes)
        "🎉👍🏽"  # emoji
    )
    for _ in range(300):
        pieces = [
            "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(rng.randint(1, 8))
        ]
        assert counter.count("\n".join(pieces)) == sum(counter.count(piece) for piece in pieces), pieces


def test_counting_from_many_threads_matches_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f"{PROSE} number {i} 🎉" * (1 + i % 5) for i in range(200)]
    expected = [WordPieceTokenCounter().count(text) for text in texts]
    # Unloaded again (and the counts forgotten), so the threads also race on the lazy load.
    monkeypatch.setattr(tokens, "_wordpiece", None)
    tokens._cached_count.cache_clear()
    counter = WordPieceTokenCounter()
    with ThreadPoolExecutor(max_workers=8) as pool:
        counted = list(pool.map(counter.count, texts))
    assert counted == expected
    assert tokens._wordpiece is not None


def test_openai_counter_counts_like_tiktoken_offline() -> None:
    cl100k = OpenAITokenCounter("cl100k_base")
    assert cl100k.name == "openai-cl100k_base"
    assert cl100k.additive is False
    # Counts published for tiktoken's own encodings.
    assert cl100k.count("hello world") == 2
    assert cl100k.count("tiktoken is great!") == 6
    assert OpenAITokenCounter("o200k_base").count("tiktoken is great!") == 6
    assert cl100k.count("<|endoftext|> hi") > 1  # special-token text is counted, not refused
    assert isinstance(cl100k, TokenCounter)


def test_openai_counter_refuses_an_unknown_encoding() -> None:
    with pytest.raises(ConfigurationError, match="unknown OpenAI encoding 'nope'"):
        OpenAITokenCounter("nope")


def test_a_plain_text_counted_by_its_words_costs_what_it_costs_whole() -> None:
    """Printable ASCII is counted word by word (each word's count kept): the same as counting the text
    whole, [UNK] spans, punctuation, over-long words and the control characters that join words
    (counted whole) included."""
    rnd = random.Random(7)
    alphabet = string.printable + "é€😀\x0b\x0c\x1c\x00"
    texts = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 80))) for _ in range(3000)]
    pieces = ["the", "Caroline", "painting", "x" * 120, "don't", "(2023)", "a-b", "LGBTQ+", "\t", "\n"]
    texts += [" ".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30))) for _ in range(1000)]
    for text in texts:
        assert tokens._cached_count(text) == tokens._wordpiece_count(text), repr(text)
