"""The dimensions of the CHI family, one module each, registered in
:mod:`halluscope.dimension_registry`, which the engine, fusion, the report, the Space, the demo and the
metric specs read (docs/architecture.md#dimensions).

A new index is a :class:`~.base.Dimension` subclass in a module of its own, one
:func:`register` call and a ``metrics/`` folder; nothing else names it.
"""

from __future__ import annotations

from ..dimension_registry import DIMENSIONS, get, names, register, unregister
from .base import Dimension
from .entities import ENTITIES
from .quantities import QUANTITIES
from .relations import RELATIONS

for _dimension in (ENTITIES, RELATIONS, QUANTITIES):
    register(_dimension)

#: the dimensions halluscope ships (CHI fuses them; a registered toy dimension joins
#: the registry, not this tuple)
SHIPPED_DIMENSIONS: tuple[str, ...] = names()

__all__ = ["DIMENSIONS", "SHIPPED_DIMENSIONS", "Dimension", "get", "names", "register", "unregister"]
