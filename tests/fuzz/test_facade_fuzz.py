"""Every public method of ``AgentMemory`` with generated input (hypothesis), on the real stores.

Properties, checked around every call:

1. only :class:`AgentMemoryError` subclasses escape (never a TypeError, a driver error …);
2. a refused call changes nothing: rows per table, nodes and edges by label, Redis keys are the same;
3. no call reads or changes another user's data: bob's data is byte-identical afterwards and his
   marker never appears in what alice gets back.

``AGENTX_FUZZ_EXAMPLES`` sets the examples per method (15 in the suite); ``AGENTX_FUZZ_REPORT`` names
a JSON file that receives the examples tried and the failure found per method (benchmarks/fuzz.py).
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from agentx_memory import AgentMemory, AgentMemoryError, GraphSyncError
from agentx_memory.memory.working import WorkingMemory
from tests.fuzz.conftest import EXAMPLES, report
from tests.fuzz.specs import SPECS, UNFUZZED
from tests.fuzz.world import BOB_MARKER, World

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI stays stable
    database=None,
    suppress_health_check=list(HealthCheck),
)


def _rendered(result: Any) -> str:
    """What alice can read of a result (a working memory is read through its getters)."""
    if isinstance(result, WorkingMemory):
        result = (result.get_context(), result.get_thoughts(), result.get_recent_turns(50))
    if isinstance(result, AgentMemory):
        result = result.scope
    return repr(result)


def check_call(world: World, name: str, kwargs: dict[str, Any]) -> None:
    """Call ``name`` with ``kwargs`` on alice's facade and assert the three properties."""
    before = world.snapshot()
    refused: AgentMemoryError | None = None
    result: Any = None
    try:
        result = getattr(world.memory, name)(**kwargs)
    except AgentMemoryError as exc:
        refused = exc
    except Exception as exc:
        raise AssertionError(
            f"{name} raised {type(exc).__name__} (not an AgentMemoryError): {exc!r}"
        ) from exc
    # a GraphSyncError reports a durable ledger write on purpose: the only refusal that wrote
    if refused is not None and not isinstance(refused, GraphSyncError):
        assert world.snapshot() == before, f"{name} refused ({refused!r}) but changed the stores"
    assert world.bob_state() == world.bob_baseline, f"{name} changed bob's data"
    assert BOB_MARKER not in _rendered(result), f"{name} returned bob's data"


def _public_methods() -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(AgentMemory, callable)
        if not name.startswith("_") and inspect.isfunction(member)
    }


def test_fuzz_world_is_sound(world: World) -> None:
    """The checks can fail: a write of bob's shows in the snapshot and in bob's state, and the
    marker is found in a result that holds it."""
    before = world.snapshot()
    bob = world.memory.for_user("bob")
    fact = bob.learn_fact(f"canary {BOB_MARKER}", confidence=0.5, source="user_stated")
    assert world.snapshot() != before
    assert world.bob_state() != world.bob_baseline
    assert BOB_MARKER in _rendered(bob.list_facts())
    bob.forget_fact(fact.id)
    world.bob_baseline = world.bob_state()


def test_every_public_method_is_fuzzed() -> None:
    assert _public_methods() == set(SPECS) | UNFUZZED


# forget_user last: it empties alice's memory, which the other methods' examples reach into
@pytest.mark.parametrize("name", [*sorted(set(SPECS) - {"forget_user"}), "forget_user"])
def test_method_fuzz(world: World, name: str) -> None:
    tried = 0

    @FUZZ
    @given(kwargs=SPECS[name](world))
    def run(kwargs: dict[str, Any]) -> None:
        nonlocal tried
        tried += 1
        check_call(world, name, kwargs)

    try:
        run()
    except BaseException as exc:
        report(name, tried, exc)
        raise
    report(name, tried, None)
