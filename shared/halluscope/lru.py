"""The one bounded least-recently-used map every cache in halluscope uses (parses,
NLI scores, WordNet queries, decompositions, coreference, text indexes).

Not locked itself: each owner already holds a lock around the work the cache
belongs to (a parse batch, an NLI call), so a second lock here would only be taken
twice. ``maxsize`` 0 stores nothing (a disabled cache).
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Generic, Hashable, Iterator, Optional, TypeVar

V = TypeVar("V")


class LRU(Generic[V]):
    """A map of at most ``maxsize`` entries; reading or writing a key makes it the
    most recent, and the least recent entries are evicted beyond ``maxsize``.
    ``evicted`` counts evictions."""

    __slots__ = ("maxsize", "_data", "evicted")

    def __init__(self, maxsize: int) -> None:
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 0:
            raise ValueError(f"an LRU size must be an integer >= 0, got {maxsize!r}")
        self.maxsize = maxsize
        self._data: "OrderedDict[Hashable, V]" = OrderedDict()
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._data)

    def get(self, key: Hashable, default: Optional[V] = None) -> Optional[V]:
        """The value of ``key`` (now the most recent), or ``default``."""
        if key not in self._data:
            return default
        self._data.move_to_end(key)
        return self._data[key]

    def put(self, key: Hashable, value: V) -> V:
        """Store ``value`` under ``key`` as the most recent entry; returns ``value``."""
        if not self.maxsize:
            return value
        self._data[key] = value
        self._data.move_to_end(key)
        self.trim()
        return value

    def trim(self) -> None:
        """Evict the least recent entries beyond ``maxsize``."""
        while len(self._data) > self.maxsize:
            self._data.popitem(last=False)
            self.evicted += 1

    def resize(self, maxsize: int) -> None:
        """Change the bound (evicting at once when it shrinks)."""
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 0:
            raise ValueError(f"an LRU size must be an integer >= 0, got {maxsize!r}")
        self.maxsize = maxsize
        self.trim()

    def clear(self) -> None:
        self._data.clear()

    def values(self) -> Any:
        return self._data.values()
