"""The one bounded least-recently-used map every cache in halluscope uses (parses,
NLI scores, WordNet queries, decompositions, coreference, text indexes, embeddings).

Two bounds, either or both: ``maxsize`` entries, and, with a ``weigh`` function
(``weigh(key, value)`` -> the entry's estimated size in bytes), ``max_weight`` bytes
in all. :mod:`halluscope.budget` sets the byte bounds of the process's caches from
the ``cache_mb`` option (docs/scaling.md#memory).

Not locked itself: each owner already holds a lock around the work the cache
belongs to (a parse batch, an NLI call), so a second lock here would only be taken
twice. ``maxsize`` 0 stores nothing (a disabled cache); so does an entry heavier than
``max_weight`` on its own.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Any, Generic, TypeVar

V = TypeVar("V")


def _check_bound(name: str, value: Any, allow_none: bool) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"an LRU {name} must be an integer >= 0{' or None' if allow_none else ''}, got {value!r}")


class LRU(Generic[V]):
    """A map of at most ``maxsize`` entries and, with ``weigh``, at most
    ``max_weight`` in total weight; reading or writing a key makes it the most
    recent, and the least recent entries are evicted beyond either bound.
    ``evicted`` counts evictions; ``weight`` is the current total weight (0 without
    ``weigh``)."""

    __slots__ = ("maxsize", "_data", "evicted", "weigh", "max_weight", "weight", "_weights", "__weakref__")

    def __init__(
        self, maxsize: int, *, weigh: Callable[[Hashable, Any], int] | None = None, max_weight: int | None = None
    ) -> None:
        _check_bound("size", maxsize, False)
        _check_bound("max_weight", max_weight, True)
        if max_weight is not None and weigh is None:
            raise ValueError("an LRU with a max_weight needs a weigh function")
        self.maxsize = maxsize
        self._data: OrderedDict[Hashable, V] = OrderedDict()
        self.evicted = 0
        self.weigh = weigh
        self.max_weight = max_weight
        self.weight = 0
        self._weights: dict[Hashable, int] = {}

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._data)

    def get(self, key: Hashable, default: V | None = None) -> V | None:
        """The value of ``key`` (now the most recent), or ``default``."""
        if key not in self._data:
            return default
        self._data.move_to_end(key)
        return self._data[key]

    def put(self, key: Hashable, value: V) -> V:
        """Store ``value`` under ``key`` as the most recent entry; returns ``value``.
        An entry heavier than ``max_weight`` on its own is not stored (and replaces,
        i.e. removes, an older value of ``key``)."""
        if not self.maxsize:
            return value
        if self.weigh is not None:
            weight = int(self.weigh(key, value))
            self._forget(key)
            if self.max_weight is not None and weight > self.max_weight:
                self.evicted += 1
                return value
            self._weights[key] = weight
            self.weight += weight
        self._data[key] = value
        self._data.move_to_end(key)
        self.trim()
        return value

    def _forget(self, key: Hashable) -> None:
        if key in self._data:
            del self._data[key]
            self.weight -= self._weights.pop(key, 0)

    def trim(self) -> None:
        """Evict the least recent entries beyond ``maxsize`` or ``max_weight``."""
        while len(self._data) > self.maxsize or (self.max_weight is not None and self.weight > self.max_weight):
            key, _ = self._data.popitem(last=False)
            self.weight -= self._weights.pop(key, 0)
            self.evicted += 1

    def resize(self, maxsize: int | None = None, *, max_weight: Any = ...) -> None:
        """Change the bounds (evicting at once when they shrink): ``maxsize`` when
        given, ``max_weight`` when given (None: no byte bound)."""
        if maxsize is not None:
            _check_bound("size", maxsize, False)
            self.maxsize = maxsize
        if max_weight is not ...:
            _check_bound("max_weight", max_weight, True)
            if max_weight is not None and self.weigh is None:
                raise ValueError("an LRU with a max_weight needs a weigh function")
            self.max_weight = max_weight
        self.trim()

    def clear(self) -> None:
        self._data.clear()
        self._weights.clear()
        self.weight = 0

    def values(self) -> Any:
        return self._data.values()
