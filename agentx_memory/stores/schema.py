"""The graph's allow-lists: the only labels, relationship types and indexed properties that exist.

Labels and relationship types are never taken from input; code that needs one picks it from here (and
the conformance suite checks the DDL in ``cypher/<dialect>/schema.cypher`` covers these lists).
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = [
    "FULLTEXT_LABELS",
    "FULLTEXT_PROPERTIES",
    "NODE_LABELS",
    "RELATIONSHIP_TYPES",
    "UNIQUE_KEYS",
    "VECTOR_LABELS",
    "VECTOR_TAGS",
    "FulltextLabel",
    "VectorLabel",
    "require_label",
    "require_relationship",
]

NODE_LABELS: Final = frozenset(
    {"User", "Conversation", "Turn", "Entity", "Fact", "Goal", "Strategy", "Tool", "ToolInvocation"}
)

#: Structural relationships plus the semantic ones an agent may create between entities.
RELATIONSHIP_TYPES: Final = frozenset(
    {
        "HAS_CONVERSATION", "HAS_TURN", "FOLLOWED_BY", "MENTIONS", "ABOUT", "DERIVED_FROM", "SUPERSEDES",
        "SAME_AS", "PROMOTED_FROM", "USED_TOOL", "INVOKED", "USES_TOOL", "SUCCEEDED_IN", "HAS_GOAL",
        "SUBGOAL_OF", "BLOCKED_BY", "RELATED_TO", "PART_OF", "LOCATED_IN", "WORKS_FOR", "KNOWS",
        "CREATED_BY", "REFERENCES", "CONTRADICTS",
    }
)  # fmt: skip

#: Every node label has a unique ``id`` (``Tool`` is unique per user by ``key`` = user_id + name).
UNIQUE_KEYS: Final = {label: "key" if label == "Tool" else "id" for label in NODE_LABELS}

#: Labels with a vector index. Not ``Turn``: turns are searched in the ledger (its HNSW index), and a
#: Turn vector index in the graph cost every stored turn about half its graph write.
VectorLabel = Literal["Entity", "Fact", "Strategy", "Goal"]
VECTOR_LABELS: Final[tuple[VectorLabel, ...]] = ("Entity", "Fact", "Strategy", "Goal")
#: Properties ``agentx-memory reindex`` sets beside the vector it wrote (``cypher/reindex.cypher``).
VECTOR_TAGS: Final = ("embedding_model", "embedding_dimensions")

FULLTEXT_PROPERTIES: Final = {"Fact": ("claim",), "Entity": ("name", "aliases_text")}
#: Labels with a ``fulltext_search_<label>`` statement (turn text is searched in the ledger).
FulltextLabel = Literal["Entity", "Fact"]
FULLTEXT_LABELS: Final[tuple[FulltextLabel, ...]] = ("Entity", "Fact")


def require_label(label: str) -> str:
    """``label`` if it is allowed; a programming error otherwise (labels never come from input)."""
    if label not in NODE_LABELS:
        raise ValueError(f"label {label!r} is not in the allow-list")
    return label


def require_relationship(rel_type: str) -> str:
    if rel_type not in RELATIONSHIP_TYPES:
        raise ValueError(f"relationship type {rel_type!r} is not in the allow-list")
    return rel_type
