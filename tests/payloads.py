"""Hostile strings every string field must store verbatim, with no effect on any store."""

from __future__ import annotations

INJECTIONS: list[str] = [
    "Robert'); DROP TABLE memory_timeline; --",
    "'); DROP TABLE conversation_logs; --",
    "\\'; DELETE FROM conversations; --",
    "quote \" and ' both",
    "back`tick` `Fact` `Entity`",
    '"}) DETACH DELETE n //',
    "'}) MATCH (n) DETACH DELETE n //",
    '"}) MATCH (n) DETACH DELETE n RETURN 1 //',
    "` OR 1=1 --",
    "$user_id ${user_id} %(user_id)s {0}",
    "unicode Ωmega 😀 中文 \u202e and new\nlines\r\n",
]
