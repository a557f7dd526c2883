"""The package's memoised functions (``functools.lru_cache``), listed in one place.

Every other cache has an owner (docs/architecture.md#caches-and-their-owners): what is
derived from texts or parses belongs to a :class:`halluscope.resources.Resources`, each
loaded model to the model registry. What stays memoised here are pure functions of small
keys, whose answers are the same for every caller: a name's initials, a word's stem, a
date expression's reading, the table a file holds. :data:`MEMOS` lists them all (a test
reads the package's source and fails for a memoised function missing here);
:func:`clear_memos` empties them, for a benchmark that times a call from cold caches.

A memo is looked up by its module's name, so listing it imports nothing: a module not
imported yet has nothing memoised.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Memo:
    """A memoised function: its module, its name there, and whether it is ``loaded_once``
    (a table read from a file once, or a probe of the hardware: kept like a loaded model,
    not emptied by :func:`clear_memos`)."""

    module: str
    name: str
    loaded_once: bool = False

    def function(self, import_module: bool = False) -> Any:
        """The memoised function; None when its module is not imported (and
        ``import_module`` is False)."""
        module = importlib.import_module(self.module) if import_module else sys.modules.get(self.module)
        return None if module is None else getattr(module, self.name)


#: every memoised function of the package
MEMOS: tuple[Memo, ...] = (
    Memo("halluscope.text.names", "initials"),
    Memo("halluscope.ehi.recovered_names", "_stop_words", loaded_once=True),
    Memo("halluscope.qhi.dates", "parse_date"),
    Memo("halluscope.qhi.measures", "unit_lexicon", loaded_once=True),
    Memo("halluscope.text.index", "word_stem"),
    Memo("halluscope.ehi.name_mentions", "_words_pattern"),
    Memo("halluscope.verdict", "_shipped", loaded_once=True),
    Memo("halluscope.verdict", "_warn_once"),
    Memo("halluscope.cli.chunked_scoring", "takes_dates"),
    Memo("halluscope.embedding", "native_bfloat16", loaded_once=True),
)


def memo_functions(loaded_once: bool = False) -> list[Any]:
    """The memoised functions of the imported modules: those of small keys, and with
    ``loaded_once`` the tables and probes as well."""
    chosen = (memo.function() for memo in MEMOS if loaded_once or not memo.loaded_once)
    return [function for function in chosen if function is not None]


def clear_memos(loaded_once: bool = False) -> None:
    """Empty every memo of small keys (:func:`memo_functions`; with ``loaded_once`` the
    tables and probes too). Memoisation only: no answer changes."""
    for function in memo_functions(loaded_once):
        function.cache_clear()


__all__ = ["MEMOS", "Memo", "clear_memos", "memo_functions"]
