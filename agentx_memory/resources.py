"""Locate the packaged ``cypher/`` and ``migrations/`` folders.

In a wheel they live under ``agentx_memory/_resources`` (hatch ``force-include``); in a source checkout
or an editable install they are the repository's top-level folders.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["resource_dir"]

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The directory holding the packaged resource folder ``name`` (``cypher`` or ``migrations``)."""
    for candidate in (_PACKAGE / "_resources" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"agentx-memory resource folder {name!r} is missing from the installation")
