"""Our FalkorDB parameter header must be byte-identical to falkordb-py's own."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from falkordb.graph import Graph

from agentx_memory.stores.falkordb_header import params_header
from tests.payloads import INJECTIONS

VECTOR = [float(x) for x in np.random.default_rng(7).normal(size=384).astype(np.float32)]


@pytest.mark.parametrize(
    "params",
    [
        {"vector": VECTOR, "user_id": "alice", "k": 80, "limit": 10},
        {"ids": ["a", "b"], "now": 1_700_000_000_000, "none": None, "flag": True, "ratio": 0.5},
        {"mixed": [1, 2.0, "x"], "nested": {"a": [1.5, 2.5]}, "empty": []},
        *({"text": payload, "list": [payload]} for payload in INJECTIONS),
    ],
)
def test_header_matches_the_library(params: dict[str, Any]) -> None:
    library = Graph.__new__(Graph)._build_params_header(params)
    assert params_header(params) == library


def test_no_params_no_header() -> None:
    assert params_header(None) == ""
    assert params_header({}) == ""


@pytest.mark.parametrize("key", ["", "a`b"])
def test_bad_parameter_names_are_refused(key: str) -> None:
    with pytest.raises(ValueError, match="parameter name"):
        params_header({key: 1})
