"""The dimensions of the CHI family, one module each, and the one registry that the
engine, fusion, the report, the Space, the demo and the metric specs read
(docs/architecture.md#dimensions).

A new index is a :class:`~.base.Dimension` subclass in a module of its own, one
:func:`register` call and a ``metrics/`` folder; nothing else names it.
"""
from __future__ import annotations

from typing import Dict, Tuple

from .base import Dimension
from .entities import ENTITIES
from .quantities import QUANTITIES
from .relations import RELATIONS

#: name -> dimension, in the order of scores, details and fusion
REGISTRY: Dict[str, Dimension] = {}


def register(dimension: Dimension) -> Dimension:
    """Add a dimension (its name must be new); returns it."""
    if not dimension.name or dimension.name in REGISTRY:
        raise ValueError(f"a dimension needs a new name, got {dimension.name!r}")
    REGISTRY[dimension.name] = dimension
    return dimension


def unregister(name: str) -> None:
    """Remove a registered dimension (a toy one added by a test)."""
    REGISTRY.pop(name, None)


def names() -> Tuple[str, ...]:
    """The registered dimensions' names, in registry order."""
    return tuple(REGISTRY)


def get(name: str) -> Dimension:
    """The registered dimension ``name`` (a ValueError naming the known ones otherwise)."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown dimension {name!r}; known: {names()}") from None


for _dimension in (ENTITIES, RELATIONS, QUANTITIES):
    register(_dimension)

#: the dimensions halluscope ships (CHI fuses them; a registered toy dimension joins
#: the registry, not this tuple)
DIMENSIONS: Tuple[str, ...] = names()

__all__ = ["DIMENSIONS", "Dimension", "REGISTRY", "get", "names", "register", "unregister"]
