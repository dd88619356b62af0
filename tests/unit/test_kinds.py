"""The registry of memory kinds is the one definition the rest reads: check it against what reads it."""

from __future__ import annotations

import dataclasses
from typing import get_args

from agentx_memory.kinds import ALL_KINDS, GRAPH_KINDS, KINDS, MemoryKind, kind_spec, kinds_in_groups
from agentx_memory.models import MemoryItem
from agentx_memory.retrieval.context_render import ContextSections
from agentx_memory.settings import RetrievalSettings
from agentx_memory.stores.schema import VECTOR_LABELS


def test_every_kind_is_registered_once() -> None:
    assert [spec.name for spec in KINDS] == list(get_args(MemoryKind))
    assert set(get_args(MemoryKind)) == ALL_KINDS
    assert get_args(MemoryItem.model_fields["kind"].annotation) == get_args(MemoryKind)


def test_every_kind_points_at_what_exists() -> None:
    settings = RetrievalSettings()
    sections = {field.name for field in dataclasses.fields(ContextSections)}
    for spec in KINDS:
        assert isinstance(getattr(settings, spec.weight), float), spec
        assert spec.section in sections, spec
        assert spec.label is None or spec.label in VECTOR_LABELS, spec
        assert kind_spec(spec.name) is spec
    assert [spec.label for spec in GRAPH_KINDS] == ["Fact", "Entity", "Strategy", "Goal"]


def test_the_include_flags_cover_their_groups() -> None:
    assert kinds_in_groups({"episodic"}) == {"episodic"}
    assert kinds_in_groups({"semantic"}) == {"fact", "entity", "document"}
    assert kinds_in_groups({"procedural"}) == {"strategy", "goal"}
    assert kinds_in_groups({"episodic", "semantic", "procedural"}) == ALL_KINDS
    assert kinds_in_groups(set()) == frozenset()
