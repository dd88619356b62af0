"""Our FalkorDB parameter header: byte-identical to falkordb-py's own, except that float vectors are
written with 9 significant digits, which give back the same float32 (FalkorDB's vector type)."""

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
        {"user_id": "alice", "k": 80, "limit": 10},
        {"ids": ["a", "b"], "now": 1_700_000_000_000, "none": None, "flag": True, "ratio": 0.5},
        {"mixed": [1, 2.0, "x"], "nested": {"a": [1.5, 2.5]}, "empty": []},
        {
            "words": ["", "a\\b", 'say "hi"', "\u00e9t\u00e9"],
            "blank": "",
            "first_str": ["x", 1],
            "first_float": [1.5, "y"],
        },
        *({"text": payload, "list": [payload]} for payload in INJECTIONS),
    ],
)
def test_header_matches_the_library(params: dict[str, Any]) -> None:
    library = Graph.__new__(Graph)._build_params_header(params)
    assert params_header(params) == library


def test_a_float32_vector_is_written_short_and_reads_back_exactly() -> None:
    header = params_header({"vector": VECTOR, "k": 80})
    library = Graph.__new__(Graph)._build_params_header({"vector": VECTOR, "k": 80})
    assert header.endswith("`k`=80 ")
    assert len(header) < 0.75 * len(library)
    written = header.split("`vector`=[", 1)[1].split("]", 1)[0].split(",")
    assert np.array_equal(
        np.array([float(x) for x in written], dtype=np.float32), np.array(VECTOR, dtype=np.float32)
    )


def test_each_component_is_written_as_its_own_9_digit_format() -> None:
    floats = [0.0, -0.0, 1 / 3, 5e-324, 1e-320, 1.7976931348623157e308, float("inf"), float("-inf"), *VECTOR]
    written = params_header({"vector": floats}).split("[", 1)[1].split("]", 1)[0].split(",")
    assert written == [format(x, ".9g") for x in floats]


def test_a_double_vector_stays_within_one_float32_ulp() -> None:
    doubles = [float(x) for x in np.random.default_rng(3).normal(size=4096) / 10]
    written = params_header({"vector": doubles}).split("[", 1)[1].split("]", 1)[0].split(",")
    ours = np.array([float(x) for x in written], dtype=np.float32).view(np.int32)
    exact = np.array(doubles, dtype=np.float32).view(np.int32)
    assert np.abs(ours.astype(np.int64) - exact).max() <= 1


def test_no_params_no_header() -> None:
    assert params_header(None) == ""
    assert params_header({}) == ""


@pytest.mark.parametrize("key", ["", "a`b"])
def test_bad_parameter_names_are_refused(key: str) -> None:
    with pytest.raises(ValueError, match="parameter name"):
        params_header({key: 1})
