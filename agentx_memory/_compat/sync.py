"""Sync side of the concurrency shim: the generated sync modules import these names from here."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

__all__ = ["Lock", "drain", "gather", "sleep", "spawn", "to_thread"]

P = ParamSpec("P")
R = TypeVar("R")

Lock = threading.Lock
sleep = time.sleep


def to_thread(func: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """In sync code blocking work simply runs in the caller's thread."""
    return func(*args, **kwargs)


def gather(*steps: None) -> None:
    """In sync code the steps already ran, one after the other, as the arguments were evaluated."""


def spawn(step: None, pending: set[Any]) -> None:
    """In sync code the step already ran when its call was evaluated as the argument."""


def drain(pending: set[Any]) -> None:
    """Sync code runs nothing in the background, so there is nothing to wait for."""
