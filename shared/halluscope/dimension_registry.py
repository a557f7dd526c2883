"""The one registry of CHI-family dimensions (docs/architecture.md#dimensions): name ->
:class:`~halluscope.dimensions.base.Dimension`, in the order of scores, details and
fusion. It imports nothing, so that the modules every dimension builds on (fusion's
weights, the option declarations) can read the names without importing the dimensions;
:mod:`halluscope.dimensions` registers the shipped three (importing this module alone
does not: import :mod:`halluscope.dimensions` first, as its readers do)."""

from __future__ import annotations

from typing import Any

#: name -> dimension (a :class:`~halluscope.dimensions.base.Dimension`)
DIMENSIONS: dict[str, Any] = {}


def register(dimension: Any) -> Any:
    """Add a dimension (its name must be new); returns it."""
    name = getattr(dimension, "name", "")
    if not name or name in DIMENSIONS:
        raise ValueError(f"a dimension needs a new name, got {name!r}")
    DIMENSIONS[name] = dimension
    return dimension


def unregister(name: str) -> None:
    """Remove a registered dimension (a toy one added by a test)."""
    DIMENSIONS.pop(name, None)


def names() -> tuple[str, ...]:
    """The registered dimensions' names, in registry order."""
    return tuple(DIMENSIONS)


def get(name: str) -> Any:
    """The registered dimension ``name`` (a ValueError naming the known ones otherwise)."""
    try:
        return DIMENSIONS[name]
    except KeyError:
        raise ValueError(f"unknown dimension {name!r}; known: {names()}") from None
