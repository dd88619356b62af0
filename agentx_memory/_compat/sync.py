"""Sync side of the concurrency shim: the generated sync modules import these names from here."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

__all__ = ["Lock", "sleep", "to_thread"]

P = ParamSpec("P")
R = TypeVar("R")

Lock = threading.Lock
sleep = time.sleep


def to_thread(func: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """In sync code blocking work simply runs in the caller's thread."""
    return func(*args, **kwargs)
