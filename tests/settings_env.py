"""The ``AGENTX_*`` environment that points a CLI or a child process at a test's isolated stores."""

from __future__ import annotations

from agentx_memory.settings import Settings


def env_of(settings: Settings) -> dict[str, str]:
    return {
        "AGENTX_POSTGRES__URL": settings.postgres.url or "",
        "AGENTX_POSTGRES__SCHEMA": settings.postgres.schema_name,
        "AGENTX_POSTGRES__PARTITIONS_AHEAD_DAYS": str(settings.postgres.partitions_ahead_days),
        "AGENTX_GRAPH__FALKORDB_URL": settings.graph.falkordb_url or "",
        "AGENTX_GRAPH__NAME": settings.graph.name,
        "AGENTX_REDIS__URL": settings.redis.url or "",
        "AGENTX_REDIS__KEY_PREFIX": settings.redis.key_prefix,
    }
