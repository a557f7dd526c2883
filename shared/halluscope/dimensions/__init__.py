"""The dimensions of the CHI family: what a dimension declares (:class:`~.base.Dimension`)
and the registry of them (:mod:`halluscope.dimension_registry`), which the engine, fusion,
the report, the Space, the demo and the metric specs read (docs/architecture.md#dimensions).
The shipped three live in their index's package (``ehi/``, ``rhi/``, ``qhi/``) and are
registered by :mod:`halluscope.shipped`.

A new index is a :class:`~.base.Dimension` subclass in a package of its own, one
:func:`register` call and a ``metrics/`` folder; nothing else names it.
"""

from __future__ import annotations

from ..dimension_registry import DIMENSIONS, get, names, register, unregister
from .base import Dimension

__all__ = ["DIMENSIONS", "Dimension", "get", "names", "register", "unregister"]
