"""The dimensions halluscope ships, registered at import (``import halluscope`` does it):
EHI (:mod:`halluscope.ehi`), RHI (:mod:`halluscope.rhi`) and QHI (:mod:`halluscope.qhi`).
Importing them is light: each dimension imports its extraction and matching on first use
(docs/architecture.md#dimensions)."""

from __future__ import annotations

from .dimension_registry import names, register
from .ehi.dimension import ENTITIES
from .qhi.dimension import QUANTITIES
from .rhi.dimension import RELATIONS

for _dimension in (ENTITIES, RELATIONS, QUANTITIES):
    register(_dimension)

#: the dimensions halluscope ships (CHI fuses them; a registered toy dimension joins
#: the registry, not this tuple)
SHIPPED_DIMENSIONS: tuple[str, ...] = names()

__all__ = ["SHIPPED_DIMENSIONS"]
