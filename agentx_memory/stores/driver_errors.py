"""The one place each driver's errors become agentx-memory errors (pure: no I/O), shared by the async
adapters and their generated twins, which raise the same driver exceptions."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, date
from typing import Any

import neo4j.exceptions
import psycopg
import redis.exceptions
from psycopg import errors
from psycopg_pool import PoolTimeout

from ..errors import AgentMemoryError, ConflictError, InvalidInputError, StoreError, StoreUnavailableError
from ..redact import redact_text

__all__ = [
    "NEO4J_ERRORS",
    "VectorIndexBuildingError",
    "audit_day",
    "falkordb_error",
    "missing_audit_partition",
    "neo4j_error",
    "postgres_errors",
    "redis_errors",
    "text",
    "unencodable",
]


def text(value: bytes | str) -> str:
    """A Redis reply as text (the pools decode, but redis-py's typing allows bytes too)."""
    return value.decode() if isinstance(value, bytes) else value


class VectorIndexBuildingError(StoreError):
    """A vector search found no index to ask: it is being rebuilt (the graph store then scans exactly)."""


#: How FalkorDB refuses a vector query while the label's index is dropped or under construction.
_NO_VECTOR_INDEX = "Invalid arguments for procedure 'db.idx.vector.queryNodes'"


def _said(exc: BaseException) -> str:
    """A driver's message with any password or key it quotes (a connection URL) redacted."""
    return redact_text(str(exc))


def unencodable(exc: UnicodeEncodeError, store: str, what: str) -> InvalidInputError:
    """Text no store can hold (a lone surrogate is not UTF-8): the caller's input, refused as such."""
    return InvalidInputError(
        f"{store} cannot take text that is not valid UTF-8 (e.g. a lone surrogate) while {what}: {exc.reason}"
    )


def falkordb_error(exc: Exception, what: str) -> AgentMemoryError:
    """FalkorDB (redis-py) errors as agentx-memory errors."""
    if isinstance(exc, UnicodeEncodeError):
        return unencodable(exc, "FalkorDB", what)
    if _NO_VECTOR_INDEX in str(exc):
        return VectorIndexBuildingError(f"FalkorDB has no vector index to search while {what}: {_said(exc)}")
    if _pool_exhausted(exc):
        return StoreUnavailableError(_busy("the graph", what, "graph"))
    if isinstance(exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        return StoreUnavailableError(
            f"FalkorDB is unreachable while {what}: {_said(exc)}. Start the embedded server with "
            "`agentx-memory up`, or check AGENTX_GRAPH__FALKORDB_URL."
        )
    if "unique constraint violation" in str(exc):
        return ConflictError(f"FalkorDB refused a duplicate while {what}: {_said(exc)}")
    return StoreError(f"FalkorDB failed while {what}: {_said(exc)}")


#: What the Neo4j driver raises: its own errors, socket errors, and text it cannot encode.
NEO4J_ERRORS = (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError, OSError, UnicodeEncodeError)


def neo4j_error(exc: Exception, what: str) -> AgentMemoryError:
    """Neo4j driver errors as agentx-memory errors."""
    if isinstance(exc, UnicodeEncodeError):
        return unencodable(exc, "Neo4j", what)
    if isinstance(exc, neo4j.exceptions.ServiceUnavailable | neo4j.exceptions.SessionExpired | OSError):
        return StoreUnavailableError(
            f"Neo4j is unreachable while {what}: {_said(exc)}. "
            "Check AGENTX_GRAPH__NEO4J_URI and that the server runs."
        )
    if isinstance(exc, neo4j.exceptions.AuthError):
        return StoreUnavailableError(
            f"Neo4j refused the credentials while {what}: set AGENTX_GRAPH__NEO4J_USER / _PASSWORD "
            f"({_said(exc)})"
        )
    if isinstance(exc, neo4j.exceptions.ConstraintError):
        return ConflictError(f"Neo4j refused a duplicate while {what}: {_said(exc)}")
    return StoreError(f"Neo4j failed while {what}: {_said(exc)}")


@contextmanager
def postgres_errors(what: str) -> Iterator[None]:
    """psycopg errors raised inside the block as agentx-memory errors."""
    try:
        yield
    except PoolTimeout as exc:  # every slot stayed busy (too many calls at once), or none can connect
        raise StoreUnavailableError(
            f"Postgres gave no pooled connection in time while {what}: {exc}. Either every connection of "
            "the pool (postgres.pool_max) stayed busy for postgres.connect_timeout_s (raise either, or "
            "make fewer calls at once), or the server is unreachable (check AGENTX_POSTGRES__URL, or "
            "unset it to use the embedded server: `agentx-memory up`)."
        ) from exc
    except psycopg.OperationalError as exc:
        raise StoreUnavailableError(
            f"Postgres is unreachable while {what}: {_said(exc)}. Check AGENTX_POSTGRES__URL, or unset it "
            "to use the embedded server (`agentx-memory up`)."
        ) from exc
    except psycopg.Error as exc:
        raise StoreError(f"Postgres failed while {what}: {_said(exc)}") from exc
    except UnicodeEncodeError as exc:
        raise unencodable(exc, "Postgres", what) from exc


def missing_audit_partition(exc: errors.CheckViolation) -> bool:
    """Whether an insert failed for want of the audit log's day partition."""
    return "no partition" in str(exc) and "memory_audit_log" in str(exc)


def audit_day(params: Mapping[str, Any]) -> date:
    """The UTC day an audit row's parameters fall on (its partition)."""
    stamp = params.get("audited_at") or params["timestamp"]
    return stamp.astimezone(UTC).date()  # type: ignore[no-any-return]


def _pool_exhausted(exc: Exception) -> bool:
    # redis-py's BlockingConnectionPool says so, as a ConnectionError, when no slot freed in time.
    return isinstance(exc, redis.exceptions.ConnectionError) and "No connection available" in str(exc)


def _busy(store: str, what: str, group: str) -> str:
    return (
        f"{store} gave no pooled connection in time while {what}: every connection of the pool "
        f"({group}.pool_max) stayed busy for {group}.pool_timeout_s (raise either, or make fewer calls "
        "at once)"
    )


@contextmanager
def redis_errors(what: str) -> Iterator[None]:
    """redis-py errors raised inside the block as agentx-memory errors."""
    try:
        yield
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError) as exc:
        if _pool_exhausted(exc):
            raise StoreUnavailableError(_busy("Redis", what, "redis")) from exc
        raise StoreUnavailableError(
            f"Redis is unreachable while {what}: {_said(exc)}. Start the embedded server with "
            "`agentx-memory up`, or check AGENTX_REDIS__URL."
        ) from exc
    except redis.exceptions.RedisError as exc:
        raise StoreError(f"Redis failed while {what}: {_said(exc)}") from exc
    except UnicodeEncodeError as exc:
        raise unencodable(exc, "Redis", what) from exc
