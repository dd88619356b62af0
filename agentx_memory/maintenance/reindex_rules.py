"""What ``agentx-memory reindex`` decides without I/O: whether there is anything to do, which ledger
columns it knows how to re-embed (and the text each row embeds), where a column's work stands, and the
report it gives back.

The I/O lives in ``reindex_async.py`` (the run), ``reindex_ledger_async.py`` (Postgres) and
``reindex_graph_async.py`` (the graph).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Final, Protocol

from ..embedding.base import Embedder, check_dimensions
from ..errors import ConfigurationError, StoreError
from ..memory.episodic_pure import turn_search_text

__all__ = [
    "LEDGER_VECTORS",
    "ColumnProgress",
    "LedgerVectors",
    "QuietProgress",
    "ReindexProgress",
    "ReindexReport",
    "VectorShape",
    "check_target",
    "claimed_target",
    "embed_checked",
    "idempotent_index_ddl",
    "ledger_vectors",
    "locked_shape",
    "progress_key",
    "vector_literal",
]

#: Metadata keys of a reindex under way: its target, and one progress entry per ledger column.
TARGET_MODEL: Final = "reindex_model"
TARGET_DIMENSIONS: Final = "reindex_dimensions"
_COLUMN_PREFIX: Final = "reindex_column:"


@dataclass(frozen=True)
class VectorShape:
    """What vectors a store holds or an embedder makes: the model id and the dimension."""

    model: str
    dimensions: int

    def describe(self) -> str:
        return f"{self.model!r} ({self.dimensions} dimensions)"


def locked_shape(metadata: Mapping[str, str]) -> VectorShape | None:
    """The embedding lock a store's metadata holds; ``None`` before its first write locked one."""
    model, dimensions = metadata.get("embedding_model"), metadata.get("embedding_dimensions")
    if model is None or dimensions is None:
        return None
    return VectorShape(model, int(dimensions))


def claimed_target(metadata: Mapping[str, str]) -> VectorShape | None:
    """The target of a reindex started and not finished, if any."""
    model, dimensions = metadata.get(TARGET_MODEL), metadata.get(TARGET_DIMENSIONS)
    if model is None or dimensions is None:
        return None
    return VectorShape(model, int(dimensions))


def check_target(claimed: VectorShape, wanted: VectorShape) -> None:
    """Refuse to start a reindex to ``wanted`` over an unfinished one to ``claimed``: the store would
    end up with vectors of three models."""
    if claimed != wanted:
        raise ConfigurationError(
            f"a reindex to {claimed.describe()} was started and not finished, but the configured embedder "
            f"is {wanted.describe()}. Configure the embedder of model {claimed.model!r} with "
            f"{claimed.dimensions} dimensions again and run `agentx-memory reindex` to finish it; then "
            "reindex to the new one."
        )


@dataclass(frozen=True)
class LedgerVectors:
    """A ledger table's vector column that reindex knows: the statements ``reindex_{count,rows,write}
    _<table>`` (``stores/sql/reindex.sql``), its primary key (the order and the watermark), a key
    below every row, and the text a row's vector embeds, exactly as the write path embeds it."""

    table: str
    column: str
    key: tuple[str, ...]
    start: tuple[Any, ...]
    text: Callable[[Mapping[str, Any]], str]

    def statement(self, verb: str) -> str:
        return f"reindex_{verb}_{self.table}"

    def after(self, watermark: Sequence[Any]) -> dict[str, Any]:
        """The parameters that select the rows after ``watermark``."""
        return {f"after_{name}": value for name, value in zip(self.key, watermark, strict=True)}

    def watermark(self, row: Mapping[str, Any]) -> list[Any]:
        return [row[name] for name in self.key]

    def write_rows(self, rows: Sequence[Mapping[str, Any]], vectors: Sequence[Sequence[float]]) -> str:
        """The ``rows`` parameter of the write statement: each row's key and its new vector (JSON)."""
        return json.dumps(
            [
                {**{name: row[name] for name in self.key}, "embedding": vector_literal(vector)}
                for row, vector in zip(rows, vectors, strict=True)
            ]
        )


def _turn_text(row: Mapping[str, Any]) -> str:
    metadata = row.get("metadata") or {}
    label = row.get("event_label")
    return turn_search_text(
        str(row["content"]), metadata if isinstance(metadata, dict) else {}, str(label) if label else None
    )


#: Every ledger vector column reindex can re-embed, by (table, column).
LEDGER_VECTORS: Final[Mapping[tuple[str, str], LedgerVectors]] = {
    ("conversation_logs", "embedding"): LedgerVectors(
        "conversation_logs", "embedding", ("id",), ("00000000-0000-0000-0000-000000000000",), _turn_text
    ),
    ("document_vectors", "embedding"): LedgerVectors(
        "document_vectors",
        "embedding",
        ("user_id", "channel", "space", "namespace", "key", "path"),
        ("", "", "", [], "", ""),
        lambda row: str(row["text"]),
    ),
}


def ledger_vectors(columns: Sequence[Mapping[str, Any]]) -> list[LedgerVectors]:
    """The specs of the catalog's vector ``columns`` (rows ``table_name, column_name``); refuses, before
    anything is changed, a column whose text reindex cannot derive."""
    unknown = [
        f"{row['table_name']}.{row['column_name']}"
        for row in columns
        if (row["table_name"], row["column_name"]) not in LEDGER_VECTORS
    ]
    if unknown:
        raise StoreError(
            f"the ledger has vector columns reindex does not know how to re-embed ({', '.join(unknown)}): "
            "nothing was changed. Upgrade agentx-memory to the version that created them, or drop them "
            "if nothing reads them."
        )
    return [LEDGER_VECTORS[(row["table_name"], row["column_name"])] for row in columns]


def progress_key(spec: LedgerVectors) -> str:
    return f"{_COLUMN_PREFIX}{spec.table}.{spec.column}"


@dataclass
class ColumnProgress:
    """Where a ledger column's reindex stands (kept as JSON in ``agentx_metadata``): rows up to the
    watermark ``after`` are re-embedded; for a dimension change (``retyped``), the indexes dropped and
    whether the column was NOT NULL, to restore both at the end."""

    after: list[Any]
    not_null: bool
    indexes: list[str] = field(default_factory=list)
    retyped: bool = False
    done: bool = False

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ColumnProgress:
        return cls(**json.loads(text))


_CREATE_INDEX = re.compile(r"^CREATE (UNIQUE )?INDEX (IF NOT EXISTS )?", re.IGNORECASE)


def idempotent_index_ddl(definition: str) -> str:
    """``pg_get_indexdef``'s ``CREATE INDEX name ON …`` as ``CREATE INDEX IF NOT EXISTS name ON …``,
    so restoring the indexes again after a crash is harmless."""
    if not _CREATE_INDEX.match(definition):
        raise StoreError(f"not an index definition: {definition[:80]!r}")
    return _CREATE_INDEX.sub(lambda m: f"CREATE {m.group(1) or ''}INDEX IF NOT EXISTS ", definition, count=1)


def embed_checked(embedder: Embedder, texts: list[str]) -> list[list[float]]:
    """The embedder's vectors of ``texts`` (one batch call), checked against its dimension."""
    vectors = embedder.embed(texts)
    check_dimensions(vectors, embedder.dimensions, embedder.model_id)
    return vectors


def vector_literal(vector: Sequence[float]) -> str:
    """pgvector's text form (``[0.1,0.2]``)."""
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


class ReindexProgress(Protocol):
    """Told how the work goes (the CLI draws a progress bar per store and label)."""

    def start(self, task: str, total: int) -> None:
        """A piece of work begins: ``task`` (``ledger conversation_logs``, ``graph Fact``) of ``total``."""

    def advance(self, task: str, done: int) -> None:
        """``done`` more items of ``task`` are re-embedded and committed."""


class QuietProgress:
    """Progress that tells no one."""

    def start(self, task: str, total: int) -> None:
        pass

    def advance(self, task: str, done: int) -> None:
        pass


@dataclass
class ReindexReport:
    """What a reindex did: the shapes, rows and nodes re-embedded (this run), and the time it took."""

    source: VectorShape | None
    target: VectorShape
    rows: dict[str, int] = field(default_factory=dict)
    nodes: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    resumed: bool = False

    @property
    def nothing_to_do(self) -> bool:
        return self.source is None or self.source == self.target

    @property
    def total(self) -> int:
        return sum(self.rows.values()) + sum(self.nodes.values())

    @property
    def rate(self) -> float:
        """Vectors re-embedded and written per second."""
        return self.total / self.seconds if self.seconds > 0 else 0.0
