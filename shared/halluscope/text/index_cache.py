"""The cache of text indexes a :class:`~halluscope.resources.Resources` owns: one
:class:`~halluscope.text.index.TextIndex` per parsed ``Doc`` while cached, counted in the
``cache_mb`` budget (docs/architecture.md#caches-and-their-owners)."""

from __future__ import annotations

import threading

from .. import budget
from ..lru import LRU
from .index import TextIndex, build_text_index

#: entries of a text-index cache
DEFAULT_INDEX_CACHE_SIZE = 2048


class TextIndexCache:
    """The text indexes of parsed ``Doc`` objects, each built once while cached: a thread-safe
    LRU keyed by the ``Doc`` object (an entry holds its ``Doc``, so an id is never
    reused while cached) of at most ``maxsize`` documents and, ``budgeted``, the text
    indexes' share of the memory budget (:mod:`halluscope.budget`; an entry weighs its
    index and the ``Doc`` it keeps alive). One lives in each
    :class:`halluscope.resources.Resources`."""

    def __init__(self, maxsize: int = DEFAULT_INDEX_CACHE_SIZE, budgeted: bool = True) -> None:
        self._lock = threading.Lock()
        self._entries: LRU[tuple[object, TextIndex]] = LRU(maxsize, weigh=budget.weigh_index)
        if budgeted:
            budget.register("text_indexes", self._entries, self._lock)
        self.built = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, doc) -> TextIndex:
        """The index of ``doc``: cached, else built (outside the lock) and cached."""
        with self._lock:
            entry = self._entries.get(id(doc))
            if entry is not None and entry[0] is doc:
                return entry[1]
        index = build_text_index(doc)
        with self._lock:
            self.built += 1
            self._entries.put(id(doc), (doc, index))
        return index

    def docs(self) -> list[object]:
        """The cached ``Doc`` objects, least recent first."""
        with self._lock:
            return [doc for doc, _ in self._entries.values()]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
