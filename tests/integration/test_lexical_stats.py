"""BM25's term statistics kept by the ledger's write triggers: after every kind of write they equal a
recount from ``conversation_logs``, concurrent writers of one user neither deadlock nor lose a count,
and each user's statistics are their own."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql
from rank_bm25 import BM25Okapi

from agentx_memory import AgentMemory, AsyncAgentMemory, Settings
from agentx_memory.memory.lexical import LexemeStats, plan_lexical_query, tsquery_any
from agentx_memory.models import Scope

Stats = tuple[dict[tuple[str, str, str], int], dict[tuple[str, str], tuple[int, int]]]


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Without the previous turn in each full-text entry (retrieval.turn_context), so the counts below
    are each turn's own words; ``test_turn_context_keeps_exact_counts`` covers it switched on."""
    return settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"turn_context": False})}
    )


@pytest.fixture
def conn(settings: Settings, memory: AgentMemory) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    """A plain connection to the test's schema (after the facade migrated it)."""
    with psycopg.connect(settings.postgres.url or "", autocommit=True) as connection:
        connection.execute(
            sql.SQL("SET search_path TO {}, public").format(sql.Identifier(settings.postgres.schema_name))
        )
        yield connection


def maintained(conn: psycopg.Connection[tuple[object, ...]]) -> Stats:
    df = conn.execute("SELECT user_id, channel, lexeme, df FROM lexical_df").fetchall()
    corpus = conn.execute("SELECT user_id, channel, n, total_len FROM lexical_corpus").fetchall()
    return (
        {(str(u), str(c), str(lexeme)): int(str(d)) for u, c, lexeme, d in df},
        {(str(u), str(c)): (int(str(n)), int(str(total))) for u, c, n, total in corpus},
    )


def recounted(conn: psycopg.Connection[tuple[object, ...]]) -> Stats:
    df = conn.execute(
        "SELECT l.user_id, l.channel, t.lexeme, count(*) FROM conversation_logs l"
        " CROSS JOIN LATERAL unnest(tsvector_to_array(l.search_tsv)) AS t(lexeme) GROUP BY 1, 2, 3"
    ).fetchall()
    corpus = conn.execute(
        "SELECT user_id, channel, count(*), sum(search_len) FROM conversation_logs GROUP BY 1, 2"
    ).fetchall()
    return (
        {(str(u), str(c), str(lexeme)): int(str(d)) for u, c, lexeme, d in df},
        {(str(u), str(c)): (int(str(n)), int(str(total))) for u, c, n, total in corpus},
    )


def assert_exact(conn: psycopg.Connection[tuple[object, ...]]) -> Stats:
    stats = maintained(conn)
    assert stats == recounted(conn)
    return stats


def fired(conn: psycopg.Connection[tuple[object, ...]], statement: str, turn_id: str) -> list[str]:
    """The triggers that ``statement`` ran (it is executed, under EXPLAIN ANALYZE)."""
    plan = conn.execute(f"EXPLAIN (ANALYZE, COSTS OFF) {statement}", (turn_id,)).fetchall()
    return [
        str(line).split(":")[0].removeprefix("Trigger ")
        for (line,) in plan
        if str(line).startswith("Trigger ")
    ]


def lexemes_of(stats: Stats, user_id: str) -> set[str]:
    return {lexeme for (user, _channel, lexeme) in stats[0] if user == user_id}


def test_store_turns_keep_exact_counts(
    memory: AgentMemory, conn: psycopg.Connection[tuple[object, ...]]
) -> None:
    assert maintained(conn) == ({}, {})
    cid = memory.new_conversation()
    memory.store_turn(cid, "user", "The lighthouse keeper painted the lighthouse red")
    memory.store_turn(cid, "assistant", "A red lighthouse sounds lovely")
    said = memory.store_turn(cid, "user", "Melanie said the keeper retired", metadata={"speaker": "Caroline"})
    # an idempotent retry inserts nothing, so it counts nothing
    again = memory.store_turn(
        cid, "user", "Melanie said the keeper retired", turn_index=2, metadata={"speaker": "Caroline"}
    )
    assert again.id == said.id
    project = memory.for_user("alice", "garden")
    garden = project.new_conversation()
    project.store_turn(garden, "user", "Tomatoes need a red stake")

    df, corpus = assert_exact(conn)
    assert df[("alice", "_global", "lighthous")] == 2  # a document frequency, not a term count
    assert df[("alice", "_global", "keeper")] == 2
    assert df[("alice", "_global", "carolin")] == 1  # the speaker's name is searchable text
    assert df[("alice", "garden", "red")] == 1
    assert corpus[("alice", "_global")][0] == 3
    assert corpus[("alice", "garden")][0] == 1


def test_edits_moves_cascades_and_truncate_keep_exact_counts(
    memory: AgentMemory, conn: psycopg.Connection[tuple[object, ...]]
) -> None:
    cid = memory.new_conversation()
    first = memory.store_turn(cid, "user", "Our kayak trip to the fjord was cold")
    memory.store_turn(cid, "user", "The fjord ferry was late")
    assert_exact(conn)

    # an update of a column the trigger does not list, and one that leaves the text as it was, never run
    # the row trigger; an edit does
    assert fired(conn, "UPDATE conversation_logs SET token_count = 7 WHERE id = %s", first.id) == []
    assert fired(conn, "UPDATE conversation_logs SET content = content WHERE id = %s", first.id) == []
    edit = "UPDATE conversation_logs SET content = 'Our canoe trip to the lake' WHERE id = %s"
    assert fired(conn, edit, first.id) == ["conversation_logs_lexical_update"]
    df, _ = assert_exact(conn)
    assert ("alice", "_global", "kayak") not in df  # a count at 0 is deleted
    assert df[("alice", "_global", "fjord")] == 1
    conn.execute("UPDATE conversation_logs SET channel = 'travel' WHERE id = %s", (first.id,))
    assert_exact(conn)
    conn.execute("UPDATE conversation_logs SET user_id = 'bob' WHERE id = %s", (first.id,))
    df, corpus = assert_exact(conn)
    assert df[("bob", "travel", "cano")] == 1
    assert ("alice", "travel") not in corpus

    conn.execute("DELETE FROM conversations WHERE id = %s", (cid,))  # ON DELETE CASCADE to its turns
    assert assert_exact(conn) == ({}, {})

    other = memory.new_conversation()
    memory.store_turn(other, "user", "Back from the fjord")
    conn.execute("TRUNCATE conversation_logs")
    assert assert_exact(conn) == ({}, {})


def test_forgetting_keeps_exact_counts(
    memory: AgentMemory, conn: psycopg.Connection[tuple[object, ...]]
) -> None:
    bob = memory.for_user("bob")
    kept = memory.new_conversation()
    memory.store_turn(kept, "user", "Saturday is pottery class")
    gone = memory.new_conversation()
    memory.store_turn(gone, "user", "My pottery wheel broke, and the wheel is expensive")
    memory.store_turn(gone, "assistant", "A new wheel it is")
    bob_cid = bob.new_conversation()
    bob.store_turn(bob_cid, "user", "I bought a pottery wheel")
    assert_exact(conn)

    memory.forget_conversation(gone)
    df, _ = assert_exact(conn)
    assert ("alice", "_global", "wheel") not in df
    assert df[("alice", "_global", "potteri")] == 1
    assert df[("bob", "_global", "wheel")] == 1

    memory.forget_user()
    df, corpus = assert_exact(conn)
    assert lexemes_of((df, corpus), "alice") == set()
    assert set(corpus) == {("bob", "_global")}


async def test_concurrent_writers_of_one_user_keep_exact_counts(
    amemory: AsyncAgentMemory, settings: Settings
) -> None:
    project = await amemory.for_user("alice", "project")
    doomed = await amemory.new_conversation()
    for n in range(4):
        await amemory.store_turn(doomed, "user", f"the shared budget spreadsheet, draft {n}")

    async def writer(worker: int) -> None:
        facade = amemory if worker % 2 else project
        cid = await facade.new_conversation()
        for n in range(6):
            # every writer hits the same common lexemes (and so the same rows), plus its own
            await facade.store_turn(
                cid, "user", f"the shared budget meeting {n} about topic{worker} and item{n}"
            )

    # 8 writers of one user, in two channels, and a forget of a conversation with the same words
    await asyncio.wait_for(
        asyncio.gather(*(writer(w) for w in range(8)), amemory.forget_conversation(doomed)), 120
    )

    with psycopg.connect(settings.postgres.url or "", autocommit=True) as conn:
        conn.execute(
            sql.SQL("SET search_path TO {}, public").format(sql.Identifier(settings.postgres.schema_name))
        )
        df, corpus = assert_exact(conn)
    assert {key: n for key, (n, _total) in corpus.items()} == {
        ("alice", "_global"): 24,
        ("alice", "project"): 24,
    }
    assert df[("alice", "_global", "budget")] == 24
    assert ("alice", "_global", "spreadsheet") not in df


async def test_each_user_has_own_statistics_and_bm25_puts_the_rare_word_first(
    amemory: AsyncAgentMemory, settings: Settings
) -> None:
    bob = await amemory.for_user("bob")
    bob_cid = await bob.new_conversation()
    for n in range(5):
        await bob.store_turn(bob_cid, "user", f"Xylophone lesson number {n} with the xylophone teacher")
    cid = await amemory.new_conversation()
    filler = [
        "We talked about the garden",
        "The garden needs water",
        "I watered the roses today",
        "My bicycle has a flat tyre",
        "The bicycle shop opens at nine",
        "Lunch was a cheese sandwich",
        "The meeting moved to Tuesday",
        "My sister called last night",
        "It rained all afternoon",
    ]
    for content in filler:
        await amemory.store_turn(cid, "user", content)
    rare = await amemory.store_turn(cid, "user", "The xylophone in the garden is out of tune")

    episodic = (await amemory._open_backends()).episodic
    alice, bob_scope = Scope(user_id="alice", channel="_global"), Scope(user_id="bob", channel="_global")
    hits = await episodic.lexical_search(alice, "the xylophone garden", channels=["_global"], limit=10)
    # the turn with the rare word (and "garden") first, then the two with "garden" alone; bob's five
    # xylophone turns neither appear nor make the word common for alice
    assert hits[0][0].id == rare.id
    assert len(hits) == 3
    assert {turn.id for turn, _ in hits} <= {turn.id for turn in await amemory.get_conversation(cid)}
    scores = [score for _, score in hits]
    assert scores[0] > 2 * scores[1]

    # bob's five xylophone turns make it common for bob, not for alice: alice's document frequency is 1
    with psycopg.connect(settings.postgres.url or "", autocommit=True) as conn:
        conn.execute(
            sql.SQL("SET search_path TO {}, public").format(sql.Identifier(settings.postgres.schema_name))
        )
        df, corpus = maintained(conn)
    assert (df[("alice", "_global", "xylophon")], corpus[("alice", "_global")][0]) == (1, 10)
    assert (df[("bob", "_global", "xylophon")], corpus[("bob", "_global")][0]) == (5, 5)
    assert await episodic.lexical_search(bob_scope, "garden", channels=["_global"], limit=10) == []


async def test_given_the_question_vector_the_hits_carry_the_cosines_the_vector_search_reads(
    amemory: AsyncAgentMemory,
) -> None:
    """Recall hands the full-text search the question's vector when it has it already: the hits and their
    order stay those of the search without it, and each hit's cosine is the one the vector search reads
    for it (so recall needs no statement of its own for them)."""
    cid = await amemory.new_conversation()
    for content in ["We talked about the garden", "The garden needs water", "My bicycle has a flat tyre"]:
        await amemory.store_turn(cid, "user", content)
    backends = await amemory._open_backends()
    alice = Scope(user_id="alice", channel="_global")
    vector = await backends.embed_query("water for the garden")
    cosines: dict[str, float] = {}
    hits = await backends.episodic.lexical_search(
        alice, "water for the garden", channels=["_global"], limit=10, vector=vector, cosines=cosines
    )
    assert hits == await backends.episodic.lexical_search(
        alice, "water for the garden", channels=["_global"], limit=10
    )
    assert len(hits) == 2
    _, scored = await backends.episodic.recall_by_vector(
        alice, vector, channels=["_global"], limit=0, also=[turn.id for turn, _ in hits]
    )
    assert cosines == {turn.id: cosine for turn, cosine in scored}


class _LuceneBM25(BM25Okapi):  # type: ignore[misc]  # rank_bm25 ships no type hints
    """rank-bm25's Okapi BM25 with the Lucene IDF the ledger uses (``memory.lexical.bm25_idf``)."""

    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = math.log(1.0 + (self.corpus_size - freq + 0.5) / (freq + 0.5))


def test_bm25_scores_equal_rank_bm25_on_the_ledger_lexemes(
    memory: AgentMemory, conn: psycopg.Connection[tuple[object, ...]]
) -> None:
    # Term frequencies 1-4 (recovered in SQL by inverting ts_rank), documents of different lengths.
    texts = [
        "apple apple apple apple pie recipe",
        "banana bread with a banana",
        "cherry tomatoes in the garden",
        "apple and banana smoothie",
        "the weather was grey all week",
        "a long walk by the river with friends and dogs",
        "cherry cherry blossom season in spring",
        "my bicycle needs a new chain",
        "the train to the city was late again",
        "we cooked soup for dinner",
        "reading a novel about sailing ships",
        "the cat slept on the sofa all afternoon",
    ]
    cid = memory.new_conversation()
    for text in texts:
        memory.store_turn(cid, "user", text)
    rows = conn.execute(
        "SELECT l.id::text, t.lexeme, array_length(t.positions, 1) FROM conversation_logs l"
        " CROSS JOIN LATERAL unnest(l.search_tsv) AS t(lexeme, positions, weights)"
    ).fetchall()
    documents: dict[str, list[str]] = {}
    for turn_id, lexeme, count in rows:
        documents.setdefault(str(turn_id), []).extend([str(lexeme)] * int(str(count)))
    ids = sorted(documents)
    index = _LuceneBM25([documents[turn_id] for turn_id in ids], k1=1.2, b=0.75)
    # The ledger's document length is the number of distinct lexemes (length(tsvector)).
    index.doc_len = [len(set(documents[turn_id])) for turn_id in ids]
    index.avgdl = sum(index.doc_len) / len(ids)
    query = "apple banana cherry"
    [(lexemes,)] = conn.execute("SELECT tsvector_to_array(to_tsvector('english', %s))", (query,)).fetchall()
    assert isinstance(lexemes, list)
    expected = dict(zip(ids, index.get_scores([str(lexeme) for lexeme in lexemes]), strict=True))

    episodic = memory._open_backends().episodic
    hits = episodic.lexical_search(memory.scope, query, channels=["_global"], limit=20, k1=1.2, b=0.75)
    assert {turn.id for turn, _ in hits} == {turn_id for turn_id, score in expected.items() if score > 0}
    assert len(hits) == 5
    for turn, score in hits:
        assert score == pytest.approx(expected[turn.id], rel=1e-9)


def test_the_statement_probes_as_plan_lexical_query_does(
    memory: AgentMemory, conn: psycopg.Connection[tuple[object, ...]]
) -> None:
    """The statement chooses its probe in SQL; ``plan_lexical_query`` is the reference: the candidates
    are the turns holding one of the lexemes it picks (a common one scores but does not probe; when
    every lexeme is common, the rarest two probe)."""
    cid = memory.new_conversation()
    for n in range(10):
        words = ["note"] + ["garden"] * (n < 4) + ["xylophone"] * (n == 4) + ["bicycle"] * (n in (5, 6))
        memory.store_turn(cid, "user", f"{' '.join(words)} {n}")
    df, corpus = maintained(conn)
    turns, total = corpus[("alice", "_global")]
    episodic = memory._open_backends().episodic
    cases = [
        ("note garden xylophone bicycle", 0.3),
        ("note garden", 0.3),
        ("note garden", 0.5),
        ("harp", 0.3),
    ]
    for query, ratio in cases:
        [(lexemes,)] = conn.execute(
            "SELECT tsvector_to_array(to_tsvector('english', %s))", (query,)
        ).fetchall()
        assert isinstance(lexemes, list)
        stats = [
            LexemeStats(str(lexeme), df.get(("alice", "_global", str(lexeme)), 0), turns, total / turns)
            for lexeme in lexemes
        ]
        _, _, probe = plan_lexical_query(stats, ratio)
        matching = "SELECT id::text FROM conversation_logs WHERE search_tsv @@ %s::tsquery"
        expected = {str(row[0]) for row in conn.execute(matching, (tsquery_any(probe),))} if probe else set()
        hits = episodic.lexical_search(
            memory.scope, query, channels=["_global"], limit=50, max_df_ratio=ratio
        )
        assert {turn.id for turn, _ in hits} == expected, (query, ratio, probe)
    assert len(expected) == 0  # "harp": no lexeme anybody used, no candidate


def test_turn_context_keeps_exact_counts(
    settings: Settings, conn: psycopg.Connection[tuple[object, ...]]
) -> None:
    on = settings.model_copy(
        update={"retrieval": settings.retrieval.model_copy(update={"turn_context": True})}
    )
    with AgentMemory(user_id="carol", settings=on) as memory:
        cid = memory.new_conversation()
        asked = memory.store_turn(cid, "user", "Did the lighthouse keeper retire?")
        memory.store_turn(cid, "assistant", "Yes, last spring")
        df, _ = assert_exact(conn)
        # The answer's entry holds the question, in a field the statistics do not count (migration 012).
        assert df[("carol", "_global", "lighthous")] == 1
        answer_context = conn.execute(
            "SELECT context_tsv @@ to_tsquery('english', 'lighthouse') FROM conversation_logs"
            " WHERE user_id = 'carol' AND turn_index = 1"
        ).fetchone()
        assert answer_context == (True,)
        memory.forget_turn(asked.id)
        df, _ = assert_exact(conn)
        assert ("carol", "_global", "lighthous") not in df
        gone = conn.execute(
            "SELECT context_text, context_tsv @@ to_tsquery('english', 'lighthouse') FROM conversation_logs"
            " WHERE user_id = 'carol'"
        ).fetchall()
        assert gone == [(None, False)]
