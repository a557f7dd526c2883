"""Tables derived from whole texts, each built once while cached (docs/architecture.md#caches-and-their-owners).

A :class:`TextTables` maps (a build function, a text) to ``build(text)``: the casing
table of a source (:func:`halluscope.text.casing.casing_table`), the words a source writes
(:func:`halluscope.ehi.recovered_names.written_words`), a text with its pronouns resolved
(:mod:`halluscope.acu.coref`). One lives in each :class:`halluscope.resources.Resources`,
which empties it in ``clear()``; its entries weigh in the ``derived`` share of the memory
budget (:mod:`halluscope.budget`, docs/scaling.md#memory). It knows no index and no metric:
the module that declares a build function owns what it builds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar, cast

from . import budget
from .lru import LRU

Table = TypeVar("Table")

#: entries of a text-table cache (the budget bounds them in bytes as well)
DEFAULT_TEXT_TABLES_SIZE = 8192


class TextTables:
    """A thread-safe LRU of tables derived from texts, keyed by (build function, text)
    or, for a caller that builds many at once, by any hashable key it names
    (:meth:`found`, :meth:`store`); ``budgeted``: under the ``derived`` share of the
    memory budget."""

    def __init__(self, maxsize: int = DEFAULT_TEXT_TABLES_SIZE, budgeted: bool = True) -> None:
        self._lock = threading.Lock()
        self._entries: LRU[Any] = LRU(maxsize, weigh=budget.weigh_derived)
        if budgeted:
            budget.register("derived", self._entries, self._lock)
        self.built = 0

    def __len__(self) -> int:
        return len(self._entries)

    def of_text(self, build: Callable[[str], Table], text: str) -> Table:
        """``build(text)``: cached, else built (outside the lock) and cached."""
        key = (build, text)
        with self._lock:
            if key in self._entries:
                return cast(Table, self._entries.get(key))
        table = build(text)
        with self._lock:
            self.built += 1
            self._entries.put(key, table)
        return table

    def found(self, keys: Iterable[Hashable]) -> dict[Hashable, Any]:
        """The cached value of each of ``keys`` that has one."""
        with self._lock:
            return {key: self._entries.get(key) for key in keys if key in self._entries}

    def store(self, pairs: Iterable[tuple[Hashable, Any]]) -> None:
        """Cache each (key, value) of ``pairs``."""
        with self._lock:
            for key, value in pairs:
                self.built += 1
                self._entries.put(key, value)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


__all__ = ["DEFAULT_TEXT_TABLES_SIZE", "TextTables"]
