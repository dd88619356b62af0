"""render_context: budgets never exceeded (property loop), priorities, line format, recall-echo round trip."""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

import agentx_memory.retrieval.context_render as context_render
from agentx_memory.models import MemoryItem, MemoryKind
from agentx_memory.retrieval.context_render import (
    HEADER,
    MAX_LINE_CHARS,
    MIN_BUDGET_TOKENS,
    RECALL_MARKER_RE,
    ContextSections,
    RenderedContext,
    is_recall_echo,
    render_context,
    short_id,
    strip_recalled,
    worth_injecting,
)
from agentx_memory.retrieval.tokens import TokenCounter, default_token_counter

pytestmark = pytest.mark.long  # 5 s or more on one worker: xdist hands it out first (tests/conftest.py)

COUNTER = default_token_counter()
MAY_8 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
TITLES = {
    "facts": "### Known facts",
    "turns": "### Relevant past conversation",
    "strategies": "### Strategies that worked",
    "goals": "### Active goals",
    "reflection": "### Latest reflection",
    "entities": "### People and things",
}
WORDS = (
    *("support", "group", "yesterday", "painting", "camping", "Caroline", "Melanie", "adoption"),
    *("counseling", "career", "the", "a", "of", "and", "to", "in", "mountains", "1,050", "C++"),
    *("2023-05-08", "🎉", "👩\u200d👩\u200d👧", "東京", "पुस्तक", "Übersetzung"),
    "Pneumonoultramicroscopicsilicovolcanoconiosis",
)


def item(kind: MemoryKind, content: str, score: float = 0.5, **extra: object) -> MemoryItem:
    return MemoryItem.model_validate(
        {"kind": kind, "id": str(uuid.uuid4()), "content": content, "score": score, "channel": "c", **extra}
    )


def sections(**given: Sequence[MemoryItem]) -> ContextSections:
    return ContextSections(
        facts=given.get("facts", ()),
        turns=given.get("turns", ()),
        strategies=given.get("strategies", ()),
        goals=given.get("goals", ()),
        entities=given.get("entities", ()),
    )


def all_items(given: ContextSections) -> list[MemoryItem]:
    found = [*given.facts, *given.turns, *given.strategies, *given.goals, *given.entities]
    return found + ([given.reflection] if given.reflection is not None else [])


def assert_well_formed(rendered: RenderedContext, given: ContextSections, counter: TokenCounter) -> None:
    """The invariants every rendering keeps, whatever the budget."""
    input_ids = {memory.id for memory in all_items(given)}
    assert rendered.tokens == counter.count(rendered.text)
    assert rendered.dropped + len(rendered.memory_ids) == len(input_ids)
    assert len(set(rendered.memory_ids)) == len(rendered.memory_ids)
    if not rendered.text:
        assert rendered.tokens == 0
        assert rendered.memory_ids == ()
        return
    lines = rendered.text.split("\n")
    assert lines[0].startswith(HEADER[:-1])
    assert RECALL_MARKER_RE.findall(rendered.text) == [
        short_id(memory_id) for memory_id in rendered.memory_ids
    ]
    for position, line in enumerate(lines[1:], start=1):
        if line.startswith("### "):
            assert line in TITLES.values()
            # A heading is never emitted without a memory line under it.
            assert position + 1 < len(lines)
            assert lines[position + 1].startswith("- ")
        else:
            match = re.fullmatch(r"- \S.* \[mem:([^\[\]\s]+)\]", line)
            assert match is not None, line
            assert match.group(1) in {short_id(memory_id) for memory_id in input_ids}


def random_text(rng: random.Random, most_words: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, most_words))]
    separators = [rng.choice([" ", " ", " ", "\n", "  \t"]) for _ in words]
    return "".join(word + separator for word, separator in zip(words, separators, strict=True))


def random_item(rng: random.Random, kind: MemoryKind, most_words: int) -> MemoryItem:
    return item(
        kind,
        random_text(rng, most_words),
        score=rng.random(),
        timestamp=MAY_8 + timedelta(hours=rng.randint(0, 5000)),
        role=rng.choice(["user", "assistant"]),
        metadata=rng.choice([{}, {"speaker": "Caroline"}]),
    )


def random_sections(rng: random.Random, pools: dict[MemoryKind, list[MemoryItem]]) -> ContextSections:
    """A random draw from ``pools``: a few memories of each kind, sometimes none, sometimes a reflection."""

    def some(kind: MemoryKind) -> list[MemoryItem]:
        return rng.sample(pools[kind], rng.randint(0, 6))

    reflection = rng.choice(pools["fact"]) if rng.random() < 0.3 else None
    return ContextSections(
        facts=some("fact"),
        turns=some("episodic"),
        strategies=some("strategy"),
        goals=some("goal"),
        entities=some("entity"),
        reflection=reflection,
    )


def random_pools(rng: random.Random, most_words: int) -> dict[MemoryKind, list[MemoryItem]]:
    kinds: tuple[MemoryKind, ...] = ("fact", "episodic", "strategy", "goal", "entity")
    return {kind: [random_item(rng, kind, most_words) for _ in range(20)] for kind in kinds}


class MemoCounter:
    """The real counter with a cache, so a loop over thousands of budgets re-counts each line once."""

    def __init__(self, inner: TokenCounter) -> None:
        self._inner = inner
        self._counts: dict[str, int] = {}

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def additive(self) -> bool:
        return self._inner.additive

    def count(self, text: str) -> int:
        if text not in self._counts:
            self._counts[text] = self._inner.count(text)
        return self._counts[text]


class WordCounter:
    """One token per whitespace-separated word: additive, so line estimates are exact."""

    @property
    def name(self) -> str:
        return "word-test-counter"

    @property
    def additive(self) -> bool:
        return True

    def count(self, text: str) -> int:
        return len(text.split())


class LinesCostExtraCounter:
    """Words plus a charge that grows with the number of lines: joining lines costs more than their sum."""

    @property
    def name(self) -> str:
        return "superadditive-test-counter"

    @property
    def additive(self) -> bool:
        return False

    def count(self, text: str) -> int:
        return len(text.split()) + text.count("\n") ** 2 // 4


def test_public_api_is_exactly_all() -> None:
    assert sorted(context_render.__all__) == [
        "ContextSections",
        "HEADER",
        "MAX_LINE_CHARS",
        "MIN_BUDGET_TOKENS",
        "RECALL_MARKER_RE",
        "RenderedContext",
        "STALE_MARK",
        "at_present",
        "is_recall_echo",
        "nearby_facts",
        "profile_line",
        "render_context",
        "short_id",
        "strip_recalled",
        "worth_injecting",
    ]


def test_budget_is_never_exceeded_for_any_budget_up_to_2000() -> None:
    rng = random.Random(20250517)
    pools = random_pools(rng, most_words=40)
    counter = MemoCounter(COUNTER)
    rendered_some = 0
    for budget in range(2001):
        given = random_sections(rng, pools)
        rendered = render_context(given, budget, counter, now=MAY_8 if budget % 2 else None)
        assert counter.count(rendered.text) <= budget
        assert_well_formed(rendered, given, counter)
        rendered_some += bool(rendered.text)
    # The loop must exercise real renderings, not only empty ones.
    assert rendered_some > 1500


def test_budget_is_never_exceeded_with_long_memories() -> None:
    rng = random.Random(99)
    pools = random_pools(rng, most_words=150)
    for budget in range(0, 2001, 23):
        given = random_sections(rng, pools)
        rendered = render_context(given, budget, COUNTER)
        assert COUNTER.count(rendered.text) <= budget
        assert_well_formed(rendered, given, COUNTER)


def test_budget_holds_when_joining_costs_more_than_the_lines() -> None:
    rng = random.Random(7)
    pools = random_pools(rng, most_words=40)
    counter = LinesCostExtraCounter()
    for budget in range(0, 600, 3):
        given = random_sections(rng, pools)
        rendered = render_context(given, budget, counter)
        assert counter.count(rendered.text) <= budget
        assert_well_formed(rendered, given, counter)


def test_the_final_count_drops_what_the_line_estimates_let_in() -> None:
    facts = [item("fact", f"short fact {n}", score=1 - n / 100) for n in range(40)]
    # Each line costs the same to both counters; only the joined text costs more to the second.
    by_lines = render_context(sections(facts=facts), 120, WordCounter())
    joined = render_context(sections(facts=facts), 120, LinesCostExtraCounter())
    assert LinesCostExtraCounter().count(joined.text) <= 120
    assert 0 < len(joined.memory_ids) < len(by_lines.memory_ids)
    assert joined.memory_ids == by_lines.memory_ids[: len(joined.memory_ids)]


def test_no_memories_give_an_empty_text() -> None:
    rendered = render_context(sections(), 1500, COUNTER)
    assert rendered == RenderedContext(text="", tokens=0, memory_ids=(), dropped=0)


def test_a_budget_too_small_for_header_and_one_line_gives_an_empty_text() -> None:
    fact = item("fact", "The user is allergic to peanuts")
    assert render_context(sections(facts=[fact]), 10, COUNTER) == RenderedContext("", 0, (), 1)
    assert render_context(sections(facts=[fact]), -5, COUNTER) == RenderedContext("", 0, (), 1)


def test_min_budget_fits_a_maximum_length_english_line() -> None:
    text = " ".join(["the user prefers dark roast coffee and hikes in the mountains"] * 20)
    fact = item("fact", text)
    rendered = render_context(sections(facts=[fact]), MIN_BUDGET_TOKENS, COUNTER, now=MAY_8)
    assert rendered.memory_ids == (fact.id,)
    assert rendered.tokens <= MIN_BUDGET_TOKENS


def exact_budget(given: ContextSections) -> int:
    """The tokens ``given`` costs rendered whole: a budget that fits exactly that."""
    rendered = render_context(given, 100_000, COUNTER)
    assert rendered.dropped == 0
    return rendered.tokens


def test_a_fact_survives_a_tight_budget_over_better_scored_turns() -> None:
    fact = item("fact", "The user is allergic to peanuts", score=0.1)
    turns = [item("episodic", f"We talked about trip {n}", score=0.9, role="user") for n in range(5)]
    rendered = render_context(
        sections(facts=[fact], turns=turns), exact_budget(sections(facts=[fact])), COUNTER
    )
    assert rendered.memory_ids == (fact.id,)
    assert rendered.dropped == 5


def test_goals_come_before_turns_strategies_and_entities() -> None:
    fact = item("fact", "The user lives in Lyon", score=0.1)
    goal = item("goal", "Book the flights to Japan", score=0.1)
    others = {
        "turns": [item("episodic", "Let us plan the trip", score=0.9, role="user")],
        "strategies": [item("strategy", "Search flights first", score=0.9)],
        "entities": [item("entity", "Maya (person): the user's sister", score=0.9)],
    }
    budget = exact_budget(sections(facts=[fact], goals=[goal]))
    rendered = render_context(sections(facts=[fact], goals=[goal], **others), budget, COUNTER)
    assert set(rendered.memory_ids) == {fact.id, goal.id}


def test_a_large_section_cannot_starve_the_others() -> None:
    facts = [item("fact", f"Fact number {n} about the user's life and work", score=0.9) for n in range(60)]
    turns = [item("episodic", f"Turn {n} of the chat", score=0.2, role="user") for n in range(5)]
    rendered = render_context(sections(facts=facts, turns=turns), 1000, COUNTER)
    assert {turn.id for turn in turns} <= set(rendered.memory_ids)
    # The rest of the budget is filled by score, so the better-scored facts take it.
    assert sum(memory.id in rendered.memory_ids for memory in facts) > 5
    assert rendered.tokens <= 1000


def test_every_non_empty_section_gets_a_line_when_the_budget_allows() -> None:
    given = ContextSections(
        facts=[item("fact", f"Fact {n} " + "detail " * 30, score=0.99) for n in range(30)],
        turns=[item("episodic", "A turn", score=0.01, role="user")],
        strategies=[item("strategy", "A strategy", score=0.01)],
        goals=[item("goal", "A goal", score=0.01)],
        entities=[item("entity", "An entity", score=0.01)],
        reflection=item("fact", "A reflection", score=0.01),
    )
    rendered = render_context(given, 600, COUNTER)
    for title in TITLES.values():
        assert title in rendered.text
    assert_well_formed(rendered, given, COUNTER)


def test_higher_scores_win_within_a_section_and_are_shown_first() -> None:
    low, mid, high = (item("fact", f"Fact scored {s}", score=s) for s in (0.2, 0.5, 0.8))
    budget = exact_budget(sections(facts=[mid, high]))
    rendered = render_context(sections(facts=[low, mid, high]), budget, COUNTER)
    assert rendered.memory_ids == (high.id, mid.id)


def test_nan_scores_rank_last() -> None:
    bad = item("fact", "Fact with a broken score", score=float("nan"))
    good = item("fact", "Fact with a good score", score=0.1)
    rendered = render_context(sections(facts=[bad, good]), exact_budget(sections(facts=[good])), COUNTER)
    assert rendered.memory_ids == (good.id,)


def test_sections_appear_in_display_order() -> None:
    given = ContextSections(
        facts=[item("fact", "fact")],
        turns=[item("episodic", "turn", role="user")],
        strategies=[item("strategy", "strategy")],
        goals=[item("goal", "goal")],
        entities=[item("entity", "entity")],
        reflection=item("fact", "reflection"),
    )
    rendered = render_context(given, 2000, COUNTER)
    headings = [line for line in rendered.text.split("\n") if line.startswith("#")]
    assert headings == [HEADER, *TITLES.values()]
    assert given.reflection is not None
    assert rendered.memory_ids == (
        given.facts[0].id,
        given.turns[0].id,
        given.strategies[0].id,
        given.goals[0].id,
        given.reflection.id,
        given.entities[0].id,
    )


def test_turns_show_date_and_speaker_in_time_order() -> None:
    later = item(
        "episodic",
        "I'm going camping next month",
        score=0.9,
        role="user",
        timestamp=MAY_8 + timedelta(days=20),
    )
    earlier = item(
        "episodic",
        "I went to a LGBTQ support group yesterday",
        score=0.1,
        role="user",
        timestamp=MAY_8,
        metadata={"speaker": "Caroline"},
    )
    rendered = render_context(sections(turns=[later, earlier]), 1000, COUNTER)
    assert rendered.text.split("\n")[2:] == [
        f"- 2023-05-08 Caroline: I went to a LGBTQ support group yesterday [mem:{short_id(earlier.id)}]",
        f"- 2023-05-28 user: I'm going camping next month [mem:{short_id(later.id)}]",
    ]


def test_a_turn_without_date_or_speaker_is_just_its_text() -> None:
    turn = item("episodic", "Something was said", metadata={"speaker": "  "})
    rendered = render_context(sections(turns=[turn]), 1000, COUNTER)
    assert rendered.text.split("\n")[-1] == f"- Something was said [mem:{short_id(turn.id)}]"


def test_facts_show_no_date_or_speaker() -> None:
    fact = item("fact", "Caroline is a counselor", timestamp=MAY_8, metadata={"speaker": "Melanie"})
    rendered = render_context(sections(facts=[fact]), 1000, COUNTER)
    assert rendered.text.split("\n")[-1] == f"- Caroline is a counselor [mem:{short_id(fact.id)}]"


def test_now_dates_the_header() -> None:
    fact = item("fact", "Caroline is a counselor")
    rendered = render_context(
        sections(facts=[fact]), 1000, COUNTER, now=datetime(2026, 1, 3, 15, 30, tzinfo=UTC)
    )
    assert rendered.text.split("\n")[0] == (
        "## Memory (agentx-memory; recalled, not said in this conversation; as of 2026-01-03)"
    )


def memory_text(line: str) -> str:
    """The text of one rendered memory line, without the bullet and the tag."""
    match = re.fullmatch(r"- (.*) \[mem:[^\]]+\]", line)
    assert match is not None
    return match.group(1)


def test_long_contents_are_cut_on_a_word_boundary_with_an_ellipsis() -> None:
    fact = item("fact", "The user enjoys long walks along the river " * 40)
    rendered = render_context(sections(facts=[fact]), 2000, COUNTER)
    text = memory_text(rendered.text.split("\n")[-1])
    assert len(text) <= MAX_LINE_CHARS
    assert len(text) > MAX_LINE_CHARS * 3 // 4
    assert text.endswith("…")
    assert not text.endswith(" …")
    assert fact.content.startswith(text[:-1])


def test_a_very_long_single_word_is_cut_where_it_stands() -> None:
    fact = item("fact", "x" * 5000)
    rendered = render_context(sections(facts=[fact]), 2000, COUNTER)
    assert memory_text(rendered.text.split("\n")[-1]) == "x" * (MAX_LINE_CHARS - 1) + "…"
    assert COUNTER.count(rendered.text) <= 2000


def test_line_breaks_of_every_kind_are_collapsed_into_one_line() -> None:
    fact = item("fact", "first\n\nsecond\r\nthird\u2028fourth\x1cfifth\tsixth   seventh")
    rendered = render_context(sections(facts=[fact]), 1000, COUNTER)
    assert (
        rendered.text.splitlines()[-1]
        == f"- first second third fourth fifth sixth seventh [mem:{short_id(fact.id)}]"
    )
    assert len(rendered.text.splitlines()) == 3


def test_unicode_and_emoji_survive_and_stay_within_budget() -> None:
    content = "Loved Tokyo 🎉 東京 with Maya 👩‍👩‍👧 — Übersetzung पुस्तक"
    fact = item("fact", content)
    rendered = render_context(sections(facts=[fact]), 1000, COUNTER)
    assert memory_text(rendered.text.split("\n")[-1]) == content
    budget = rendered.tokens
    assert render_context(sections(facts=[fact]), budget, COUNTER).memory_ids == (fact.id,)
    assert render_context(sections(facts=[fact]), budget - 1, COUNTER).text == ""


def test_tags_inside_contents_are_removed_so_each_line_has_one() -> None:
    fact = item("fact", "I said [mem:old-id] this before [mem:other]")
    rendered = render_context(sections(facts=[fact]), 1000, COUNTER)
    assert RECALL_MARKER_RE.findall(rendered.text) == [short_id(fact.id)]
    assert memory_text(rendered.text.split("\n")[-1]) == "I said this before"


def test_a_memory_given_twice_is_rendered_once_in_its_most_important_section() -> None:
    fact = item("fact", "Maya lives in Osaka")
    rendered = render_context(sections(facts=[fact], entities=[fact]), 1000, COUNTER)
    assert rendered.memory_ids == (fact.id,)
    assert TITLES["entities"] not in rendered.text
    assert rendered.dropped == 0


def test_blank_contents_and_untaggable_ids_are_dropped() -> None:
    blank = item("fact", " \n\t ")
    spaced = item("fact", "An id with a space", id="not taggable")
    bracketed = item("fact", "An id with a bracket", id="x]y")
    good = item("fact", "A normal fact")
    rendered = render_context(sections(facts=[blank, spaced, bracketed, good]), 1000, COUNTER)
    assert rendered.memory_ids == (good.id,)
    assert rendered.dropped == 3


def test_strip_recalled_removes_an_injected_block_and_keeps_the_rest() -> None:
    given = ContextSections(
        facts=[item("fact", "Caroline is a counselor")],
        turns=[item("episodic", "I went to a support group", role="user", timestamp=MAY_8)],
        strategies=[],
        goals=[item("goal", "Adopt a child")],
        reflection=item("fact", "The user values community"),
    )
    block = render_context(given, 1000, COUNTER, now=MAY_8).text
    assert strip_recalled(block) == ""
    prompt = f"You are a helpful assistant.\n{block}\nAnswer briefly.\n"
    assert strip_recalled(prompt) == "You are a helpful assistant.\nAnswer briefly.\n"
    assert is_recall_echo(prompt)
    assert not is_recall_echo(strip_recalled(prompt))


def test_strip_recalled_removes_stray_tags_and_tagged_lines_only() -> None:
    reply = "As you told me [mem:abc-123], you like tea.\n- You like tea [mem:abc-123]\nAnything else?"
    assert strip_recalled(reply) == "As you told me, you like tea.\nAnything else?"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Plain text\r\nwith CRLF\r\n",
        "### Known facts\n- a list item without a tag\n",
        "Brackets [mem: spaced] and [memo:x] are not tags",
        "## Memory is a heading of mine\n",
    ],
)
def test_strip_recalled_leaves_untagged_text_unchanged(text: str) -> None:
    assert strip_recalled(text) == text
    assert not is_recall_echo(text)


def test_recall_marker_captures_the_id() -> None:
    match = RECALL_MARKER_RE.search("- fact [mem:4aa88ce9-8420-41f4-969a-934b3a1b2c3d]")
    assert match is not None
    assert match.group(1) == "4aa88ce9-8420-41f4-969a-934b3a1b2c3d"
    assert is_recall_echo("see [mem:x]")


def test_profile_line_puts_the_user_first() -> None:
    line = context_render.profile_line({"name": "Dana", "lives_in": "Toronto", "ui": {"x": 1}}, ["Spanish"])
    assert line == "About the user: name Dana; lives in Toronto; expertise Spanish"
    assert context_render.profile_line({}, []) is None
    item = MemoryItem(kind="fact", id="f1", content="Dana is vegan", score=0.9, channel="_global")
    rendered = render_context(ContextSections(facts=[item], turns=[], strategies=[], goals=[]), 200, COUNTER,
                              profile=line)  # fmt: skip
    assert rendered.text.splitlines()[1] == line


def test_worth_injecting_keeps_the_best_within_the_floor_and_the_cap() -> None:
    items = [item("episodic", str(n), score) for n, score in enumerate((0.9, 0.6, 0.5, 0.2, 0.1))]
    assert [i.content for i in worth_injecting(items, 0.0, 25)] == ["0", "1", "2", "3", "4"]
    assert [i.content for i in worth_injecting(items, 0.5, 25)] == ["0", "1", "2"]  # >= 0.45
    assert [i.content for i in worth_injecting(items, 0.5, 2)] == ["0", "1"]
    assert [i.content for i in worth_injecting(items, 1.0, 25)] == ["0"]
    assert worth_injecting([], 0.5, 3) == []
    zero = [item("goal", "z", 0.0)]
    assert worth_injecting(zero, 0.5, 3) == zero  # goals offered unrecalled score 0: never floored away
