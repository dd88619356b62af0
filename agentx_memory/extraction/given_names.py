"""First names, to tell a person from a company where the small model cannot ("I'm with Nadia now" is
typed a place, "I'm with Monzo now" a person, "I'm with Stripe these days" nothing).

The list is the US Census Bureau's 1990 first names (5,494: 1,219 male, 4,275 female; public domain),
shipped inside the ``names`` package (MIT). It is evidence one way only: a name on it is a person's
unless the model calls it an organisation; a name not on it (many are not: "Priya", "Zainab") is left
to the model. Read once from the package; without the package no name is known.
"""

from __future__ import annotations

import functools
import importlib.resources
import importlib.util

__all__ = ["known_first_name"]


@functools.cache
def _first_names() -> frozenset[str]:
    if importlib.util.find_spec("names") is None:
        return frozenset()
    data = importlib.resources.files("names")
    found: set[str] = set()
    for part in ("dist.male.first", "dist.female.first"):
        for line in (data / part).read_text(encoding="utf-8").splitlines():
            if line.strip():
                found.add(line.split()[0].casefold())
    return frozenset(found)


def known_first_name(name: str) -> bool:
    """Whether ``name`` is a first name of the census list."""
    return name.casefold() in _first_names()
