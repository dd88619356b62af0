"""A relation said after the name ("Maya is my sister") is the same relationship as one said before it
("my sister Maya"). Sentences of our own."""

from __future__ import annotations

import pytest

from tests.extraction_cases import facts_of


@pytest.mark.parametrize(
    ("said", "relation", "name"),
    [
        ("Maya is my sister.", "sister", "Maya"),
        ("Henrik is my fiancé!", "fiancé", "Henrik"),
        ("Tom is my best friend.", "best friend", "Tom"),
        ("Biscuit is my dog", "dog", "Biscuit"),
    ],
)
def test_a_relation_said_after_the_name_is_learned(said: str, relation: str, name: str) -> None:
    assert [(fact.fact_kind, fact.key, fact.value) for fact in facts_of(said)] == [
        ("relationship", relation, name)
    ]


@pytest.mark.parametrize("said", ["This is my sister.", "Maya is my sister's friend.", "Is Tom my brother?"])
def test_no_relation_without_a_name_or_with_more_after_it(said: str) -> None:
    assert [fact for fact in facts_of(said) if fact.fact_kind == "relationship"] == []
